// The windowed EM median (algorithms/dipreme/median.hpp numeric_median_em): its output law is the
// interval EM's (dipreme.md §2.5a) whatever the window, the tails and their rejection step included;
// the unsorted entry point gives the sorted one's results for the other mechanisms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/dipreme/median.hpp"
#include "core/privacy/mechanisms.hpp"

using namespace dpf;

namespace {

constexpr double kAlpha = 1e-5;  // false-alarm rate of each statistical case below

// Breaks lo, clamp(x_(1..M)), hi and scores -|2j - M| of the exact mechanism.
void exact_intervals(std::vector<double> xs, double lo, double hi, std::vector<double>& breaks,
                     std::vector<double>& scores) {
  for (double& x : xs) x = std::clamp(x, lo, hi);
  std::sort(xs.begin(), xs.end());
  const std::size_t m = xs.size();
  breaks.assign(1, lo);
  breaks.insert(breaks.end(), xs.begin(), xs.end());
  breaks.push_back(hi);
  scores.resize(m + 1);
  for (std::size_t j = 0; j <= m; ++j) scores[j] = -std::fabs(2.0 * static_cast<double>(j) - static_cast<double>(m));
}

// n draws of numeric_median_em(window) on `xs`, binned by interval, against the exact interval
// probabilities: bins with expectation >= 30 one by one, the rest pooled into one bin, each bin a
// two-sided exact binomial test at α / (#bins) (Bonferroni), so a correct sampler fails w.p. <= α.
void check_law(const std::vector<double>& xs, double lo, double hi, double eps, std::size_t window, uint64_t n,
               uint64_t seed) {
  std::vector<double> breaks, scores;
  exact_intervals(xs, lo, hi, breaks, scores);
  const std::vector<double> p = interval_exponential_mechanism_probabilities(breaks, scores, eps, 1.0);
  std::vector<uint64_t> hits(p.size(), 0);
  Rng rng(seed);
  std::vector<double> scratch;
  for (uint64_t i = 0; i < n; ++i) {
    scratch = xs;
    const double r = numeric_median_em(rng, scratch, lo, hi, eps, window);
    REQUIRE(r >= lo);
    REQUIRE(r <= hi);
    // Interval j = [b_j, b_{j+1}): the last break <= r (zero-length intervals have probability 0).
    auto j = static_cast<std::size_t>(std::upper_bound(breaks.begin() + 1, breaks.end() - 1, r) - breaks.begin()) - 1;
    ++hits[j];
  }
  std::vector<std::pair<double, uint64_t>> bins;  // (probability, count)
  double rest_p = 0;
  uint64_t rest_k = 0;
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (p[j] * static_cast<double>(n) >= 30) bins.emplace_back(p[j], hits[j]);
    else { rest_p += p[j]; rest_k += hits[j]; }
  }
  bins.emplace_back(std::min(rest_p, 1.0), rest_k);
  const double a = kAlpha / static_cast<double>(bins.size());
  for (const auto& [pj, k] : bins) {
    CAPTURE(pj);
    CAPTURE(k);
    if (pj <= 0) { CHECK(k == 0); continue; }
    CHECK(dpf::test::binom_cdf(n, k, pj) >= a / 2);
    CHECK(dpf::test::binom_sf(n, k, pj) >= a / 2);
  }
}

std::vector<double> random_values(std::size_t m, uint64_t seed, double scale = 1.0) {
  Rng rng(seed);
  std::vector<double> v(m);
  for (double& x : v) x = scale * rng.uniform();
  return v;
}

}  // namespace

TEST_SUITE("statistical") {
  TEST_CASE("windowed EM median: the interval EM's law with small windows (tails and rejections exercised)") {
    // M = 200 values in [0, 1] on the domain [-1, 2] (long tails), n = 100,000 draws per case,
    // 6 cases (ε, window): with window 3 most of the mass at ε = 0.3 lies in the tails, and at ε = 2
    // the tails' bounds are hit about once in ten draws.
    const std::vector<double> xs = random_values(200, 11);
    uint64_t seed = 100;
    for (double eps : {0.3, 2.0})
      for (std::size_t window : {std::size_t{3}, std::size_t{12}, std::size_t{0}}) {
        CAPTURE(eps);
        CAPTURE(window);
        check_law(xs, -1.0, 2.0, eps, window, 100000, ++seed);
      }
  }

  TEST_CASE("windowed EM median: ties, values outside the domain, odd M") {
    // 151 values: 60 copies of 0.5 around the median, some below lo and above hi (clamped), window 4.
    // n = 100,000 draws per case, 2 cases.
    std::vector<double> xs = random_values(91, 12);
    for (int i = 0; i < 60; ++i) xs.push_back(0.5);
    xs[0] = -3.0;
    xs[1] = 7.0;
    uint64_t seed = 200;
    for (double eps : {0.5, 4.0}) {
      CAPTURE(eps);
      check_law(xs, 0.0, 1.0, eps, 4, 100000, ++seed);
    }
  }
}

TEST_SUITE("unit") {
  TEST_CASE("windowed EM median: edge cases stay in the domain") {
    Rng rng(3);
    std::vector<double> none;
    for (int i = 0; i < 50; ++i) {
      const double r = numeric_median_em(rng, none, 2, 3, 1.0);
      CHECK((r >= 2 && r <= 3));
    }
    std::vector<double> one{0.25};
    CHECK(numeric_median_em(rng, one, 1, 1, 1.0) == 1.0);  // lo == hi
    std::vector<double> big = random_values(500, 4);
    for (double eps : {1e-3, 1.0, 100.0, 1e6}) {  // full window, windowed, and the log-space fallback
      std::vector<double> v = big;
      const double r = numeric_median_em(rng, v, 0, 1, eps);
      CHECK((r >= 0 && r <= 1));
      std::vector<double> w = v;
      std::sort(w.begin(), w.end());
      std::vector<double> b = big;
      std::sort(b.begin(), b.end());
      CHECK(w == b);  // values are only reordered (all inside the domain already)
    }
    // ε = 10^6 (fallback, e^-ε underflows): the median interval [x_(250), x_(251)].
    std::vector<double> sorted = big;
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> v = big;
    const double r = numeric_median_em(rng, v, 0, 1, 1e6);
    CHECK((r >= sorted[249] && r <= sorted[250]));
  }

  TEST_CASE("numeric_median_split_unsorted = numeric_median_split on the sorted values for the other mechanisms") {
    for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{6}, std::size_t{7}, std::size_t{300}}) {
      std::vector<double> xs = random_values(m, 20 + m, 10.0);
      std::vector<double> sorted = xs;
      std::sort(sorted.begin(), sorted.end());
      for (NumericMedian mech : {NumericMedian::kExact, NumericMedian::kUniformPositions, NumericMedian::kFlipCode,
                                 NumericMedian::kFlipGrid}) {
        CAPTURE(m);
        CAPTURE(static_cast<int>(mech));
        Rng a(9), b(9);
        std::vector<double> scratch = xs;
        CHECK(numeric_median_split_unsorted(a, scratch, 0, 10, 0.7, mech) ==
              numeric_median_split(b, sorted, 0, 10, 0.7, mech));
      }
    }
  }
}
