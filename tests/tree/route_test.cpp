// Routing through a tree's mirror (core/tree/route.hpp) reaches exactly Tree::leaf_node()'s leaf,
// and ForestModel::predict (blocks of rows through the mirrors) gives the scores of a plain
// tree-by-tree, row-by-row loop, bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/privacy/rng.hpp"
#include "core/tree/forest.hpp"
#include "core/tree/route.hpp"

using namespace dpf;

namespace {

// Numeric x0, x1 (with NaN, infinities, signed zeros and values equal to thresholds), categorical
// c4 (4 codes) and c70 (70 codes: beyond a subset mask's 64 bits).
Dataset awkward_dataset(std::size_t n, uint64_t seed) {
  Schema s;
  s.features = {Feature{"x0", FeatureKind::kNumeric, -1.0, 1.0, {}}, Feature{"x1", FeatureKind::kNumeric, -1.0, 1.0, {}}};
  std::vector<std::string> c4 = {"a", "b", "c", "d"}, c70;
  for (int i = 0; i < 70; ++i) c70.push_back("v" + std::to_string(i));
  s.features.push_back(Feature{"c4", FeatureKind::kCategorical, 0, 0, c4});
  s.features.push_back(Feature{"c70", FeatureKind::kCategorical, 0, 0, c70});
  s.target.task = TaskKind::kClassification;
  s.target.classes = {"0", "1", "2"};
  Dataset d("awkward", s);
  Rng rng(seed);
  const double special[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(), 0.0, -0.0, 0.25, -0.5};
  for (std::size_t i = 0; i < n; ++i) {
    double x[4];
    for (int f = 0; f < 2; ++f)
      x[f] = rng.below(8) == 0 ? special[rng.below(7)] : std::round(rng.uniform(-1, 1) * 8) / 8;  // ties with thresholds
    x[2] = static_cast<double>(rng.below(4));
    x[3] = static_cast<double>(rng.below(70));
    d.add_row(x, static_cast<double>(rng.below(3)));
  }
  return d;
}

// A random tree of every split kind, up to `depth` levels, with `outputs` values per leaf.
Tree random_tree(Rng& rng, int depth, int outputs) {
  Tree t(outputs);
  t.add_nodes(1, 0);
  std::vector<int32_t> pending{0};
  while (!pending.empty()) {
    const int32_t i = pending.back();
    pending.pop_back();
    const int d = t.nodes()[static_cast<std::size_t>(i)].depth;
    const uint64_t kind = d >= depth ? 3 : rng.below(4);
    if (kind == 3 || (d > 0 && rng.below(6) == 0)) {
      std::vector<double> v(static_cast<std::size_t>(outputs));
      for (double& x : v) x = rng.uniform();
      t.mutable_nodes()[static_cast<std::size_t>(i)].leaf = t.add_leaf_values(v);
      continue;
    }
    Node n;
    n.depth = static_cast<int16_t>(d);
    if (kind == 0) {
      n.kind = SplitKind::kThreshold;
      n.feature = static_cast<int32_t>(rng.below(2));
      n.threshold = rng.below(4) == 0 ? 0.0 : std::round(rng.uniform(-1, 1) * 8) / 8;
      n.n_children = 2;
    } else if (kind == 1) {
      n.kind = SplitKind::kSubset;
      n.feature = rng.below(2) == 0 ? 2 : 3;
      n.mask = rng.next_u64();
      n.n_children = 2;
    } else {
      n.kind = SplitKind::kMultiway;
      n.feature = 2;
      n.n_children = 1 + static_cast<int32_t>(rng.below(4));  // fewer children than codes: clamped
    }
    n.first_child = t.add_nodes(n.n_children, static_cast<int16_t>(d + 1));
    t.mutable_nodes()[static_cast<std::size_t>(i)] = n;
    for (int c = 0; c < n.n_children; ++c) pending.push_back(n.first_child + c);
  }
  return t;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("RowBlock::load copies rows[k]'s values, whether the rows are consecutive or not") {
    Dataset d = awkward_dataset(1000, 3);
    RowBlock block(d);
    const std::vector<std::vector<uint32_t>> cases = {
        {5, 6, 7, 8, 9},                      // consecutive: the plain-copy path
        {9, 8, 7, 6, 5},                      // descending
        {5, 6, 7, 8, 10},                     // consecutive but for the last
        {0},                                  // one row
        {999, 3, 500, 500, 1}};               // a gather with a repeat
    for (const auto& rows : cases) {
      block.load(rows);
      REQUIRE(block.size() == rows.size());
      for (std::size_t k = 0; k < rows.size(); ++k)
        for (std::size_t f = 0; f < d.n_features(); ++f) {
          CAPTURE(k);
          CAPTURE(f);
          const double want = d.column(f)[rows[k]];
          REQUIRE(((std::isnan(want) && std::isnan(block.value(k, f))) || block.value(k, f) == want));
        }
    }
  }

  TEST_CASE("route mirror of a tree: every row reaches leaf_node()'s leaf (thresholds, subsets, multiway)") {
    Dataset d = awkward_dataset(1000, 3);
    Rng rng(11);
    RowBlock block(d);
    int32_t at[RowBlock::kRows];
    for (int trial = 0; trial < 40; ++trial) {
      const Tree t = random_tree(rng, 2 + trial % 12, 2);
      const RouteMirror m = t.route_mirror();
      for (uint32_t b = 0; b < d.n_rows(); b += RowBlock::kRows) {
        std::vector<uint32_t> rows;
        for (uint32_t r = b; r < std::min<uint32_t>(b + RowBlock::kRows, static_cast<uint32_t>(d.n_rows())); ++r) rows.push_back(r);
        block.load(rows);
        block.route(m, at);
        for (std::size_t k = 0; k < rows.size(); ++k) {
          CAPTURE(trial);
          CAPTURE(rows[k]);
          REQUIRE(m.code(at[k]) == t.nodes()[static_cast<std::size_t>(t.leaf_node(d, rows[k]))].leaf);
        }
      }
    }
  }

  TEST_CASE("ForestModel::predict equals a tree-by-tree loop of leaf_node() for every vote") {
    Dataset d = awkward_dataset(80000, 5);  // more rows than one super-block of row blocks (32,768 here)
    Rng rng(19);
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < d.n_rows(); r += 1 + static_cast<uint32_t>(rng.below(2))) rows.push_back(r);
    std::reverse(rows.begin(), rows.end());
    for (Vote vote : {Vote::kSoft, Vote::kHard, Vote::kWeighted, Vote::kMean}) {
      const bool reg = vote == Vote::kMean;
      const int outputs = reg ? 1 : 3;
      ForestModel model("t", reg ? TaskKind::kRegression : TaskKind::kClassification, reg ? 0 : 3, vote);
      std::vector<Tree> trees;
      for (int i = 0; i < 7; ++i) {
        trees.push_back(random_tree(rng, 9, outputs));
        model.add_tree(trees.back());
      }
      const Predictions p = model.predict(d, rows);
      const std::size_t w = reg ? 1 : 3;
      std::vector<double> want(rows.size() * w, 0.0);
      for (const Tree& t : trees)
        for (std::size_t i = 0; i < rows.size(); ++i) {
          auto leaf = t.leaf_value(t.nodes()[static_cast<std::size_t>(t.leaf_node(d, rows[i]))].leaf);
          if (reg || vote == Vote::kSoft) {
            for (std::size_t c = 0; c < w; ++c) want[i * w + c] += leaf[c];
          } else {
            const auto best = static_cast<std::size_t>(std::max_element(leaf.begin(), leaf.end()) - leaf.begin());
            want[i * w + best] += vote == Vote::kWeighted ? leaf[best] : 1.0;
          }
        }
      for (double& v : want) v /= 7.0;
      REQUIRE(p.value.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) CHECK(p.value[i] == want[i]);
    }
  }
}
