// Rényi-DP accounting of the Poisson-subsampled Gaussian mechanism (core/privacy/rdp.hpp): published
// values of Google's dp_accounting (rdp_privacy_accountant_test.py, test_compute_rdp_poisson_sampled_gaussian),
// brute-force numerical integration of both Rényi divergences (Mironov, Talwar & Zhang 2019 §3.3),
// and the noise scales, orders and epsilons S-BDT's accountant printed in its published result CSVs
// (kirschte/sbdt results/*_rerun_results.csv; s-bdt.md §4.2, §5, §6.2).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/privacy/rdp.hpp"
#include "core/util/error.hpp"

namespace {

// Both directions of the SGM's Rényi divergence at order alpha, by the trapezoid rule on a fine grid:
//   A = E_{x ~ N(0, z^2)} [((1 - q) + q L(x))^alpha],  B = E_{x ~ N(0, z^2)} [((1 - q) + q L(x))^(1 - alpha)]
// with L(x) = exp((2x - 1) / (2 z^2)) the likelihood ratio of N(1, z^2) to N(0, z^2). (B is
// E_mu[(mu0/mu)^alpha] rewritten under mu0.)
struct Divergences {
  double remove, add;
};
Divergences brute_force(double q, double z, int alpha) {
  const double lo = -40.0 * z, hi = 40.0 * z + alpha;
  const int n = 400000;
  const double h = (hi - lo) / n;
  double a = 0.0, b = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double x = lo + h * i;
    const double w = (i == 0 || i == n ? 0.5 : 1.0) * h * std::exp(-x * x / (2 * z * z)) / (z * std::sqrt(2 * M_PI));
    const double m = (1 - q) + q * std::exp((2 * x - 1) / (2 * z * z));
    a += w * std::pow(m, alpha);
    b += w * std::pow(m, 1 - alpha);
  }
  return {std::log(a) / (alpha - 1), std::log(b) / (alpha - 1)};
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("RDP of the subsampled Gaussian: dp_accounting's published values") {
    // noise multiplier 2.5 (mu = 1 / (2 * 2.5^2) = 0.08), q = 0.01, 50 compositions; integer orders.
    CHECK(50 * dpf::sgm_rdp(0.01, 0.08, 5) == doctest::Approx(2.18075656e-03).epsilon(1e-4));
    CHECK(50 * dpf::sgm_rdp(0.01, 0.08, 50) == doctest::Approx(2.38460375e-02).epsilon(1e-4));
    CHECK(50 * dpf::sgm_rdp(0.01, 0.08, 100) == doctest::Approx(1.67416308e02).epsilon(1e-4));
    const dpf::RdpCurve curve = dpf::RdpCurve::subsampled_gaussian(0.01, 0.08);
    CHECK(50 * curve.at(50) == doctest::Approx(2.38460375e-02).epsilon(1e-4));
  }

  TEST_CASE("RDP of the subsampled Gaussian: brute-force integration, both directions") {
    for (double q : {0.01, 0.1, 0.5}) {
      for (double z : {0.8, 2.0, 5.0}) {
        for (int alpha : {2, 3, 5, 8}) {
          CAPTURE(q);
          CAPTURE(z);
          CAPTURE(alpha);
          const Divergences d = brute_force(q, z, alpha);
          const double mine = dpf::sgm_rdp(q, 1.0 / (2 * z * z), alpha);
          CHECK(mine == doctest::Approx(d.remove).epsilon(1e-6));
          // The "add" direction is dominated (MTZ19 §3.3): the formula bounds both.
          CHECK(d.add <= mine * (1 + 1e-6) + 1e-15);
        }
      }
    }
  }

  TEST_CASE("RDP of the subsampled Gaussian: limits and monotonicity") {
    CHECK(dpf::sgm_rdp(1.0, 0.3, 7) == doctest::Approx(2.1));
    CHECK(dpf::sgm_rdp(0.0, 0.3, 7) == 0.0);
    CHECK(dpf::sgm_rdp(0.2, 0.0, 7) == 0.0);
    double prev = 0.0;
    for (double q : {1e-4, 1e-3, 0.01, 0.1, 0.5, 0.9, 0.999}) {
      const double r = dpf::sgm_rdp(q, 0.05, 20);
      CHECK(r > prev);
      CHECK(r <= 20 * 0.05 * (1 + 1e-12));  // never above the unsampled Gaussian
      prev = r;
    }
    // Small q: the leading term C(alpha, 2) q^2 (e^(2 mu) - 1) / (alpha - 1), no cancellation.
    CHECK(dpf::sgm_rdp(1e-6, 1e-4, 3) == doctest::Approx(3 * 1e-12 * std::expm1(2e-4) / 2).epsilon(1e-6));
    CHECK_THROWS_AS(dpf::sgm_rdp(1.5, 0.1, 3), dpf::Error);
    CHECK_THROWS_AS(dpf::sgm_rdp(0.5, -0.1, 3), dpf::Error);
    CHECK_THROWS_AS(dpf::sgm_rdp(0.5, 0.1, 1), dpf::Error);
    CHECK_THROWS_AS(dpf::sgm_rdp(0.5, 0.1, dpf::kRdpMaxOrder + 1), dpf::Error);
  }

