// Routing many rows through one tree at once (prediction's inner loop). A tree is mirrored as an
// array of 16-byte RouteNodes, all binary threshold splits, and a group of rows moves down it in
// lock-step, one level per step and branch-free, so the memory latency of one row's path overlaps
// with the other rows' paths instead of adding up (a row's path is a chain of dependent loads: node,
// value, next node). Rows are routed from a RowBlock, a copy of a hundred-odd rows that stays in the
// L1 cache while every tree of a forest routes it.
//
// RouteNode semantics: at node i with split (feature, threshold), a row with value x of `feature`
// moves to node child if x < threshold and to child + 1 otherwise (a NaN x moves to child + 1, as
// Tree::leaf_node's `x < threshold ? 0 : 1`). A stop node (a leaf, a node the caller resolves
// itself, a row the tree abstains on) has threshold NaN and child i - 1: x < NaN is false for every
// x, so a row that reaches it stays there. The node stores its feature and child as byte offsets into
// the RowBlock and the node array, which saves the inner loop three instructions per step.
//
// RouteMirror builds the array a split at a time, as a tree grows. A split on a category code (a
// multiway split, or a subset of codes) becomes a small balanced tree of threshold nodes on the code,
// one per run of codes with the same destination: for integer codes >= 0 (Dataset::validate) code c
// lands in [c, c + 1), so the thresholds are exact.
#pragma once
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

class RowBlock;

struct RouteNode {
  double threshold = std::numeric_limits<double>::quiet_NaN();
  uint32_t value_offset = 0;  // feature * RowBlock::kRows * sizeof(double)
  uint32_t child_offset = 0;  // child * sizeof(RouteNode), modulo 2^32 (a stop node at 0: child -1)

  static RouteNode split(double threshold, int32_t feature, int32_t child);
  static RouteNode stop(int32_t self);
};

class RouteMirror {
 public:
  static constexpr int32_t kAbstain = -1;  // stop code: the tree gives no answer for the row
  static constexpr int32_t kResolve = -2;  // stop code: the caller must route the row itself

  RouteMirror();  // one stop node, the root (code kResolve)

  std::span<const RouteNode> nodes() const { return nodes_; }
  std::size_t size() const { return nodes_.size(); }
  // Steps that take every row from the root to its stop node.
  int levels() const { return levels_; }
  // A stop node's code (>= 0: the caller's, e.g. a leaf index); kResolve for a split node.
  int32_t code(int32_t node) const { return code_[static_cast<std::size_t>(node)]; }
  void set_code(int32_t node, int32_t code) { code_[static_cast<std::size_t>(node)] = code; }

  // Stop node `node` becomes the split x < threshold; returns its first child (two stop nodes, kResolve).
  int32_t split_threshold(int32_t node, double threshold, int feature);
  // Stop node `node` becomes a split on the code of `feature`: code c < child_of_code.size() goes to
  // child child_of_code[c] (kAbstain: an abstain stop node), larger codes to `beyond` (a child or
  // kAbstain). children[k] receives child k's stop node (code kResolve), k < n_children.
  void split_codes(int32_t node, int feature, std::span<const int32_t> child_of_code, int32_t beyond,
                   int n_children, int32_t* children);

 private:
  int32_t add_pair(int depth);  // two stop nodes at `depth`; returns the first
  // Fills node `at` (a stop node at `depth`) with the subtree over runs [lo, hi).
  void build_runs(int32_t at, int depth, int feature, std::span<const double> bounds, std::span<const int32_t> dest,
                  std::size_t lo, std::size_t hi, int32_t* children);
  std::vector<RouteNode> nodes_;
  std::vector<int32_t> code_;
  std::vector<int16_t> depth_;
  int levels_ = 0;
};

// A copy of some rows' features, feature-major: value(k, f) = data.x(rows[k], f).
class RowBlock {
 public:
  static constexpr std::size_t kRows = 128;  // 128 rows x 28 features x 8 bytes = 28 KiB
  explicit RowBlock(const Dataset& data);
  void load(std::span<const uint32_t> rows);  // at most kRows rows
  std::size_t size() const { return n_; }
  double value(std::size_t k, std::size_t f) const { return values_[f * kRows + k]; }
  // Row k's values: feature f at row_values(k)[f * kRows].
  const double* row_values(std::size_t k) const { return values_.data() + k; }

  // at[k] = the node row k reaches from node 0 after `levels` steps (a stop node, or wherever the row
  // is after `levels` steps).
  void route(std::span<const RouteNode> nodes, int levels, int32_t* at) const;
  void route(const RouteMirror& mirror, int32_t* at) const { route(mirror.nodes(), mirror.levels(), at); }

 private:
  std::vector<const double*> columns_;
  std::size_t n_features_;
  std::size_t n_ = 0;
  std::vector<double> values_;
};

inline RouteNode RouteNode::split(double threshold, int32_t feature, int32_t child) {
  return {threshold, static_cast<uint32_t>(feature) * static_cast<uint32_t>(RowBlock::kRows * sizeof(double)),
          static_cast<uint32_t>(child) * static_cast<uint32_t>(sizeof(RouteNode))};
}

inline RouteNode RouteNode::stop(int32_t self) {
  return {std::numeric_limits<double>::quiet_NaN(), 0, static_cast<uint32_t>(self - 1) * static_cast<uint32_t>(sizeof(RouteNode))};
}

}  // namespace dpf
