// Non-private CART forests with scikit-learn's semantics (dipreme.md §3.1; multinomial-rf.md §2):
//   Breiman RF: bootstrap rows per tree, best split over K random features (exhaustive threshold
//     search with the shared presorted sweep of core/tree/split_search.hpp, thresholds at
//     midpoints), Gini or squared error;
//   ERT (Geurts et al. 2006): all rows per tree, one uniform random threshold in the node's [min, max]
//     per candidate feature, best of K.
// Features are visited in random order until K features that are not constant at the node have been
// inspected (sklearn's rule). Stops at max_depth, below min_samples_split, on pure nodes, or when no
// split leaves min_samples_leaf rows on each side. Leaves hold class fractions (soft vote, as
// sklearn's predict_proba averaging) or the mean.
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"
#include "core/tree/grower.hpp"
#include "core/tree/split_search.hpp"

namespace dpf {

struct CartParams {
  std::string name;
  int n_trees = 100;
  int max_depth = 0;      // 0: unlimited
  int max_features = 0;   // 0: sqrt(D) for classification, D for regression (sklearn defaults)
  int min_samples_leaf = 1;
  int min_samples_split = 2;
  bool bootstrap = true;
  bool random_thresholds = false;  // ERT
  bool categorical_reuse = false;  // ForestFitSpec::categorical_threshold_masks
};

class CartSplit : public SplitPolicy {
 public:
  CartSplit(const CartParams& p, int n_features, TaskKind task, int n_classes);
  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override;
  // The fit's rank index, for GrowOptions::presort (the grower's root lists).
  RankIndex& rank_index() { return index_; }

 private:
  bool best_threshold(const NodeView& node, int f, BestSplit& best);
  bool random_threshold(const NodeView& node, int f, Rng& rng, BestSplit& best);
  double proxy_of_children(double n_left, double n_right) const;

  const CartParams& p_;
  int k_;
  TaskKind task_;
  int n_classes_;
  std::vector<double> left_, total_;
  // The shared presort + radix row sort and sorted sweep (core/tree/split_search.hpp); the policy
  // lives for one fit on one dataset, so the ranks are built once per fit.
  RankIndex index_;
  GiniSplitSearch search_;
  std::vector<uint32_t> sorted_rows_;
  std::vector<uint32_t> positions_;  // 0, 1, 2, ...: a node's positions (best_codes on node-ordered copies)
  std::vector<int> order_;       // candidate features in visiting order
  // ERT, in the node's row order: its labels (classification), a candidate's values and the best
  // candidate's values so far; per-class counts of a candidate's left side.
  std::vector<uint32_t> labels_;
  std::vector<double> xs_, best_xs_;
  std::vector<uint32_t> counts_;
};

// How fit_cart lays out the values its split search reads: as the registry's learners do (kLearner:
// presorted lists for RF, node-ordered copies for ERT), gathered from the columns at every node,
// node-ordered feature copies, or per-feature lists presorted once per tree (threshold search only).
// Every layout gives the same forest; the tests compare them.
enum class CartLayout { kLearner, kGathered, kNodeColumns, kPresorted };

// One forest of `p` (rf or ert) on `rows`, as the registry's learners fit it.
std::unique_ptr<Model> fit_cart(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx, const CartParams& p,
                                CartLayout layout = CartLayout::kLearner);

std::vector<AlgorithmInfo> cart_algorithms();  // rf, ert

}  // namespace dpf
