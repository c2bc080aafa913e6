#include "core/privacy/mechanisms.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include "core/privacy/exp_bounds.hpp"
#include "core/privacy/geometric_exact.hpp"
#include "core/util/error.hpp"

namespace dpf {
namespace {

void check_sensitivity(double sensitivity, const char* what) {
  if (!(sensitivity > 0.0) || !std::isfinite(sensitivity))
    fail(what, ": sensitivity must be > 0 and finite, got ", sensitivity);
}

// ---- geometric sampling ----------------------------------------------------------------------

// Bits of the magnitude G (P(G = g) ∝ e^{-lambda g}) are independent: bit i is 1 with probability
// 1 / (1 + e^{lambda 2^i}) (memorylessness; google/differential-privacy distributions.cc). The low
// `low_bits` digits together form L with P(L = l) ∝ e^{-lambda l} on [0, 2^low_bits), which is
// within a factor e^{-2^-6} of uniform, so it is drawn by rejection from a uniform word (one word
// and one acceptance test instead of ~40 Bernoullis). The next `high_bits` digits (exponent
// lambda 2^i <= 45) use one 64-bit word each; the digits above (exponent in (45, 2^12)) are all 0
// except with probability below e^-45 < 2^-64, decided by the 63 bits of the sign word the sign
// does not use (geom::kMaxDigitExponent; docs/exact-sampling.md §7).
//
// Every decision is exact: a uniform V whose first 64 bits are a drawn word is compared with the
// exact probability p. The fast path compares the word with integer bounds of p a few units
// apart; when the word falls between them, geom:: finishes the comparison with more bits of V and
// bounds of p at any precision (docs/exact-sampling.md §7). The words drawn are the ones of the
// floating-point sampler this replaced (a uniform double from the word, a rounded exp, 64-bit
// thresholds from long double), and the decisions agree with its decisions except where its
// rounding was wrong: the output is the same double on all but about 2^-53 of the draws.
struct GeometricTable {
  double lambda = -1.0;
  Dyadic lam;  // lambda = lam.mant 2^lam.exp exactly
  int low_bits = 0;
  int high_bits = 0;
  int tail_last = -1;  // the digits low_bits + high_bits .. tail_last are the tail (none if below)
  // x = lambda low: floor(x 2^64) = (low_mult low) >> low_shift, low_mult = lam.mant 2^6 < 2^59.
  uint64_t low_mult = 0;
  int low_shift = 0;
  // Digit low_bits + j is 1 for a word w < accept_below[j] and 0 for w >= reject_from[j]; the
  // words in between go to geom::uniform_below_logistic.
  uint64_t accept_below[geom::kMaxDigits] = {};
  uint64_t reject_from[geom::kMaxDigits] = {};
};

constexpr double kMinLambda = 0x1p-50;

Dyadic dyadic_of(double v) {
  int e = 0;
  const double f = std::frexp(v, &e);  // v = f 2^e, f in [0.5, 1): f 2^53 is an integer
  return {static_cast<u128>(std::ldexp(f, 53)), e - 53};
}

// floor(x 2^s) for x = m 2^e, known to fit.
u128 scaled_floor(u128 m, int e) { return e >= 0 ? m << e : (-e >= 128 ? u128{0} : m >> -e); }

// Integer bounds A <= p 2^64 <= B of p = 1 / (1 + e^x) = F / (1 + F) from F 2^128 in [lo, hi]:
// with f = F 2^128, p 2^64 = f / (2^64 + f / 2^64) and floor(lo / 2^64) <= f / 2^64 < floor(hi / 2^64) + 1.
void logistic_thresholds(u128 lo, u128 hi, uint64_t& accept_below, uint64_t& reject_from) {
  const u128 two64 = u128{1} << 64;
  accept_below = static_cast<uint64_t>(lo / (two64 + (hi >> 64) + 1));
  const u128 d = two64 + (lo >> 64);
  reject_from = static_cast<uint64_t>(hi / d + (hi % d != 0 ? 1 : 0));  // p < 1/2: both below 2^63
}

void build_table(GeometricTable& t, double lambda) {
  t.lambda = lambda;
  t.lam = dyadic_of(lambda);
  t.low_bits = 0;
  while (t.low_bits < geom::kMaxDigits - 1 && std::ldexp(lambda, t.low_bits + 1) <= 0x1p-5) ++t.low_bits;
  if (t.low_bits > 0) {  // lambda <= 2^-6: lam.exp <= -58, so low_shift >= 0 (and <= 45: lambda >= 2^-50)
    t.low_mult = static_cast<uint64_t>(t.lam.mant) << 6;
    t.low_shift = -(t.lam.exp + 58);
  }
  const double mu = std::ldexp(lambda, t.low_bits);  // parameter of the high part G >> low_bits
  t.high_bits = 0;
  while (t.low_bits + t.high_bits < geom::kMaxDigits && std::ldexp(mu, t.high_bits) <= 45.0) ++t.high_bits;
  t.tail_last = t.low_bits + t.high_bits - 1;
  while (t.tail_last + 1 < geom::kMaxDigits && std::ldexp(lambda, t.tail_last + 1) < geom::kMaxDigitExponent)
    ++t.tail_last;
  if (t.high_bits == 0) return;
  // F_0 = e^-mu from y = mu 2^-s < 2^-5 (mu > 2^-6, so y > 2^-7 and Y is far above 4), then squared:
  // F_(j+1) = F_j^2, e^-mu 2^128 in [lo, hi] (one_minus_exp_neg is within 4; floor and ceil per
  // squaring keep the bounds, the width at most doubles plus 2: below 2^30 units of 2^-128 after
  // the at most 24 squarings here).
  const Dyadic m = {t.lam.mant, t.lam.exp + t.low_bits};
  const int s = std::max(0, static_cast<int>(std::bit_width(static_cast<uint64_t>(m.mant))) + m.exp + 5);
  const u128 Y = expb::one_minus_exp_neg(scaled_floor(m.mant, m.exp - s + 128));
  if (Y < 8) fail("geometric table: the exponent ", mu, " is too small");
  u128 lo = u128{0} - (Y + 4), hi = u128{0} - (Y - 4);
  const auto square = [&] {
    lo = expb::mulhi(lo, lo);
    hi = expb::mulhi(hi, hi) + 1;
  };
  for (int i = 0; i < s; ++i) square();
  for (int j = 0; j < t.high_bits; ++j) {
    logistic_thresholds(lo, hi, t.accept_below[j], t.reject_from[j]);
    square();
  }
}

const GeometricTable& geometric_table(double lambda) {
  // Pure function of lambda; a few cached per thread because callers repeat one or two scales many
  // times (a noisy sum and a noisy count alternate in regression leaves).
  thread_local std::array<GeometricTable, 4> tables;
  thread_local std::size_t next = 0;
  for (const GeometricTable& t : tables)
    if (t.lambda == lambda) return t;
  GeometricTable& t = tables[next];
  next = (next + 1) % tables.size();
  build_table(t, lambda);
  return t;
}

// [V < e^-(lambda low)] for V with first word w. Y is within 4 of (1 - e^-x) 2^64, x = lambda low
// < 2^-5 (expb::one_minus_exp_neg), so V < (w + 1) 2^-64 <= e^-x when w + Y + 5 <= 2^64 and
// V >= w 2^-64 >= e^-x when w + Y >= 2^64 + 4.
bool accept_low(Rng& rng, const GeometricTable& t, uint64_t low, uint64_t w) {
  const u128 m = static_cast<u128>(t.low_mult) * low;  // x = m 2^-(64 + low_shift)
  const auto X = static_cast<uint64_t>(m >> t.low_shift);
  const u128 s = static_cast<u128>(w) + expb::one_minus_exp_neg(X);
  const u128 two64 = u128{1} << 64;
  if (s + 5 <= two64) return true;
  if (s >= two64 + 4) return false;
  return geom::uniform_below_exp_neg(rng, w, 64, Dyadic{m, -64 - t.low_shift});
}

// `tail` holds the 63 bits of the sign word that the sign does not use: a uniform V' = tail 2^-63
// + ..., and some tail digit is set iff V' < P(some set) < 2^-64, so tail != 0 decides "none".
uint64_t sample_geometric(Rng& rng, const GeometricTable& t, uint64_t tail) {
  uint64_t low = 0;
  if (t.low_bits > 0) {
    for (;;) {
      low = rng.next_u64() >> (64 - t.low_bits);
      if (accept_low(rng, t, low, rng.next_u64())) break;
    }
  }
  uint64_t high = 0;
  for (int j = 0; j < t.high_bits; ++j) {
    const uint64_t w = rng.next_u64();
    const bool set = w < t.accept_below[j] ||
                     (w < t.reject_from[j] &&
                      geom::uniform_below_logistic(rng, w, 64, Dyadic{t.lam.mant, t.lam.exp + t.low_bits + j}));
    if (set) high |= uint64_t{1} << j;
  }
  uint64_t g = (high << t.low_bits) | low;
  const int first = t.low_bits + t.high_bits;
  if (tail == 0 && first <= t.tail_last && geom::uniform_below_tail(rng, tail, 63, t.lam, first, t.tail_last))
    g |= geom::tail_digits_given_any(rng, t.lam, first, t.tail_last);
  return g;
}

int64_t sample_two_sided(Rng& rng, const GeometricTable& t) {
  for (;;) {
    const uint64_t w = rng.next_u64();
    const bool negative = (w >> 63) != 0;
    const uint64_t g = sample_geometric(rng, t, w & ~(uint64_t{1} << 63));
    if (negative && g == 0) continue;  // otherwise 0 would get twice its mass
    return negative ? -static_cast<int64_t>(g) : static_cast<int64_t>(g);
  }
}

void check_lambda(double lambda) {
  if (!(lambda >= kMinLambda) || !std::isfinite(lambda))
    fail("two-sided geometric: lambda must be finite and >= 2^-50, got ", lambda);
}

void check_scale(double scale, const char* what) {
  if (!(scale > 0.0) || !std::isfinite(scale)) fail(what, ": scale must be > 0 and finite, got ", scale);
  if (scale < 0x1p-1000 || scale > 0x1p1000)
    fail(what, ": scale ", scale, " is outside [2^-1000, 2^1000]; rescale the query");
}

}  // namespace

void check_epsilon(double epsilon, const char* what) {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon))
    fail(what, ": epsilon must be > 0 and finite, got ", epsilon);
}

