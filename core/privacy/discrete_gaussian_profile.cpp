#include "core/privacy/discrete_gaussian_profile.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/util/error.hpp"

namespace dpf {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kRel = 1e-12;             // relative widening of floating-point sums
constexpr double kEulerMaclaurinFrom = 1e4;  // variances above this: Euler-Maclaurin, not summation
constexpr double kLatticeEta = 1e-10;      // lattice path when the Poisson error eta is below this
constexpr double kConvolutionBudget = 2e8;   // multiply-adds allowed for one m-fold convolution

ProbBracket widen(double lo, double hi) { return {std::max(0.0, lo * (1 - kRel)), std::min(1.0, hi * (1 + kRel))}; }

// Σ_{y in Z} exp(-y^2 / (2 v)): direct below v = 1, else Poisson summation
// sqrt(2 pi v) Σ_n exp(-2 pi^2 v n^2), whose n = 3 term is below 1e-77 of the first.
double normaliser(double v) {
  if (v < 1.0) {
    const auto ymax = static_cast<int64_t>(std::ceil(std::sqrt(1500.0 * v))) + 1;
    double z = 0.0;
    for (int64_t y = ymax; y >= 1; --y) z += 2.0 * std::exp(-static_cast<double>(y) * static_cast<double>(y) / (2.0 * v));
    return z + 1.0;
  }
  double dual = 0.0;
  for (int n = 3; n >= 1; --n) dual += 2.0 * std::exp(-2.0 * kPi * kPi * v * n * n);
  return std::sqrt(2.0 * kPi * v) * (1.0 + dual);
}

// Σ_{s >= n} exp(-s^2 / (2 v)) for n >= 1, as an absolute bracket.
ProbBracket half_sum(int64_t n, double v) {
  const double x = static_cast<double>(n);
  if (x * x / (2.0 * v) > 740.0) {
    // Below exp(-740) times a geometric factor: zero to double precision. Ratio of consecutive terms
    // <= q = exp(-(2n + 1) / (2v)).
    const double q = std::exp(-(2.0 * x + 1.0) / (2.0 * v));
    return {0.0, std::exp(-x * x / (2.0 * v)) / (1.0 - q) + 1e-300};
  }
  if (v <= kEulerMaclaurinFrom) {
    // Terms decrease for s >= 1; stop once a term is below 1e-20 of the sum and bound the rest by a
    // geometric series (ratio of consecutive terms <= exp(-(2s + 1) / (2v)) beyond s).
    double sum = 0.0, term = 0.0, s = x;
    for (;; s += 1.0) {
      term = std::exp(-s * s / (2.0 * v));
      sum += term;
      if (term <= 1e-20 * sum || term == 0.0) break;
    }
    const double q = std::exp(-(2.0 * s + 1.0) / (2.0 * v));
    const double rest = term * q / (1.0 - q);
    return {sum * (1 - kRel), (sum + rest) * (1 + kRel)};
  }
  // Euler-Maclaurin for f(t) = exp(-t^2 / (2v)) on [n, inf) (f and its derivatives vanish at inf):
  //   Σ_{s>=n} f(s) = ∫_n^inf f + f(n)/2 - f'(n)/12 + f'''(n)/720 - f^(5)(n)/30240 + R,
  //   |R| <= (1/30240) ∫_n^inf |f^(6)|
  // (B_2 = 1/6, B_4 = -1/30, B_6 = 1/42; the remainder constant is 2 zeta(6) / (2 pi)^6 = 1/30240).
  // f^(j)(t) = (-1)^j v^{-j/2} He_j(t / sqrt v) f(t). f^(6) is positive beyond the largest root of He_6
  // (3.3243 sqrt v), where ∫|f^(6)| = |f^(5)(n)|; elsewhere ∫|f^(6)| <= v^{-5/2} sqrt(2 pi) E|He_6(U)|
  // <= v^{-5/2} sqrt(2 pi 720). Relative to the tail this is below 1e-12 for v >= 1e4.
  const double f = std::exp(-x * x / (2.0 * v));
  const double sv = std::sqrt(v), u = x / sv;
  const double d1 = -u / sv * f;
  const double d3 = -(u * u * u - 3.0 * u) / (v * sv) * f;
  const double d5 = -(u * u * u * u * u - 10.0 * u * u * u + 15.0 * u) / (v * v * sv) * f;
  const double integral = std::sqrt(kPi * v / 2.0) * std::erfc(x / std::sqrt(2.0 * v));
  const double value = integral + f / 2.0 - d1 / 12.0 + d3 / 720.0 - d5 / 30240.0;
  const double r = (u >= 3.3244 ? std::abs(d5) : std::sqrt(2.0 * kPi * 720.0) / (v * v * sv)) / 30240.0;
  return {std::max(0.0, value * (1 - 1e-13) - r), value * (1 + 1e-13) + r};
}

// The smallest integer n > eps * s2 + h, exactly (h a multiple of 1/2, |h| < 2^40). With
// p = fl(eps s2) and e = fma(eps, s2, -p), eps s2 = p + e exactly; n > p + e + h <=> (n - h) - p > e,
// where n - h is exact, and (n - h) - p is exact whenever it is comparable to e (Sterbenz: then
// n - h is within a factor 2 of p), so the comparison of doubles decides it.
int64_t first_integer_above(double eps, double s2, double h) {
  const double p = eps * s2;
  const double e = std::fma(eps, s2, -p);
  constexpr double kLim = 0x1p50;
  const double x = std::clamp(p + h, -kLim, kLim);
  auto above = [&](int64_t n) { return (static_cast<double>(n) - h) - p > e; };
  auto n = static_cast<int64_t>(std::floor(x)) + 1;
  if (std::abs(x) >= kLim) return n;  // far beyond any tail that is not 0 or 1
  while (!above(n)) ++n;
  while (above(n - 1)) --n;
  return n;
}

}  // namespace

