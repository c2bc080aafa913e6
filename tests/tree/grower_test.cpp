// The one growing loop (core/tree/grower.hpp) on a hand-made 16-row dataset with scripted policies.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <set>

#include "core/tree/grower.hpp"
#include "core/util/error.hpp"
#include "tree/tree_fixtures.hpp"

using namespace dpf;
using dpf::test::RecordingLeaf;
using dpf::test::ScriptedSplit;
using dpf::test::subset_split;
using dpf::test::threshold_split;

namespace {

struct Grown {
  Tree tree;
  std::vector<uint32_t> rows;
};

Grown grow(const Dataset& d, SplitPolicy& split, LeafPolicy& leaf, int max_depth, PrivacyLedger& ledger,
           bool track = false, uint64_t key = 7, bool unlimited = false) {
  std::vector<FeatureDomain> dom = schema_domains(d.schema());
  std::vector<int> active{0, 1, 2};
  Grown g{Tree(), all_rows(d.n_rows())};
  GrowOptions opt;
  opt.max_depth = max_depth;
  opt.unlimited_depth = unlimited;
  opt.track_privacy = track;
  g.tree = grow_tree(d, g.rows, dom, active, split, leaf, opt, Rng(key), ledger);
  return g;
}

std::vector<uint32_t> sorted(std::vector<uint32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("schema_domains copies numeric bounds and sets one bit per category") {
    Dataset d = dpf::test::small_dataset();
    auto dom = schema_domains(d.schema());
    REQUIRE(dom.size() == 3);
    CHECK(dom[0].lo == 0.0);
    CHECK(dom[0].hi == 10.0);
    CHECK(dom[1].categories == 0b1111u);
    CHECK_FALSE(dom[1].all_categories);
    CHECK(dom[2].hi == 1.0);
  }

  TEST_CASE("threshold splits partition the rows and every leaf's rows satisfy its path") {
    Dataset d = dpf::test::small_dataset();
    // Root: x0 < 5; its lower child: x2 < 0.5; everything else a leaf.
    ScriptedSplit split([](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      if (n.node_id == 0) return threshold_split(0, 5.0);
      if (n.node_id == 1) return threshold_split(2, 0.5);
      return std::nullopt;
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    Grown g = grow(d, split, leaf, 5, ledger);
    const auto& nodes = g.tree.nodes();
    REQUIRE(nodes.size() == 5);
    CHECK(nodes[0].kind == SplitKind::kThreshold);
    CHECK(nodes[0].first_child == 1);
    CHECK(nodes[0].n_children == 2);
    CHECK(nodes[1].first_child == 3);
    CHECK(g.tree.n_leaves() == 3);
    CHECK(nodes[0].count == 16);

    std::set<uint32_t> all;
    std::size_t total = 0;
    for (const auto& [id, seen] : leaf.seen) {
      CAPTURE(id);
      CHECK(nodes[static_cast<std::size_t>(id)].count == static_cast<int32_t>(seen.rows.size()));
      total += seen.rows.size();
      all.insert(seen.rows.begin(), seen.rows.end());
      for (uint32_t r : seen.rows) {
        const double x0 = d.x(r, 0), x2 = d.x(r, 2);
        if (id == 2) CHECK(x0 >= 5.0);
        if (id == 3) CHECK((x0 < 5.0 && x2 < 0.5));
        if (id == 4) CHECK((x0 < 5.0 && x2 >= 0.5));
        // Routing a training row reaches the leaf it was grown into.
        CHECK(g.tree.leaf_node(d, r) == id);
      }
      // The leaf value is what the leaf policy saw.
      auto v = g.tree.leaf_value(nodes[static_cast<std::size_t>(id)].leaf);
      CHECK(v[0] + v[1] == doctest::Approx(static_cast<double>(seen.rows.size())));
    }
    CHECK(total == 16);
    CHECK(all.size() == 16);
    // The node's view of its rows is exactly the rows routed there (node 1 saw the x0 < 5 rows).
    for (uint32_t r : split.seen.at(1).rows) CHECK(d.x(r, 0) < 5.0);
    CHECK(split.seen.at(1).rows.size() + leaf.seen.at(2).rows.size() == 16);
    // The index array is a permutation of the input rows.
    CHECK(sorted(g.rows) == all_rows(16));
  }

  TEST_CASE("numeric domains narrow along the path: lower child [lo, t], upper child [t, hi]") {
    Dataset d = dpf::test::small_dataset();
    ScriptedSplit split([](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      if (n.depth == 0) return threshold_split(0, 4.0);
      if (n.depth == 1) return threshold_split(0, n.node_id == 1 ? 1.0 : 7.0);
      return std::nullopt;
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    grow(d, split, leaf, 5, ledger);
    CHECK(split.seen.at(0).domains[0].lo == 0.0);
    CHECK(split.seen.at(1).domains[0].hi == 4.0);
    CHECK(split.seen.at(1).domains[0].lo == 0.0);
    CHECK(split.seen.at(2).domains[0].lo == 4.0);
    CHECK(split.seen.at(2).domains[0].hi == 10.0);
    // Children of node 1 (x0 < 1 / x0 >= 1 within [0, 4]) and of node 2 ([4, 7] / [7, 10]).
    CHECK(leaf.seen.at(3).domains[0].lo == 0.0);
    CHECK(leaf.seen.at(3).domains[0].hi == 1.0);
    CHECK(leaf.seen.at(4).domains[0].lo == 1.0);
    CHECK(leaf.seen.at(4).domains[0].hi == 4.0);
    CHECK(leaf.seen.at(5).domains[0].lo == 4.0);
    CHECK(leaf.seen.at(5).domains[0].hi == 7.0);
    CHECK(leaf.seen.at(6).domains[0].lo == 7.0);
    CHECK(leaf.seen.at(6).domains[0].hi == 10.0);
    // Other features' domains are untouched, and no feature was removed.
    for (const auto& [id, s] : leaf.seen) {
      CHECK(s.domains[2].hi == 1.0);
      CHECK(s.domains[1].categories == 0b1111u);
      CHECK(s.active == std::vector<int>{0, 1, 2});
    }
  }

  TEST_CASE("a numeric feature whose interval collapses is removed from that child only") {
    Dataset d = dpf::test::small_dataset();
    // Threshold at the domain's lower end: child 0 gets [0, 0] (collapsed), child 1 keeps [0, 10].
    ScriptedSplit split([](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      if (n.node_id == 0) return threshold_split(0, 0.0);
      if (n.node_id == 2) return threshold_split(2, 1.0);  // upper end of x2: child 1 collapses
      return std::nullopt;
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    grow(d, split, leaf, 5, ledger);
    CHECK(leaf.seen.at(1).rows.empty());
    CHECK(leaf.seen.at(1).active == std::vector<int>{1, 2});
    CHECK(split.seen.at(2).active == std::vector<int>{0, 1, 2});
    CHECK(split.seen.at(2).rows.size() == 16);
    CHECK(leaf.seen.at(3).active == std::vector<int>{0, 1, 2});  // x2 in [0, 1]: still open
    CHECK(leaf.seen.at(4).active == std::vector<int>{0, 1});     // x2 in [1, 1]: collapsed
  }

  TEST_CASE("subset splits narrow the category masks and drop a feature left with one category") {
    Dataset d = dpf::test::small_dataset();
    // Root: x1 in {b, d} -> child 0; then child 0 splits {b} vs {d}; child 1 ({a, c}) stops.
    ScriptedSplit split([](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      if (n.node_id == 0) return subset_split(1, 0b1010);
      if (n.node_id == 1) return subset_split(1, 0b0010);
      return std::nullopt;
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    Grown g = grow(d, split, leaf, 5, ledger);
    CHECK(split.seen.at(1).domains[1].categories == 0b1010u);
    CHECK(split.seen.at(1).active == std::vector<int>{0, 1, 2});
    CHECK(leaf.seen.at(2).domains[1].categories == 0b0101u);
    CHECK(leaf.seen.at(3).domains[1].categories == 0b0010u);
    CHECK(leaf.seen.at(4).domains[1].categories == 0b1000u);
    CHECK(leaf.seen.at(3).active == std::vector<int>{0, 2});
    CHECK(leaf.seen.at(4).active == std::vector<int>{0, 2});
    for (uint32_t r : leaf.seen.at(3).rows) CHECK(d.x(r, 1) == 1.0);
    for (uint32_t r : leaf.seen.at(4).rows) CHECK(d.x(r, 1) == 3.0);
    for (uint32_t r : leaf.seen.at(2).rows) CHECK((d.x(r, 1) == 0.0 || d.x(r, 1) == 2.0));
    CHECK(leaf.seen.at(3).rows.size() == 4);
    CHECK(leaf.seen.at(2).rows.size() == 8);
    for (uint32_t r = 0; r < 16; ++r) {
      const int32_t at = g.tree.leaf_node(d, r);
      CHECK(std::count(leaf.seen.at(at).rows.begin(), leaf.seen.at(at).rows.end(), r) == 1);
    }
  }

  TEST_CASE("multiway splits make one child per category, route by code and use the feature up") {
    Dataset d = dpf::test::small_dataset();
    ScriptedSplit split([](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      if (n.node_id != 0) return std::nullopt;
      SplitChoice c;
      c.kind = SplitKind::kMultiway;
      c.feature = 1;
      return c;
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    Grown g = grow(d, split, leaf, 5, ledger);
    const auto& nodes = g.tree.nodes();
    REQUIRE(nodes.size() == 5);
    CHECK(nodes[0].kind == SplitKind::kMultiway);
    CHECK(nodes[0].n_children == 4);
    for (int k = 0; k < 4; ++k) {
      const auto& s = leaf.seen.at(1 + k);
      CHECK(s.rows.size() == 4);
      for (uint32_t r : s.rows) CHECK(d.x(r, 1) == static_cast<double>(k));
      CHECK(s.active == std::vector<int>{0, 2});
      CHECK(nodes[static_cast<std::size_t>(1 + k)].depth == 1);
    }
    for (uint32_t r = 0; r < 16; ++r) CHECK(g.tree.leaf_node(d, r) == 1 + static_cast<int32_t>(d.x(r, 1)));
  }

  TEST_CASE("depth limit: leaves at depth <= max_depth, the split policy never asked at max_depth") {
    Dataset d = dpf::test::small_dataset();
    int deepest_asked = -1;
    ScriptedSplit split([&](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      deepest_asked = std::max(deepest_asked, n.depth);
      const FeatureDomain& dom = n.domains[0];
      return threshold_split(0, 0.5 * (dom.lo + dom.hi));
    });
    for (int depth : {0, 1, 3}) {
      CAPTURE(depth);
      RecordingLeaf leaf;
      PrivacyLedger ledger;
      deepest_asked = -1;
      Grown g = grow(d, split, leaf, depth, ledger);
      CHECK(g.tree.max_depth() == depth);
      CHECK(g.tree.n_leaves() == (std::size_t{1} << depth));
      CHECK(deepest_asked == depth - 1);
      for (const Node& n : g.tree.nodes())
        if (n.kind == SplitKind::kLeaf) CHECK(n.depth == depth);
    }
    // Unlimited depth: the policy alone decides (here: stop at depth 6).
    ScriptedSplit deep([](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      if (n.depth >= 6) return std::nullopt;
      return threshold_split(2, 0.5 * (n.domains[2].lo + n.domains[2].hi));
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    Grown g = grow(d, deep, leaf, 0, ledger, false, 7, /*unlimited=*/true);
    CHECK(g.tree.max_depth() == 6);
    CHECK(g.tree.n_leaves() == 64);
  }

  TEST_CASE("a node with no usable feature becomes a leaf without asking the split policy") {
    Dataset d = dpf::test::small_dataset();
    int asked = 0;
    ScriptedSplit split([&](const NodeView&, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      ++asked;
      SplitChoice c;
      c.kind = SplitKind::kMultiway;
      c.feature = 1;
      return c;
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    std::vector<FeatureDomain> dom = schema_domains(d.schema());
    std::vector<int> active{1};  // only the categorical feature: used up by the root's multiway split
    std::vector<uint32_t> rows = all_rows(16);
    GrowOptions opt;
    opt.max_depth = 4;
    Tree t = grow_tree(d, rows, dom, active, split, leaf, opt, Rng(1), ledger);
    CHECK(asked == 1);
    CHECK(t.n_leaves() == 4);
    CHECK(t.max_depth() == 1);
  }

  TEST_CASE("node streams: the same key gives an identical tree, and a node's draws do not move others") {
    Dataset d = dpf::test::small_dataset();
    // Thresholds on x0 are raw uniform draws in [0, 1) (not scaled by the narrowed domain), so each
    // node's threshold shows its own stream only; x1 and x2 stay usable, so the shape is fixed.
    auto random_split = [](int extra_draws_at_node1) {
      return [extra_draws_at_node1](const NodeView& n, Rng& rng, PrivacyLedger&) -> std::optional<SplitChoice> {
        if (n.node_id == 1)
          for (int i = 0; i < extra_draws_at_node1; ++i) rng.next_u64();
        return threshold_split(0, rng.uniform());
      };
    };
    auto thresholds = [&](int extra, uint64_t key) {
      ScriptedSplit split(random_split(extra));
      RecordingLeaf leaf;
      PrivacyLedger ledger;
      Grown g = grow(d, split, leaf, 4, ledger, false, key);
      std::vector<double> t;
      for (const Node& n : g.tree.nodes()) t.push_back(n.kind == SplitKind::kLeaf ? -1.0 : n.threshold);
      return t;
    };
    const auto a = thresholds(0, 11), b = thresholds(0, 11), c = thresholds(0, 12), e = thresholds(5, 11);
    CHECK(a.size() == 31);
    CHECK(a == b);
    CHECK(a != c);
    REQUIRE(a.size() == e.size());  // full binary tree of depth 4: same node ids in both
    CHECK(a[1] != e[1]);            // node 1 drew more
    // Every other node, before or after node 1 in the depth-first order, keeps its threshold.
    for (std::size_t i = 0; i < a.size(); ++i)
      if (i != 1) CHECK(a[i] == e[i]);
  }

  TEST_CASE("ledger scopes: a node's own charges add along a path, children compose by max") {
    Dataset d = dpf::test::small_dataset();
    // Full binary tree of depth 2: nodes 0 | 1, 2 | leaves 3, 4 (under 1) and 5, 6 (under 2).
    ScriptedSplit split([](const NodeView& n, Rng&, PrivacyLedger& ledger) -> std::optional<SplitChoice> {
      const double eps[] = {0.1, 0.2, 0.3};
      ledger.charge(n.scope, "test-split", eps[n.node_id], 1.0);
      if (n.node_id == 0) ledger.charge(n.scope, "test-split", 0.1, 1.0);  // the root charges twice
      return threshold_split(0, 0.5 * (n.domains[0].lo + n.domains[0].hi));
    });
    RecordingLeaf leaf([](const NodeView& n, PrivacyLedger& ledger) {
      const double eps = n.node_id == 3 ? 0.5 : n.node_id == 6 ? 0.7 : 0.1;
      ledger.charge(n.scope, "test-leaf", eps, 1.0);
    });
    PrivacyLedger ledger;
    grow(d, split, leaf, 2, ledger, /*track=*/true);
    // Paths: 0.2 + 0.2 + {0.5, 0.1} and 0.2 + 0.3 + {0.1, 0.7}: the largest is 0.2 + 0.3 + 0.7.
    CHECK(ledger.spent() == doctest::Approx(1.2).epsilon(1e-12));
    CHECK(ledger.spent_conservative() == doctest::Approx(1.2).epsilon(1e-12));
    CHECK(ledger.n_charges() == 8);
    // Sub-scopes: node 1's subtree composes to 0.2 + 0.5, node 2's to 0.3 + 0.7.
    CHECK(ledger.spent(split.seen.at(1).scope) == doctest::Approx(0.7).epsilon(1e-12));
    CHECK(ledger.spent(split.seen.at(2).scope) == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(ledger.spent(leaf.seen.at(4).scope) == doctest::Approx(0.1).epsilon(1e-12));
    // Every node got its own scope.
    std::set<PrivacyLedger::ScopeId> scopes;
    for (const auto& [id, s] : split.seen) scopes.insert(s.scope);
    for (const auto& [id, s] : leaf.seen) scopes.insert(s.scope);
    CHECK(scopes.size() == 7);
    CHECK(*scopes.begin() > PrivacyLedger::kRoot);

    // Without tracking, nodes get no scope.
    ScriptedSplit quiet([](const NodeView& n, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      if (n.depth > 0) return std::nullopt;
      return threshold_split(0, 5.0);
    });
    RecordingLeaf leaf2;
    PrivacyLedger none;
    grow(d, quiet, leaf2, 3, none, false);
    CHECK(quiet.seen.at(0).scope == -1);
    CHECK(leaf2.seen.at(1).scope == -1);
    CHECK(none.n_charges() == 0);
  }

  TEST_CASE("a split on a feature outside the schema is an error naming it") {
    Dataset d = dpf::test::small_dataset();
    ScriptedSplit split([](const NodeView&, Rng&, PrivacyLedger&) -> std::optional<SplitChoice> {
      return threshold_split(9, 0.0);
    });
    RecordingLeaf leaf;
    PrivacyLedger ledger;
    CHECK_THROWS_WITH_AS(grow(d, split, leaf, 2, ledger), doctest::Contains("feature 9"), Error);
  }
}
