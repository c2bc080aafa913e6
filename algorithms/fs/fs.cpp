#include "algorithms/fs/fs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/leaves.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

class FsSplit : public SplitPolicy {
 public:
  FsSplit(double eps_op, int n_classes, bool certified) : eps_(eps_op), k_(n_classes), certified_(certified) {}
  std::unique_ptr<SplitPolicy> clone() const override { return std::make_unique<FsSplit>(*this); }

  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override {
    const Dataset& d = node.data;
    // §2.2 step 1: N = |T| + Lap(1/eps'), the Laplace mechanism on a count (sensitivity 1).
    double n = std::max(0.0, laplace_mechanism(rng, static_cast<double>(node.rows.size()), 1.0, eps_));
    ledger.charge(node.scope, "laplace", eps_, 1.0, certified_);
    // Step 2: stop when N / (t K) <= sqrt(2) / eps' (the Laplace standard deviation).
    int t = 2;
    for (int f : node.active)
      if (d.schema().features[static_cast<std::size_t>(f)].kind == FeatureKind::kCategorical)
        t = std::max<int>(t, static_cast<int>(d.schema().features[static_cast<std::size_t>(f)].n_categories()));
    if (n / (static_cast<double>(t) * k_) <= std::sqrt(2.0) / eps_) return std::nullopt;

    std::vector<double> score;
    std::vector<SplitChoice> cand;
    std::vector<int32_t> total(static_cast<std::size_t>(k_), 0);
    for (uint32_t r : node.rows) ++total[static_cast<std::size_t>(d.label(r))];
    for (int f : node.active) {
      const auto fu = static_cast<std::size_t>(f);
      const Feature& feat = d.schema().features[fu];
      auto col = d.column(fu);
      SplitChoice c;
      c.feature = f;
      if (feat.kind == FeatureKind::kCategorical) {
        // Step 5: q_M(A) = sum over values of the largest class count (max operator, sensitivity 1).
        const std::size_t q = feat.n_categories();
        std::vector<int32_t> cnt(q * static_cast<std::size_t>(k_), 0);
        for (uint32_t r : node.rows) ++cnt[static_cast<std::size_t>(col[r]) * static_cast<std::size_t>(k_) + static_cast<std::size_t>(d.label(r))];
        double s = 0;
        for (std::size_t v = 0; v < q; ++v)
          s += *std::max_element(cnt.begin() + static_cast<std::ptrdiff_t>(v * static_cast<std::size_t>(k_)),
                                 cnt.begin() + static_cast<std::ptrdiff_t>((v + 1) * static_cast<std::size_t>(k_)));
        c.kind = SplitKind::kMultiway;
        cand.push_back(c);
        score.push_back(s);
        continue;
      }
      // Step 4: intervals [lb, v1), [v1, v2), ..., [v_last, ub]; a split point p in interval i sends the
      // values < p left; score = max_c left + max_c right; EM with length base measure, Delta = 1.
      const FeatureDomain& dom = node.domains[fu];
      std::vector<uint32_t> rows(node.rows.begin(), node.rows.end());
      std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return col[a] < col[b]; });
      std::vector<double> breaks{dom.lo}, scores;
      std::vector<int32_t> left(static_cast<std::size_t>(k_), 0);
      auto q_now = [&]() {
        int32_t ml = 0, mr = 0;
        for (std::size_t c2 = 0; c2 < left.size(); ++c2) {
          ml = std::max(ml, left[c2]);
          mr = std::max(mr, total[c2] - left[c2]);
        }
        return static_cast<double>(ml + mr);
      };
      std::size_t i = 0;
      while (i < rows.size()) {
        const double v = std::clamp(col[rows[i]], dom.lo, dom.hi);
        scores.push_back(q_now());  // interval ending at v: everything below v goes left
        breaks.push_back(std::max(v, breaks.back()));
        const double raw = col[rows[i]];
        while (i < rows.size() && col[rows[i]] == raw) {
          ++left[static_cast<std::size_t>(d.label(rows[i]))];
          ++i;
        }
      }
      scores.push_back(q_now());
      breaks.push_back(std::max(dom.hi, breaks.back()));
      const IntervalDraw draw = interval_exponential_mechanism(rng, breaks, scores, eps_, 1.0);
      ledger.charge(node.scope, "interval-em", eps_, 1.0, certified_);
      c.kind = SplitKind::kThreshold;
      c.threshold = draw.value;
      cand.push_back(c);
      score.push_back(scores[draw.interval]);
    }
    if (cand.empty()) return std::nullopt;
    // Step 5: the attribute by the exponential mechanism over the candidates' scores (Delta = 1).
    const std::size_t pick = exponential_mechanism(rng, score, eps_, 1.0);
    ledger.charge(node.scope, "exponential", eps_, 1.0, certified_);
    return cand[pick];
  }

 private:
  double eps_;
  int k_;
  bool certified_;
};

class FsLearner : public Learner {
 public:
  FsLearner(double epsilon, int depth) : epsilon_(epsilon), depth_(depth) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const double eps_op = fs_operation_epsilon(epsilon_, depth_, data.schema());
    const int k = static_cast<int>(data.n_classes());
    FsSplit split(eps_op, k, true);
    ClassCountLeaf leaf(k, eps_op, true);  // noisy class counts n_c + Lap(1/eps') (§2.2 step 3)
    ForestFitSpec spec;
    spec.algorithm = "fs";
    spec.n_trees = 1;
    spec.max_depth = depth_;
    spec.rows = TreeRows::kAll;
    spec.epsilon = epsilon_;
    spec.vote = Vote::kSoft;
    return fit_forest(data, rows, ctx, spec, split, leaf);
  }

 private:
  double epsilon_;
  int depth_;
};

}  // namespace

double fs_operation_epsilon(double epsilon, int depth, const Schema& schema) {
  int c = 0;
  for (const Feature& f : schema.features) c += f.kind == FeatureKind::kNumeric;
  // Per-operation budget eps' = eps / ((2 + c) D + 2) (FS-code, smooth-rdf.md §2.2): along a path each
  // level spends a noisy count, one split-point EM per continuous feature and one attribute EM; the
  // leaf a noisy count and a noisy histogram.
  return epsilon / ((2.0 + c) * depth + 2.0);
}

std::unique_ptr<SplitPolicy> make_fs_split(double eps_op, int n_classes, bool certified) {
  return std::make_unique<FsSplit>(eps_op, n_classes, certified);
}

std::vector<AlgorithmInfo> fs_algorithms() {
  AlgorithmInfo a;
  a.name = "fs";
  a.summary = "FS: Friedman & Schuster 2010 DiffP-C4.5 with continuous attributes (max scorer, one tree, depth 5), "
              "as Fletcher & Islam ran it; no pruning";
  a.papers = "smooth-rdf";
  a.tasks = {TaskKind::kClassification};
  a.params = {
      {"epsilon", ParamType::kDouble, "1", 0, 1e9, true, {}, "total privacy budget"},
      {"max_depth", ParamType::kInt, "5", 1, 30, false, {}, "D (Fletcher & Islam §5.2: 5)"},
      strict_param(),
      quirks_param(a.quirks),
  };
  a.privacy_status = [](const Params&, TaskKind) -> std::string { return "epsilon-DP"; };
  a.make = [](const Params& p, const Schema&) -> std::unique_ptr<Learner> {
    check_epsilon_param("fs", p.get_double("epsilon"));
    return std::make_unique<FsLearner>(p.get_double("epsilon"), p.get_int("max_depth"));
  };
  return {a};
}

}  // namespace dpf
