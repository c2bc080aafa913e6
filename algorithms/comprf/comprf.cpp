#include "algorithms/comprf/comprf.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

// A split keeps its two pivots as the hyperplane between them: x is closer to (or as close to) the
// first pivot p than to q iff |x-p|^2 <= |x-q|^2 iff x.(q-p) <= (|q|^2 - |p|^2)/2, one dot product
// instead of two distances. Ties still go to the first pivot [H]; on integer-coded data (Car,
// Connect-4) both sides are exact, elsewhere rounding may move points at distance ties.
// q - p is stored sparse (the features where the pivots differ, in feature order): on categorical
// codes most features agree (Connect-4: about a third differ), and skipping the exact zero terms
// leaves every dot product bit-identical to the dense sum (adding x * 0 = +-0 never changes it).
struct CompNode {
  int32_t left = -1;      // children left, left + 1 (-1: leaf)
  int32_t w = -1;         // offset of q - p's nonzero entries in the tree's W / F
  int32_t nnz = 0;        // how many
  double b = 0;           // (|q|^2 - |p|^2) / 2
  double label_sum = 0;   // leaf: sum of the -1/+1 labels of its training points
  double count = 0;       // leaf: number of training points
};

// x . w over w's nonzero entries (values v, features f), in feature order.
inline double sparse_dot(const double* x, const double* v, const uint32_t* f, int32_t nnz) {
  double dot = 0;
  for (int32_t k = 0; k < nnz; ++k) dot += x[f[k]] * v[k];
  return dot;
}

struct CompTree {
  std::size_t D = 0;
  std::vector<CompNode> nodes;
  std::vector<double> W;    // the internal nodes' nonzero q - p values, contiguous
  std::vector<uint32_t> F;  // their features
  const CompNode& leaf_of(const double* x) const {
    int32_t n = 0;
    while (nodes[static_cast<std::size_t>(n)].left >= 0) {
      const CompNode& nd = nodes[static_cast<std::size_t>(n)];
      const double dot = sparse_dot(x, W.data() + nd.w, F.data() + nd.w, nd.nnz);
      n = nd.left + (dot <= nd.b ? 0 : 1);
    }
    return nodes[static_cast<std::size_t>(n)];
  }
};

struct CompParams {
  std::string name;         // registry name, for messages
  int n_trees = 100, n0 = 5;
  bool supervised = false;  // CompRF-I
};

// The data set's rows laid out row-major (one contiguous feature vector per row): every distance and
// the collapse sums read whole rows, which the columnar Dataset scatters over D columns.
struct RowMajor {
  std::size_t D = 0;
  std::vector<double> x;
  RowMajor(const Dataset& data, std::span<const uint32_t> rows) : D(data.n_features()), x(data.n_rows() * D, 0.0) {
    for (std::size_t f = 0; f < D; ++f) {
      std::span<const double> col = data.column(f);
      for (uint32_t r : rows) x[static_cast<std::size_t>(r) * D + f] = col[r];
    }
  }
  const double* row(uint32_t r) const { return x.data() + static_cast<std::size_t>(r) * D; }
};

// Per-feature sums and sums of squares of a node's rows (CompRF-C's collapse test).
struct Moments {
  std::vector<double> s, s2;
  explicit Moments(std::size_t D = 0) : s(D, 0.0), s2(D, 0.0) {}
  void add(const double* x) {
    for (std::size_t f = 0; f < s.size(); ++f) {
      s[f] += x[f];
      s2[f] += x[f] * x[f];
    }
  }
  // Mean per-feature std < 0.01 x mean of all feature values of the node's n rows [H].
  bool collapsed(double n) const {
    const auto D = static_cast<double>(s.size());
    double sd_sum = 0, all_sum = 0;
    for (std::size_t f = 0; f < s.size(); ++f) {
      const double m = s[f] / n;
      sd_sum += std::sqrt(std::max(0.0, s2[f] / n - m * m));
      all_sum += s[f];
    }
    return sd_sum / D < 0.01 * all_sum / (D * n);
  }
};

