// [v1] Theorem 2 (A.2.2, dipreme.md §5): for a depth-d tree grown with the uniform-position private
// median ([v1] Alg. 3 lines 42-44, §2.5b), a leaf count Ñ_i satisfies
//   P(|Ñ_i - N/2^d| >= t) <= min( γ/(ε₁² t²),  sub-exponential bound ),   γ = 8(1 - 2^{-2d})/3,
// sub-exponential: 2 exp(-ε₁² t²/(4γ)) for t <= 2βγ/ε₁, else 2 exp(-ε₁ β t/2), β² = (√(1-2/e)+1)/2,
// where ε₁ is the budget of one median draw, P(j) ∝ exp(-(ε₁/2)|N - 2j|) ([v1] Alg. 1 line 12: ε₁ = ρε/(2 d_max)).
// The tests draw independent root-to-leaf paths (one leaf per tree, so the samples are independent) and
// test H0: p_t <= bound(t) with an exact one-sided binomial test at each of four t, Bonferroni over t:
// family-wise false-alarm rate α = 1e-5 if the theorem holds. The same decision rejects a uniform random
// threshold (DP-ERT's split) and a median drawn at ε₁/3 — so the bound discriminates.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/dipreme/median.hpp"
#include "core/data/synthetic.hpp"

using namespace dpf;

