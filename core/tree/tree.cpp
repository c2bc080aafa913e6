#include "core/tree/tree.hpp"

#include <algorithm>

namespace dpf {

int32_t Tree::add_nodes(int count, int16_t depth) {
  auto first = static_cast<int32_t>(nodes_.size());
  nodes_.resize(nodes_.size() + static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) nodes_[static_cast<std::size_t>(first + i)].depth = depth;
  return first;
}

int32_t Tree::add_leaf_values(std::span<const double> values) {
  auto leaf = static_cast<int32_t>(n_leaves());
  leaf_values_.insert(leaf_values_.end(), values.begin(), values.end());
  return leaf;
}

int32_t Tree::leaf_node(const Dataset& data, uint32_t row) const {
  int32_t n = 0;
  for (;;) {
    const Node& node = nodes_[static_cast<std::size_t>(n)];
    switch (node.kind) {
      case SplitKind::kLeaf:
        return n;
      case SplitKind::kThreshold:
        n = node.first_child + (data.x(row, static_cast<std::size_t>(node.feature)) < node.threshold ? 0 : 1);
        break;
      case SplitKind::kSubset: {
        auto code = static_cast<uint64_t>(data.x(row, static_cast<std::size_t>(node.feature)));
        bool in = code < 64 && ((node.mask >> code) & 1u);
        n = node.first_child + (in ? 0 : 1);
        break;
      }
      case SplitKind::kMultiway: {
        auto code = static_cast<int32_t>(data.x(row, static_cast<std::size_t>(node.feature)));
        code = std::clamp(code, 0, node.n_children - 1);
        n = node.first_child + code;
        break;
      }
    }
  }
}

RouteMirror Tree::route_mirror() const {
  RouteMirror m;
  std::vector<int32_t> children, child_of;
  std::vector<std::pair<int32_t, int32_t>> stack{{0, 0}};  // (node, its mirror node), parents first
  while (!stack.empty()) {
    const auto [i, at] = stack.back();
    stack.pop_back();
    const Node& node = nodes_[static_cast<std::size_t>(i)];
    children.resize(static_cast<std::size_t>(std::max(node.n_children, 0)));
    switch (node.kind) {
      case SplitKind::kLeaf:
        m.set_code(at, node.leaf);
        continue;
      case SplitKind::kThreshold: {
        const int32_t first = m.split_threshold(at, node.threshold, node.feature);
        children = {first, first + 1};
        break;
      }
      case SplitKind::kSubset:  // code < 64 with its mask bit set: child 0; other codes: child 1
        child_of.resize(64);
        for (int32_t c = 0; c < 64; ++c) child_of[static_cast<std::size_t>(c)] = ((node.mask >> c) & 1u) ? 0 : 1;
        m.split_codes(at, node.feature, child_of, 1, 2, children.data());
        break;
      case SplitKind::kMultiway:  // code clamped to 0 .. n_children - 1
        child_of.resize(static_cast<std::size_t>(node.n_children));
        for (int32_t c = 0; c < node.n_children; ++c) child_of[static_cast<std::size_t>(c)] = c;
        m.split_codes(at, node.feature, child_of, node.n_children - 1, node.n_children, children.data());
        break;
    }
    for (int32_t c = 0; c < node.n_children; ++c) stack.emplace_back(node.first_child + c, children[static_cast<std::size_t>(c)]);
  }
  return m;
}

int Tree::max_depth() const {
  int d = 0;
  for (const Node& n : nodes_) d = std::max<int>(d, n.depth);
  return d;
}

void Tree::describe(JsonWriter& w) const {
  w.begin_object();
  w.field("n_nodes", static_cast<int64_t>(nodes_.size()));
  w.field("n_leaves", static_cast<int64_t>(n_leaves()));
  w.field("max_depth", max_depth());
  w.key("nodes").begin_array();
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    w.begin_object();
    w.field("id", static_cast<int64_t>(i));
    w.field("depth", static_cast<int>(n.depth));
    w.field("count", n.count);
    switch (n.kind) {
      case SplitKind::kLeaf: {
        w.field("kind", "leaf");
        auto v = leaf_value(n.leaf);
        w.array("value", std::vector<double>(v.begin(), v.end()));
        break;
      }
      case SplitKind::kThreshold:
        w.field("kind", "threshold").field("feature", n.feature).field("threshold", n.threshold);
        break;
      case SplitKind::kSubset:
        w.field("kind", "subset").field("feature", n.feature).field("mask", static_cast<int64_t>(n.mask));
        break;
      case SplitKind::kMultiway:
        w.field("kind", "multiway").field("feature", n.feature);
        break;
    }
    if (n.kind != SplitKind::kLeaf) {
      w.key("children").begin_array();
      for (int c = 0; c < n.n_children; ++c) w.value(static_cast<int64_t>(n.first_child + c));
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace dpf
