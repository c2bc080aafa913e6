// Flat tree storage (design.md §3 core/tree). Nodes live in one vector; the children of a node are
// contiguous (first_child .. first_child + n_children - 1). Leaf values live in one flat array with
// n_outputs values per leaf (class probabilities for classification, one value for regression).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/tree/route.hpp"
#include "core/util/json.hpp"

namespace dpf {

enum class SplitKind : uint8_t {
  kLeaf,
  kThreshold,  // numeric: x < threshold -> child 0, x >= threshold -> child 1
  kSubset,     // categorical: code in mask -> child 0, otherwise child 1
  kMultiway,   // categorical: code c -> child c (one child per category)
};

struct Node {
  SplitKind kind = SplitKind::kLeaf;
  int16_t depth = 0;
  int32_t feature = -1;
  double threshold = 0.0;
  uint64_t mask = 0;
  int32_t first_child = -1;
  int32_t n_children = 0;
  int32_t leaf = -1;   // index into the leaf-value array
  int32_t count = 0;   // true number of training rows: diagnostics only, never released or used to predict
};

class Tree {
 public:
  explicit Tree(int n_outputs = 1) : n_outputs_(n_outputs) {}

  int n_outputs() const { return n_outputs_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<Node>& mutable_nodes() { return nodes_; }
  std::size_t n_leaves() const { return leaf_values_.size() / static_cast<std::size_t>(n_outputs_); }

  int32_t add_nodes(int count, int16_t depth);   // returns the index of the first new node
  int32_t add_leaf_values(std::span<const double> values);  // returns the leaf index

  // The leaf reached by a row (routing only; no data statistics).
  int32_t leaf_node(const Dataset& data, uint32_t row) const;
  std::span<const double> leaf_value(int32_t leaf) const {
    return {leaf_values_.data() + static_cast<std::size_t>(leaf) * n_outputs_, static_cast<std::size_t>(n_outputs_)};
  }
  int max_depth() const;
  // The tree as a routing mirror (core/tree/route.hpp) whose stop codes are leaf indices (Node::leaf):
  // every row reaches the leaf leaf_node() gives (category codes are finite integers, as
  // Dataset::validate() and the array input require).
  RouteMirror route_mirror() const;

  void describe(JsonWriter& w) const;

 private:
  int n_outputs_;
  std::vector<Node> nodes_;
  std::vector<double> leaf_values_;
};

}  // namespace dpf