ProbBracket discrete_gaussian_tail(int64_t n, double v) {
  require(std::isfinite(v) && v > 0.0, "discrete_gaussian_tail: the variance must be finite and > 0, got ", v);
  const double z = normaliser(v);
  if (n >= 1) {
    const ProbBracket h = half_sum(n, v);
    return widen(h.lo / z, h.hi / z);
  }
  // Symmetry: P[Y >= n] = 1 - P[Y <= n - 1] = 1 - P[Y >= 1 - n].
  const ProbBracket h = half_sum(1 - n, v);
  return {std::max(0.0, 1.0 - h.hi / z * (1 + kRel)), std::min(1.0, 1.0 - h.lo / z * (1 - kRel))};
}

DiscreteGaussianProfile::DiscreteGaussianProfile(double sigma2) : sigma2_(sigma2) {
  require(std::isfinite(sigma2) && sigma2 >= 0x1p-30 && sigma2 <= 0x1p52,
          "discrete Gaussian profile: sigma2 must be finite and in [2^-30, 2^52] (the sampler's range), got ", sigma2);
  // Convolution path: |y| <= B with B >= 13.6 sigma, i.e. exp(-B^2 / (2 sigma2)) <= 1e-40.
  const double sigma = std::sqrt(sigma2);
  bound_ = static_cast<int64_t>(std::ceil(13.6 * sigma)) + 2;
  const double z = normaliser(sigma2);
  const double b1 = static_cast<double>(bound_ + 1);
  dropped_ = 2.0 * std::exp(-b1 * b1 / (2.0 * sigma2)) / (z * (1.0 - std::exp(-(2.0 * b1 + 1.0) / (2.0 * sigma2))));
}

bool DiscreteGaussianProfile::use_lattice(int m) {
  require(m >= 1, "discrete Gaussian profile: m must be >= 1, got ", m);
  if (m == 1) return true;  // S = Y: exactly N_Z(0, sigma2), eta = 0
  const double e = eta(m);
  if (e <= kLatticeEta) return true;
  const double width = static_cast<double>(2 * bound_ + 1);
  if (width * width * m * static_cast<double>(m) <= kConvolutionBudget) return false;
  require(e < 0.25, "discrete Gaussian profile: sigma2 = ", sigma2_, " is too small for ", m,
          " coordinates (Poisson error ", e, ", convolution too large)");
  return true;
}

