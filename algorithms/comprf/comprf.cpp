#include "algorithms/comprf/comprf.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

struct CompNode {
  int32_t left = -1;           // children (-1: leaf)
  std::vector<double> p, q;    // pivots' feature vectors
  double label_sum = 0;        // leaf: sum of the -1/+1 labels of its training points
  double count = 0;            // leaf: number of training points
};

// One binary comparison tree; children of node i are nodes left, left + 1.
struct CompTree {
  std::vector<CompNode> nodes;
  const CompNode& leaf_of(const Dataset& data, uint32_t row) const {
    int32_t n = 0;
    while (nodes[static_cast<std::size_t>(n)].left >= 0) {
      const CompNode& nd = nodes[static_cast<std::size_t>(n)];
      double dp = 0, dq = 0;
      for (std::size_t f = 0; f < nd.p.size(); ++f) {
        const double x = data.x(row, f);
        dp += (x - nd.p[f]) * (x - nd.p[f]);
        dq += (x - nd.q[f]) * (x - nd.q[f]);
      }
      n = nd.left + (dp <= dq ? 0 : 1);  // ties to the first pivot [H]
    }
    return nodes[static_cast<std::size_t>(n)];
  }
};

struct CompParams {
  int n_trees = 100, n0 = 5;
  bool supervised = false;  // CompRF-I
};

std::vector<double> row_vector(const Dataset& data, uint32_t r) {
  std::vector<double> v(data.n_features());
  for (std::size_t f = 0; f < v.size(); ++f) v[f] = data.x(r, f);
  return v;
}

// Mean per-feature std < 0.01 x mean of all feature values of the node [H] (CompRF-C's extra stop).
bool collapsed(const Dataset& data, std::span<const uint32_t> rows) {
  const std::size_t D = data.n_features();
  double sd_sum = 0, all_sum = 0;
  for (std::size_t f = 0; f < D; ++f) {
    double s = 0, s2 = 0;
    for (uint32_t r : rows) {
      s += data.x(r, f);
      s2 += data.x(r, f) * data.x(r, f);
    }
    const double n = static_cast<double>(rows.size()), m = s / n;
    sd_sum += std::sqrt(std::max(0.0, s2 / n - m * m));
    all_sum += s;
  }
  return sd_sum / static_cast<double>(D) < 0.01 * all_sum / (static_cast<double>(D) * static_cast<double>(rows.size()));
}

CompTree grow(const Dataset& data, std::vector<uint32_t> rows, const std::vector<double>& sign, const CompParams& p,
              Rng rng) {
  CompTree t;
  t.nodes.emplace_back();
  struct Pending { int32_t node; std::size_t a, b; };
  std::vector<Pending> stack{{0, 0, rows.size()}};
  while (!stack.empty()) {
    const Pending pd = stack.back();
    stack.pop_back();
    std::span<uint32_t> r(rows.data() + pd.a, pd.b - pd.a);
    auto make_leaf = [&] {
      CompNode& nd = t.nodes[static_cast<std::size_t>(pd.node)];
      for (uint32_t i : r) nd.label_sum += sign[i];
      nd.count = static_cast<double>(r.size());
    };
    if (r.size() <= static_cast<std::size_t>(p.n0) || (!p.supervised && collapsed(data, r))) { make_leaf(); continue; }
    bool pure = true;
    for (uint32_t i : r) pure = pure && sign[i] == sign[r[0]];
    std::size_t split_at = 0;
    std::vector<double> pv, qv;
    for (int attempt = 0; attempt < 20 && split_at == 0; ++attempt) {
      uint32_t a = r[rng.below(r.size())], b = r[rng.below(r.size())];
      // CompRF-I: up to 5 draws for pivots with different labels (a pure node takes any pair) [H].
      for (int k = 0; p.supervised && !pure && k < 5 && (sign[a] == sign[b] || a == b); ++k) {
        a = r[rng.below(r.size())];
        b = r[rng.below(r.size())];
      }
      if (a == b) continue;
      pv = row_vector(data, a);
      qv = row_vector(data, b);
      auto closer_to_p = [&](uint32_t i) {
        double dp = 0, dq = 0;
        for (std::size_t f = 0; f < pv.size(); ++f) {
          const double x = data.x(i, f);
          dp += (x - pv[f]) * (x - pv[f]);
          dq += (x - qv[f]) * (x - qv[f]);
        }
        return dp <= dq;
      };
      const auto mid = std::partition(r.begin(), r.end(), closer_to_p);
      split_at = static_cast<std::size_t>(mid - r.begin());
      if (split_at == r.size()) split_at = 0;  // empty side: redraw [H]
    }
    if (split_at == 0) { make_leaf(); continue; }
    const auto first = static_cast<int32_t>(t.nodes.size());
    t.nodes.emplace_back();
    t.nodes.emplace_back();
    CompNode& nd = t.nodes[static_cast<std::size_t>(pd.node)];
    nd.left = first;
    nd.p = std::move(pv);
    nd.q = std::move(qv);
    stack.push_back({first, pd.a, pd.a + split_at});
    stack.push_back({first + 1, pd.a + split_at, pd.b});
  }
  return t;
}

class CompRfModel : public Model {
 public:
  CompRfModel(std::string name, int n_classes) : name_(std::move(name)), n_classes_(n_classes) {}
  // forests_[k] is the binary forest of the k-th class pair (a, b), a < b.
  std::vector<std::pair<int, int>> pairs_;
  std::vector<std::vector<CompTree>> forests_;