// Grows one tree. A split attempt routes the node's rows in one pass into two buffers (stable) and,
// for CompRF-C, accumulates both children's moments in the same pass, so the collapse test of a child
// costs O(D) instead of another pass over its rows.
CompTree grow(const RowMajor& X, std::vector<uint32_t> rows, const std::vector<double>& sign, const CompParams& p,
              Rng rng) {
  const std::size_t D = X.D;
  CompTree t;
  t.D = D;
  t.nodes.emplace_back();
  struct Pending {
    int32_t node;
    std::size_t a, b;
    Moments m;
  };
  const bool moments = !p.supervised;
  Moments root(moments ? D : 0);
  if (moments)
    for (uint32_t i : rows) root.add(X.row(i));
  std::vector<Pending> stack;
  stack.push_back({0, 0, rows.size(), std::move(root)});
  std::vector<uint32_t> right;
  std::vector<double> w;     // q - p: nonzero values
  std::vector<uint32_t> wf;  // and their features
  while (!stack.empty()) {
    Pending pd = std::move(stack.back());
    stack.pop_back();
    std::span<uint32_t> r(rows.data() + pd.a, pd.b - pd.a);
    auto make_leaf = [&] {
      CompNode& nd = t.nodes[static_cast<std::size_t>(pd.node)];
      for (uint32_t i : r) nd.label_sum += sign[i];
      nd.count = static_cast<double>(r.size());
    };
    if (r.size() <= static_cast<std::size_t>(p.n0) || (moments && pd.m.collapsed(static_cast<double>(r.size())))) {
      make_leaf();
      continue;
    }
    bool pure = true;
    for (uint32_t i : r) pure = pure && sign[i] == sign[r[0]];
    std::size_t split_at = 0;
    double b = 0;
    Moments ml(moments ? D : 0), mr(moments ? D : 0);
    for (int attempt = 0; attempt < 20 && split_at == 0; ++attempt) {
      uint32_t pa = r[rng.below(r.size())], pb = r[rng.below(r.size())];
      // CompRF-I: up to 5 draws for pivots with different labels (a pure node takes any pair) [H].
      for (int k = 0; p.supervised && !pure && k < 5 && (sign[pa] == sign[pb] || pa == pb); ++k) {
        pa = r[rng.below(r.size())];
        pb = r[rng.below(r.size())];
      }
      if (pa == pb) continue;
      const double* pp = X.row(pa);
      const double* qq = X.row(pb);
      double np = 0, nq = 0;
      w.clear();
      wf.clear();
      for (std::size_t f = 0; f < D; ++f) {
        const double d = qq[f] - pp[f];
        if (d != 0) {
          w.push_back(d);
          wf.push_back(static_cast<uint32_t>(f));
        }
        np += pp[f] * pp[f];
        nq += qq[f] * qq[f];
      }
      const auto nnz = static_cast<int32_t>(w.size());
      b = 0.5 * (nq - np);
      if (moments) ml = Moments(D), mr = Moments(D);
      right.clear();
      std::size_t nl = 0;
      for (uint32_t i : r) {
        const double* x = X.row(i);
        if (sparse_dot(x, w.data(), wf.data(), nnz) <= b) {
          r[nl++] = i;  // nl never passes the read position: stable in place
          if (moments) ml.add(x);
        } else {
          right.push_back(i);
          if (moments) mr.add(x);
        }
      }
      std::copy(right.begin(), right.end(), r.begin() + static_cast<std::ptrdiff_t>(nl));
      split_at = nl == r.size() ? 0 : nl;  // an empty side: redraw [H]
    }
    if (split_at == 0) { make_leaf(); continue; }
    const auto first = static_cast<int32_t>(t.nodes.size());
    t.nodes.emplace_back();
    t.nodes.emplace_back();
    CompNode& nd = t.nodes[static_cast<std::size_t>(pd.node)];
    nd.left = first;
    nd.w = static_cast<int32_t>(t.W.size());
    nd.nnz = static_cast<int32_t>(w.size());
    nd.b = b;
    t.W.insert(t.W.end(), w.begin(), w.end());
    t.F.insert(t.F.end(), wf.begin(), wf.end());
    stack.push_back({first, pd.a, pd.a + split_at, std::move(ml)});
    stack.push_back({first + 1, pd.a + split_at, pd.b, std::move(mr)});
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
  // Pooled mean label of the leaves each row reaches over binary forest k [H] (0 if they are all
  // empty), into score[i]. Tree-major: one tree routes every row while it sits in cache (row-major
  // would chase nodes of all trees per row); per row the sums still run over the trees in order.
  void scores(std::size_t k, const std::vector<double>& X, std::size_t D, std::vector<double>& score) const {
    const std::size_t n = score.size();
    std::vector<double> s(n, 0.0), cnt(n, 0.0);
    for (const CompTree& t : forests_[k])
      for (std::size_t i = 0; i < n; ++i) {
        const CompNode& l = t.leaf_of(X.data() + i * D);
        s[i] += l.label_sum;
        cnt[i] += l.count;
      }
    for (std::size_t i = 0; i < n; ++i) score[i] = cnt[i] > 0 ? s[i] / cnt[i] : 0.0;
  }

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override {
    Predictions out;
    out.task = TaskKind::kClassification;
    out.n_classes = n_classes_;
    const auto C = static_cast<std::size_t>(n_classes_);
    const std::size_t n = rows.size(), D = data.n_features();
    out.value.assign(n * C, 0.0);
    out.label.resize(n);
    std::vector<double> X(n * D);
    for (std::size_t f = 0; f < D; ++f) {
      std::span<const double> col = data.column(f);
      for (std::size_t i = 0; i < n; ++i) X[i * D + f] = col[rows[i]];
    }
    std::vector<double> row_sum(n * C, 0.0), score(n);
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      scores(k, X, D, score);  // > 0 favours b
      for (std::size_t i = 0; i < n; ++i) {
        row_sum[i * C + static_cast<std::size_t>(pairs_[k].first)] += score[i];
        row_sum[i * C + static_cast<std::size_t>(pairs_[k].second)] -= score[i];
      }
    }
    // Scores: -row sum mapped to [0, 1] per class (binary: the class-1 score is (s + 1) / 2).
    const double span = 2.0 * static_cast<double>(C > 1 ? C - 1 : 1);
    for (std::size_t i = 0; i < n; ++i) {
      const double* rs = row_sum.data() + i * C;
      out.label[i] = static_cast<int>(std::min_element(rs, rs + C) - rs);
      for (std::size_t c = 0; c < C; ++c) out.value[i * C + c] = 0.5 - rs[c] / span;
    }
    return out;
  }

  // A non-private baseline: its model is its release. Per class pair, per tree: the split
  // hyperplanes (sparse q - p, offset b) and every leaf's label sum and count, which predict() pools.
  void save(JsonWriter& w) const override {
    w.begin_object();
    w.field("kind", "comprf").field("algorithm", name_).field("n_classes", n_classes_);
    w.key("pairs").begin_array();
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      w.begin_object().field("a", pairs_[k].first).field("b", pairs_[k].second);
      w.key("trees").begin_array();
      for (const CompTree& t : forests_[k]) {
        std::vector<int64_t> left, offset, nnz;
        std::vector<double> b, label_sum, count;
        for (const CompNode& n : t.nodes) {
          left.push_back(n.left);
          if (n.left >= 0) {
            offset.push_back(n.w);
            nnz.push_back(n.nnz);
            b.push_back(n.b);
          } else {
            label_sum.push_back(n.label_sum);
            count.push_back(n.count);
          }
        }
        w.begin_object().int_array("left", left).int_array("w", offset).int_array("nnz", nnz).exact_array("b", b);
        w.exact_array("W", t.W).int_array("F", t.F).exact_array("label_sum", label_sum).exact_array("count", count);
        w.end_object();
      }
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.end_object();
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
  explicit CompRfLearner(CompParams p) : name_(p.name), p_(std::move(p)) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, name_, ": classification only");
    const int C = static_cast<int>(data.n_classes());
    auto model = std::make_unique<CompRfModel>(name_, C);
    std::vector<double> sign(data.n_rows(), 0.0);
    const RowMajor X(data, rows);
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
          forest.push_back(grow(X, pair_rows, sign, p_, pair_rng.derive(static_cast<uint64_t>(t))));
      }
    return model;
  }

 private:
  std::string name_;
  CompParams p_;
};

}  // namespace