namespace {

constexpr int kDepth = 10;
constexpr double kEps1 = 0.25;  // ε = 10, ρ = 0.5, d_max = 10: ε₁ = ρε/(2 d_max) ([v1] Alg. 1 line 12)
constexpr double kAlpha = 1e-5;
constexpr std::array<double, 4> kT = {12, 16, 24, 32};

double thm2_gamma(int d) { return 8.0 * (1.0 - std::pow(2.0, -2.0 * d)) / 3.0; }

// The tighter of [v1] Thm 2's Chebyshev and sub-exponential bounds (A.2.2), capped at 1.
double thm2_bound(double t, double eps1, int d) {
  const double g = thm2_gamma(d);
  const double beta = std::sqrt((std::sqrt(1.0 - 2.0 / std::exp(1.0)) + 1.0) / 2.0);
  const double cheb = g / (eps1 * eps1 * t * t);
  const double sub = t <= 2.0 * beta * g / eps1 ? 2.0 * std::exp(-eps1 * eps1 * t * t / (4.0 * g))
                                                 : 2.0 * std::exp(-eps1 * beta * t / 2.0);
  return std::min({1.0, cheb, sub});
}

// Smallest k with P(Binomial(n, p) >= k) <= a: reject H0 (p <= bound) when the count reaches it.
uint64_t critical_count(uint64_t n, double p, double a) {
  uint64_t k = static_cast<uint64_t>(std::floor(n * p));
  while (k <= n && dpf::test::binom_sf(n, k, p) > a) ++k;
  return k;
}

// True if the deviations contradict Thm 2 at some t (family-wise level α).
bool exceeds_thm2(const std::vector<double>& dev, double eps1) {
  bool reject = false;
  for (double t : kT) {
    const uint64_t x = static_cast<uint64_t>(std::count_if(dev.begin(), dev.end(), [t](double v) { return std::fabs(v) >= t; }));
    const double b = thm2_bound(t, eps1, kDepth);
    const uint64_t c = critical_count(dev.size(), b, kAlpha / kT.size());
    MESSAGE("t = ", t, ": ", x, " of ", dev.size(), " paths (", static_cast<double>(x) / dev.size(), "), bound ", b,
            ", reject from ", c);
    reject = reject || x >= c;
  }
  return reject;
}

enum class Splitter { kUniformPositions, kUniformPositionsThirdEps, kUniformThreshold };

// Ñ - N/2^d along one root-to-leaf path of a depth-d tree on the sorted values x (one attribute: the
// uniform-position median's counts depend only on positions, so a 1-D tree has the count process of any
// tree without ties). Each level draws the threshold, then descends into a uniformly chosen child.
double path_deviation(Rng& rng, const std::vector<double>& x, Splitter s) {
  std::size_t begin = 0, end = x.size();
  double lo = 0.0, hi = 1.0;
  for (int level = 0; level < kDepth; ++level) {
    std::span<const double> slice(x.data() + begin, end - begin);
    double r = 0;
    switch (s) {
      case Splitter::kUniformPositions:
        r = numeric_median_split(rng, slice, lo, hi, kEps1, NumericMedian::kUniformPositions);
        break;
      case Splitter::kUniformPositionsThirdEps:
        r = numeric_median_split(rng, slice, lo, hi, kEps1 / 3, NumericMedian::kUniformPositions);
        break;
      case Splitter::kUniformThreshold:
        r = rng.uniform(lo, hi);
        break;
    }
    const auto below = static_cast<std::size_t>(std::lower_bound(slice.begin(), slice.end(), r) - slice.begin());
    if (rng.bernoulli(0.5)) {
      begin += below;  // upper child: x >= r, domain [r, hi]
      lo = r;
    } else {
      end = begin + below;  // lower child: x < r, domain [lo, r]
      hi = r;
    }
  }
  return static_cast<double>(end - begin) - static_cast<double>(x.size()) / std::pow(2.0, kDepth);
}

std::vector<double> path_sample(Splitter s, std::size_t paths, uint64_t seed) {
  const std::size_t n = std::size_t{64} << kDepth;  // N = 65536, 64 rows per leaf on average
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = (static_cast<double>(i) + 0.5) / static_cast<double>(n);
  std::vector<double> dev;
  dev.reserve(paths);
  const Rng base(seed);
  for (std::size_t p = 0; p < paths; ++p) {
    Rng rng = base.derive(static_cast<uint64_t>(p));
    dev.push_back(path_deviation(rng, x, s));
  }
  return dev;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("[v1] Thm 2 constants: γ is the variance factor of Σ_i Laplace(2^{i-d}/ε₁), β² ≈ 0.757") {
    double var = 0;  // Var Σ_{i=1..d} Laplace(0, 2^{i-d}/ε₁) = Σ 2 (2^{i-d}/ε₁)²
    for (int i = 1; i <= kDepth; ++i) var += 2.0 * std::pow(std::pow(2.0, i - kDepth) / kEps1, 2);
    CHECK(var == doctest::Approx(thm2_gamma(kDepth) / (kEps1 * kEps1)).epsilon(1e-12));
    const double beta2 = (std::sqrt(1.0 - 2.0 / std::exp(1.0)) + 1.0) / 2.0;
    CHECK(beta2 == doctest::Approx(0.757).epsilon(1e-3));  // [v1] A.2.2: "β² ≈ 0.757"
    // The Chebyshev form is the tighter one on (0.76, 3.61)·√γ/ε₁ ([v1] A.2.2); at t = 2√γ/ε₁ it is γ/(4γ) = 1/4.
    const double t = 2.0 * std::sqrt(thm2_gamma(kDepth)) / kEps1;
    CHECK(thm2_bound(t, kEps1, kDepth) == doctest::Approx(0.25).epsilon(1e-12));
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("uniform-position median: leaf-count tails stay under [v1] Thm 2 (3000 paths, d = 10, α = 1e-5)") {
    CHECK_FALSE(exceeds_thm2(path_sample(Splitter::kUniformPositions, 3000, 11), kEps1));
  }

  TEST_CASE("the same test rejects broken splitters: uniform random thresholds and a median at ε₁/3") {
    // Random thresholds (DP-ERT's structure) leave counts N·ΠU_i: almost every leaf is far from N/2^d.
    CHECK(exceeds_thm2(path_sample(Splitter::kUniformThreshold, 3000, 12), kEps1));
    // A mechanism spending a third of the budget it is charged for has a 3x wider deviation.
    CHECK(exceeds_thm2(path_sample(Splitter::kUniformPositionsThirdEps, 3000, 13), kEps1));
  }

  TEST_CASE("the fitted forest: DiPriMe (dipreme-exp, K = 1, uniform_positions) leaf counts obey Thm 2 (300 fits)") {
    // ε = 10, ρ = 0.5, d_max = 10 gives ε₁ = 0.25; one tree on N = 65536 rows with 3 Gaussian features
    // (no ties). One fixed leaf (the first in storage order, a data-independent choice) per fit, so the
    // 300 samples are independent; α = 1e-5 family-wise as above.
    const std::size_t n = std::size_t{64} << kDepth;
    Dataset d = make_synthetic_dataset("synthetic:classification:n=" + std::to_string(n) + ",d=3,seed=5");
    const std::map<std::string, std::string> params = {{"epsilon", "10"},   {"rho", "0.5"},
                                                       {"max_depth", "10"}, {"n_trees", "1"},
                                                       {"k", "1"},          {"median_base", "uniform_positions"}};
    std::vector<double> dev;
    for (uint64_t seed = 1; seed <= 300; ++seed) {
      auto f = dpf::test::fit_registry("dipreme-exp", params, d, seed);
      REQUIRE(f.forest() != nullptr);
      const std::vector<double> occ = f.forest()->leaf_occupancy();
      REQUIRE(occ.size() == std::size_t{1} << kDepth);
      if (seed == 1) {
        CHECK(f.ledger.spent() == doctest::Approx(10.0).epsilon(1e-9));
        double total = 0;
        for (double o : occ) total += o;
        CHECK(total == doctest::Approx(1.0).epsilon(1e-9));  // every row lands in exactly one leaf
      }
      dev.push_back(std::round(occ.front() * static_cast<double>(n)) - static_cast<double>(n >> kDepth));
    }
    CHECK_FALSE(exceeds_thm2(dev, kEps1));
  }
}