  TEST_CASE("RDP curves: suffix minimum, single order, real orders") {
    std::vector<double> v(dpf::kRdpMaxOrder - 1, 5.0);
    v[0] = 9.0;  // order 2 above order 3: tightened to 5
    dpf::RdpCurve c(v);
    CHECK(c.at(2) == 5.0);
    CHECK(c.at(dpf::kRdpMaxOrder + 1) == INFINITY);
    const dpf::RdpCurve s = dpf::RdpCurve::single_order(40, 0.25);
    CHECK(s.at(40) == 0.25);
    CHECK(s.at(3) == 0.25);   // monotonicity: a bound at 40 holds below
    CHECK(s.at(41) == INFINITY);
    CHECK(s.at_real(39.5) == 0.25);
    CHECK(s.at_real(40.01) == INFINITY);
    CHECK_THROWS_AS(dpf::RdpCurve(std::vector<double>(3, 0.0)), dpf::Error);
    v[7] = -1.0;
    CHECK_THROWS_AS(dpf::RdpCurve{v}, dpf::Error);
  }

  TEST_CASE("RDP to (epsilon, delta): CKS20 / Balle et al. 2020 and Mironov 2017") {
    // rho = 0.26, alpha = 51, delta = 5e-8 by hand: 0.26 + log(50/51) - (log 5e-8 + log 51) / 50.
    const double e = 0.26 + std::log(50.0 / 51.0) - (std::log(5e-8) + std::log(51.0)) / 50.0;
    CHECK(dpf::rdp_epsilon_cks(0.26, 51, 5e-8) == doctest::Approx(e).epsilon(1e-14));
    CHECK(dpf::rdp_epsilon_mironov(0.26, 51, 5e-8) == doctest::Approx(0.26 + std::log(2e7) / 50).epsilon(1e-14));
    for (double a : {1.5, 2.0, 10.0, 300.0})
      CHECK(dpf::rdp_epsilon_cks(0.1, a, 1e-6) < dpf::rdp_epsilon_mironov(0.1, a, 1e-6));
    // A linear curve (the Gaussian) reproduces the zCDP conversion at integer orders.
    const dpf::RdpEpsilon best = dpf::rdp_best_epsilon([](int a) { return 0.01 * a; }, 1e-6);
    CHECK(best.epsilon == doctest::Approx(0.6216926545662637).epsilon(2e-3));
    CHECK(best.epsilon >= 0.6216926545662637);
    CHECK_THROWS_AS(dpf::rdp_epsilon_cks(0.1, 2, 0.0), dpf::Error);
    CHECK_THROWS_AS(dpf::rdp_epsilon_cks(0.1, 1.0, 1e-6), dpf::Error);
  }

