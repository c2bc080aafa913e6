// RankIndex orders rows exactly as sorting (value, row) pairs does (radix ranks included: signed
// zeros, infinities, subnormals, duplicates, bootstrap copies), by row and by position, and the
// Gini sweep's two-class path finds the same best split as the general one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/privacy/rng.hpp"
#include "core/tree/split_search.hpp"

using namespace dpf;

namespace {

Dataset tricky(std::size_t n, uint64_t seed) {
  Schema s;
  s.features = {Feature{"x", FeatureKind::kNumeric, -1.0, 1.0, {}}, Feature{"z", FeatureKind::kNumeric, -1.0, 1.0, {}}};
  s.target.task = TaskKind::kClassification;
  s.target.classes = {"0", "1", "2"};
  Dataset d("tricky", s);
  Rng rng(seed);
  const double special[] = {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                            1e300, -1e-300, 0.5, -0.5};
  for (std::size_t i = 0; i < n; ++i) {
    double x[2];
    for (double& v : x) v = rng.below(3) == 0 ? special[rng.below(10)] : std::round(rng.uniform(-4, 4) * 16) / 16;
    d.add_row(x, static_cast<double>(rng.below(3)));
  }
  return d;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("RankIndex: rows and positions in (value, row) order, radix ranks and comparison ranks alike") {
    Dataset d = tricky(5000, 3);
    Rng rng(9);
    std::vector<uint32_t> rows(4000);
    for (uint32_t& r : rows) r = static_cast<uint32_t>(rng.below(d.n_rows()));  // bootstrap copies
    RankIndex index;
    for (int f = 0; f < 2; ++f) {
      std::vector<std::pair<double, uint32_t>> want;
      for (uint32_t r : rows) want.emplace_back(d.x(r, static_cast<std::size_t>(f)), r);
      std::sort(want.begin(), want.end());
      for (std::size_t len : {std::size_t{40}, rows.size()}) {  // std::sort below 256 rows, radix above
        std::vector<std::pair<double, uint32_t>> w;
        for (std::size_t i = 0; i < len; ++i) w.emplace_back(d.x(rows[i], static_cast<std::size_t>(f)), rows[i]);
        std::sort(w.begin(), w.end());
        std::vector<uint32_t> got, pos;
        index.sort_rows(d, std::span<const uint32_t>(rows).first(len), f, got);
        index.sort_positions(d, std::span<const uint32_t>(rows).first(len), f, pos);
        REQUIRE(got.size() == len);
        for (std::size_t k = 0; k < len; ++k) {
          CHECK(got[k] == w[k].second);
          CHECK(rows[pos[k]] == w[k].second);
        }
      }
    }
  }

  TEST_CASE("GiniSplitSearch::best_sorted: the two-class sweep finds the general sweep's split") {
    Dataset d = tricky(3000, 4);
    // The same rows with two classes, and with the labels as three classes of which one is empty:
    // the three-class search runs the general sweep on the same counts.
    Schema s2 = d.schema();
    s2.target.classes = {"0", "1"};
    Dataset two("two", s2);
    for (std::size_t r = 0; r < d.n_rows(); ++r) {
      const double x[2] = {d.x(r, 0), d.x(r, 1)};
      two.add_row(x, d.label(r) == 2 ? 1.0 : 0.0);
    }
    std::vector<uint32_t> rows = all_rows(two.n_rows());
    RankIndex index;
    std::vector<uint32_t> sorted;
    for (std::size_t min_leaf : {1u, 5u}) {
      index.sort_rows(two, rows, 0, sorted);
      BestSplit b2, b3;
      GiniSplitSearch s2c(2), s3c(3);
      CHECK(s2c.best_sorted(two.column(0), two.y(), sorted, min_leaf, 0, b2));
      CHECK(s3c.best_sorted(two.column(0), two.y(), sorted, min_leaf, 0, b3));
      CHECK(b2.proxy == b3.proxy);
      CHECK(b2.threshold == b3.threshold);
    }
  }
}