// ---- Laplace ---------------------------------------------------------------------------------

double laplace_resolution(double scale) {
  check_scale(scale, "laplace_resolution");
  int e = 0;
  const double m = std::frexp(scale, &e);  // scale = m 2^e, m in [0.5, 1)
  const int ceil_log2 = (m == 0.5) ? e - 1 : e;
  return std::ldexp(1.0, ceil_log2 - 40);
}

double sample_laplace(Rng& rng, double scale) {
  check_scale(scale, "sample_laplace");
  const double r = laplace_resolution(scale);
  const int64_t k = sample_two_sided(rng, geometric_table(r / scale));  // lambda in [2^-40, 2^-39)
  return static_cast<double>(k) * r;  // exact: |k| < 2^53 and r is a power of two
}

double laplace_cdf(double x, double scale) {
  check_scale(scale, "laplace_cdf");
  if (std::isnan(x)) fail("laplace_cdf: x is NaN");
  return x < 0.0 ? 0.5 * std::exp(x / scale) : 1.0 - 0.5 * std::exp(-x / scale);
}

double laplace_mechanism(Rng& rng, double value, double sensitivity, double epsilon) {
  check_epsilon(epsilon, "laplace_mechanism");
  check_sensitivity(sensitivity, "laplace_mechanism");
  if (!std::isfinite(value)) fail("laplace_mechanism: the value to release is ", value, "; it must be finite");
  const double scale = sensitivity / epsilon;
  check_scale(scale, "laplace_mechanism");
  const double r = laplace_resolution(scale);
  // Values at least r 2^52 in magnitude are already multiples of r.
  const double rounded = std::fabs(value) < std::ldexp(r, 52) ? std::round(value / r) * r : value;
  const double lambda = r * epsilon / (sensitivity + r);
  return rounded + static_cast<double>(sample_two_sided(rng, geometric_table(lambda))) * r;
}

int64_t sample_two_sided_geometric(Rng& rng, double lambda) {
  check_lambda(lambda);
  return sample_two_sided(rng, geometric_table(lambda));
}

double two_sided_geometric_pmf(int64_t k, double lambda) {
  check_lambda(lambda);
  const double q = std::exp(-lambda);
  // (1 - q) / (1 + q) = -expm1(-lambda) / (1 + q), accurate for small lambda.
  return -std::expm1(-lambda) / (1.0 + q) * std::exp(-lambda * std::fabs(static_cast<double>(k)));
}

}  // namespace dpf
