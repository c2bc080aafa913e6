// The exact privacy profile of the discrete Gaussian on m shift-1 coordinates
// (core/privacy/discrete_gaussian_profile.hpp): against a brute-force hockey-stick divergence over
// every output vector at small sigma (both directions), the Poisson-summation bound that the lattice
// path rests on against the convolution, and the discrete Gaussian tails across the switch from
// summation to Euler-Maclaurin. Deterministic.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/privacy/discrete_gaussian_profile.hpp"
#include "core/privacy/mechanisms.hpp"

using namespace dpf;

namespace {

// sum over y in [-B, B]^m of max(0, P(y) - e^eps Q(y)) with P = N_Z(1, s2)^m, Q = N_Z(0, s2)^m (or
// swapped), the pmf from mechanisms.hpp; B = 12 sigma + 3 leaves out < 1e-30.
double brute_delta(double eps, double s2, int m, bool swapped) {
  const int B = static_cast<int>(std::ceil(12.0 * std::sqrt(s2))) + 3;
  std::vector<double> p0, p1;  // pmf of N_Z(0, s2) and N_Z(1, s2) on [-B, B]
  for (int y = -B; y <= B; ++y) {
    p0.push_back(discrete_gaussian_pmf(y, s2));
    p1.push_back(discrete_gaussian_pmf(y - 1, s2));
  }
  const double e = std::exp(eps);
  const std::size_t W = p0.size();
  std::vector<std::size_t> idx(static_cast<std::size_t>(m), 0);
  double delta = 0.0;
  for (;;) {
    double P = 1.0, Q = 1.0;
    for (std::size_t j : idx) {
      P *= swapped ? p0[j] : p1[j];
      Q *= swapped ? p1[j] : p0[j];
    }
    delta += std::max(0.0, P - e * Q);
    std::size_t j = 0;
    while (j < idx.size() && ++idx[j] == W) idx[j++] = 0;
    if (j == idx.size()) break;
  }
  return delta;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("discrete Gaussian profile: equals a brute-force hockey-stick divergence in both directions (CKS20 Thm 7 on the sum)") {
    for (const double sigma : {0.5, 0.86, 1.1, 2.0}) {
      for (int m = 1; m <= 3; ++m) {
        DiscreteGaussianProfile prof(sigma * sigma);
        for (const double eps : {0.3, 1.0, 3.0, 8.4}) {
          CAPTURE(sigma);
          CAPTURE(m);
          CAPTURE(eps);
          const ProbBracket d = prof.delta(eps, m);
          for (bool swapped : {false, true}) {
            const double b = brute_delta(eps, sigma * sigma, m, swapped);
            CHECK(d.lo <= b * (1 + 1e-9) + 1e-30);  // the brute force drops < 1e-30
            CHECK(d.hi >= b * (1 - 1e-9));
          }
          CHECK(d.hi - d.lo <= 1e-9 * d.hi + 1e-300);  // a bracket, not a loose bound
        }
      }
    }
    DiscreteGaussianProfile prof(4.0);
    CHECK(prof.delta(1.0, 0).hi == 0.0);
    CHECK(prof.method(1) == "lattice");
    CHECK(DiscreteGaussianProfile(0.86 * 0.86).method(3) == "convolution");
    CHECK(DiscreteGaussianProfile(2.0 * 2.0).method(3) == "lattice");
  }

  TEST_CASE("discrete Gaussian profile: the sum of m discrete Gaussians is within (1 + eta) / (1 - eta) of N_Z(0, m sigma2)") {
    // The lattice path's premise, checked against the truncated convolution where eta is visible.
    for (const double sigma : {0.8, 1.0, 1.2}) {
      for (const int m : {2, 5, 10}) {
        DiscreteGaussianProfile prof(sigma * sigma);
        REQUIRE(prof.method(m) == "convolution");
        const double eta = prof.eta(m);
        REQUIRE(eta < 0.1);
        const double r = (1 + eta) / (1 - eta);
        for (const int64_t n : {1, 2, 3, 5, 8, 12}) {
          CAPTURE(sigma);
          CAPTURE(m);
          CAPTURE(n);
          const ProbBracket conv = prof.tail(n, m);
          const ProbBracket lat = discrete_gaussian_tail(n, m * sigma * sigma);
          CHECK(conv.lo >= lat.lo / r * (1 - 1e-9));
          CHECK(conv.hi <= lat.hi * r * (1 + 1e-9));
        }
      }
    }
  }

  TEST_CASE("discrete Gaussian tails: summation and Euler-Maclaurin agree at the switch and with a long-double sum") {
    for (const double v : {1e4, 2e4, 3e5}) {
      const double sd = std::sqrt(v);
      for (const double at : {0.0, 0.5, 3.0, 5.0, 7.0}) {
        const auto n = static_cast<int64_t>(std::llround(at * sd)) + 1;
        CAPTURE(v);
        CAPTURE(n);
        long double z = 0, tail = 0;
        for (int64_t s = -static_cast<int64_t>(40 * sd); s <= static_cast<int64_t>(40 * sd); ++s) {
          const long double t = std::exp(-static_cast<long double>(s) * s / (2.0L * v));
          z += t;
          if (s >= n) tail += t;
        }
        const double exact = static_cast<double>(tail / z);
        const ProbBracket b = discrete_gaussian_tail(n, v);
        CHECK(b.lo <= exact * (1 + 1e-12));
        CHECK(b.hi >= exact * (1 - 1e-12));
        CHECK(b.hi - b.lo <= 1e-10 * exact);
      }
    }
    // Either side of the switch at v = 1e4 (summation below, Euler-Maclaurin above).
    for (const double at : {1.0, 4.0, 6.0}) {
      const auto n = static_cast<int64_t>(at * 100.0);
      const ProbBracket below = discrete_gaussian_tail(n, 1e4), above = discrete_gaussian_tail(n, 1e4 * (1 + 1e-15));
      CHECK(above.lo <= below.hi * (1 + 1e-11));
      CHECK(above.hi >= below.lo * (1 - 1e-11));
    }
    // Symmetry and the far tail.
    const ProbBracket left = discrete_gaussian_tail(-3, 4.0), right = discrete_gaussian_tail(4, 4.0);
    CHECK(left.lo == doctest::Approx(1.0 - right.hi).epsilon(1e-12));
    CHECK(discrete_gaussian_tail(1000, 1.0).hi < 1e-200);
  }
}
