// DiPriMe's median mechanisms (algorithms/dipreme/median.hpp, dipreme.md §2.5, §2.6).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <set>

#include "algorithms/dipreme/median.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "privacy/stat_util.hpp"

using namespace dpf;

namespace {

// Brute-force enumeration of dipreme.md §2.6: bitmask i = 1..2^(k-1)-1 over the allowed categories
// c_2..c_k (c_1 always in the complement).
std::vector<uint64_t> bipartitions(uint64_t allowed) {
  std::vector<int> cats;
  for (int c = 0; c < 64; ++c)
    if ((allowed >> c) & 1u) cats.push_back(c);
  std::vector<uint64_t> out;
  const uint64_t n = (uint64_t{1} << (cats.size() - 1)) - 1;
  for (uint64_t i = 1; i <= n; ++i) {
    uint64_t m = 0;
    for (std::size_t b = 0; b + 1 < cats.size(); ++b)
      if ((i >> b) & 1u) m |= uint64_t{1} << cats[b + 1];
    out.push_back(m);
  }
  return out;
}

int count_in(uint64_t mask, const std::vector<int>& counts) {
  int n = 0;
  for (std::size_t c = 0; c < counts.size(); ++c)
    if ((mask >> c) & 1u) n += counts[c];
  return n;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("categorical bipartitions: 2^(k-1)-1 candidates, the first allowed category never in C") {
    for (uint64_t allowed : {uint64_t{0b1111}, uint64_t{0b10110}, uint64_t{0b11}, uint64_t{0b111110}}) {
      CAPTURE(allowed);
      const int k = std::popcount(allowed);
      const uint64_t first = allowed & (~allowed + 1);
      std::vector<int> counts(8, 3);
      Rng rng(allowed);
      std::set<uint64_t> seen;
      // ε tiny: the EM is uniform over the candidates up to 1e-9; 4000 draws see each of at most 31
      // candidates (P(some candidate missed) <= 31 (30/31)^4000 < 1e-50).
      for (int i = 0; i < 4000; ++i) {
        uint64_t m = categorical_median_split(rng, counts, allowed, 1e-9, CategoricalMedian::kExponential);
        CHECK((m & ~allowed) == 0);
        CHECK((m & first) == 0);
        CHECK(m != 0);
        seen.insert(m);
      }
      CHECK(seen.size() == (std::size_t{1} << (k - 1)) - 1);
      const auto expected = bipartitions(allowed);
      CHECK(std::set<uint64_t>(expected.begin(), expected.end()) == seen);
    }
    Rng rng(1);
    CHECK_THROWS_WITH_AS(categorical_median_split(rng, std::vector<int>{5, 5}, 0b01, 1.0, CategoricalMedian::kExact),
                         doctest::Contains("at least 2 categories"), Error);
  }

  TEST_CASE("exact categorical median picks the most balanced C, ties to the first in bitmask order") {
    Rng rng(2);
    // Counts a=5, b=1, c=3, d=7 (M = 16): only C = {b, d} has n_C = 8.
    CHECK(categorical_median_split(rng, std::vector<int>{5, 1, 3, 7}, 0b1111, 1.0, CategoricalMedian::kExact) ==
          0b1010);
    // All equal: n_C = 4 for every 2-subset of {b, c, d}; bitmask order i = 1 {b}, 2 {c}, 3 {b, c}.
    CHECK(categorical_median_split(rng, std::vector<int>{2, 2, 2, 2}, 0b1111, 1.0, CategoricalMedian::kExact) ==
          0b0110);
    // Restricted to the allowed categories {a, c, d}: C never holds a; {d} (7 vs 8) beats {c} and {c, d}.
    CHECK(categorical_median_split(rng, std::vector<int>{5, 1, 3, 7}, 0b1101, 1.0, CategoricalMedian::kExact) ==
          0b1000);
    // More than 22 categories: ordered prefixes of the code order; 24 equal counts split 12/12.
    bool prefix = false;
    std::vector<int> many(24, 1);
    CHECK(categorical_median_split(rng, many, (uint64_t{1} << 24) - 1, 1.0, CategoricalMedian::kExact, &prefix) ==
          0xFFF);
    CHECK(prefix);
    categorical_median_split(rng, std::vector<int>{1, 1, 1}, 0b111, 1.0, CategoricalMedian::kExact, &prefix);
    CHECK_FALSE(prefix);
  }

  TEST_CASE("numeric exact median, degenerate domains, empty nodes and the public grid") {
    Rng rng(3);
    const std::vector<double> even{1, 2, 3, 4}, odd{1, 5, 9}, empty{};
    CHECK(numeric_median_split(rng, even, 0, 10, 1.0, NumericMedian::kExact) == 2.5);
    CHECK(numeric_median_split(rng, odd, 0, 10, 1.0, NumericMedian::kExact) == 5.0);
    CHECK(numeric_median_split(rng, odd, 0, 4, 1.0, NumericMedian::kExact) == 4.0);  // clamped to the domain
    for (int i = 0; i < 100; ++i) {
      const double r = numeric_median_split(rng, empty, 2, 3, 1.0, NumericMedian::kExact);
      CHECK((r >= 2 && r <= 3));
      const double e = numeric_median_split(rng, empty, 2, 3, 1.0, NumericMedian::kExponential);
      CHECK((e >= 2 && e <= 3));
    }
    for (NumericMedian m : {NumericMedian::kExact, NumericMedian::kExponential, NumericMedian::kFlipCode,
                            NumericMedian::kFlipGrid, NumericMedian::kUniformPositions})
      CHECK(numeric_median_split(rng, odd, 4, 4, 1.0, m) == 4.0);  // lo == hi: every interval is empty
    // Ties: the EM never puts the threshold strictly inside a block of equal values.
    const std::vector<double> ties{3, 3, 3, 3, 3};
    for (int i = 0; i < 200; ++i) {
      const double r = numeric_median_split(rng, ties, 0, 10, 2.0, NumericMedian::kExponential);
      CHECK((r >= 0 && r <= 10));
    }
    // Grid: one of the 256 public points lo + (g + 1/2)(hi - lo)/256.
    for (int i = 0; i < 50; ++i) {
      const double r = numeric_median_split(rng, odd, 0, 256, 1.0, NumericMedian::kFlipGrid);
      CHECK(r - std::floor(r) == 0.5);
    }
    // Huge ε: the EM median concentrates on the median interval [x_(2), x_(3)] = [5, 9) of 4 points.
    const std::vector<double> four{1, 5, 9, 12};
    for (int i = 0; i < 100; ++i) {
      const double r = numeric_median_split(rng, four, 0, 20, 200.0, NumericMedian::kExponential);
      CHECK((r >= 5 && r <= 9));
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("categorical EM median draws match exp(ε q(C)/2) over the bipartitions (α = 1e-5)") {
    // Pearson X² against the exact EM probabilities of dipreme.md §2.6 (score -|2 n_C - M|, Δ = 1),
    // computed by brute-force enumeration; n = 60,000 draws per case, false-alarm rate 1e-5 each.
    struct Case {
      std::vector<int> counts;
      uint64_t allowed;
      double eps;
    };
    const Case cases[] = {{{5, 1, 3, 7}, 0b1111, 0.5}, {{2, 9, 0, 4, 1}, 0b11011, 0.2}, {{10, 0, 30}, 0b111, 0.05}};
    for (const Case& c : cases) {
      CAPTURE(c.allowed);
      const auto masks = bipartitions(c.allowed);
      int m_total = 0;
      for (std::size_t i = 0; i < c.counts.size(); ++i)
        if ((c.allowed >> i) & 1u) m_total += c.counts[i];
      std::vector<double> scores;
      for (uint64_t m : masks) scores.push_back(-std::abs(2 * count_in(m, c.counts) - m_total));
      const std::vector<double> probs = exponential_mechanism_probabilities(scores, c.eps, 1.0);
      std::vector<uint64_t> hist(masks.size(), 0);
      Rng rng(99 + c.allowed);
      const int n = 60000;
      for (int i = 0; i < n; ++i) {
        const uint64_t m = categorical_median_split(rng, c.counts, c.allowed, c.eps, CategoricalMedian::kExponential);
        const auto at = std::find(masks.begin(), masks.end(), m);
        REQUIRE(at != masks.end());
        ++hist[static_cast<std::size_t>(at - masks.begin())];
      }
      const auto x2 = dpf::test::chi_square_test(hist, probs);
      CAPTURE(x2.statistic);
      CAPTURE(x2.critical);
      CHECK_FALSE(x2.reject);
    }
  }
}
