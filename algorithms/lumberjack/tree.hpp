// One Lumberjack tree (lumberjack.md §4): data-independent random splits of the node boxes, pruned to
// the nodes a Gaussian sparse-histogram test finds heavy, with the recursive "binary-search" builder
// of §4.3 under the semantics of §4.2, and noisy leaf labels (§3.3).
//
// Randomness is keyed by the node's path (key(child) = hash(key(parent), side)), so a node's split,
// its heavy-hitter noise and its leaf noise do not depend on which other nodes were visited: the
// structure of an unpruned tree is independent of the data, and results do not depend on the order
// of visits or the thread count (design.md §5).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf::lumberjack {

enum class LeafAlgorithm { kNoisyMajority, kExponentialMechanism };

struct TreeSpec {
  int max_depth = 32;           // h: leaves at depth <= h (§4.2)
  double sigma_split = 0.0;     // GSHM noise of every queried count (§3.2)
  double tau = 0.0;             // GSHM threshold (§3.2)
  double rho_tree = 0.0;        // leaf budget of this tree (§3 item 2)
  LeafAlgorithm leaf = LeafAlgorithm::kNoisyMajority;
  // false (default): only empty nodes are suppressed (never queried, never expanded) and a queried
  // node is heavy iff n + Z >= ceil(tau) + 2 (Z discrete), so an added record makes a suppressed node
  // appear with probability <= 1 - Phi(tau / sigma), the p of the §3.2 calibration. true (reference quirk
  // `as_coded_suppression`, dp_alternative_sparse.py lines 950-962): nodes with n <= 2 are suppressed
  // and the test is n + Z >= tau, outside what the calibration covers (a 2 -> 3 change appears with
  // probability 1 - Phi((tau - 3) / sigma)).
  bool as_coded_suppression = false;
  int n_classes = 2;
};

struct Node {
  int32_t feature = -1;     // -1: leaf
  double threshold = 0.0;   // x[feature] <= threshold goes left
  int32_t left = -1, right = -1;
  int32_t label = 0;        // leaf: released class index
  int32_t depth = 0;
  uint32_t n_rows = 0;      // diagnostics only (never released)
};

struct Tree {
  std::vector<Node> nodes;  // children before parents (post-order)
  int32_t root = 0;
  std::size_t heavy_queries = 0;
  int leaf_at(const Dataset& data, uint32_t row) const;
  std::size_t n_leaves() const;
  int max_leaf_depth() const;
};

// Grows one tree on `rows` (all training rows) with the public bounds lo/hi per feature.
Tree grow_tree(const Dataset& data, std::span<const uint32_t> rows, const std::vector<double>& lo,
               const std::vector<double>& hi, const TreeSpec& spec, uint64_t tree_key);

}  // namespace dpf::lumberjack
