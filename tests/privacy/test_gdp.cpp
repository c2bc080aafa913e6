// Gaussian-DP accounting (core/privacy/gdp.hpp): the exact mu <-> (epsilon, delta) conversion of
// Dong, Roth & Su against brute-force integration of the Gaussian pair, the library values of
// dp-ebm.md §4.3, mu composition in the ledger against a two-dimensional brute force, and the lattice
// Gaussian mechanism.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/privacy/gdp.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"
#include "privacy/stat_util.hpp"

using dpf::Composition;
using dpf::PrivacyLedger;

namespace {

double phi(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi); }

// delta(epsilon) of N(0, 1) vs N(mu, 1) by definition: integral of max(0, p(x) - e^eps q(x)), with
// p = N(mu, 1) (the hypothesis-testing pair is symmetric). The integrand is positive exactly right of
// x* = epsilon / mu + mu / 2, so composite Simpson runs on [x*, x* + 40] where it is smooth.
double brute_delta(double epsilon, double mu) {
  const int n = 200000;
  const double a = epsilon / mu + 0.5 * mu, b = a + 40.0, h = (b - a) / n;
  double s = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double x = a + h * i;
    const double f = std::max(0.0, phi(x - mu) - std::exp(epsilon) * phi(x));
    s += f * (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0));
  }
  return s * h / 3.0;
}

// The same for two independent Gaussian queries with noise multipliers mu1, mu2 (product pair),
// integrated on a grid: the direct definition of their composition.
double brute_delta_2d(double epsilon, double mu1, double mu2) {
  const int n = 2400;
  const double a = -12.0, b = 12.0, h = (b - a) / n;
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = a + h * (i + 0.5);
    for (int j = 0; j < n; ++j) {
      const double y = a + h * (j + 0.5);
      s += std::max(0.0, phi(x - mu1) * phi(y - mu2) - std::exp(epsilon) * phi(x) * phi(y));
    }
  }
  return s * h * h;
}

