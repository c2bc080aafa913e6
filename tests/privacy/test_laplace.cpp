// Laplace and two-sided geometric samplers (privacy.md §1.1, §7.3 rows 1-2, §7.6 M1 and M7).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "privacy/stat_util.hpp"

using dpf::Rng;

namespace {
std::vector<double> laplace_samples(Rng rng, double scale, std::size_t n) {
  std::vector<double> xs(n);
  for (double& x : xs) x = dpf::sample_laplace(rng, scale);
  return xs;
}
double ks_vs_laplace(std::vector<double> xs, double scale) {
  return dpf::test::kolmogorov_distance(xs, [scale](double x) { return dpf::laplace_cdf(x, scale); });
}
bool on_lattice(double x, double r) {
  const double k = x / r;
  return std::isfinite(k) && std::fabs(k) < 0x1p53 && k == std::trunc(k) && k * r == x;
}
// Mutant M7: the naive inverse-CDF sampler (Mironov 2012).
double naive_laplace(Rng& rng, double scale) {
  const double e = -std::log(rng.uniform_open()) * scale;
  return (rng.next_u64() >> 63) ? -e : e;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("laplace_resolution is 2^ceil(log2(scale * 2^-40))") {
    CHECK(dpf::laplace_resolution(1.0) == 0x1p-40);
    CHECK(dpf::laplace_resolution(1.5) == 0x1p-39);
    CHECK(dpf::laplace_resolution(2.0) == 0x1p-39);
    CHECK(dpf::laplace_resolution(std::nextafter(2.0, 3.0)) == 0x1p-38);
    CHECK(dpf::laplace_resolution(0x1p-10) == 0x1p-50);
    CHECK(dpf::laplace_resolution(0.75) == 0x1p-40);
    CHECK(dpf::laplace_resolution(1e4) == 0x1p-26);  // 2^13 < 1e4 <= 2^14
    for (double s : {1e-3, 0.1, 1.0, 10.0, 1e4, 3.3e-7, 123456.0}) {
      const double r = dpf::laplace_resolution(s);
      CHECK(r >= s * 0x1p-40);
      CHECK(r < s * 0x1p-39);
    }
  }

  TEST_CASE("laplace_cdf is the continuous Laplace CDF") {
    CHECK(dpf::laplace_cdf(0.0, 2.0) == doctest::Approx(0.5));
    CHECK(dpf::laplace_cdf(-2.0, 2.0) == doctest::Approx(0.5 * std::exp(-1.0)));
    CHECK(dpf::laplace_cdf(2.0, 2.0) == doctest::Approx(1.0 - 0.5 * std::exp(-1.0)));
    CHECK(dpf::laplace_cdf(-std::numeric_limits<double>::infinity(), 1.0) == 0.0);
    CHECK(dpf::laplace_cdf(std::numeric_limits<double>::infinity(), 1.0) == 1.0);
  }

  TEST_CASE("Laplace rejects bad scales with a message naming the problem") {
    Rng r(1);
    for (double s : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity(), 1e-310, 1e305}) {
      CHECK_THROWS_AS(dpf::sample_laplace(r, s), dpf::Error);
      CHECK_THROWS_AS(dpf::laplace_resolution(s), dpf::Error);
    }
    try {
      dpf::sample_laplace(r, -1.0);
      FAIL("no throw");
    } catch (const dpf::Error& e) {
      CHECK(std::string(e.what()).find("scale") != std::string::npos);
    }
    CHECK_THROWS_AS(dpf::sample_two_sided_geometric(r, 0.0), dpf::Error);
    CHECK_THROWS_AS(dpf::sample_two_sided_geometric(r, 0x1p-60), dpf::Error);
    CHECK_THROWS_AS(dpf::laplace_mechanism(r, 1.0, 1.0, 0.0), dpf::Error);
    CHECK_THROWS_AS(dpf::laplace_mechanism(r, 1.0, 0.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::laplace_mechanism(r, std::nan(""), 1.0, 1.0), dpf::Error);
  }

  TEST_CASE("Laplace draws are deterministic for a key") {
    Rng a(123), b(123);
    for (int i = 0; i < 100; ++i) CHECK(dpf::sample_laplace(a, 0.7) == dpf::sample_laplace(b, 0.7));
    Rng c(124);
    CHECK(dpf::sample_laplace(c, 0.7) != dpf::sample_laplace(a, 0.7));
  }

  TEST_CASE("laplace_mechanism releases a lattice point near the value") {
    Rng r(8);
    const double eps = 0.5, sens = 1.0;
    const double res = dpf::laplace_resolution(sens / eps);
    for (double v : {0.0, 0.3, -17.25, 1e6, 3e200}) {
      const double out = dpf::laplace_mechanism(r, v, sens, eps);
      CHECK(std::isfinite(out));
      if (std::fabs(v) < 1e3) CHECK(on_lattice(out, res));  // larger values: k exceeds 2^53, as does x/r
    }
  }

  TEST_CASE("two_sided_geometric_pmf sums to 1") {
    for (double lambda : {0.01, 0.5, 1.0, 3.0}) {
      double s = 0.0;
      for (int64_t k = -5000; k <= 5000; ++k) s += dpf::two_sided_geometric_pmf(k, lambda);
      CHECK(s == doctest::Approx(1.0).epsilon(1e-12));
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("Laplace matches the continuous CDF (DKW, alpha = 1e-5 per scale, n = 100000 per scale)") {
    // DKW: reject if sup|F_n - F| > sqrt(ln(2/alpha) / (2n)) = 0.00784 (privacy.md §7.3).
    // F is the continuous Laplace; the lattice (r <= scale 2^-39) moves F by < 1e-12.
    const std::size_t n = 100000;
    const double thr = dpf::test::dkw_threshold(n);
    uint64_t seed = 1000;
    for (double scale : {1e-3, 0.1, 1.0, 10.0, 1e4}) {
      const double d = ks_vs_laplace(laplace_samples(Rng(seed++), scale, n), scale);
      INFO("scale " << scale << ": D = " << d << ", threshold " << thr);
      CHECK(d < thr);
    }
  }

  TEST_CASE("Laplace outputs lie on the 2^k lattice; the naive sampler's do not (deterministic check, n = 100000)") {
    const std::size_t n = 100000;
    uint64_t seed = 2000;
    for (double scale : {1e-3, 0.1, 1.0, 10.0, 1e4}) {
      const double r = dpf::laplace_resolution(scale);
      const std::vector<double> xs = laplace_samples(Rng(seed++), scale, n);
      std::size_t off = 0, negative_zero = 0;
      for (double x : xs) {
        off += !on_lattice(x, r);
        negative_zero += (x == 0.0 && std::signbit(x));
      }
      CHECK(off == 0);
      CHECK(negative_zero == 0);
      // Mutant M7 must fail the same check.
      Rng m(seed);
      std::size_t mutant_off = 0;
      for (std::size_t i = 0; i < 1000; ++i) mutant_off += !on_lattice(naive_laplace(m, scale), r);
      CHECK(mutant_off > 900);
    }
  }

  TEST_CASE("mutant Laplace scales are rejected by the DKW statistic (alpha = 1e-5, n = 100000)") {
    // Mutant M1 (scale/2, scale*1.25) and a milder scale*1.1: the sup distances are 0.125, 0.041
    // and 0.0175 (privacy.md §7.3), far above the threshold 0.00784.
    const std::size_t n = 100000;
    const double thr = dpf::test::dkw_threshold(n);
    const double scale = 1.0;
    for (double factor : {0.5, 1.25, 1.1}) {
      const double d = ks_vs_laplace(laplace_samples(Rng(3000), scale * factor, n), scale);
      INFO("factor " << factor << ": D = " << d);
      CHECK(d > thr);
    }
  }

  TEST_CASE("laplace_mechanism noise is Laplace((sensitivity + r) / epsilon) (DKW, alpha = 1e-5, n = 100000)") {
    const std::size_t n = 100000;
    const double eps = 0.8, sens = 2.0, value = 0.0;
    const double scale = (sens + dpf::laplace_resolution(sens / eps)) / eps;
    Rng r(4000);
    std::vector<double> xs(n);
    for (double& x : xs) x = dpf::laplace_mechanism(r, value, sens, eps) - value;
    CHECK(ks_vs_laplace(xs, scale) < dpf::test::dkw_threshold(n));
  }

  TEST_CASE("two-sided geometric matches its pmf, zero not doubled (chi-square, alpha = 1e-5, n = 100000 per lambda)") {
    // Bins k = -K..K plus the two tails. Mutant: a fair sign on a geometric magnitude without
    // rejecting (-, 0), which doubles the mass at 0; it must be rejected by the same statistic.
    const std::size_t n = 100000;
    uint64_t seed = 5000;
    for (double lambda : {0.1, 1.0, 3.0, 0x1p-6}) {
      const int64_t K = static_cast<int64_t>(std::ceil(12.0 / lambda));
      const std::size_t bins = static_cast<std::size_t>(2 * K + 3);
      std::vector<double> probs(bins);
      const double q = std::exp(-lambda);
      const double tail = std::pow(q, static_cast<double>(K + 1)) / (1.0 + q);
      probs[0] = tail;
      probs[bins - 1] = tail;
      for (int64_t k = -K; k <= K; ++k) probs[static_cast<std::size_t>(k + K + 1)] = dpf::two_sided_geometric_pmf(k, lambda);
      auto bin_of = [&](int64_t k) {
        return k < -K ? std::size_t{0} : k > K ? bins - 1 : static_cast<std::size_t>(k + K + 1);
      };
      std::vector<uint64_t> counts(bins, 0), mutant(bins, 0);
      Rng r(seed++), m(seed++);
      for (std::size_t i = 0; i < n; ++i) {
        ++counts[bin_of(dpf::sample_two_sided_geometric(r, lambda))];
        const auto g = static_cast<int64_t>(std::floor(std::log(m.uniform_open()) / -lambda));
        ++mutant[bin_of((m.next_u64() >> 63) ? -g : g)];
      }
      const auto t = dpf::test::chi_square_test(counts, probs);
      INFO("lambda " << lambda << ": X2 = " << t.statistic << " (df " << t.df << "), critical " << t.critical);
      CHECK_FALSE(t.reject);
      const auto tm = dpf::test::chi_square_test(mutant, probs);
      INFO("mutant X2 = " << tm.statistic);
      CHECK(tm.reject);
    }
  }
}
