// Exact Bernoulli(exp(-x)), discrete Laplace and discrete Gaussian samplers (Canonne, Kamath &
// Steinke 2020) and the lattice Gaussian mechanism. Statistical tests use fixed seeds and the
// per-test false-alarm rate alpha = dpf::test::kAlpha = 1e-5 (privacy.md §7.1): chi-square via
// chi_square_test, and two-sided normal-approximation binomial tests with |z| < 4.4172
// (P(|N(0,1)| > 4.4172) = 1e-5; every tested count has expectation >= 1000, where the normal
// approximation is accurate).
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
constexpr double kZ = 4.4172;  // two-sided normal quantile at alpha = 1e-5

double binomial_z(uint64_t hits, uint64_t n, double p) {
  const double nd = static_cast<double>(n);
  return (static_cast<double>(hits) - nd * p) / std::sqrt(nd * p * (1.0 - p));
}

// P(|Y| > K) for Y ~ N_Z(0, s), summed from the far side up.
double dg_tail(int64_t K, double s) {
  const auto far = K + static_cast<int64_t>(std::ceil(40.0 * std::sqrt(s))) + 10;
  double t = 0.0;
  for (int64_t k = far; k > K; --k) t += dpf::discrete_gaussian_pmf(k, s);
  return 2.0 * t;
}

struct Binned {
  int64_t K;
  std::vector<double> probs;
  std::size_t bin(int64_t k) const {
    const std::size_t b = probs.size();
    return k < -K ? std::size_t{0} : k > K ? b - 1 : static_cast<std::size_t>(k + K + 1);
  }
};

Binned dg_bins(double s) {
  Binned b;
  b.K = static_cast<int64_t>(std::ceil(6.0 * std::sqrt(s))) + 1;
  b.probs.assign(static_cast<std::size_t>(2 * b.K + 3), 0.0);
  const double tail = dg_tail(b.K, s) / 2.0;
  b.probs.front() = tail;
  b.probs.back() = tail;
  for (int64_t k = -b.K; k <= b.K; ++k) b.probs[b.bin(k)] = dpf::discrete_gaussian_pmf(k, s);
  return b;
}

// Mutant: the rounded continuous Gaussian (Box-Muller), a common "discrete Gaussian" shortcut.
int64_t rounded_gaussian(Rng& r, double s) {
  const double u1 = r.uniform_open(), u2 = r.uniform();
  return static_cast<int64_t>(std::llround(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2) * std::sqrt(s)));
}

