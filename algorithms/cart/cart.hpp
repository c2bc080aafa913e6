// Non-private CART forests with scikit-learn's semantics (dipreme.md §3.1; multinomial-rf.md §2):
//   Breiman RF: bootstrap rows per tree, best split over K random features (exhaustive threshold
//     search with a sorted sweep, thresholds at midpoints), Gini or squared error;
//   ERT (Geurts et al. 2006): all rows per tree, one uniform random threshold in the node's [min, max]
//     per candidate feature, best of K.
// Features are visited in random order until K features that are not constant at the node have been
// inspected (sklearn's rule). Stops at max_depth, below min_samples_split, on pure nodes, or when no
// split leaves min_samples_leaf rows on each side. Leaves hold class fractions (soft vote, as
// sklearn's predict_proba averaging) or the mean.
#pragma once
#include <vector>

#include "algorithms/registry.hpp"
#include "core/tree/grower.hpp"

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
};

class CartSplit : public SplitPolicy {
 public:
  CartSplit(const CartParams& p, int n_features, TaskKind task, int n_classes);
  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override;

 private:
  struct Best {
    double proxy = -1.0;
    int feature = -1;
    double threshold = 0.0;
  };
  bool best_threshold(const NodeView& node, int f, Best& best);
  bool random_threshold(const NodeView& node, int f, Rng& rng, Best& best);
  double proxy_of_children(double n_left, double n_right) const;
  // The node's rows in the order of their (value of f, row index) pairs, into sorted_rows_.
  void sort_rows(const NodeView& node, int f);
  const std::vector<uint32_t>& ranks(const Dataset& data, int f);

  const CartParams& p_;
  int k_;
  TaskKind task_;
  int n_classes_;
  std::vector<double> left_, total_;
  // Presorted once per fit (the policy lives for one fit on one dataset): rank_[f][row] is the
  // position of row in the order of (value of f, row index) over every data row, built on first use.
  // A node then sorts integer keys (rank << 32 | row) by radix instead of comparing (value, row)
  // pairs, which gives exactly the same order. Data sets with more than kMaxRankedEntries cells keep
  // the per-node pair sort (pair_scratch_) to bound memory.
  static constexpr std::size_t kMaxRankedEntries = std::size_t{1} << 25;
  const Dataset* ranked_data_ = nullptr;
  std::vector<std::vector<uint32_t>> rank_;
  std::vector<std::pair<double, uint32_t>> pair_scratch_;
  std::vector<uint64_t> keys_, keys_tmp_;
  std::vector<uint32_t> sorted_rows_;
  std::vector<double> xs_, ys_;  // the sorted rows' values of f and targets
  std::vector<int> order_;       // candidate features in visiting order
};

std::vector<AlgorithmInfo> cart_algorithms();  // rf, ert

}  // namespace dpf