double normal_quantile(double p) {
  double lo = -40.0, hi = 40.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (dpf::normal_cdf(mid) < p) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("GDP: delta(epsilon; mu) equals the brute-force integral of the Gaussian pair") {
    for (double mu : {0.1, 0.5, 1.0, 2.0, 4.0})
      for (double eps : {0.0, 0.1, 0.5, 1.0, 3.0}) {
        const double exact = dpf::gdp_delta(eps, mu), brute = brute_delta(eps, mu);
        CAPTURE(mu);
        CAPTURE(eps);
        CHECK(exact == doctest::Approx(brute).epsilon(1e-8).scale(0.0));
      }
    // epsilon = 0: delta is the total variation 2 Phi(mu / 2) - 1.
    CHECK(dpf::gdp_delta(0.0, 1.0) == doctest::Approx(2.0 * dpf::normal_cdf(0.5) - 1.0).epsilon(1e-14));
    // Far tails stay finite (e^epsilon alone would overflow) and tiny.
    CHECK(dpf::gdp_delta(1000.0, 1.0) == 0.0);
    CHECK(dpf::gdp_delta(50.0, 10.0) == doctest::Approx(0.5 - std::exp(50.0) * dpf::normal_cdf(-10.0)).epsilon(1e-12));
    CHECK(dpf::gdp_delta(200.0, 10.0) > 0.0);
    CHECK(dpf::gdp_delta(200.0, 10.0) < 1e-40);
    CHECK(dpf::log_normal_cdf(-40.0) == doctest::Approx(-804.6084420137538).epsilon(1e-12));
    CHECK(dpf::log_normal_cdf(-29.9) == doctest::Approx(std::log(dpf::normal_cdf(-29.9))).epsilon(1e-14));
  }

  TEST_CASE("GDP: mu* of the DP-EBM library (dp-ebm.md §4.3, bin / train split of (epsilon, delta))") {
    struct Row { double eps, delta, mu_bin, mu_train; };
    // (0.1 epsilon, delta / 2) and (0.9 epsilon, delta / 2), values from the library's own functions.
    for (const Row& r : {Row{0.1, 1e-6, 0.00308877, 0.0239225}, Row{1.0, 1e-6, 0.0264081, 0.207651},
                         Row{10.0, 1e-6, 0.229087, 1.65471}, Row{1.0, 1e-5, 0.0307825, 0.23374}}) {
      const double mb = dpf::gdp_mu(0.1 * r.eps, r.delta / 2), mt = dpf::gdp_mu(0.9 * r.eps, r.delta / 2);
      CHECK(mb == doctest::Approx(r.mu_bin).epsilon(5e-6));
      CHECK(mt == doctest::Approx(r.mu_train).epsilon(5e-6));
    }
    // sigma of a binning histogram for d = 4 features: sqrt(4) / mu_bin (§4.3: 647.51, 75.734, 8.7303).
    CHECK(2.0 / dpf::gdp_mu(0.01, 5e-7) == doctest::Approx(647.51).epsilon(1e-5));
    CHECK(2.0 / dpf::gdp_mu(0.1, 5e-7) == doctest::Approx(75.734).epsilon(1e-5));
    CHECK(2.0 / dpf::gdp_mu(1.0, 5e-7) == doctest::Approx(8.7303).epsilon(1e-5));
    // Raw-sum sigma for T = 1200 queries: sqrt(1200) / mu_train (§4.3: 1448.1, 166.82, 20.935, 148.20).
    CHECK(std::sqrt(1200.0) / dpf::gdp_mu(0.09, 5e-7) == doctest::Approx(1448.1).epsilon(1e-4));
    CHECK(std::sqrt(1200.0) / dpf::gdp_mu(0.9, 5e-6) == doctest::Approx(148.20).epsilon(1e-4));
  }

  TEST_CASE("GDP: the inversions are rigorous ends and each other's inverse") {
    for (double delta : {1e-3, 1e-6, 1e-10})
      for (double mu : {0.01, 0.3, 1.0, 5.0}) {
        const double eps = dpf::gdp_epsilon(mu, delta);
        CHECK(dpf::gdp_delta(eps, mu) <= delta);
        if (eps > 0) CHECK(dpf::gdp_delta(eps * (1 - 1e-9), mu) > delta * (1 - 1e-6));
        if (eps > 0) {
          const double back = dpf::gdp_mu(eps, delta);
          CHECK(dpf::gdp_delta(eps, back) <= delta);
          CHECK(back == doctest::Approx(mu).epsilon(1e-9));
        }
      }
    // A small mu at a large delta spends nothing.
    CHECK(dpf::gdp_epsilon(1e-9, 0.5) == 0.0);
    CHECK(dpf::gdp_epsilon(0.0, 1e-5) == 0.0);
    CHECK(dpf::gdp_split(1.0, 4) == 0.5);
    CHECK_THROWS_AS(dpf::gdp_mu(0.0, 1e-5), dpf::Error);
    CHECK_THROWS_AS(dpf::gdp_mu(1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::gdp_epsilon(-1.0, 1e-5), dpf::Error);
    CHECK_THROWS_AS(dpf::gdp_delta(1.0, 0.0), dpf::Error);
    CHECK_THROWS_AS(dpf::gdp_split(1.0, 0), dpf::Error);
  }

  TEST_CASE("ledger: GDP charges compose as sqrt(sum mu^2) and convert exactly (2-D brute force)") {
    PrivacyLedger l;
    const auto s = l.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "fit");
    l.charge_gdp(s, "gauss", 0.6, 1.0);
    l.charge_gdp(s, "gauss", 0.8, 1.0);
    const auto par = l.open_scope(s, Composition::kParallel, "disjoint");
    l.charge_gdp(l.open_scope(par, Composition::kSequential), "other", 0.2, 1.0);
    l.charge_gdp(l.open_scope(par, Composition::kSequential), "other", 0.1, 1.0);
    CHECK(l.has_gdp());
    CHECK(l.mu_spent() == doctest::Approx(std::sqrt(0.36 + 0.64 + 0.04)).epsilon(1e-14));
    const double delta = 1e-2;
    const double eps = l.epsilon_for(delta);
    CHECK(eps == dpf::gdp_epsilon(std::sqrt(1.04), delta));
    // Two Gaussian queries (mu 0.6, 0.8) are exactly one of mu = 1 (DRS Cor. 3.3): check the
    // composition by direct integration of the product pair.
    for (double e : {0.0, 0.5, 1.5})
      CHECK(brute_delta_2d(e, 0.6, 0.8) == doctest::Approx(dpf::gdp_delta(e, 1.0)).epsilon(1e-6));
    CHECK(l.summary().find("gauss: calls=2 mu=1") != std::string::npos);
    CHECK(l.entries()[0].mu == doctest::Approx(1.0));
    CHECK_NOTHROW(l.check_within(eps, delta, "test"));
    CHECK_THROWS_AS(l.check_within(eps * 0.99, delta, "test"), dpf::Error);
    CHECK_THROWS_AS(l.check_within(100.0, "test"), dpf::Error);  // no pure guarantee
    CHECK_THROWS_AS(l.epsilon_for(0.0), dpf::Error);
    CHECK_THROWS_AS(l.charge_gdp(s, "bad", 0.0, 1.0), dpf::Error);
  }

  TEST_CASE("ledger: GDP next to pure, zCDP and approximate-DP charges") {
    const double delta = 1e-5;
    // GDP + approx: basic composition with the approx part, the GDP part exact at the rest of delta.
    PrivacyLedger a;
    a.charge_gdp(PrivacyLedger::kRoot, "g", 0.5, 1.0);
    a.charge_approx(PrivacyLedger::kRoot, "ap", 0.3, 4e-6, 1.0);
    CHECK(a.epsilon_for(delta) == doctest::Approx(0.3 + dpf::gdp_epsilon(0.5, 6e-6)).epsilon(1e-12));
    // GDP + pure: mu-GDP enters as (mu^2 / 2)-zCDP; a valid bound, never below the exact GDP one of
    // the GDP part alone, and equal to the zCDP ledger that holds rho = mu^2 / 2 in its place.
    PrivacyLedger g, z;
    g.charge_gdp(PrivacyLedger::kRoot, "g", 0.5, 1.0);
    g.charge(PrivacyLedger::kRoot, "lap", 0.2, 1.0);
    z.charge_zcdp(PrivacyLedger::kRoot, "z", 0.125, 1.0);
    z.charge(PrivacyLedger::kRoot, "lap", 0.2, 1.0);
    CHECK(g.epsilon_for(delta) == doctest::Approx(z.epsilon_for(delta)).epsilon(1e-12));
    CHECK(g.epsilon_for(delta) > dpf::gdp_epsilon(0.5, delta));
    CHECK(g.rho_equivalent() == doctest::Approx(0.125 + 0.02));
    CHECK(g.rho_spent() == 0.0);  // zCDP charges only
    // Absorbing a ledger carries its GDP charges.
    PrivacyLedger parent;
    parent.absorb(PrivacyLedger::kRoot, a);
    CHECK(parent.mu_spent() == doctest::Approx(0.5));
    CHECK(parent.epsilon_for(delta) == a.epsilon_for(delta));
  }

  TEST_CASE("discrete Gaussian vs GDP: the quantile step exceeds Delta / sigma by about 1 / (24 s)") {
    // Exact tradeoff of N_Z(0, s) vs N_Z(1, s): at integer thresholds t the Gaussian quantiles
    // z(t) = Phi^-1(P[K < t]) must step by at most mu = 1 / sqrt(s) for mu-GDP. The excess is the
    // midpoint-rule error of the integer sum, ~ 1 / (24 s); gdp.hpp's kGdpLatticeMargin relies on it
    // shrinking like 1 / s (the lattice variance there exceeds 2^46).
    double prev_excess = 1.0;
    for (double s : {1.0, 4.0, 16.0, 64.0}) {
      const double sig = std::sqrt(s);
      const int K = static_cast<int>(12 * sig) + 2;
      std::vector<double> w;
      double z = 0.0;
      for (int k = -K; k <= K; ++k) {
        w.push_back(std::exp(-k * static_cast<double>(k) / (2 * s)));
        z += w.back();
      }
      std::vector<double> below(w.size() + 1, 0.0);  // below[i] = P[K < -K + i]
      for (std::size_t i = 0; i < w.size(); ++i) below[i + 1] = below[i] + w[i] / z;
      double worst = 0.0;
      for (int t = -static_cast<int>(5 * sig); t <= static_cast<int>(5 * sig); ++t) {
        const std::size_t i = static_cast<std::size_t>(t + K);
        const double step = (normal_quantile(below[i]) - normal_quantile(below[i - 1])) * sig;
        worst = std::max(worst, step - 1.0);
      }
      CAPTURE(s);
      CHECK(worst > 0.0);  // the discrete Gaussian is slightly worse than G_mu ...
      CHECK(worst < 0.05 / s);  // ... by O(1 / s)
      CHECK(worst < prev_excess);
      prev_excess = worst;
    }
  }

  TEST_CASE("gdp_gaussian_mechanism: lattice output with standard deviation (Delta + r) / mu") {
    const double delta_l2 = 0.01, mu = 0.004;  // sigma 2.5, one DP-EBM step's scale
    const double sigma = dpf::gdp_lattice_sigma(delta_l2, mu);
    CHECK(sigma >= delta_l2 / mu);
    CHECK(sigma == doctest::Approx(delta_l2 / mu).epsilon(1e-3));
    dpf::Rng rng(7);
    const int n = 100000;
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < n; ++i) {
      const double v = dpf::gdp_gaussian_mechanism(rng, 0.3, delta_l2, mu);
      sum += v - 0.3;
      sum2 += (v - 0.3) * (v - 0.3);
    }
    const double mean = sum / n, var = sum2 / n - mean * mean;
    // 5-sigma bands (false alarm ~ 6e-7 each): mean sd sigma / sqrt n, variance sd ~ sigma^2 sqrt(2 / n).
    CHECK(std::fabs(mean) < 5 * sigma / std::sqrt(n));
    CHECK(std::fabs(var / (sigma * sigma) - 1.0) < 5 * std::sqrt(2.0 / n));
    // The output is a multiple of the lattice spacing.
    dpf::Rng r2(8);
    const double v = dpf::gdp_gaussian_mechanism(r2, 0.3, delta_l2, mu);
    const double spacing = std::ldexp(1.0, -22);  // ceil(log2 2.5) - 24 = -22
    CHECK(std::fabs(v / spacing - std::round(v / spacing)) < 1e-9);
    CHECK_THROWS_AS(dpf::gdp_gaussian_mechanism(r2, std::nan(""), 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::gdp_gaussian_mechanism(r2, 0.0, 1.0, 1e-12), dpf::Error);  // lattice variance > 2^52
  }
}