  // Pooled mean label of the leaves x reaches over one binary forest [H]; 0 if they are all empty.
  double score(std::size_t k, const Dataset& data, uint32_t row) const {
    double s = 0, n = 0;
    for (const CompTree& t : forests_[k]) {
      const CompNode& l = t.leaf_of(data, row);
      s += l.label_sum;
      n += l.count;
    }
    return n > 0 ? s / n : 0.0;
  }

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override {
    Predictions out;
    out.task = TaskKind::kClassification;
    out.n_classes = n_classes_;
    const auto C = static_cast<std::size_t>(n_classes_);
    out.value.assign(rows.size() * C, 0.0);
    out.label.resize(rows.size());
    std::vector<double> row_sum(C);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      std::fill(row_sum.begin(), row_sum.end(), 0.0);
      for (std::size_t k = 0; k < pairs_.size(); ++k) {
        const double s = score(k, data, rows[i]);  // > 0 favours b
        row_sum[static_cast<std::size_t>(pairs_[k].first)] += s;
        row_sum[static_cast<std::size_t>(pairs_[k].second)] -= s;
      }
      const auto best = static_cast<std::size_t>(std::min_element(row_sum.begin(), row_sum.end()) - row_sum.begin());
      out.label[i] = static_cast<int>(best);
      // Scores: -row sum mapped to [0, 1] per class (binary: the class-1 score is (s + 1) / 2).
      const double span = 2.0 * static_cast<double>(C > 1 ? C - 1 : 1);
      for (std::size_t c = 0; c < C; ++c) out.value[i * C + c] = 0.5 - row_sum[c] / span;
    }
    return out;
  }

  ModelStats stats() const override {
    ModelStats s;
    double depth = 0;
    for (const auto& f : forests_)
      for (const CompTree& t : f) {
        ++s.n_trees;
        for (const CompNode& n : t.nodes)
          if (n.left < 0) {
            ++s.n_leaves;
            s.empty_leaf_fraction += n.count == 0;
          }
        depth += std::log2(static_cast<double>(t.nodes.size() + 1));
      }
    s.empty_leaf_fraction = s.n_leaves ? s.empty_leaf_fraction / static_cast<double>(s.n_leaves) : 0.0;
    s.mean_depth = s.n_trees ? depth / static_cast<double>(s.n_trees) : 0.0;  // log2 of node count: a size proxy
    return s;
  }

  std::string describe() const override {
    JsonWriter w;
    w.begin_object();
    w.field("algorithm", name_);
    w.field("n_classes", n_classes_);
    w.key("pairs").begin_array();
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      w.begin_object();
      w.field("a", pairs_[k].first).field("b", pairs_[k].second);
      w.key("tree_nodes").begin_array();
      for (const CompTree& t : forests_[k]) w.value(static_cast<int64_t>(t.nodes.size()));
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.str();
  }

 private:
  std::string name_;
  int n_classes_;
};

class CompRfLearner : public Learner {
 public:
  CompRfLearner(std::string name, CompParams p) : name_(std::move(name)), p_(p) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, name_, ": classification only");
    const int C = static_cast<int>(data.n_classes());
    auto model = std::make_unique<CompRfModel>(name_, C);
    std::vector<double> sign(data.n_rows(), 0.0);
    for (int a = 0; a < C; ++a)
      for (int b = a + 1; b < C; ++b) {
        std::vector<uint32_t> pair_rows;
        for (uint32_t r : rows) {
          const int y = data.label(r);
          if (y == a || y == b) {
            pair_rows.push_back(r);
            sign[r] = y == b ? 1.0 : -1.0;
          }
        }
        model->pairs_.emplace_back(a, b);
        auto& forest = model->forests_.emplace_back();
        Rng pair_rng = ctx.rng.derive("pair").derive(static_cast<uint64_t>(a), static_cast<uint64_t>(b));
        for (int t = 0; t < p_.n_trees; ++t)
          forest.push_back(grow(data, pair_rows, sign, p_, pair_rng.derive(static_cast<uint64_t>(t))));
      }
    return model;
  }

 private:
  std::string name_;
  CompParams p_;
};

}  // namespace

std::vector<AlgorithmInfo> comprf_algorithms() {
  AlgorithmInfo c;
  c.name = "comprf-c";
  c.summary = "Comparison-based RF with unsupervised pivots (Haghiri et al. 2018; multinomial-rf.md §2.4), "
              "one-vs-one for multiclass";
  c.papers = "multinomial-rf";
  c.tasks = {TaskKind::kClassification};
  c.private_algorithm = false;
  c.params = {
      {"n_trees", ParamType::kInt, "100", 1, 100000, false, {}, "trees per binary forest"},
      {"n0", ParamType::kInt, "5", 1, 1e9, false, {}, "a node with <= n0 points is a leaf (MRF's minimum leaf size 5)"},
  };
  c.privacy_status = [](const Params&, TaskKind) { return std::string("non-private"); };
  c.make = [](const Params& q, const Schema&) -> std::unique_ptr<Learner> {
    return std::make_unique<CompRfLearner>("comprf-c", CompParams{q.get_int("n_trees"), q.get_int("n0"), false});
  };
  AlgorithmInfo i = c;
  i.name = "comprf-i";
  i.summary = "Comparison-based RF with supervised pivots of different labels (Haghiri et al. 2018), one-vs-one";
  i.make = [](const Params& q, const Schema&) -> std::unique_ptr<Learner> {
    return std::make_unique<CompRfLearner>("comprf-i", CompParams{q.get_int("n_trees"), q.get_int("n0"), true});
  };
  return {c, i};
}

}  // namespace dpf
