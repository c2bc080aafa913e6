#include "core/privacy/gdp.hpp"

#include <cmath>
#include <numbers>

#include "core/privacy/mechanisms.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

constexpr double kDeltaMargin = 1e-12;  // relative slack on delta against the rounding of Phi
constexpr double kMaxLatticeVariance = 0x1p52;  // sample_discrete_gaussian's limit

void check_delta(double delta, const char* who) {
  if (!(delta > 0.0) || !(delta < 1.0)) fail(who, ": delta must be in (0, 1), got ", delta);
}

// delta(epsilon; mu) <= delta with the margin: the test every rigorous end must pass.
bool within(double epsilon, double mu, double delta) { return gdp_delta(epsilon, mu) <= delta * (1.0 - kDeltaMargin); }

}  // namespace

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double log_normal_cdf(double x) {
  if (x > -30.0) return std::log(normal_cdf(x));
  // Phi(x) = phi(x) / (-x) (1 - 1/x^2 + 3/x^4 - 15/x^6 + 105/x^8 - ...) (Abramowitz & Stegun 26.2.12);
  // at x <= -30 the first omitted term is below 945 / 30^10, far below double precision.
  const double z = 1.0 / (x * x);
  const double series = 1.0 - z * (1.0 - 3.0 * z * (1.0 - 5.0 * z * (1.0 - 7.0 * z)));
  return -0.5 * x * x - std::log(-x) - 0.5 * std::log(2.0 * std::numbers::pi) + std::log(series);
}

double gdp_delta(double epsilon, double mu) {
  if (!(epsilon >= 0.0) || !std::isfinite(epsilon)) fail("gdp_delta: epsilon must be >= 0 and finite, got ", epsilon);
  if (!(mu > 0.0) || !std::isfinite(mu)) fail("gdp_delta: mu must be > 0 and finite, got ", mu);
  // DRS Cor. 2.13: delta = Phi(a) - e^epsilon Phi(a - mu), a = -epsilon/mu + mu/2.
  const double a = -epsilon / mu + 0.5 * mu;
  const double log_pa = log_normal_cdf(a);
  if (!std::isfinite(log_pa)) return 0.0;  // Phi(a) = 0 to every digit
  const double log_ratio = epsilon + log_normal_cdf(a - mu) - log_pa;  // <= 0 in exact arithmetic
  const double d = std::exp(log_pa) * -std::expm1(log_ratio);
  return d > 0.0 ? d : 0.0;
}

double gdp_epsilon(double mu, double delta) {
  check_delta(delta, "gdp_epsilon");
  if (!(mu >= 0.0) || !std::isfinite(mu)) fail("gdp_epsilon: mu must be >= 0 and finite, got ", mu);
  if (mu == 0.0 || within(0.0, mu, delta)) return 0.0;
  // delta(epsilon; mu) decreases in epsilon (DRS Cor. 2.13): bracket, then bisect keeping hi feasible.
  double lo = 0.0, hi = 1.0;
  while (!within(hi, mu, delta)) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e300) fail("gdp_epsilon: no finite epsilon reaches delta ", delta, " at mu ", mu);
  }
  for (int it = 0; it < 400 && hi - lo > 1e-13 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (within(mid, mu, delta)) hi = mid; else lo = mid;
  }
  return hi;
}

double gdp_mu(double epsilon, double delta) {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon)) fail("gdp_mu: epsilon must be > 0 and finite, got ", epsilon);
  check_delta(delta, "gdp_mu");
  // delta(epsilon; mu) increases in mu: bracket with lo feasible, hi infeasible, bisect keeping lo.
  double lo = 1.0, hi = 1.0;
  if (within(epsilon, 1.0, delta)) {
    while (within(epsilon, hi, delta)) {
      lo = hi;
      hi *= 2.0;
      if (hi > 1e150) fail("gdp_mu: delta(epsilon; mu) stays below ", delta, " for every mu (epsilon ", epsilon, ")");
    }
  } else {
    while (!within(epsilon, lo, delta)) {
      hi = lo;
      lo *= 0.5;
      if (lo < 1e-300) fail("gdp_mu: no mu > 0 gives (", epsilon, ", ", delta, ")-DP");
    }
  }
  for (int it = 0; it < 400 && hi - lo > 1e-13 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (within(epsilon, mid, delta)) lo = mid; else hi = mid;
  }
  return lo;
}

double gdp_split(double mu, uint64_t k) {
  if (k == 0) fail("gdp_split: k must be >= 1");
  if (!(mu > 0.0) || !std::isfinite(mu)) fail("gdp_split: mu must be > 0 and finite, got ", mu);
  return mu / std::sqrt(static_cast<double>(k));  // DRS Cor. 3.3: sqrt(k (mu / sqrt k)^2) = mu
}

namespace {
struct Lattice {
  double r;        // lattice spacing
  double sigma2;   // variance of the integer noise
};

Lattice lattice_for(double l2_sensitivity, double mu, const char* who) {
  if (!(mu > 0.0) || !std::isfinite(mu)) fail(who, ": mu must be > 0 and finite, got ", mu);
  if (!(l2_sensitivity > 0.0) || !std::isfinite(l2_sensitivity))
    fail(who, ": l2_sensitivity must be > 0 and finite, got ", l2_sensitivity);
  const double sigma = l2_sensitivity / mu;
  if (!(sigma >= 0x1p-900) || !(sigma <= 0x1p900))
    fail(who, ": Delta / mu = ", sigma, " is outside [2^-900, 2^900]");
  const double r = gaussian_resolution(sigma);
  // Lattice sensitivity Delta / r + 1 (rounding to r Z moves each value by at most r / 2); the
  // 2^-40 covers the four roundings of this expression, kGdpLatticeMargin the discrete-vs-continuous gap.
  const double lat = (l2_sensitivity / r + 1.0) / mu;
  const double sigma2 = lat * lat * (1.0 + kGdpLatticeMargin) * (1.0 + 0x1p-40);
  if (!(sigma2 <= kMaxLatticeVariance))
    fail(who, ": mu = ", mu, " is too small for the lattice sampler (lattice variance ", sigma2, " > 2^52)");
  return {r, sigma2};
}
}  // namespace

double gdp_lattice_sigma(double l2_sensitivity, double mu) {
  const Lattice l = lattice_for(l2_sensitivity, mu, "gdp_lattice_sigma");
  return l.r * std::sqrt(l.sigma2);
}

double gdp_gaussian_mechanism(Rng& rng, double value, double l2_sensitivity, double mu) {
  if (!std::isfinite(value)) fail("gdp_gaussian_mechanism: the value to release is ", value, "; it must be finite");
  const Lattice l = lattice_for(l2_sensitivity, mu, "gdp_gaussian_mechanism");
  // Values at least r 2^52 in magnitude are already multiples of r.
  const double rounded = std::fabs(value) < std::ldexp(l.r, 52) ? std::round(value / l.r) * l.r : value;
  return rounded + static_cast<double>(sample_discrete_gaussian(rng, l.sigma2)) * l.r;
}

}  // namespace dpf
