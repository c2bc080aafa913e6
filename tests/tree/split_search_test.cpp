// RankIndex orders rows exactly as sorting (value, row) pairs does (radix ranks included: signed
// zeros, infinities, subnormals, duplicates, bootstrap copies), by row and by position, and the
// Gini sweep's two-class path finds the same best split as the general one; best_sorted and
// best_presorted find bit for bit the split of the plain sweep (a division per side at every
// boundary, the best replaced only by a strictly larger proxy).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
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

  TEST_CASE("GiniSplitSearch::best_sorted / best_presorted: bit for bit the plain sweep's split") {
    Rng rng(31);
    for (const int n_classes : {2, 3}) {
      for (int trial = 0; trial < 300; ++trial) {
        CAPTURE(n_classes);
        CAPTURE(trial);
        // Few distinct values (many ties) or many, few rows or many, skewed classes or balanced.
        const std::size_t n = 2 + rng.below(trial % 3 == 0 ? 20 : 600);
        const uint64_t levels = trial % 2 == 0 ? 2 + rng.below(8) : 1000000;
        const uint64_t skew = 1 + rng.below(4);
        std::vector<double> xs(n), ys(n);
        for (std::size_t i = 0; i < n; ++i) {
          xs[i] = static_cast<double>(rng.below(levels)) / static_cast<double>(levels);
          ys[i] = rng.below(skew + 1) == 0 ? static_cast<double>(rng.below(static_cast<uint64_t>(n_classes))) : 0.0;
        }
        std::vector<uint32_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return xs[a] < xs[b] || (xs[a] == xs[b] && a < b); });
        const std::size_t min_leaf = 1 + rng.below(3);
        auto plain = [&](BestSplit want) {
          std::vector<double> left(static_cast<std::size_t>(n_classes), 0.0), total(left.size(), 0.0);
          for (double y : ys) total[static_cast<std::size_t>(y)] += 1;
          for (std::size_t i = 0; i + 1 < n; ++i) {
            left[static_cast<std::size_t>(ys[order[i]])] += 1;
            if (!(xs[order[i + 1]] > xs[order[i]]) || i + 1 < min_leaf || n - i - 1 < min_leaf) continue;
            double sl = 0, sr = 0;
            for (std::size_t c = 0; c < left.size(); ++c) {
              sl += left[c] * left[c];
              sr += (total[c] - left[c]) * (total[c] - left[c]);
            }
            const double proxy = sl / static_cast<double>(i + 1) + sr / static_cast<double>(n - i - 1);
            if (proxy > want.proxy) want = {proxy, 0, GiniSplitSearch::midpoint(xs[order[i]], xs[order[i + 1]])};
          }
          return want;
        };
        // The best so far from other features: none, a proxy near the values this sweep reaches, or
        // one ulp below this sweep's best (only a bound that never cuts below the proxy finds it).
        BestSplit start;
        if (trial % 3 == 1) start = {static_cast<double>(n) * (0.5 + 0.5 * rng.uniform()), 7, 0.25};
        if (trial % 3 == 2) start = {std::nextafter(plain(BestSplit{}).proxy, 0.0), 7, 0.25};
        const BestSplit want = plain(start);

        GiniSplitSearch search(n_classes);
        BestSplit got = start, got_pre = start;
        const bool informative = xs[order[n - 1]] > xs[order[0]];
        CHECK(search.best_sorted(xs, ys, order, min_leaf, 0, got) == informative);
        std::vector<double> sorted_values(n);
        for (std::size_t k = 0; k < n; ++k) sorted_values[k] = xs[order[k]];
        CHECK(search.best_presorted(sorted_values, ys, order, min_leaf, 0, got_pre) == informative);
        for (const BestSplit& b : {got, got_pre}) {
          CHECK(b.feature == want.feature);
          CHECK(std::memcmp(&b.proxy, &want.proxy, sizeof(double)) == 0);
          CHECK(std::memcmp(&b.threshold, &want.threshold, sizeof(double)) == 0);
        }
      }
    }
  }
}
