// DP-DF pruning (dipreme.md §3.5; Greedy_DP_Forest DP_Tree.prune_tree): the rule on hand-built
// trees (weights over the parent's noisy size, depth >= 2, the upward step), and through the
// registry: prune=false is the unpruned forest, pruning spends nothing, and a pruned tree is the
// unpruned tree with some subtrees collapsed into leaves.
#include <doctest/doctest.h>

#include <numeric>
#include <set>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/dp_df/prune.hpp"
#include "core/data/preprocess.hpp"

using namespace dpf;
using dpf::test::fit_registry;
using dpf::test::synthetic;

namespace {

// A tree built by hand: `children[i]` lists node i's children (empty: a leaf). Nodes are laid out
// the grower's way (children contiguous). Every leaf gets the value {i, 0} so it can be recognised.
struct Hand {
  Tree tree{2};
  std::vector<DfNodeNoise> noise;
};

Hand hand_tree(const std::vector<std::vector<int>>& children) {
  Hand h;
  h.tree.add_nodes(1, 0);
  std::vector<int32_t> at(children.size(), -1);  // hand id -> tree id
  at[0] = 0;
  // Depth-first as the grower: allocate a node's children, then descend into each.
  auto build = [&](auto&& self, int id) -> void {
    const int32_t t = at[static_cast<std::size_t>(id)];
    const auto& ch = children[static_cast<std::size_t>(id)];
    if (ch.empty()) {
      std::vector<double> v{static_cast<double>(id), 0.0};
      const int32_t leaf = h.tree.add_leaf_values(v);
      h.tree.mutable_nodes()[static_cast<std::size_t>(t)].leaf = leaf;
      return;
    }
    const int16_t depth = h.tree.nodes()[static_cast<std::size_t>(t)].depth;
    const int32_t first = h.tree.add_nodes(static_cast<int>(ch.size()), static_cast<int16_t>(depth + 1));
    Node& n = h.tree.mutable_nodes()[static_cast<std::size_t>(t)];
    n.kind = SplitKind::kMultiway;
    n.feature = id;
    n.first_child = first;
    n.n_children = static_cast<int>(ch.size());
    for (std::size_t k = 0; k < ch.size(); ++k) at[static_cast<std::size_t>(ch[k])] = first + static_cast<int32_t>(k);
    for (int c : ch) self(self, c);
  };
  build(build, 0);
  // Noise by tree id: every node has Gini 0.5 and noisy size 10; its collapsed value is {hand id, 1}.
  h.noise.resize(children.size());
  for (std::size_t i = 0; i < children.size(); ++i)
    h.noise[static_cast<std::size_t>(at[i])] = DfNodeNoise{true, 0.5, 10.0, {static_cast<double>(i), 1.0}};
  return h;
}

DfNodeNoise& noise_of(Hand& h, int hand_id) {
  for (auto& n : h.noise)
    if (n.value[0] == hand_id) return n;
  FAIL("no node ", hand_id);
  return h.noise[0];
}

// Hand ids of the leaves of a pruned tree, in order, with 1 in value[1] for collapsed nodes.
std::vector<std::pair<int, int>> leaves(const Tree& t) {
  std::vector<std::pair<int, int>> out;
  for (const Node& n : t.nodes())
    if (n.kind == SplitKind::kLeaf) {
      auto v = t.leaf_value(n.leaf);
      out.emplace_back(static_cast<int>(v[0]), static_cast<int>(v[1]));
    }
  return out;
}

Dataset binned(std::size_t n, uint64_t seed) { return bin_equal_width(synthetic(n, TaskKind::kClassification, seed), 5); }

// `p` (pruned) equals `u` (unpruned) with some internal nodes made leaves; counts how many.
void check_collapsed_copy(const Tree& p, int32_t ip, const Tree& u, int32_t iu, int& collapsed) {
  const Node& a = p.nodes()[static_cast<std::size_t>(ip)];
  const Node& b = u.nodes()[static_cast<std::size_t>(iu)];
  CHECK(a.depth == b.depth);
  CHECK(a.count == b.count);
  if (a.kind == SplitKind::kLeaf) {
    auto v = p.leaf_value(a.leaf);
    if (b.kind == SplitKind::kLeaf) {
      auto w = u.leaf_value(b.leaf);
      CHECK(std::vector<double>(v.begin(), v.end()) == std::vector<double>(w.begin(), w.end()));
    } else {
      ++collapsed;  // an internal node's own noisy fractions: a distribution
      CHECK(std::accumulate(v.begin(), v.end(), 0.0) == doctest::Approx(1.0));
    }
    return;
  }
  REQUIRE(b.kind == a.kind);
  CHECK(a.feature == b.feature);
  REQUIRE(a.n_children == b.n_children);
  for (int k = 0; k < a.n_children; ++k) check_collapsed_copy(p, a.first_child + k, u, b.first_child + k, collapsed);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("dp-df pruning: a node at depth >= 2 with leaf children collapses when the weighted child Gini >= its own") {
    // 0 -> {1, 2}; 1 -> {3, 4}; 3 -> {5, 6}: node 3 is at depth 2.
    const std::vector<std::vector<int>> shape{{1, 2}, {3, 4}, {}, {5, 6}, {}, {}, {}};
    Hand h = hand_tree(shape);
    // Node 3 (gini 0.4, ñ 10) vs children 0.5·5/10 + 0.5·4/10 = 0.45 >= 0.4: collapsed; then node 1
    // (depth 1) is tested through the upward step: 0.4·10/10 + 0.5·10/10 = 0.9 >= 0.5: collapsed too.
    noise_of(h, 3).gini = 0.4;
    noise_of(h, 5).size = 5;
    noise_of(h, 6).size = 4;
    int n = 0;
    Tree p = prune_dp_df_tree(h.tree, h.noise, &n);
    CHECK(n == 2);
    CHECK(p.nodes().size() == 3);
    CHECK(leaves(p) == std::vector<std::pair<int, int>>{{1, 1}, {2, 0}});  // node 1's own noisy value

    // Weights are the children's noisy sizes over the PARENT's (10), not over their sum (8):
    // 0.45·4/10 + 0.45·4/10 = 0.36 < 0.4 keeps node 3 (normalised by 8 it would be 0.45 >= 0.4).
    Hand k = hand_tree(shape);
    noise_of(k, 3).gini = 0.4;
    for (int c : {5, 6}) { noise_of(k, c).gini = 0.45; noise_of(k, c).size = 4; }
    Tree q = prune_dp_df_tree(k.tree, k.noise, &n);
    CHECK(n == 0);
    CHECK(q.nodes().size() == k.tree.nodes().size());
    CHECK(leaves(q) == leaves(k.tree));
  }

  TEST_CASE("dp-df pruning: depth-1 nodes only through the upward step, never the root; the upward step ignores grandchildren") {
    // 0 -> {1, 2}; 1 -> {3, 4}: node 1 is at depth 1 with leaf children and is not tested.
    Hand a = hand_tree({{1, 2}, {3, 4}, {}, {}, {}});
    int n = 0;
    Tree p = prune_dp_df_tree(a.tree, a.noise, &n);  // every test would pass (0.5 + 0.5 >= 0.5)
    CHECK(n == 0);
    CHECK(p.nodes().size() == a.tree.nodes().size());

    // 0 -> {1}; 1 -> {2}; 2 -> {3, 4}; 3 -> {5, 6}; 4 -> {7, 8}; 7 -> {9, 10}.
    // Node 3 (depth 3, leaf children) collapses; the upward step then collapses node 2 although its
    // child 4 still has a subtree, then node 1 (depth 1), and stops below the root.
    Hand b = hand_tree({{1}, {2}, {3, 4}, {5, 6}, {7, 8}, {}, {}, {9, 10}, {}, {}, {}});
    noise_of(b, 7).gini = 2.0;  // node 7 (unreachable after the collapse) fails its own test: 3 collapses in all
    Tree q = prune_dp_df_tree(b.tree, b.noise, &n);
    CHECK(n == 3);
    CHECK(leaves(q) == std::vector<std::pair<int, int>>{{1, 1}});
    CHECK(q.nodes().size() == 2);
    CHECK(q.nodes()[0].kind == SplitKind::kMultiway);
  }

  TEST_CASE("dp-df prune=false is the forest grown before pruning existed; pruning spends nothing and only collapses") {
    int total_collapsed = 0;
    for (uint64_t seed : {1, 2, 3}) {
      Dataset d = binned(1500, seed);
      for (const char* eps : {"1", "20"}) {
        std::map<std::string, std::string> base{{"epsilon", eps}, {"max_height", "6"}, {"n_trees", "6"}};
        auto u = fit_registry("dp-df", base, d, seed);
        auto off = base;
        off["prune"] = "false";
        auto f = fit_registry("dp-df", off, d, seed);
        CHECK(f.model->describe() == u.model->describe());  // bit-identical, ledger summary included
        auto on = base;
        on["prune"] = "true";
        auto p = fit_registry("dp-df", on, d, seed);
        CHECK(p.ledger.spent() == u.ledger.spent());
        CHECK(p.ledger.spent_conservative() == u.ledger.spent_conservative());
        CHECK(p.ledger.summary() == u.ledger.summary());
        CHECK(p.ledger.certified() == u.ledger.certified());
        const auto& pt = p.forest()->trees();
        const auto& ut = u.forest()->trees();
        REQUIRE(pt.size() == ut.size());
        for (std::size_t t = 0; t < pt.size(); ++t) {
          CHECK(pt[t].nodes().size() <= ut[t].nodes().size());
          CHECK(pt[t].n_leaves() <= ut[t].n_leaves());
          CHECK(pt[t].nodes()[0].kind == ut[t].nodes()[0].kind);  // the root is never collapsed
          check_collapsed_copy(pt[t], 0, ut[t], 0, total_collapsed);
        }
      }
    }
    CHECK(total_collapsed > 0);  // the fits above do prune: the checks are not vacuous
  }

  TEST_CASE("dp-df pruning with authors_asrun: still the root's noisy majority everywhere") {
    Dataset d = binned(800, 4);
    auto f = fit_registry("dp-df", {{"epsilon", "100"}, {"max_height", "5"}, {"prune", "true"},
                                    {"reference_quirks", "authors_asrun"}}, d);
    std::vector<uint32_t> rows = all_rows(d.n_rows());
    Predictions p = f.model->predict(d, rows);
    CHECK(std::set<int>(p.label.begin(), p.label.end()).size() == 1);
  }
}
