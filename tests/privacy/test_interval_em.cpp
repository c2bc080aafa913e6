// Interval exponential mechanism with a Lebesgue base measure: the DiPriMe private median
// (dipreme.md §2.5a; privacy.md §7.3 "continuous median", §7.6 M2 and M4).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "core/privacy/exact.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "privacy/stat_util.hpp"

using dpf::Rng;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// The median split of dipreme.md §2.5a on the domain [0, 1]: breaks 0, x_(1..M), 1 and score
// -|2j - M| on interval j.
struct Median {
  std::vector<double> breaks, scores;
};
Median median_problem(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  Median m;
  m.breaks.push_back(0.0);
  for (double x : xs) m.breaks.push_back(x);
  m.breaks.push_back(1.0);
  const int M = static_cast<int>(xs.size());
  for (int j = 0; j <= M; ++j) m.scores.push_back(-std::abs(2 * j - M));
  return m;
}

const std::vector<std::vector<double>> kDatasets = {
    {0.3},
    {0.2, 0.7},
    {0.1, 0.15, 0.9},
    {0.2, 0.4, 0.6, 0.8},
    {0.2, 0.4, 0.401, 0.6, 0.8},
    {0.05, 0.3, 0.3, 0.5, 0.55, 0.99},  // a tie: one zero-length interval
};

