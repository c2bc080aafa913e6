// DP-DF pruning (dipreme.md §3.5 "Optional pruning"; Fletcher & Islam, AusDM 2015, as coded in
// sam-fletcher/Greedy_DP_Forest DP_Tree.prune_tree / _prune_leaf / _traverse_down, which the DiPriMe
// authors' Baselines/DP_DF copies unchanged).
//
// Bottom-up, on the noisy class counts the tree already released (post-processing: no budget):
//   * the noisy Gini of a node is 1 - Σ_c (ñ_c / ñ)², ñ = Σ_c ñ_c its noisy size;
//   * a node p is collapsed into a leaf when Σ_children gini(child) · ñ_child / ñ_p >= gini(p)
//     (the children's noisy sizes over the PARENT's noisy size, not over their own sum);
//   * the test is applied, in a post-order walk, to every internal node at depth >= 2 whose children
//     are all leaves (after the pruning of their own subtrees); when a node at depth >= 2 is
//     collapsed, its parent is tested next, and so on upwards (so depth-1 nodes can be collapsed
//     through this upward step; the root never is). As in the code, the upward step applies the same
//     Gini test without requiring the parent's other children to be leaves;
//   * a node with noisy size 0 has Gini 0 and weight 0 (the code's empty leaf holds {majority: 1},
//     whose Gini is 0, so its term is 0 either way).
// A collapsed node's leaf value is its own noisy fractions (its prediction and vote weight in the
// code come from its own noisy counts).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/tree/tree.hpp"

namespace dpf {

// What a tree's node released: its noisy Gini and size, and the leaf value it takes if collapsed.
struct DfNodeNoise {
  bool seen = false;          // the node's counts were drawn (every node of a DP-DF tree is)
  double gini = 0.0;
  double size = 0.0;          // noisy size ñ
  std::vector<double> value;  // leaf value if the node becomes a leaf
};

// Noisy Gini of noisy counts (0 for a zero size).
double noisy_gini(std::span<const double> counts, double size);

// The pruned copy of `tree` (node ids renumbered depth-first, children contiguous, leaves in the
// grower's order) and, in *n_pruned, how many nodes were collapsed (the code's _num_prunings).
// noise[id] must be set for every node id of `tree`.
Tree prune_dp_df_tree(const Tree& tree, std::span<const DfNodeNoise> noise, int* n_pruned = nullptr);

}  // namespace dpf
