// Exact Bernoulli(exp(-gamma)), discrete Laplace and discrete Gaussian samplers, after Canonne,
// Kamath & Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020,
// arXiv:2004.00010; "CKS20"), Section 5 (Algorithms 1, 2 and 3). Our own implementation on the
// counter-based Rng: every random decision is an integer comparison, so the only departures from
// the stated distributions are the documented grid of sigma^2 and the truncation at 64 t
// (mechanisms.hpp).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/privacy/exact.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {
namespace {

constexpr double kMinSigma2 = 0x1p-30;
constexpr double kMaxSigma2 = 0x1p52;
constexpr uint64_t kMaxLaplaceScale = uint64_t{1} << 40;
// Proposals Y = U + t V with V >= kMaxV are discarded (|Y| < 64 t kept); see mechanisms.hpp.
constexpr uint64_t kMaxV = 64;
// Lattice: sigma / r in (2^23, 2^24].
constexpr int kGaussianLatticeBits = 24;

// Bernoulli(exp(-num/den)) for 0 <= num <= den (CKS20 Algorithm 1, the branch gamma in [0, 1]):
//   K <- 1; loop { A <- Bernoulli(gamma / K); if A = 0 break; K <- K + 1 }; return [K odd].
// P(K > k) = gamma^k / k!, so P(K odd) = sum_j (-gamma)^j / j! = exp(-gamma).
// Bernoulli(gamma / K) = Bernoulli(num/den) AND Bernoulli(1/K), two independent integer draws, so
// den * K never has to be formed.
bool bernoulli_exp_unit(Rng& rng, u128 num, u128 den) {
  uint64_t k = 1;
  for (;;) {
    bool a = num == den ? true : (num == 0 ? false : uniform_below128(rng, den) < num);  // Bernoulli(num/den)
    if (a && k > 1) a = rng.below(k) == 0;                                               // and Bernoulli(1/K)
    if (!a) break;
    ++k;
  }
  return (k & 1U) != 0;
}

// Bernoulli(exp(-num/den)) for any num >= 0, den >= 1 (CKS20 Algorithm 1, the branch gamma > 1):
// floor(gamma) independent Bernoulli(exp(-1)) draws, stopping at the first 0, then one
// Bernoulli(exp(-(gamma - floor(gamma)))); exp(-gamma) = exp(-1)^floor(gamma) exp(-frac).
bool bernoulli_exp(Rng& rng, u128 num, u128 den) {
  const u128 whole = num / den;
  const u128 frac = num % den;
  for (u128 i = 0; i < whole; ++i)
    if (!bernoulli_exp_unit(rng, 1, 1)) return false;
  return bernoulli_exp_unit(rng, frac, den);
}

// Discrete Laplace P(y) ∝ exp(-|y| / t) (CKS20 Algorithm 2 with s = 1). Returns false (a rejected
// proposal) if `cap` is set and the geometric part reaches kMaxV.
//   1. U <- uniform {0, ..., t-1};  D <- Bernoulli(exp(-U/t)); if D = 0 restart.
//   2. V <- 0; loop { A <- Bernoulli(exp(-1)); if A = 0 break; V <- V + 1 }.
//   3. X <- U + t V   (X is geometric: P(X = x) ∝ exp(-x/t)).
//   4. B <- Bernoulli(1/2); if B = 1 and X = 0 restart (else 0 would get twice its mass).
//   5. return (1 - 2B) X.
bool discrete_laplace(Rng& rng, uint64_t t, bool cap, int64_t& out) {
  for (;;) {
    const uint64_t u = t == 1 ? 0 : rng.below(t);                      // step 1
    if (!bernoulli_exp_unit(rng, u, t)) continue;                       // step 1
    uint64_t v = 0;                                                     // step 2
    while (bernoulli_exp_unit(rng, 1, 1)) {
      ++v;
      if (cap && v >= kMaxV) return false;
      if (v > (uint64_t{1} << 20)) fail("sample_discrete_laplace: geometric overflow (probability < e^-1000000)");
    }
    const uint64_t x = u + t * v;                                       // step 3 (t, v < 2^41, 2^21)
    const bool negative = (rng.next_u64() >> 63) != 0;                  // step 4
    if (negative && x == 0) continue;
    out = negative ? -static_cast<int64_t>(x) : static_cast<int64_t>(x);  // step 5
    return true;
  }
}

struct DgParams {
  uint64_t t;  // proposal scale floor(sqrt(sigma2)) + 1 (any t >= 1 gives the same law; this one is efficient)
  int q;       // sigma2 used = p / 2^q
  uint64_t p;
};

DgParams dg_params(double sigma2, const char* what) {
  if (!std::isfinite(sigma2) || !(sigma2 >= kMinSigma2) || !(sigma2 <= kMaxSigma2))
    fail(what, ": sigma2 must be finite and in [2^-30, 2^52], got ", sigma2);
  DgParams d{};
  d.t = static_cast<uint64_t>(std::floor(std::sqrt(sigma2))) + 1;
  const int T = static_cast<int>(std::bit_width(d.t));
  // Bit budget: |Y| < 64 t < 2^(T+6), so |Y| 2^q t < 2^(2T+q+6) = 2^63 and its square with p
  // subtracted stays below 2^126; the denominator 2 p 2^q t^2 < 2^(2+2T+q+q+2T) = 2^116.
  d.q = 57 - 2 * T;
  const double scaled = std::ldexp(sigma2, d.q);  // exact: a power-of-two scaling
  d.p = static_cast<uint64_t>(std::ceil(scaled));  // < 2^57
  return d;
}

}  // namespace

bool sample_bernoulli_exp(Rng& rng, uint64_t num, uint64_t den) {
  if (den == 0) fail("sample_bernoulli_exp: the denominator must be >= 1");
  return bernoulli_exp(rng, num, den);
}

