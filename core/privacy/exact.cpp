// Exact Bernoulli(exp(-x)) and exact draws by exponential weights (core/privacy/exact.hpp;
// derivations in docs/exact-sampling.md). Every random decision below is an integer comparison.
#include "core/privacy/exact.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <vector>

#include "core/util/error.hpp"

namespace dpf {
namespace {

// floor(ln 2 * 2^64) (ln 2 = 0.b17217f7d1cf79abc9e3...); the tests check it against ln2_limbs.
constexpr uint64_t kLn2Word = 0xB17217F7D1CF79ABULL;
constexpr double kLn2 = 0.69314718055994530942;
constexpr double kInvLn2 = 1.44269504088896340736;
constexpr double kMargin = kEnvelopeMargin;
// Scores are rounded to gamma = 2^(floor(log2 Delta) - kScoreGridBits).
constexpr int kScoreGridBits = 20;
// Exponents are capped at 2^kCapLog2 (SelectionScale).
constexpr int kCapLog2 = 10;

int bit_width128(u128 v) {
  const auto hi = static_cast<uint64_t>(v >> 64);
  return hi != 0 ? 64 + std::bit_width(hi) : std::bit_width(static_cast<uint64_t>(v));
}

// ---- ln 2 to any precision ---------------------------------------------------------------------

using Limbs = std::vector<uint64_t>;  // a natural number, 64-bit limbs, least significant first

// ln 2 = sum_{i >= 1} 1 / (i 2^i). With P = 64 (T + 1) bits, S = sum_{i=1..P} floor(2^(P-i) / i)
// loses less than 1 per term and the tail i > P adds less than 1, so ln 2 * 2^P lies in
// (S, S + P + 1) (strictly above S: ln 2 is irrational). Dropping the low limb, L = floor(S / 2^64)
// satisfies ln 2 * 2^(64 T) in (L, L + 2).
Limbs compute_ln2(int T) {
  const int n = T + 2;
  const int P = 64 * (T + 1);
  Limbs s(static_cast<std::size_t>(n), 0), q(static_cast<std::size_t>(n));
  for (int i = 1; i <= P; ++i) {
    const int bit = P - i;  // 2^bit / i by long division from the top limb
    u128 rem = 0;
    for (int l = n - 1; l >= 0; --l) {
      const uint64_t limb = (l == bit / 64) ? (uint64_t{1} << (bit % 64)) : 0;
      const u128 cur = (rem << 64) | limb;
      q[static_cast<std::size_t>(l)] = static_cast<uint64_t>(cur / static_cast<unsigned>(i));
      rem = cur % static_cast<unsigned>(i);
    }
    u128 carry = 0;
    for (std::size_t l = 0; l < s.size(); ++l) {
      const u128 cur = static_cast<u128>(s[l]) + q[l] + carry;
      s[l] = static_cast<uint64_t>(cur);
      carry = cur >> 64;
    }
  }
  return Limbs(s.begin() + 1, s.begin() + 1 + T);
}

// ---- lazy comparisons --------------------------------------------------------------------------

// floor(x 2^s), whether x 2^s is an integer, and whether it is at least 2^120.
struct Scaled {
  u128 floor;
  bool exact;
  bool big;
};
Scaled scale_floor(const Dyadic& x, int s) {
  if (x.mant == 0) return {0, true, false};
  const int e = x.exp + s;
  if (e >= 0) {
    if (bit_width128(x.mant) + e > 120) return {0, true, true};
    return {x.mant << e, true, false};
  }
  if (-e >= 128) return {0, false, false};
  const u128 mask = (u128{1} << -e) - 1;
  return {x.mant >> -e, (x.mant & mask) == 0, false};
}

// a += b * m over a's limbs (b no longer than a; the result must fit).
void add_mul(Limbs& a, std::span<const uint64_t> b, uint64_t m) {
  u128 carry = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    u128 cur = static_cast<u128>(a[i]) + carry;
    if (i < b.size()) cur += static_cast<u128>(b[i]) * m;  // <= (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1
    a[i] = static_cast<uint64_t>(cur);
    carry = cur >> 64;
  }
}

int compare(const Limbs& a, const Limbs& b) {
  for (std::size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// floor(x 2^(64 t)) in n limbs and whether it is exact (x < 2^56, see less_lazy).
Limbs scaled_limbs(const Dyadic& x, int t, std::size_t n, bool& exact) {
  Limbs out(n, 0);
  const int e = x.exp + 64 * t;
  u128 v = x.mant;
  int shift = 0;
  exact = true;
  if (e >= 0) {
    shift = e;
  } else if (-e >= 128) {
    exact = x.mant == 0;
    return out;
  } else {
    exact = (x.mant & ((u128{1} << -e) - 1)) == 0;
    v = x.mant >> -e;
  }
  // v << shift, limb by limb.
  const int limb = shift / 64, bit = shift % 64;
  const uint64_t w[2] = {static_cast<uint64_t>(v), static_cast<uint64_t>(v >> 64)};
  for (int i = 0; i < 2; ++i) {
    const auto lo = static_cast<std::size_t>(limb + i);
    if (lo < n) out[lo] |= w[i] << bit;
    if (bit != 0 && lo + 1 < n) out[lo + 1] |= w[i] >> (64 - bit);
  }
  return out;
}

// [m U + k ln 2 < x] at precisions 128, 192, ... bits, continuing the uniform whose first word is
// `first`. At t words, U in [U_t, U_t + 1) 2^(-64 t) and ln 2 in (L_t, L_t + 2) 2^(-64 t), so
// m U + k ln 2 lies in [A, A + m + 2k) 2^(-64 t) with A = m U_t + k L_t. Reached with probability
// about (m + k) 2^-64 / m per comparison.
bool less_slow(Rng& rng, uint64_t m, uint64_t k, const Dyadic& x, uint64_t first) {
  std::vector<uint64_t> words{first};
  for (int t = 2;; ++t) {
    words.push_back(rng.next_u64());
    const auto n = static_cast<std::size_t>(t) + 2;
    Limbs u(static_cast<std::size_t>(t));
    for (int i = 0; i < t; ++i) u[static_cast<std::size_t>(i)] = words[static_cast<std::size_t>(t - 1 - i)];
    Limbs a(n, 0);
    add_mul(a, u, m);
    if (k != 0) add_mul(a, ln2_limbs(t), k);
    Limbs a_hi = a;
    const u128 width = static_cast<u128>(m) + 2 * static_cast<u128>(k);
    const uint64_t wl[2] = {static_cast<uint64_t>(width), static_cast<uint64_t>(width >> 64)};
    add_mul(a_hi, wl, 1);
    bool exact = true;
    const Limbs xs = scaled_limbs(x, t, n, exact);
    if (compare(a_hi, xs) <= 0) return true;
    const int c = compare(a, xs);
    if (c > 0 || (c == 0 && exact)) return false;
  }
}

// [m U + k ln 2 < x] for a fresh uniform U on [0, 1), m >= 1, m, k < 2^32. The first 64 bits of U
// decide unless m U + k ln 2 is within (m + k) 2^-64 of x.
bool less_lazy(Rng& rng, uint64_t m, uint64_t k, const Dyadic& x) {
  if (x.mant == 0) return false;  // the left side is >= 0
  const uint64_t u = rng.next_u64();
  // m U + k ln 2 in [a_lo, a_lo + m + k) 2^-64, and > a_lo 2^-64 (U >= u 2^-64, ln 2 > kLn2Word 2^-64).
  const u128 a_lo = static_cast<u128>(m) * u + static_cast<u128>(k) * kLn2Word;  // < 2^97
  const u128 a_hi = a_lo + m + k;
  const Scaled xs = scale_floor(x, 64);
  if (xs.big) return true;
  if (a_hi <= xs.floor) return true;
  if (a_lo > xs.floor || (a_lo == xs.floor && xs.exact)) return false;
  return less_slow(rng, m, k, x, u);
}

// Bernoulli(exp(-x) 2^k) with K = envelope_exponent(x) >= k: Bernoulli(2^-(K - k)) and then CKS20
// Algorithm 1 on gamma = x - K ln 2 in [0, 1): J <- 1; while Bernoulli(gamma / J) { J <- J + 1 };
// accept iff J is odd (P(J > j) = gamma^j / j!, so P(J odd) = exp(-gamma)). The coin
// Bernoulli(gamma / J) is [J U + K ln 2 < x].
bool exp_coin(Rng& rng, const Dyadic& x, int64_t K, int64_t k) {
  if (!bernoulli_pow2(rng, static_cast<uint64_t>(K - k))) return false;
  if (x.mant == 0) return true;
  uint64_t j = 1;
  while (less_lazy(rng, j, static_cast<uint64_t>(K), x)) ++j;
  return (j & 1U) != 0;
}

}  // namespace

u128 uniform_below128(Rng& rng, u128 n) {
  if (n <= std::numeric_limits<uint64_t>::max()) return rng.below(static_cast<uint64_t>(n));
  const auto hi = static_cast<uint64_t>(n >> 64);
  const int bits = 128 - std::countl_zero(hi);
  const u128 mask = bits == 128 ? ~u128{0} : ((u128{1} << bits) - 1);
  for (;;) {
    u128 v = (static_cast<u128>(rng.next_u64()) << 64) | rng.next_u64();
    v &= mask;
    if (v < n) return v;
  }
}

bool bernoulli_pow2(Rng& rng, uint64_t d) {
  for (; d >= 64; d -= 64)
    if (rng.next_u64() != 0) return false;
  return d == 0 || (rng.next_u64() >> (64 - d)) == 0;
}

std::span<const uint64_t> ln2_limbs(int t) {
  if (t < 1) fail("ln2_limbs: t must be >= 1, got ", t);
  // Truncating a lower bound L_T (width 2) to t < T limbs keeps a lower bound of width < 2.
  thread_local Limbs cache;
  if (static_cast<int>(cache.size()) < t) cache = compute_ln2(std::max(4, 2 * t));
  return std::span<const uint64_t>(cache).subspan(cache.size() - static_cast<std::size_t>(t));
}

// K = floor(q), q = fl(fl(x) / fl(ln 2)) - 2^-28. Each of the three roundings is relative 2^-53 and
// x / ln 2 < 2^20.6, so fl(fl(x) / fl(ln 2)) is within 2^-31 of x / ln 2 and the subtraction adds at
// most 2^-32: q < x / ln 2, hence K ln 2 <= x, and q > x / ln 2 - 2^-27, hence x - K ln 2 < 1.
// With x_approx = x (1 + d), |d| <= 2^-51, the two further roundings keep the total relative error
// below 2^-50, i.e. below 2^-29 on x / ln 2 < 2^20.6: the same conclusion.
int64_t envelope_exponent_of(double xd) {
  if (!(xd < 0x1p20)) fail("envelope_exponent: the exponent ", xd, " is not below 2^20");
  const double q = xd / kLn2 - kMargin;
  return q <= 0.0 ? 0 : static_cast<int64_t>(q);
}

int64_t envelope_exponent(const Dyadic& x) { return envelope_exponent_of(x.to_double()); }

bool bernoulli_exp_scaled(Rng& rng, const ExpWeight& w, int64_t k) {
  if (k < 0 || k > w.K) fail("bernoulli_exp_scaled: k = ", k, " is outside [0, ", w.K, "]");
  return exp_coin(rng, w.x, w.K, k);
}

// Rejection from the envelope e_j = count_j 2^-k_j, k_j = min(K_j, Kmin + span) <= K_j, drawn with
// integer weights count_j 2^(Kmin + span - k_j); candidate j is kept with Bernoulli(exp(-x_j) 2^k_j),
// so a round returns j with probability proportional to count_j exp(-x_j). The acceptance is at least
// exp(-(x_j - K_j ln 2)) > 1/e for every j within the span, and the others have envelope mass below
// 2^-span each: about two rounds on average.
WeightedDraw exact_weighted_draw(Rng& rng, std::span<const uint64_t> count, std::span<const uint64_t> gap,
                                 const SelectionScale& scale) {
  const std::size_t n = count.size();
  if (n == 0 || gap.size() != n) fail("exact_weighted_draw: ", n, " counts and ", gap.size(), " gaps");
  thread_local std::vector<u128> prefix;
  thread_local std::vector<int64_t> K;
  prefix.resize(n);
  K.resize(n);
  int64_t kmin = std::numeric_limits<int64_t>::max();
  for (std::size_t j = 0; j < n; ++j)
    if (count[j] > 0) kmin = std::min(kmin, K[j] = scale.envelope(gap[j]));
  if (kmin == std::numeric_limits<int64_t>::max()) fail("exact_weighted_draw: every count is 0");
  const int64_t top = kmin + kEnvelopeSpan;
  u128 total = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (count[j] > 0) total += static_cast<u128>(count[j]) << (top - std::min(K[j], top));
    prefix[j] = total;
  }
  for (;;) {
    const u128 v = uniform_below128(rng, total);
    const auto j = static_cast<std::size_t>(std::upper_bound(prefix.begin(), prefix.end(), v) - prefix.begin());
    const u128 base = j == 0 ? 0 : prefix[j - 1];
    const int64_t k = std::min(K[j], top);
    const ExpWeight w = scale.weight(gap[j]);
    if (exp_coin(rng, w.x, w.K, k)) return {j, static_cast<uint64_t>((v - base) >> (top - k))};
  }
}

SelectionScale::SelectionScale(double epsilon, double sensitivity) {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon))
    fail("SelectionScale: epsilon must be > 0 and finite, got ", epsilon);
  if (!(sensitivity > 0.0) || !std::isfinite(sensitivity))
    fail("SelectionScale: sensitivity must be > 0 and finite, got ", sensitivity);
  sensitivity_ = sensitivity;
  int e = 0;
  std::frexp(sensitivity, &e);  // sensitivity = f 2^e, f in [0.5, 1): floor(log2) = e - 1
  grid_log2_ = e - 1 - kScoreGridBits;
  inv_grid_ = std::ldexp(1.0, -grid_log2_);
  grid_ = std::ldexp(1.0, grid_log2_);
  const double gamma = grid_;
  double s = sensitivity + gamma;
  if (s - sensitivity < gamma) s = std::nextafter(s, std::numeric_limits<double>::infinity());  // round up
  sensitivity_used_ = s;
  double c = epsilon / (2.0 * s);
  if (!std::isfinite(c)) fail("SelectionScale: epsilon / (2 sensitivity) overflows (epsilon ", epsilon, ")");
  if (std::fma(c, 2.0 * s, -epsilon) > 0.0) c = std::nextafter(c, 0.0);  // round down
  c_ = c;
  gap_cap_ = std::numeric_limits<uint64_t>::max();
  capped_ = exp_weight(Dyadic{1, kCapLog2});
  if (c == 0.0) return;  // every exponent is 0: a uniform choice
  int ce = 0;
  const double f = std::frexp(c, &ce);
  c_mant_ = static_cast<uint64_t>(std::ldexp(f, 53));
  c_exp_ = ce - 53;
  kappa_ = std::ldexp(c, grid_log2_) * kInvLn2;
  // Smallest gap with c_mant 2^(c_exp + grid_log2) gap >= 2^kCapLog2. Beyond 2^115 the gap (< 2^63)
  // never reaches it and the exponent stays below 2^11.
  const int shift = kCapLog2 - c_exp_ - grid_log2_;
  if (shift < 0) {
    gap_cap_ = 1;
  } else if (shift < 115) {
    const u128 num = u128{1} << shift;
    gap_cap_ = static_cast<uint64_t>((num + c_mant_ - 1) / c_mant_);
  }
}

int64_t SelectionScale::units(double score, const char* what) const {
  const double v = score * inv_grid_;  // exact: a power-of-two scaling (an overflow fails below)
  if (!(std::fabs(v) < 0x1p62))
    fail(what, ": score ", score, " is too large for the sensitivity ", sensitivity_,
         " (scores must stay below 2^42 times the sensitivity)");
  return std::llrint(v);  // round to nearest: monotone
}

// SelectionScale::envelope (exact.hpp) is envelope_exponent_of with x / ln 2 estimated by gap kappa,
// kappa = fl(c gamma fl(1 / ln 2)): the scaling by gamma is exact (or the value is subnormal and
// K = 0 whatever the rounding), the constant, the product into kappa, (double)gap and the product
// gap kappa round once each, a relative error below 2^-50.9 on x / ln 2 < 2^11, far inside the
// 2^-28 margin.
ExpWeight SelectionScale::weight(uint64_t gap) const {
  if (c_mant_ == 0 || gap == 0) return {};
  if (gap >= gap_cap_) return capped_;
  return {Dyadic{static_cast<u128>(c_mant_) * gap, c_exp_ + grid_log2_}, envelope(gap)};
}

}  // namespace dpf
