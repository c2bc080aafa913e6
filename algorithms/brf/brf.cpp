#include "algorithms/brf/brf.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/honest_gini.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"

namespace dpf {

namespace {

struct BrfParams {
  int n_trees = 100, min_leaf = 5, max_features = 0;
  double p1 = 0.05, p2 = 0.05, partition_rate = 1;
  Vote vote = Vote::kHard;
};

class BrfPolicy : public HonestGiniPolicy {
 public:
  static constexpr const char* kName = "brf";
  BrfPolicy(const BrfParams& p, int n_features, int n_classes) : HonestGiniPolicy(n_features, n_classes), p_(p) {
    k_ = p.max_features > 0 ? std::min(p.max_features, n_features)
                            : std::max(1, static_cast<int>(std::sqrt(static_cast<double>(n_features))));
  }

  std::optional<SplitChoice> choose(const HonestView& node, Rng& rng, PrivacyLedger&) override {
    // §2.3: b1 = 1 -> one candidate feature, else sqrt(D); b2 = 1 -> a random value per feature.
    const int want = rng.bernoulli(p_.p1) ? 1 : k_;
    const bool random_value = rng.bernoulli(p_.p2);
    reset_order();
    double best_gain = -1;
    SplitChoice best;
    int seen = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n_features()) && seen < want; ++i) {
      const int f = shuffle_next(i, rng);
      if (candidates(node, f) < 2) continue;
      ++seen;
      const std::vector<SplitGain>& g = gains();
      const SplitGain& c = random_value ? g[rng.below(g.size())]
                                        : *std::max_element(g.begin(), g.end(), [](const SplitGain& a, const SplitGain& b) {
                                            return a.gain < b.gain;
                                          });
      if (c.gain > best_gain) {
        best_gain = c.gain;
        best.kind = SplitKind::kThreshold;
        best.feature = f;
        best.threshold = c.threshold;
      }
    }
    if (best.feature < 0) return std::nullopt;
    return best;
  }

 private:
  BrfParams p_;
  int k_;
};

}  // namespace

std::vector<AlgorithmInfo> brf_algorithms() {
  using P = BrfParams;
  return {with_learner<HonestGiniLearner<BrfPolicy, BrfParams>>(
      describe_non_private(
          "brf", "multinomial-rf", kClassificationTask,
          "Bernoulli random forest (Wang et al. 2018): S/E partition, Bernoulli choice of 1 or sqrt(D) "
          "features and of a random or best split value (reconstructed, multinomial-rf.md §2.3)"),
      ParamSet<P>()
          .add(&P::n_trees, param::n_trees(100, "number of trees (§2: 100)"))
          .add(&P::min_leaf, param::min_leaf(5, "k, minimum estimation points per leaf (§2: 5)"))
          .add(&P::max_features, param::max_features("candidate features when b1 = 0 (0: sqrt(D))"))
          .add(&P::p1, param::probability("p1", "0.05", "P(b1 = 1): a single candidate feature"))
          .add(&P::p2, param::probability("p2", "0.05", "P(b2 = 1): a random split value per feature"))
          .add(&P::partition_rate, param::partition_rate())
          .add(&P::vote, param::vote("hard", {}, "forest vote"), {{"hard", Vote::kHard}, {"soft", Vote::kSoft}}))};
}

}  // namespace dpf
