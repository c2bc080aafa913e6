// The grower's row order: a split puts each child's rows in the order std::partition (libstdc++,
// bidirectional) gives, which floating-point sums over a node's rows depend on; the targets and the
// node-ordered feature copies (GrowOptions::node_columns) travel with the rows; the presorted lists
// (GrowOptions::presort) hold every node's rows in (value, row) order.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/tree/grower.hpp"
#include "core/tree/split_search.hpp"
#include "tree_fixtures.hpp"

using namespace dpf;
using dpf::test::RecordingLeaf;
using dpf::test::ScriptedSplit;

namespace {

// x0, x2 numeric with repeated values, x1 categorical (4 codes); rows with bootstrap duplicates.
Dataset shuffled_dataset(std::size_t n, Rng& rng) {
  Dataset d = dpf::test::small_dataset();
  Dataset big("big", d.schema());
  for (std::size_t i = 0; i < n; ++i) {
    const double row[3] = {static_cast<double>(rng.below(40)) / 4.0, static_cast<double>(rng.below(4)),
                           rng.uniform()};
    big.add_row(row, row[0] >= 5.0 ? 1.0 : 0.0);
  }
  return big;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("grower: children's rows in std::partition's order; targets and node columns move with the rows") {
    Rng rng(23);
    Dataset d = shuffled_dataset(3000, rng);
    for (const int variant : {0, 1, 2}) {
      const bool node_columns = variant == 1, presort = variant == 2;
      CAPTURE(variant);
      std::size_t checked = 0, sorted_checked = 0;
      std::vector<uint32_t> rows(2500);
      for (uint32_t& r : rows) r = static_cast<uint32_t>(rng.below(d.n_rows()));  // with duplicates
      const std::vector<uint32_t> root_rows = rows;
      ScriptedSplit split([&](const NodeView& node, Rng& r, PrivacyLedger&) -> std::optional<SplitChoice> {
        REQUIRE(node.y.size() == node.rows.size());
        for (std::size_t i = 0; i < node.rows.size(); ++i) REQUIRE(node.y[i] == d.y()[node.rows[i]]);
        for (int f = 0; f < 3; ++f) {
          REQUIRE(node.column(f).size() == (node_columns ? node.rows.size() : 0u));
          for (std::size_t i = 0; i < node.column(f).size(); ++i) REQUIRE(node.column(f)[i] == d.x(node.rows[i], f));
          // The presorted list: the node's rows (as ids in the root order), sorted by (value, row).
          REQUIRE(node.sorted_ids(f).size() == (presort ? node.rows.size() : 0u));
          if (!presort) continue;
          std::vector<std::pair<double, uint32_t>> want, got;
          for (uint32_t r : node.rows) want.emplace_back(d.x(r, static_cast<std::size_t>(f)), r);
          std::sort(want.begin(), want.end());
          for (std::size_t k = 0; k < node.rows.size(); ++k) {
            const uint32_t id = node.sorted_ids(f)[k];
            REQUIRE(id < root_rows.size());
            got.emplace_back(node.sorted_values(f)[k], root_rows[id]);
            REQUIRE(node.sorted_values(f)[k] == d.x(root_rows[id], static_cast<std::size_t>(f)));
            REQUIRE(node.root_y[id] == d.y()[root_rows[id]]);
          }
          REQUIRE(got == want);
          ++sorted_checked;
        }
        ++checked;
        if (node.rows.size() < 4) return std::nullopt;
        SplitChoice c;
        const uint64_t kind = r.below(5);
        if (kind == 0) {
          c.kind = SplitKind::kSubset;
          c.feature = 1;
          c.mask = 1 + r.below(14);
        } else if (kind == 1 && node.depth < 3) {
          c.kind = SplitKind::kMultiway;
          c.feature = 1;
        } else {
          c.kind = SplitKind::kThreshold;
          c.feature = r.below(2) == 0 ? 0 : 2;
          c.threshold = d.x(node.rows[r.below(node.rows.size())], static_cast<std::size_t>(c.feature));
        }
        return c;
      });
      RecordingLeaf leaf;
      RankIndex index;
      GrowOptions opt;
      opt.max_depth = 12;
      opt.node_columns = node_columns;
      opt.presort = presort ? &index : nullptr;
      PrivacyLedger ledger;
      const Tree t = grow_tree(d, rows, schema_domains(d.schema()), std::vector<int>{0, 1, 2}, split, leaf, opt,
                               Rng(5), ledger);
      auto rows_of = [&](int32_t id) {
        auto it = split.seen.find(id);
        return it != split.seen.end() ? it->second.rows : leaf.seen.at(id).rows;
      };
      std::size_t internal = 0;
      for (std::size_t id = 0; id < t.nodes().size(); ++id) {
        const Node& n = t.nodes()[id];
        if (n.kind == SplitKind::kLeaf) continue;
        ++internal;
        std::vector<uint32_t> want = rows_of(static_cast<int32_t>(id));
        std::span<const double> col = d.column(static_cast<std::size_t>(n.feature));
        if (n.kind == SplitKind::kMultiway) {
          std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) { return col[a] < col[b]; });
        } else {
          std::partition(want.begin(), want.end(), [&](uint32_t r) {
            if (n.kind == SplitKind::kThreshold) return col[r] < n.threshold;
            const auto code = static_cast<uint64_t>(col[r]);
            return code < 64 && ((n.mask >> code) & 1u);
          });
        }
        std::vector<uint32_t> got;
        for (int c = 0; c < n.n_children; ++c) {
          const std::vector<uint32_t> part = rows_of(n.first_child + c);
          got.insert(got.end(), part.begin(), part.end());
        }
        CHECK(got == want);
      }
      CHECK(internal > 50);
      CHECK(checked > 50);
      if (presort) CHECK(sorted_checked == 3 * checked);
    }
  }
}
