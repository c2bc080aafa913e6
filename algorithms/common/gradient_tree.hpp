// A regression tree of given cuts for gradient boosting: the caller decides every split (a feature and
// a numeric threshold or a category code, e.g. drawn from a public grid as S-BDT does, or chosen by an
// exponential mechanism as DPBoost does) and every leaf value; this piece stores the tree, routes rows
// and sums per-leaf statistics (clipped gradients, hessians, counts) of the rows that reach each leaf.
//
// Routing: a categorical node sends x == code left. A numeric node sends x < threshold left when
// routing training rows and x <= threshold left when predicting, the rule of S-BDT's code
// (s-bdt.md §3.4 step 5, §8.1 item 2: dp_tree.cpp L556 trains with <, L206 predicts with <=); a
// family that wants one rule passes the same Routing to both.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

enum class Routing { kLess, kLessEqual };

class GradientTree {
 public:
  struct Node {
    int32_t feature = -1;  // -1: leaf
    bool categorical = false;
    double cut = 0.0;      // threshold, or category code
    int32_t left = -1, right = -1;
    int32_t leaf = -1;     // leaf: its index in leaf order (0 .. n_leaves - 1)
    int16_t depth = 0;
  };

  // Builders (the root is the first node added). add_leaf returns the node index; add_split returns
  // the node index of an internal node whose children are set with set_children.
  int32_t add_leaf(int depth);
  int32_t add_split(int depth, int32_t feature, bool categorical, double cut);
  void set_children(int32_t node, int32_t left, int32_t right);
  // One child at a time (a tree grown level by level adds a node's children at different times).
  void set_child(int32_t node, bool left, int32_t child);

  std::size_t n_nodes() const { return nodes_.size(); }
  std::size_t n_leaves() const { return n_leaves_; }
  const Node& node(std::size_t i) const { return nodes_[i]; }
  const std::vector<Node>& nodes() const { return nodes_; }

  // The leaf index of one row.
  int32_t leaf_of(const Dataset& data, uint32_t row, Routing r) const;
  // Leaf index of each row (out.size() == rows.size()).
  void route(const Dataset& data, std::span<const uint32_t> rows, Routing r, std::span<int32_t> out) const;

  std::vector<double>& leaf_values() { return values_; }
  const std::vector<double>& leaf_values() const { return values_; }
  // Value of the leaf a row reaches.
  double predict(const Dataset& data, uint32_t row, Routing r) const {
    return values_[static_cast<std::size_t>(leaf_of(data, row, r))];
  }

 private:
  std::vector<Node> nodes_;
  std::vector<double> values_;  // one per leaf (0 until set)
  std::size_t n_leaves_ = 0;
};

// Per-leaf sums over the rows that reach each leaf: sum of `g`, sum of `h` (if given) and the row count.
// g[i] and h[i] belong to rows[i].
struct LeafSums {
  std::vector<double> g, h;
  std::vector<uint32_t> count;
};
LeafSums leaf_sums(const GradientTree& tree, const Dataset& data, std::span<const uint32_t> rows,
                   std::span<const double> g, std::span<const double> h, Routing r);

}  // namespace dpf
