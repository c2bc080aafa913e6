// DP-DF pruning (dipreme.md §3.5): see prune.hpp for the rule and where each detail comes from.
#include "algorithms/dp_df/prune.hpp"

#include "core/util/error.hpp"

namespace dpf {

double noisy_gini(std::span<const double> counts, double size) {
  if (size <= 0) return 0.0;
  double s = 0;
  for (double c : counts) s += (c / size) * (c / size);
  return 1.0 - s;
}

namespace {

class Pruner {
 public:
  Pruner(const Tree& tree, std::span<const DfNodeNoise> noise)
      : tree_(tree), nodes_(tree.nodes()), noise_(noise), parent_(nodes_.size(), -1), collapsed_(nodes_.size(), 0) {
    require(noise.size() >= nodes_.size(), "dp-df pruning: noisy counts of ", noise.size(), " nodes for a tree of ",
            nodes_.size());
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      require(noise[i].seen, "dp-df pruning: node ", i, " has no noisy counts");
      const Node& n = nodes_[i];
      if (n.kind != SplitKind::kLeaf)
        for (int k = 0; k < n.n_children; ++k) parent_[static_cast<std::size_t>(n.first_child + k)] = static_cast<int32_t>(i);
    }
  }

  // _traverse_down(pruning=True): post-order; a node at depth >= 2 whose children are all leaves is tested.
  void walk(int32_t id) {
    const Node& n = node(id);
    if (n.kind == SplitKind::kLeaf) return;
    for (int k = 0; k < n.n_children; ++k) walk(n.first_child + k);
    if (is_leaf(id) || n.depth < 2) return;
    for (int k = 0; k < n.n_children; ++k)
      if (!is_leaf(n.first_child + k)) return;
    test(id);
  }

  // _prune_leaf: the Gini test, then the parent's when a node at depth >= 2 was collapsed.
  void test(int32_t id) {
    if (is_leaf(id)) return;
    const Node& n = node(id);
    const DfNodeNoise& p = noise_[static_cast<std::size_t>(id)];
    require(p.size > 0, "dp-df pruning: internal node ", id, " has noisy size 0");
    double weighted = 0.0;  // Σ gini_child · ñ_child / ñ_parent, in the code's order of operations
    for (int k = 0; k < n.n_children; ++k) {
      const DfNodeNoise& c = noise_[static_cast<std::size_t>(n.first_child + k)];
      weighted += c.gini * c.size / p.size;
    }
    if (weighted >= p.gini) {
      collapsed_[static_cast<std::size_t>(id)] = 1;
      ++n_pruned_;
      if (n.depth >= 2) test(parent_[static_cast<std::size_t>(id)]);
    }
  }

  void copy(int32_t src, Tree& dst, int32_t to) const {
    const Node& a = node(src);
    {
      Node& b = dst.mutable_nodes()[static_cast<std::size_t>(to)];
      b.count = a.count;
      b.kind = a.kind;
      b.feature = a.feature;
      b.threshold = a.threshold;
      b.mask = a.mask;
    }
    if (a.kind == SplitKind::kLeaf) {
      const int32_t leaf = dst.add_leaf_values(leaf_value_of(src));
      dst.mutable_nodes()[static_cast<std::size_t>(to)].leaf = leaf;
      return;
    }
    if (is_leaf(src)) {
      const int32_t leaf = dst.add_leaf_values(noise_[static_cast<std::size_t>(src)].value);
      Node& b = dst.mutable_nodes()[static_cast<std::size_t>(to)];
      b.kind = SplitKind::kLeaf;
      b.feature = -1;
      b.threshold = 0.0;
      b.mask = 0;
      b.leaf = leaf;
      return;
    }
    const int32_t first = dst.add_nodes(a.n_children, static_cast<int16_t>(a.depth + 1));
    Node& b = dst.mutable_nodes()[static_cast<std::size_t>(to)];
    b.first_child = first;
    b.n_children = a.n_children;
    for (int k = 0; k < a.n_children; ++k) copy(a.first_child + k, dst, first + k);
  }

  int n_pruned() const { return n_pruned_; }

 private:
  const Node& node(int32_t id) const { return nodes_[static_cast<std::size_t>(id)]; }
  bool is_leaf(int32_t id) const {
    return node(id).kind == SplitKind::kLeaf || collapsed_[static_cast<std::size_t>(id)] != 0;
  }
  std::span<const double> leaf_value_of(int32_t id) const { return tree_.leaf_value(node(id).leaf); }

  const Tree& tree_;
  const std::vector<Node>& nodes_;
  std::span<const DfNodeNoise> noise_;
  std::vector<int32_t> parent_;
  std::vector<char> collapsed_;
  int n_pruned_ = 0;
};

}  // namespace

Tree prune_dp_df_tree(const Tree& tree, std::span<const DfNodeNoise> noise, int* n_pruned) {
  require(!tree.nodes().empty(), "dp-df pruning: empty tree");
  Pruner p(tree, noise);
  p.walk(0);
  Tree out(tree.n_outputs());
  out.add_nodes(1, 0);
  p.copy(0, out, 0);
  if (n_pruned) *n_pruned = p.n_pruned();
  return out;
}

}  // namespace dpf
