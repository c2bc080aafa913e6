// The Gini split search and leaf shared by the non-private honest forests (Bernoulli RF and Denil et
// al. 2014, multinomial-rf.md §2.2-§2.3): every threshold of a feature on the node's structure points
// scored by Gini gain (core/tree's shared search: categorical codes by histogram, numeric values by the
// presorted sweep), and leaves that release the class histogram of the estimation points.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "algorithms/common/honest_tree.hpp"
#include "core/tree/split_search.hpp"

namespace dpf {

class HonestGiniPolicy : public HonestPolicy {
 public:
  HonestGiniPolicy(int n_features, int n_classes);
  void leaf(const HonestView& node, LeafReason, Rng&, PrivacyLedger&, PrivacyLedger::ScopeId,
            std::span<double> out) override;

 protected:
  // Every threshold of feature f on the node's structure points, into gains(); returns their number.
  std::size_t candidates(const HonestView& node, int f);
  const std::vector<SplitGain>& gains() const { return gains_; }
  // The candidate features in a random order: draw position i with rng, swapping it into place.
  int shuffle_next(std::size_t i, Rng& rng);
  // Restarts the feature order 0, 1, ..., D-1 (BRF shuffles from the identity at every node).
  void reset_order();
  int n_features() const { return static_cast<int>(order_.size()); }

 private:
  int n_classes_;
  GiniSplitSearch search_;
  RankIndex index_;
  std::vector<uint32_t> sorted_;
  std::vector<SplitGain> gains_;
  std::vector<int> order_;
};

// The learner of a non-private honest Gini forest whose trees stop as the paper does (both estimation
// children need min_leaf points): Policy(params, D, K) chooses the splits and names the forest (kName);
// P holds n_trees, min_leaf, partition_rate and vote.
template <class Policy, class P>
class HonestGiniLearner : public Learner {
 public:
  explicit HonestGiniLearner(P p) : p_(p) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    Policy policy(p_, static_cast<int>(data.n_features()), static_cast<int>(data.n_classes()));
    HonestOptions opt;
    opt.min_leaf = p_.min_leaf;
    opt.stop = HonestStop::kPaper;
    opt.partition_rate = p_.partition_rate;
    return fit_honest_forest(Policy::kName, data, rows, ctx, p_.n_trees, policy, opt, p_.vote);
  }

 private:
  P p_;
};

}  // namespace dpf