std::vector<AlgorithmInfo> comprf_algorithms() {
  using P = CompParams;
  const ParamSet<P> set =  // both variants take the same parameters
      ParamSet<P>()
          .add(&P::n_trees, param::n_trees(100, "trees per binary forest"))
          .add(&P::n0, param::count("n0", 5, 1, 1e9, "a node with <= n0 points is a leaf (MRF's minimum leaf size 5)"));
  return {with_learner<CompRfLearner>(
              describe_non_private("comprf-c", "multinomial-rf", kClassificationTask,
                                   "Comparison-based RF with unsupervised pivots (Haghiri et al. 2018; multinomial-rf.md "
                                   "§2.4), one-vs-one for multiclass"),
              set, CompParams{.name = "comprf-c"}),
          with_learner<CompRfLearner>(
              describe_non_private("comprf-i", "multinomial-rf", kClassificationTask,
                                   "Comparison-based RF with supervised pivots of different labels (Haghiri et al. "
                                   "2018), one-vs-one"),
              set, CompParams{.name = "comprf-i", .supervised = true})};
}

std::unique_ptr<Model> load_comprf_model(const JsonIn& in, const Schema& schema) {
  const auto C = static_cast<int>(in["n_classes"].integer(1, 1 << 16));
  if (static_cast<std::size_t>(C) != schema.target.n_classes()) in["n_classes"].fail_here("does not match the schema");
  auto model = std::make_unique<CompRfModel>(in["algorithm"].string(), C);
  const JsonIn pairs = in["pairs"];
  const auto D = static_cast<int64_t>(schema.n_features());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const JsonIn p = pairs.at(k);
    model->pairs_.emplace_back(static_cast<int>(p["a"].integer(0, C - 1)), static_cast<int>(p["b"].integer(0, C - 1)));
    auto& forest = model->forests_.emplace_back();
    const JsonIn trees = p["trees"];
    for (std::size_t i = 0; i < trees.size(); ++i) {
      const JsonIn t = trees.at(i);
      CompTree& tree = forest.emplace_back();
      tree.D = static_cast<std::size_t>(D);
      const std::vector<int64_t> left = t["left"].integers(-1, 1 << 30);
      const std::vector<int64_t> nnz = t["nnz"].integers(0, D);
      const std::vector<int64_t> offset = t["w"].integers(0, 1 << 30);
      const std::vector<double> b = t["b"].numbers(), label_sum = t["label_sum"].numbers(), count = t["count"].numbers();
      tree.W = t["W"].numbers();
      for (int64_t f : t["F"].integers(0, D - 1)) tree.F.push_back(static_cast<uint32_t>(f));
      if (tree.F.size() != tree.W.size()) t.fail_here("W and F differ in length");
      std::size_t split = 0, leaf = 0;
      const auto n = static_cast<int64_t>(left.size());
      if (n == 0) t.fail_here("a tree has no node");
      for (int64_t j = 0; j < n; ++j) {
        CompNode& node = tree.nodes.emplace_back();
        node.left = static_cast<int32_t>(left[static_cast<std::size_t>(j)]);
        if (node.left < 0) {
          if (leaf >= count.size() || leaf >= label_sum.size()) t.fail_here("leaf arrays end before node " + std::to_string(j));
          node.label_sum = label_sum[leaf];
          node.count = count[leaf++];
          continue;
        }
        // Children after their parent, inside the tree, so routing ends at a leaf.
        if (node.left <= j || node.left + 1 >= n) t.fail_here("node " + std::to_string(j) + ": children outside the tree");
        if (split >= nnz.size() || split >= b.size() || split >= offset.size())
          t.fail_here("split arrays end before node " + std::to_string(j));
        node.nnz = static_cast<int32_t>(nnz[split]);
        node.w = static_cast<int32_t>(offset[split]);
        node.b = b[split++];
        if (static_cast<std::size_t>(node.w) + static_cast<std::size_t>(node.nnz) > tree.W.size())
          t.fail_here("node " + std::to_string(j) + ": its entries run past the end of W");
      }
      if (split != b.size() || leaf != count.size())
        t.fail_here("the node arrays hold more entries than the nodes use");
    }
  }
  return model;
}

}  // namespace dpf