// PIT through the exact CDF, then the Kolmogorov distance to Uniform(0, 1).
template <typename Sampler>
double pit_distance(const Median& m, double eps, std::size_t n, Sampler&& draw) {
  std::vector<double> u(n);
  for (double& v : u) v = dpf::interval_exponential_mechanism_cdf(m.breaks, m.scores, eps, 1.0, draw());
  return dpf::test::kolmogorov_distance(u, [](double x) { return std::clamp(x, 0.0, 1.0); });
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("interval EM probabilities are length-weighted") {
    const Median m = median_problem({0.1, 0.15, 0.9});
    const auto p = dpf::interval_exponential_mechanism_probabilities(m.breaks, m.scores, 1.0, 1.0);
    // Lengths on the grid of 2^-40 (counts of grid points, relative error < 2^-35 here) and the
    // mechanism's c = 1 / (2 (1 + 2^-20)) (mechanisms.hpp): within 1e-9 of the continuous form.
    const double lens[4] = {0.1, 0.05, 0.75, 0.1};
    const double c = dpf::SelectionScale(1.0, 1.0).c();
    double z = 0;
    double w[4];
    for (int j = 0; j < 4; ++j) z += (w[j] = lens[j] * std::exp(c * m.scores[static_cast<std::size_t>(j)]));
    for (std::size_t j = 0; j < 4; ++j) CHECK(p[j] == doctest::Approx(w[j] / z).epsilon(1e-9));
    // Huge epsilon: no overflow, the best positive-length interval wins.
    const auto q = dpf::interval_exponential_mechanism_probabilities(m.breaks, m.scores, 1e6, 1.0);
    CHECK(q[1] + q[2] == doctest::Approx(1.0));
    CHECK(q[0] == 0.0);
  }

  TEST_CASE("zero-length intervals have probability 0 and are never drawn") {
    const Median m = median_problem({0.05, 0.3, 0.3, 0.5, 0.55, 0.99});
    const auto p = dpf::interval_exponential_mechanism_probabilities(m.breaks, m.scores, 2.0, 1.0);
    CHECK(p[2] == 0.0);  // [0.3, 0.3], the highest-scoring interval
    Rng r(9);
    for (int i = 0; i < 20000; ++i) {
      const auto d = dpf::interval_exponential_mechanism(r, m.breaks, m.scores, 2.0, 1.0);
      CHECK(d.interval != 2);
      CHECK_UNARY(d.value >= m.breaks[d.interval]);
      CHECK_UNARY(d.value <= m.breaks[d.interval + 1]);
    }
  }

  TEST_CASE("all zero-length intervals give breaks[0], interval 0; all -inf scores give uniform") {
    Rng r(2);
    const std::vector<double> b{0.5, 0.5, 0.5}, s{0, -1};
    const auto d = dpf::interval_exponential_mechanism(r, b, s, 1.0, 1.0);
    CHECK(d.interval == 0);
    CHECK(d.value == 0.5);
    CHECK(dpf::interval_exponential_mechanism_probabilities(b, s, 1.0, 1.0) == std::vector<double>{1, 0});
    CHECK(dpf::interval_exponential_mechanism_cdf(b, s, 1.0, 1.0, 0.4) == 0.0);
    CHECK(dpf::interval_exponential_mechanism_cdf(b, s, 1.0, 1.0, 0.5) == 1.0);
    const std::vector<double> b2{0, 1, 3}, s2{-kInf, -kInf};
    const auto p = dpf::interval_exponential_mechanism_probabilities(b2, s2, 1.0, 1.0);
    CHECK(p[0] == doctest::Approx(1.0 / 3));
    CHECK(p[1] == doctest::Approx(2.0 / 3));
    const std::vector<double> s3{0, -kInf};
    CHECK(dpf::interval_exponential_mechanism_probabilities(b2, s3, 1.0, 1.0) == std::vector<double>{1, 0});
  }

  TEST_CASE("the interval CDF is a fine staircase, linear between the breaks up to the grid") {
    const Median m = median_problem({0.2, 0.7});
    const auto p = dpf::interval_exponential_mechanism_probabilities(m.breaks, m.scores, 1.0, 1.0);
    auto F = [&](double x) { return dpf::interval_exponential_mechanism_cdf(m.breaks, m.scores, 1.0, 1.0, x); };
    CHECK(F(-1.0) == 0.0);
    CHECK(F(0.0) == doctest::Approx(p[0] * 0x1p-40 / 0.2));  // the grid point 0 = lo alone
    CHECK(F(0.2) == doctest::Approx(p[0]));
    CHECK(F(0.1) == doctest::Approx(p[0] / 2));
    CHECK(F(0.45) == doctest::Approx(p[0] + p[1] / 2));
    CHECK(F(1.0) == 1.0);
    CHECK(F(2.0) == 1.0);
  }

  TEST_CASE("interval EM is deterministic and rejects bad inputs") {
    const Median m = median_problem({0.2, 0.4});
    Rng a(5), b(5);
    for (int i = 0; i < 100; ++i) {
      const auto x = dpf::interval_exponential_mechanism(a, m.breaks, m.scores, 1.0, 1.0);
      const auto y = dpf::interval_exponential_mechanism(b, m.breaks, m.scores, 1.0, 1.0);
      CHECK(x.interval == y.interval);
      CHECK(x.value == y.value);
    }
    Rng r(1);
    const std::vector<double> one{0.0};
    CHECK_THROWS_AS(dpf::interval_exponential_mechanism(r, one, std::vector<double>{}, 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::interval_exponential_mechanism(r, m.breaks, std::vector<double>{0, 1}, 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::interval_exponential_mechanism(r, std::vector<double>{0, 2, 1}, std::vector<double>{0, 0}, 1.0, 1.0),
                    dpf::Error);
    CHECK_THROWS_AS(dpf::interval_exponential_mechanism(r, std::vector<double>{0, std::nan("")}, std::vector<double>{0}, 1.0, 1.0),
                    dpf::Error);
    CHECK_THROWS_AS(dpf::interval_exponential_mechanism(r, m.breaks, m.scores, 0.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::interval_exponential_mechanism(r, m.breaks, m.scores, 1.0, -1.0), dpf::Error);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("private median: PIT through the exact CDF is uniform (6 DKW tests, alpha = 1e-5 each, n = 100000)") {
    // Datasets of 1-6 points in [0, 1], epsilon cycling through {0.5, 1, 2}. DKW threshold
    // sqrt(ln(2/alpha) / (2n)) = 0.00784 (privacy.md §7.3).
    const std::size_t n = 100000;
    const double thr = dpf::test::dkw_threshold(n);
    const double eps_list[3] = {0.5, 1.0, 2.0};
    for (std::size_t i = 0; i < kDatasets.size(); ++i) {
      const Median m = median_problem(kDatasets[i]);
      const double eps = eps_list[i % 3];
      Rng r(40000 + i);
      const double d = pit_distance(m, eps, n, [&] {
        return dpf::interval_exponential_mechanism(r, m.breaks, m.scores, eps, 1.0).value;
      });
      INFO("dataset " << i << " eps " << eps << ": D = " << d << ", threshold " << thr);
      CHECK(d < thr);
    }
  }

  TEST_CASE("median mutants (no factor 2, index-EM) are rejected by the PIT statistic (alpha = 1e-5, n = 100000)") {
    const std::size_t n = 100000;
    const double thr = dpf::test::dkw_threshold(n);
    {  // M2: no factor 2 = sensitivity 1/2, on {.2, .4, .6, .8} at eps = 1.
      const Median m = median_problem({0.2, 0.4, 0.6, 0.8});
      Rng r(50000);
      const double d = pit_distance(m, 1.0, n, [&] {
        return dpf::interval_exponential_mechanism(r, m.breaks, m.scores, 1.0, 0.5).value;
      });
      INFO("no factor 2: D = " << d);
      CHECK(d > thr);
    }
    {  // M4: index-EM (dipreme.md §2.5b) — interval by EM on the score alone, then uniform in it.
      const Median m = median_problem({0.1, 0.15, 0.9});
      Rng r(50001);
      const double d = pit_distance(m, 1.0, n, [&] {
        const std::size_t j = dpf::exponential_mechanism(r, m.scores, 1.0, 1.0);
        return r.uniform(m.breaks[j], m.breaks[j + 1]);
      });
      INFO("index-EM: D = " << d);
      CHECK(d > thr);
    }
  }
}