double DiscreteGaussianProfile::eta(int m) const {
  if (m <= 1) return 0.0;
  double theta1 = 0.0;  // theta(pi^2 sigma2) - 1 = 2 Σ_{y>=1} exp(-pi^2 sigma2 y^2)
  for (int y = 40; y >= 1; --y) theta1 += 2.0 * std::exp(-kPi * kPi * sigma2_ * y * y);
  return std::expm1(m * std::log1p(theta1));
}

std::string DiscreteGaussianProfile::method(int m) { return use_lattice(m) ? "lattice" : "convolution"; }

const std::vector<double>& DiscreteGaussianProfile::suffix_sums(int m) {
  auto it = suffix_.find(m);
  if (it != suffix_.end()) return it->second;
  const auto B = static_cast<std::size_t>(bound_);
  if (pmf1_.empty()) {
    const double z = normaliser(sigma2_);
    pmf1_.resize(2 * B + 1);
    for (std::size_t i = 0; i <= 2 * B; ++i) {
      const double y = static_cast<double>(i) - static_cast<double>(B);
      pmf1_[i] = std::exp(-y * y / (2.0 * sigma2_)) / z;
    }
  }
  if (pmf_.empty()) pmf_.push_back(pmf1_);
  while (static_cast<int>(pmf_.size()) < m) {
    const std::vector<double>& a = pmf_.back();
    std::vector<double> c(a.size() + 2 * B, 0.0);
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t j = 0; j <= 2 * B; ++j) c[i + j] += a[i] * pmf1_[j];
    pmf_.push_back(std::move(c));
  }
  const std::vector<double>& p = pmf_[static_cast<std::size_t>(m - 1)];
  std::vector<double> suf(p.size() + 1, 0.0);
  for (std::size_t i = p.size(); i-- > 0;) suf[i] = suf[i + 1] + p[i];  // small terms first
  return suffix_.emplace(m, std::move(suf)).first->second;
}

ProbBracket DiscreteGaussianProfile::tail(int64_t n, int m) {
  if (use_lattice(m)) {
    const ProbBracket t = discrete_gaussian_tail(n, m * sigma2_);
    if (m == 1) return t;
    const double e = eta(m);
    const double r = (1.0 + e) / (1.0 - e);
    return {t.lo / r, std::min(1.0, t.hi * r)};
  }
  const std::vector<double>& suf = suffix_sums(m);
  const int64_t offset = static_cast<int64_t>(m) * bound_;  // index i <-> s = i - m B
  const int64_t i = std::clamp<int64_t>(n + offset, 0, static_cast<int64_t>(suf.size()) - 1);
  const double lo = suf[static_cast<std::size_t>(i)];
  // The dropped mass (some coordinate outside [-B, B]) is at most m * dropped_.
  return widen(lo, lo + m * dropped_);
}

ProbBracket DiscreteGaussianProfile::delta(double epsilon, int m) {
  require(std::isfinite(epsilon), "discrete Gaussian profile: epsilon must be finite");
  require(m >= 0, "discrete Gaussian profile: m must be >= 0, got ", m);
  if (m == 0) return {0.0, 0.0};
  // delta = P[S > a] - e^eps P[S > b], a = eps sigma2 - m/2, b = eps sigma2 + m/2; S > a <=> S >= n_a,
  // the smallest integer above a (decided exactly, since eps sigma2 +- m/2 is often an integer).
  const ProbBracket ta = tail(first_integer_above(epsilon, sigma2_, -0.5 * m), m);
  const ProbBracket tb = tail(first_integer_above(epsilon, sigma2_, 0.5 * m), m);
  const double e = std::exp(epsilon);
  auto times = [&](double p) { return p == 0.0 ? 0.0 : e * p; };
  const double hi = ta.hi - times(tb.lo);
  const double lo = ta.lo - times(tb.hi);
  return {std::max(0.0, lo), std::max(0.0, hi)};
}

}  // namespace dpf
