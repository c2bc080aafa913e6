#include "core/privacy/mechanisms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/error.hpp"

namespace dpf {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_sensitivity(double sensitivity, const char* what) {
  if (!(sensitivity > 0.0) || !std::isfinite(sensitivity))
    fail(what, ": sensitivity must be > 0 and finite, got ", sensitivity);
}

// ---- geometric sampling ----------------------------------------------------------------------

// Bits of the magnitude G (P(G = g) ∝ e^{-lambda g}) are independent: bit i is 1 with probability
// 1 / (1 + e^{lambda 2^i}) (memorylessness; google/differential-privacy distributions.cc). The low
// `low_bits` digits together form L with P(L = l) ∝ e^{-lambda l} on [0, 2^low_bits), which is
// within a factor e^{-2^-6} of uniform, so it is drawn by rejection from a uniform word (one word
// and one exp instead of ~40 Bernoullis). The remaining digits use 64-bit thresholds.
struct GeometricTable {
  double lambda = -1.0;
  int low_bits = 0;
  int high_bits = 0;
  uint64_t threshold[64] = {};
};

constexpr int kMaxMagnitudeBits = 62;
constexpr double kMinLambda = 0x1p-50;

void build_table(GeometricTable& t, double lambda) {
  t.lambda = lambda;
  t.low_bits = 0;
  while (t.low_bits < kMaxMagnitudeBits && std::ldexp(lambda, t.low_bits + 1) <= 0x1p-5) ++t.low_bits;
  const double mu = std::ldexp(lambda, t.low_bits);  // parameter of the high part G >> low_bits
  t.high_bits = 0;
  while (t.low_bits + t.high_bits < kMaxMagnitudeBits) {
    const long double x = static_cast<long double>(std::ldexp(mu, t.high_bits));
    // Beyond x = 45 the probability is below 2^-64: its threshold would be 0.
    if (x > 45.0L) break;
    const long double p = 1.0L / (2.0L + std::expm1(x));  // 1 / (1 + e^x), accurate near 1/2
    t.threshold[t.high_bits++] = static_cast<uint64_t>(p * 0x1p64L);
  }
}

const GeometricTable& geometric_table(double lambda) {
  // Pure function of lambda; cached per thread because callers repeat one scale many times.
  thread_local GeometricTable table;
  if (table.lambda != lambda) build_table(table, lambda);
  return table;
}

uint64_t sample_geometric(Rng& rng, const GeometricTable& t) {
  uint64_t low = 0;
  if (t.low_bits > 0) {
    for (;;) {
      low = rng.next_u64() >> (64 - t.low_bits);
      if (rng.uniform() < std::exp(-t.lambda * static_cast<double>(low))) break;
    }
  }
  uint64_t high = 0;
  for (int j = 0; j < t.high_bits; ++j)
    if (rng.next_u64() < t.threshold[j]) high |= uint64_t{1} << j;
  return (high << t.low_bits) | low;
}

int64_t sample_two_sided(Rng& rng, const GeometricTable& t) {
  for (;;) {
    const bool negative = (rng.next_u64() >> 63) != 0;
    const uint64_t g = sample_geometric(rng, t);
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