int64_t sample_discrete_laplace(Rng& rng, uint64_t t) {
  if (t < 1 || t > kMaxLaplaceScale) fail("sample_discrete_laplace: the scale t must be in [1, 2^40], got ", t);
  int64_t y = 0;
  discrete_laplace(rng, t, false, y);
  return y;
}

double discrete_gaussian_sigma2_used(double sigma2) {
  const DgParams d = dg_params(sigma2, "discrete_gaussian_sigma2_used");
  return std::ldexp(static_cast<double>(d.p), -d.q);
}

int64_t sample_discrete_gaussian(Rng& rng, double sigma2) {
  const DgParams d = dg_params(sigma2, "sample_discrete_gaussian");
  // sigma2 = p / Q with Q = 2^q. The acceptance exponent of CKS20 Algorithm 3, step 3,
  //   (|Y| - sigma2 / t)^2 / (2 sigma2) = (|Y| Q t - p)^2 / (2 p Q t^2),
  // is a ratio of integers below 2^127.
  const u128 Q = u128{1} << d.q;
  const u128 tt = d.t;
  const u128 den = 2 * static_cast<u128>(d.p) * Q * tt * tt;
  for (;;) {
    // Step 1: Y <- discrete Laplace of scale t (Algorithm 2), restricted to |Y| < 64 t.
    int64_t y = 0;
    if (!discrete_laplace(rng, d.t, true, y)) continue;
    // Step 2: C <- Bernoulli(exp(-(|Y| - sigma2/t)^2 / (2 sigma2))) by Algorithm 1.
    const u128 a = static_cast<u128>(y < 0 ? -static_cast<uint64_t>(y) : static_cast<uint64_t>(y)) * Q * tt;
    const u128 diff = a >= d.p ? a - d.p : d.p - a;
    // Step 3: if C = 1 return Y, else restart. Accepted Y has
    // P(Y = y) ∝ exp(-|y|/t - (|y| - s/t)^2 / (2s)) = exp(-y^2 / (2s) - s / (2t^2)) ∝ exp(-y^2 / (2s)).
    if (bernoulli_exp(rng, diff * diff, den)) return y;
  }
}

double discrete_gaussian_pmf(int64_t k, double sigma2) {
  if (!(sigma2 > 0.0) || !std::isfinite(sigma2))
    fail("discrete_gaussian_pmf: sigma2 must be > 0 and finite, got ", sigma2);
  double z = 0.0;
  if (sigma2 < 1.0) {
    // Terms with y^2 / (2 sigma2) > 750 are below the smallest double.
    const auto ymax = static_cast<int64_t>(std::ceil(std::sqrt(1500.0 * sigma2))) + 1;
    for (int64_t y = ymax; y >= 1; --y) z += 2.0 * std::exp(-static_cast<double>(y * y) / (2.0 * sigma2));
    z += 1.0;
  } else {
    // Poisson summation: sum_y exp(-y^2/(2s)) = sqrt(2 pi s) sum_n exp(-2 pi^2 s n^2); for s >= 1
    // the n = 2 term is below 1e-34 of the n = 0 term.
    const double pi = 3.14159265358979323846;
    double dual = 0.0;
    for (int n = 3; n >= 1; --n) dual += 2.0 * std::exp(-2.0 * pi * pi * sigma2 * n * n);
    z = std::sqrt(2.0 * pi * sigma2) * (1.0 + dual);
  }
  const double kd = static_cast<double>(k);
  return std::exp(-(kd * kd) / (2.0 * sigma2)) / z;
}

double gaussian_resolution(double sigma) {
  if (!(sigma > 0.0) || !std::isfinite(sigma) || sigma < 0x1p-1000 || sigma > 0x1p1000)
    fail("gaussian_resolution: sigma must be finite and in [2^-1000, 2^1000], got ", sigma);
  int e = 0;
  const double m = std::frexp(sigma, &e);  // sigma = m 2^e, m in [0.5, 1)
  const int ceil_log2 = (m == 0.5) ? e - 1 : e;
  return std::ldexp(1.0, ceil_log2 - kGaussianLatticeBits);
}

double gaussian_mechanism(Rng& rng, double value, double l2_sensitivity, double rho) {
  if (!(rho > 0.0) || !std::isfinite(rho)) fail("gaussian_mechanism: rho must be > 0 and finite, got ", rho);
  if (!(l2_sensitivity > 0.0) || !std::isfinite(l2_sensitivity))
    fail("gaussian_mechanism: l2_sensitivity must be > 0 and finite, got ", l2_sensitivity);
  if (!std::isfinite(value)) fail("gaussian_mechanism: the value to release is ", value, "; it must be finite");
  const double sigma = l2_sensitivity / std::sqrt(2.0 * rho);
  const double r = gaussian_resolution(sigma);
  // Values at least r 2^52 in magnitude are already multiples of r.
  const double rounded = std::fabs(value) < std::ldexp(r, 52) ? std::round(value / r) * r : value;
  // Lattice sensitivity Delta / r + 1 (rounding moves each value by at most r/2). Four roundings
  // of relative size <= 2^-53 each: the 2^-40 inflation keeps the variance above the exact value.
  const double lat_sens = l2_sensitivity / r + 1.0;
  const double sigma2 = lat_sens * lat_sens / (2.0 * rho) * (1.0 + 0x1p-40);
  if (sigma2 > kMaxSigma2)
    fail("gaussian_mechanism: rho = ", rho, " is too small for the lattice sampler (lattice variance ", sigma2,
         " > 2^52); use rho >= 2^-48");
  return rounded + static_cast<double>(sample_discrete_gaussian(rng, sigma2)) * r;
}

}  // namespace dpf
