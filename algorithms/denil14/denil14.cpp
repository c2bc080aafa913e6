#include "algorithms/denil14/denil14.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/honest_gini.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"

namespace dpf {

namespace {

struct DenilParams {
  int n_trees = 100, min_leaf = 5, m_s = 0;
  double lambda = 0;  // 0: sqrt(D)
  double partition_rate = 1;
  Vote vote = Vote::kHard;
};

class DenilPolicy : public HonestGiniPolicy {
 public:
  static constexpr const char* kName = "denil14";
  DenilPolicy(const DenilParams& p, int n_features, int n_classes) : HonestGiniPolicy(n_features, n_classes), p_(p) {
    lambda_ = p.lambda > 0 ? p.lambda : std::sqrt(static_cast<double>(n_features));
  }

  std::optional<SplitChoice> choose(const HonestView& node, Rng& rng, PrivacyLedger&) override {
    // m_f = min(D, 1 + Poisson(λ)) features, uniformly without replacement (§2.2).
    const int mf = std::min(n_features(), 1 + sample_poisson(rng, lambda_));
    reset_order();
    const auto k = static_cast<uint32_t>(p_.min_leaf);
    double best_gain = 0;
    SplitChoice best;
    for (int i = 0; i < mf; ++i) {
      const int f = shuffle_next(static_cast<std::size_t>(i), rng);
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
      for (const SplitGain& c : gains())
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

 private:
  DenilParams p_;
  double lambda_;
};

}  // namespace

std::vector<AlgorithmInfo> denil14_algorithms() {
  using P = DenilParams;
  return {with_learner<HonestGiniLearner<DenilPolicy, DenilParams>>(
      describe_non_private("denil14", "multinomial-rf", kClassificationTask,
                           "Denil et al. 2014 consistent forest: S/E partition, 1 + Poisson(λ) candidate features, "
                           "best Gini split valid on estimation points (rftk + paper, multinomial-rf.md §2.2)"),
      ParamSet<P>()
          .add(&P::n_trees, param::n_trees(100, "number of trees (§2: 100)"))
          .add(&P::min_leaf, param::min_leaf(5, "k, minimum estimation points per child (§2: 5)"))
          .add(&P::lambda, param::real("lambda", "0", 0, 1e9, "Poisson mean of extra candidate features (0: sqrt(D))"))
          .add(&P::m_s, param::count("m_s", 0, 0, 1e9, "structure points drawn to fix the search range (0: no range)"))
          .add(&P::partition_rate, param::partition_rate())
          .add(&P::vote, param::vote("hard", {}, "forest vote (rftk: soft)"),
               {{"hard", Vote::kHard}, {"soft", Vote::kSoft}}))};
}

}  // namespace dpf