  TEST_CASE("S-BDT noise calibration reproduces the authors' sigma, order and epsilon") {
    struct Row {
      double eps_leaf, q;
      int rounds;
      double sigma;  // the authors' (kirschte/sbdt results CSV): their bisection's last feasible point
      int alpha;
      double rdp_eps;  // their real_eps - epsilon + eps_leaf: the accountant's epsilon at their sigma
      double rho;      // their max_rho
    };
    const Row rows[] = {
        {0.5, 1.0, 200, 197.492, 51, 0.499304, 0.261518},      // Adult eps 0.5 (s-bdt.md §5)
        {0.1, 1.0, 400, 1296.38, 220, 0.0999415, 0.0523621},   // Adult eps 0.1
        {0.01, 0.01, 50, 41.3514, 1751, 0.00999758, 0.00522982},  // Adult eps 0.01
        {0.02, 0.01, 100, 30.352, 939, 0.019975, 0.0104154},      // Adult eps 0.02
        {0.03, 0.01, 400, 40.9884, 654, 0.0299876, 0.0157013},    // Adult eps 0.03
        {0.045, 0.1, 100, 139.099, 454, 0.0449647, 0.0235646},    // Abalone eps 0.05, isr 0.1
        {0.09, 0.1, 50, 51.1014, 240, 0.0899746, 0.0467416},      // Abalone eps 0.1, isr 0.1
        {0.18, 0.1, 50, 26.5993, 126, 0.179939, 0.0921079},       // Abalone eps 0.2, isr 0.1
        {0.27, 0.1, 100, 25.4488, 88, 0.269791, 0.139451},        // Abalone eps 0.3, isr 0.1
        {0.5, 0.1, 150, 17.3757, 50, 0.499723, 0.256677},         // Abalone eps 0.5
    };
    const double delta = 5e-8;  // the authors' DELTA
    for (const Row& r : rows) {
      CAPTURE(r.eps_leaf);
      CAPTURE(r.q);
      CAPTURE(r.rounds);
      // At the authors' sigma, our full scan gives their epsilon, order and rho.
      const dpf::RdpCurve at_theirs = dpf::RdpCurve::subsampled_gaussian(r.q, 1.0 / (r.sigma * r.sigma));
      const dpf::RdpEpsilon e = dpf::rdp_best_epsilon([&](int a) { return r.rounds * at_theirs.at(a); }, delta);
      // Their order search is a Newton iteration on rounded orders (rdp_accountant.cpp L184-227); the
      // full scan can land one order away (Abalone eps 0.2: 127, theirs 126) at no larger epsilon.
      CHECK(std::abs(e.alpha - r.alpha) <= 1);
      CHECK(e.epsilon <= r.rdp_eps * (1 + 2e-5));
      CHECK(e.epsilon == doctest::Approx(r.rdp_eps).epsilon(2e-5));
      CHECK(r.rounds * at_theirs.at(r.alpha) == doctest::Approx(r.rho).epsilon(2e-5));
      // Our calibration: the exact smallest sigma, at most 0.2% below theirs, epsilon on target.
      const dpf::SgmCalibration cal = dpf::calibrate_subsampled_gaussian(r.q, 1.0, r.rounds, r.eps_leaf, delta);
      CHECK(cal.sigma <= r.sigma * (1 + 1e-5));
      CHECK(cal.sigma >= r.sigma * (1 - 2e-3));
      CHECK(cal.epsilon <= r.eps_leaf);
      CHECK(cal.epsilon == doctest::Approx(r.eps_leaf).epsilon(1e-6));
      CHECK(std::abs(cal.alpha - r.alpha) <= 1);
      CHECK(cal.rho == doctest::Approx(r.rounds * cal.per_round.at(cal.alpha)));
    }
  }

  TEST_CASE("S-BDT worked example (s-bdt.md §5) and the Newton under-noising (§7 F1)") {
    const dpf::SgmCalibration cal = dpf::calibrate_subsampled_gaussian(1.0, 1.0, 200, 0.5, 5e-8);
    CHECK(cal.sigma == doctest::Approx(197.49).epsilon(2e-3));
    CHECK(cal.alpha == 51);
    // Numerator noise sigma G / sqrt(2 (1 - w)) with G = 0.8, w = 0.04: ~114.
    CHECK(cal.sigma * 0.8 / std::sqrt(2 * 0.96) == doctest::Approx(114.0).epsilon(3e-3));
    // F1: the hessian noise is halved, so the true mu is ((1 - w) + 4 w) / sigma^2 = 1.12 / sigma^2;
    // the true epsilon is 1.06x the claim for w = 0.04 and 1.62x for w = 0.5 (every Maddock row).
    auto true_eps = [&](double w, double eps, int rounds) {
      const dpf::SgmCalibration c = dpf::calibrate_subsampled_gaussian(1.0, 1.0, rounds, eps, 5e-8);
      const dpf::RdpCurve t = dpf::RdpCurve::subsampled_gaussian(1.0, ((1 - w) + 4 * w) / (c.sigma * c.sigma));
      return dpf::rdp_best_epsilon([&](int a) { return rounds * t.at(a); }, 5e-8).epsilon;
    };
    CHECK(true_eps(0.04, 0.5, 200) == doctest::Approx(0.530).epsilon(5e-3));
    CHECK(true_eps(0.5, 0.5, 200) == doctest::Approx(0.80).epsilon(1e-2));
    CHECK(true_eps(0.5, 0.1, 100) == doctest::Approx(0.16).epsilon(2e-2));
  }
}