double normal_cdf(double x, double sd) { return 0.5 * std::erfc(-x / (sd * std::sqrt(2.0))); }
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("discrete_gaussian_pmf is normalised and matches hand values") {
    for (double s : {0.01, 0.2, 0.5, 0.999999, 1.0, 2.7, 10.3, 1234.56, 1e5}) {
      const auto K = static_cast<int64_t>(std::ceil(40.0 * std::sqrt(s))) + 10;
      double total = 0.0;
      for (int64_t k = -K; k <= K; ++k) total += dpf::discrete_gaussian_pmf(k, s);
      INFO("sigma2 " << s);
      CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
      CHECK(dpf::discrete_gaussian_pmf(3, s) == dpf::discrete_gaussian_pmf(-3, s));
    }
    // sigma2 = 1/2: P(0) = 1 / (1 + 2 (e^-1 + e^-4 + e^-9 + e^-16 + ...)).
    double z = 1.0;
    for (int k = 1; k <= 10; ++k) z += 2.0 * std::exp(-static_cast<double>(k * k));
    CHECK(dpf::discrete_gaussian_pmf(0, 0.5) == doctest::Approx(1.0 / z).epsilon(1e-14));
    CHECK(dpf::discrete_gaussian_pmf(2, 0.5) == doctest::Approx(std::exp(-4.0) / z).epsilon(1e-14));
    // The direct sum (sigma2 < 1) and the Poisson-summation branch (sigma2 >= 1) agree at the seam.
    CHECK(dpf::discrete_gaussian_pmf(1, std::nextafter(1.0, 0.0)) == doctest::Approx(dpf::discrete_gaussian_pmf(1, 1.0)).epsilon(1e-14));
    // Large sigma2: close to the continuous density.
    CHECK(dpf::discrete_gaussian_pmf(0, 1e6) == doctest::Approx(1.0 / std::sqrt(2.0 * M_PI * 1e6)).epsilon(1e-14));
    CHECK(dpf::discrete_gaussian_pmf(std::numeric_limits<int64_t>::max(), 4.0) == 0.0);
  }

  TEST_CASE("discrete Gaussian: sigma2 grid, validation, determinism") {
    // Doubles >= 1/8 are used exactly; smaller ones are rounded up by < 2^-55.
    for (double s : {0.125, 0.5, 1.0, 2.7, 10.3, 1234.56, 0x1p48 + 3.0, 0x1p52})
      CHECK(dpf::discrete_gaussian_sigma2_used(s) == s);
    for (double s : {0x1p-30, 3e-9, 0.01, 0.1}) {
      const double u = dpf::discrete_gaussian_sigma2_used(s);
      CHECK(u >= s);
      CHECK(u - s <= 0x1p-55);
    }
    Rng r(1);
    for (double s : {0.0, -1.0, 1e-10, std::nan(""), std::numeric_limits<double>::infinity(), 0x1p52 * 1.5})
      CHECK_THROWS_AS(dpf::sample_discrete_gaussian(r, s), dpf::Error);
    CHECK_THROWS_AS(dpf::discrete_gaussian_pmf(0, 0.0), dpf::Error);
    CHECK_THROWS_AS(dpf::sample_discrete_laplace(r, 0), dpf::Error);
    CHECK_THROWS_AS(dpf::sample_bernoulli_exp(r, 1, 0), dpf::Error);
    CHECK_THROWS_AS(dpf::gaussian_mechanism(r, 0.0, 1.0, 0.0), dpf::Error);
    CHECK_THROWS_AS(dpf::gaussian_mechanism(r, 0.0, 0.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::gaussian_mechanism(r, std::nan(""), 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::gaussian_mechanism(r, 0.0, 1.0, 1e-20), dpf::Error);  // lattice variance > 2^52
    try {
      dpf::sample_discrete_gaussian(r, -1.0);
      FAIL("no throw");
    } catch (const dpf::Error& e) {
      CHECK(std::string(e.what()).find("sigma2") != std::string::npos);
    }
    Rng a(77), b(77);
    for (int i = 0; i < 200; ++i) CHECK(dpf::sample_discrete_gaussian(a, 3.3) == dpf::sample_discrete_gaussian(b, 3.3));
    // Exact edge cases of Bernoulli(exp(-x)): x = 0 is always 1.
    for (int i = 0; i < 100; ++i) CHECK(dpf::sample_bernoulli_exp(r, 0, 7));
  }

  TEST_CASE("gaussian_mechanism releases a lattice point; resolution is 2^(ceil(log2 sigma) - 24)") {
    CHECK(dpf::gaussian_resolution(1.0) == 0x1p-24);
    CHECK(dpf::gaussian_resolution(1.5) == 0x1p-23);
    CHECK(dpf::gaussian_resolution(0x1p10) == 0x1p-14);
    Rng r(9);
    const double rho = 0.5, sens = 1.0;
    const double res = dpf::gaussian_resolution(sens / std::sqrt(2.0 * rho));
    for (double v : {0.0, 0.3, -17.25, 1e6}) {
      const double out = dpf::gaussian_mechanism(r, v, sens, rho);
      const double k = out / res;
      CHECK(k == std::trunc(k));
      CHECK(std::fabs(out - v) < 100.0);
    }
    CHECK(std::isfinite(dpf::gaussian_mechanism(r, 3e200, sens, rho)));
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("Bernoulli(exp(-num/den)) has the right mean (binomial z-test, alpha = 1e-5, n = 1e6 per case)") {
    const uint64_t n = 1000000;
    uint64_t seed = 6000;
    const std::vector<std::pair<uint64_t, uint64_t>> cases{{1, 2}, {1, 1}, {7, 3}, {5, 1000}, {999, 1000}, {1000003, 400000}};
    for (auto [num, den] : cases) {
      Rng r(seed++);
      uint64_t hits = 0;
      for (uint64_t i = 0; i < n; ++i) hits += dpf::sample_bernoulli_exp(r, num, den) ? 1 : 0;
      const double p = std::exp(-static_cast<double>(num) / static_cast<double>(den));
      const double z = binomial_z(hits, n, p);
      INFO("exp(-" << num << "/" << den << ") = " << p << ": " << hits << " hits, z = " << z);
      CHECK(std::fabs(z) < kZ);
    }
  }

  TEST_CASE("discrete Laplace matches two_sided_geometric_pmf(k, 1/t) (chi-square, alpha = 1e-5, n = 1e6 per t)") {
    const std::size_t n = 1000000;
    uint64_t seed = 6100;
    for (uint64_t t : {1, 3, 10}) {
      const double lambda = 1.0 / static_cast<double>(t);
      const auto K = static_cast<int64_t>(std::ceil(14.0 * static_cast<double>(t)));
      const std::size_t bins = static_cast<std::size_t>(2 * K + 3);
      std::vector<double> probs(bins);
      const double q = std::exp(-lambda);
      const double tail = std::pow(q, static_cast<double>(K + 1)) / (1.0 + q);
      probs.front() = tail;
      probs.back() = tail;
      for (int64_t k = -K; k <= K; ++k) probs[static_cast<std::size_t>(k + K + 1)] = dpf::two_sided_geometric_pmf(k, lambda);
      std::vector<uint64_t> counts(bins, 0);
      Rng r(seed++);
      for (std::size_t i = 0; i < n; ++i) {
        const int64_t k = dpf::sample_discrete_laplace(r, t);
        ++counts[k < -K ? 0 : k > K ? bins - 1 : static_cast<std::size_t>(k + K + 1)];
      }
      const auto res = dpf::test::chi_square_test(counts, probs);
      INFO("t " << t << ": X2 = " << res.statistic << " (df " << res.df << "), critical " << res.critical);
      MESSAGE("discrete Laplace t=" << t << ": X2 = " << res.statistic << " df " << res.df << " critical " << res.critical);
      CHECK_FALSE(res.reject);
    }
  }

  TEST_CASE("discrete Gaussian matches its pmf, tails and symmetry (alpha = 1e-5 per test, n = 1e6 per sigma2)") {
    // Per sigma2: chi-square over k = -K..K (K = ceil(6 sigma) + 1) plus both tails; a binomial
    // z-test of P(|Y| > 2 sigma) (the tail mass); a binomial z-test of #{Y > 0} among nonzero draws
    // against 1/2 (symmetry).
    const std::size_t n = 1000000;
    uint64_t seed = 6200;
    for (double s : {0.05, 0.5, 1.0, 2.7, 10.3, 1234.56}) {
      const double su = dpf::discrete_gaussian_sigma2_used(s);
      const Binned b = dg_bins(su);
      const auto T = static_cast<int64_t>(std::floor(2.0 * std::sqrt(su)));
      const double p_tail = dg_tail(T, su);
      std::vector<uint64_t> counts(b.probs.size(), 0);
      uint64_t beyond = 0, pos = 0, nonzero = 0;
      Rng r(seed++);
      for (std::size_t i = 0; i < n; ++i) {
        const int64_t k = dpf::sample_discrete_gaussian(r, s);
        ++counts[b.bin(k)];
        beyond += (k > T || k < -T) ? 1 : 0;
        pos += k > 0 ? 1 : 0;
        nonzero += k != 0 ? 1 : 0;
      }
      const auto res = dpf::test::chi_square_test(counts, b.probs);
      const double z_tail = binomial_z(beyond, n, p_tail);
      const double z_sym = binomial_z(pos, nonzero, 0.5);
      MESSAGE("sigma2 " << s << ": X2 = " << res.statistic << " (df " << res.df << ", critical " << res.critical
                        << "); P(|Y|>" << T << ") = " << p_tail << " observed " << static_cast<double>(beyond) / n
                        << " z = " << z_tail << "; symmetry z = " << z_sym);
      CHECK_FALSE(res.reject);
      if (p_tail * n >= 1000) CHECK(std::fabs(z_tail) < kZ);
      if (nonzero >= 2000) CHECK(std::fabs(z_sym) < kZ);
    }
  }

  TEST_CASE("mutant discrete Gaussians are rejected by the same chi-square (n = 1e6)") {
    const std::size_t n = 1000000;
    // (a) the rounded continuous Gaussian at sigma2 = 0.5 (P(0) = 0.5205 instead of 0.5641);
    // (b) the right sampler with sigma2 5% too large at sigma2 = 10.3.
    {
      const Binned b = dg_bins(0.5);
      std::vector<uint64_t> counts(b.probs.size(), 0);
      Rng m(6300);
      for (std::size_t i = 0; i < n; ++i) ++counts[b.bin(rounded_gaussian(m, 0.5))];
      const auto res = dpf::test::chi_square_test(counts, b.probs);
      MESSAGE("rounded-Gaussian mutant X2 = " << res.statistic << " (critical " << res.critical << ")");
      CHECK(res.reject);
    }
    {
      const Binned b = dg_bins(10.3);
      std::vector<uint64_t> counts(b.probs.size(), 0);
      Rng m(6301);
      for (std::size_t i = 0; i < n; ++i) ++counts[b.bin(dpf::sample_discrete_gaussian(m, 10.3 * 1.05))];
      const auto res = dpf::test::chi_square_test(counts, b.probs);
      MESSAGE("sigma2 x1.05 mutant X2 = " << res.statistic << " (critical " << res.critical << ")");
      CHECK(res.reject);
    }
  }

  TEST_CASE("gaussian_mechanism noise is N(0, (Delta + r)^2 / (2 rho)) on the lattice (DKW, alpha = 1e-5, n = 1e5)") {
    // The lattice spacing is below sigma 2^-23, so the discrete Gaussian's CDF is within ~1e-7 of the
    // continuous one; DKW threshold 0.00784. A 25% larger variance must be rejected.
    const std::size_t n = 100000;
    const double thr = dpf::test::dkw_threshold(n);
    for (auto [sens, rho] : {std::pair{1.0, 0.5}, std::pair{3.0, 0.01}, std::pair{0.25, 2.0}}) {
      const double r0 = dpf::gaussian_resolution(sens / std::sqrt(2.0 * rho));
      const double sd = (sens + r0) / std::sqrt(2.0 * rho);
      Rng r(6400 + static_cast<uint64_t>(sens * 100.0));
      std::vector<double> xs(n), ys;
      for (double& x : xs) x = dpf::gaussian_mechanism(r, 0.7, sens, rho) - std::round(0.7 / r0) * r0;
      ys = xs;
      const double d = dpf::test::kolmogorov_distance(xs, [sd](double x) { return normal_cdf(x, sd); });
      const double dm = dpf::test::kolmogorov_distance(ys, [sd](double x) { return normal_cdf(x, sd * std::sqrt(1.25)); });
      MESSAGE("Delta " << sens << " rho " << rho << ": D = " << d << " (threshold " << thr << "), mutant D = " << dm);
      CHECK(d < thr);
      CHECK(dm > thr);
    }
  }
}
