#include "algorithms/common/gradient_tree.hpp"

#include "core/util/error.hpp"

namespace dpf {

int32_t GradientTree::add_leaf(int depth) {
  Node n;
  n.depth = static_cast<int16_t>(depth);
  n.leaf = static_cast<int32_t>(n_leaves_++);
  nodes_.push_back(n);
  values_.push_back(0.0);
  return static_cast<int32_t>(nodes_.size() - 1);
}

int32_t GradientTree::add_split(int depth, int32_t feature, bool categorical, double cut) {
  require(feature >= 0, "GradientTree::add_split: feature must be >= 0, got ", feature);
  Node n;
  n.depth = static_cast<int16_t>(depth);
  n.feature = feature;
  n.categorical = categorical;
  n.cut = cut;
  nodes_.push_back(n);
  return static_cast<int32_t>(nodes_.size() - 1);
}

void GradientTree::set_children(int32_t node, int32_t left, int32_t right) {
  const auto n = static_cast<int32_t>(nodes_.size());
  require(node >= 0 && node < n && left > node && left < n && right > node && right < n && left != right,
          "GradientTree::set_children: bad node indices (", node, ", ", left, ", ", right, ") for ", n, " nodes");
  require(nodes_[static_cast<std::size_t>(node)].feature >= 0, "GradientTree::set_children: node ", node, " is a leaf");
  nodes_[static_cast<std::size_t>(node)].left = left;
  nodes_[static_cast<std::size_t>(node)].right = right;
}

void GradientTree::set_child(int32_t node, bool left, int32_t child) {
  const auto n = static_cast<int32_t>(nodes_.size());
  require(node >= 0 && node < n && child > node && child < n, "GradientTree::set_child: bad node indices (", node,
          ", ", child, ") for ", n, " nodes");
  Node& p = nodes_[static_cast<std::size_t>(node)];
  require(p.feature >= 0, "GradientTree::set_child: node ", node, " is a leaf");
  (left ? p.left : p.right) = child;
}

int32_t GradientTree::leaf_of(const Dataset& data, uint32_t row, Routing r) const {
  std::size_t i = 0;
  while (nodes_[i].feature >= 0) {
    const Node& n = nodes_[i];
    const double x = data.x(row, static_cast<std::size_t>(n.feature));
    const bool left = n.categorical ? x == n.cut : (r == Routing::kLess ? x < n.cut : x <= n.cut);
    i = static_cast<std::size_t>(left ? n.left : n.right);
  }
  return nodes_[i].leaf;
}

void GradientTree::route(const Dataset& data, std::span<const uint32_t> rows, Routing r, std::span<int32_t> out) const {
  require(out.size() == rows.size(), "GradientTree::route: ", rows.size(), " rows but ", out.size(), " outputs");
  for (std::size_t k = 0; k < rows.size(); ++k) out[k] = leaf_of(data, rows[k], r);
}

LeafSums leaf_sums(const GradientTree& tree, const Dataset& data, std::span<const uint32_t> rows,
                   std::span<const double> g, std::span<const double> h, Routing r) {
  require(g.size() == rows.size() && (h.empty() || h.size() == rows.size()), "leaf_sums: ", rows.size(), " rows, ",
          g.size(), " gradients, ", h.size(), " hessians");
  LeafSums s;
  const std::size_t L = tree.n_leaves();
  s.g.assign(L, 0.0);
  s.count.assign(L, 0);
  if (!h.empty()) s.h.assign(L, 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto leaf = static_cast<std::size_t>(tree.leaf_of(data, rows[k], r));
    s.g[leaf] += g[k];
    ++s.count[leaf];
    if (!h.empty()) s.h[leaf] += h[k];
  }
  return s;
}

}  // namespace dpf
