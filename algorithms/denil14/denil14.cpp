#include "algorithms/denil14/denil14.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/honest_tree.hpp"
#include "core/tree/split_search.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

struct DenilParams {
  int n_trees = 100, min_leaf = 5, m_s = 0;
  double lambda = 0;  // 0: sqrt(D)
  double partition_rate = 1;
  Vote vote = Vote::kHard;
};

class DenilPolicy : public HonestPolicy {
 public:
  DenilPolicy(const DenilParams& p, int n_features, int n_classes)
      : p_(p), n_features_(n_features), n_classes_(n_classes), search_(n_classes) {
    lambda_ = p.lambda > 0 ? p.lambda : std::sqrt(static_cast<double>(n_features));
    order_.resize(static_cast<std::size_t>(n_features));
  }

  std::optional<SplitChoice> choose(const HonestView& node, Rng& rng, PrivacyLedger&) override {
    // m_f = min(D, 1 + Poisson(λ)) features, uniformly without replacement (§2.2).
    const int mf = std::min(n_features_, 1 + sample_poisson(rng, lambda_));
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
    const auto k = static_cast<uint32_t>(p_.min_leaf);
    double best_gain = 0;
    SplitChoice best;
    for (int i = 0; i < mf; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      std::swap(order_[ui], order_[ui + rng.below(order_.size() - ui)]);
      const int f = order_[ui];
      std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
      if (candidates(node, f) < 2) continue;
      // Search range from m_s random structure points of the node (m_s = 0: no restriction).
      double lo = -INFINITY, hi = INFINITY;
      if (p_.m_s > 0 && static_cast<std::size_t>(p_.m_s) < node.s.size()) {
        lo = INFINITY;
        hi = -INFINITY;
        for (int j = 0; j < p_.m_s; ++j) {
          const double v = col[node.s[rng.below(node.s.size())]];
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
      }
      const SplitGain* g = nullptr;
      for (const SplitGain& c : gains_)
        if (c.threshold > lo && c.threshold <= hi && (!g || c.gain > g->gain)) g = &c;
      if (!g || !(g->gain > 0)) continue;
      // Valid only if each estimation child keeps >= k points (rftk: per-feature best, then validity).
      uint32_t el = 0;
      for (uint32_t r : node.e) el += col[r] < g->threshold;
      if (el < k || node.e.size() - el < k) continue;
      if (g->gain > best_gain) {
        best_gain = g->gain;
        best.kind = SplitKind::kThreshold;
        best.feature = f;
        best.threshold = g->threshold;
      }
    }
    if (best.feature < 0) return std::nullopt;
    return best;
  }

  void leaf(const HonestView& node, LeafReason, Rng&, PrivacyLedger&, PrivacyLedger::ScopeId,
            std::span<double> out) override {
    estimation_histogram(node, n_classes_, out);
  }

  // Every threshold of feature f on the node's structure points, into gains_ (shared search of
  // core/tree: categorical codes by histogram, numeric values by the presorted radix sweep).
  std::size_t candidates(const HonestView& node, int f) {
    std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
    const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
    if (feat.kind == FeatureKind::kCategorical) return search_.codes(col, node.labels, node.s, feat.n_categories(), gains_);
    index_.sort_rows(node.data, node.s, f, sorted_);
    return search_.numeric_sorted(col, node.labels, sorted_, gains_);
  }

 private:
  DenilParams p_;
  int n_features_, n_classes_;
  double lambda_;
  GiniSplitSearch search_;
  RankIndex index_;
  std::vector<uint32_t> sorted_;
  std::vector<SplitGain> gains_;
  std::vector<int> order_;
};

class DenilLearner : public Learner {
 public:
  explicit DenilLearner(DenilParams p) : p_(p) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    DenilPolicy policy(p_, static_cast<int>(data.n_features()), static_cast<int>(data.n_classes()));
    HonestOptions opt;
    opt.min_leaf = p_.min_leaf;
    opt.stop = HonestStop::kPaper;
    opt.partition_rate = p_.partition_rate;
    return fit_honest_forest("denil14", data, rows, ctx, p_.n_trees, policy, opt, p_.vote);
  }

 private:
  DenilParams p_;
};

}  // namespace

std::vector<AlgorithmInfo> denil14_algorithms() {
  AlgorithmInfo a;
  a.name = "denil14";
  a.summary = "Denil et al. 2014 consistent forest: S/E partition, 1 + Poisson(λ) candidate features, best Gini "
              "split valid on estimation points (rftk + paper, multinomial-rf.md §2.2)";
  a.papers = "multinomial-rf";
  a.tasks = {TaskKind::kClassification};
  a.private_algorithm = false;
  a.params = {
      {"n_trees", ParamType::kInt, "100", 1, 100000, false, {}, "number of trees (§2: 100)"},
      {"min_leaf", ParamType::kInt, "5", 1, 1e9, false, {}, "k, minimum estimation points per child (§2: 5)"},
      {"lambda", ParamType::kDouble, "0", 0, 1e9, false, {}, "Poisson mean of extra candidate features (0: sqrt(D))"},
      {"m_s", ParamType::kInt, "0", 0, 1e9, false, {}, "structure points drawn to fix the search range (0: no range)"},
      {"partition_rate", ParamType::kDouble, "1", 0, 1e9, true, {}, "r = |S|/|E|"},
      {"vote", ParamType::kString, "hard", 0, 0, false, {"hard", "soft"}, "forest vote (rftk: soft)"},
  };
  a.privacy_status = [](const Params&, TaskKind) { return std::string("non-private"); };
  a.make = [](const Params& q, const Schema&) -> std::unique_ptr<Learner> {
    DenilParams p;
    p.n_trees = q.get_int("n_trees");
    p.min_leaf = q.get_int("min_leaf");
    p.lambda = q.get_double("lambda");
    p.m_s = q.get_int("m_s");
    p.partition_rate = q.get_double("partition_rate");
    p.vote = parse_vote(q.get_string("vote"));
    return std::make_unique<DenilLearner>(p);
  };
  return {a};
}

}  // namespace dpf
