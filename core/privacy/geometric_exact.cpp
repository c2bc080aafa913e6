// Exact lazy comparisons for the secure Laplace's geometric magnitude (geometric_exact.hpp).
#include "core/privacy/geometric_exact.hpp"

#include <optional>
#include <utility>

#include "core/privacy/exp_bounds.hpp"
#include "core/util/error.hpp"

namespace dpf::geom {
namespace {

using expb::Interval;
using expb::Nat;

// V in [u, u + 1) 2^-bits: the drawn prefix of a uniform.
struct Lazy {
  Nat u;
  int bits;
};

Lazy lazy(uint64_t first, int bits) {
  if (bits < 1 || bits > 64 || (bits < 64 && (first >> bits) != 0))
    fail("geometric_exact: a uniform prefix of ", bits, " bits cannot be ", first);
  return {expb::nat(first), bits};
}

void extend(Rng& rng, Lazy& v) {
  v.u = expb::add(expb::shl(v.u, 64), expb::nat(rng.next_u64()));
  v.bits += 64;
}

// Bits to add to the uniform's precision so that a probability near e^-x is resolved: its binary
// exponent (x / ln 2) and a margin. Only the speed depends on this estimate, never a decision.
int guard_bits(const Dyadic& x) { return 64 + static_cast<int>(x.to_double() * 1.4427) + 4; }

Dyadic digit_exponent(const Dyadic& lambda, int i) { return {lambda.mant, lambda.exp + i}; }

// [V < c] for c in [lo, hi] 2^-P, if V's interval [a, b) 2^-P decides it (P >= bits).
std::optional<bool> decide_below(const Lazy& v, int P, const Interval& c) {
  const Nat a = expb::shl(v.u, P - v.bits);
  const Nat b = expb::shl(expb::add(v.u, expb::nat(1)), P - v.bits);
  if (expb::cmp(b, c.lo) <= 0) return true;  // V < b <= c
  if (expb::cmp(a, c.hi) >= 0) return false;  // V >= a >= c
  return std::nullopt;
}

// [V alpha < (1 - V) beta] for alpha >= 0 in [alpha.lo, alpha.hi] 2^-P and beta > 0 in
// [beta.lo, beta.hi] 2^-P, if V's interval [a, b) decides it: true when b alpha.hi <= (1 - b) beta.lo
// (then V alpha <= b alpha.hi <= (1 - b) beta.lo < (1 - V) beta), false when
// a alpha.lo >= (1 - a) beta.hi (then V alpha >= (1 - V) beta).
std::optional<bool> decide_linear(const Lazy& v, int P, const Interval& alpha, const Interval& beta) {
  const Nat one = expb::pow2(P);
  const Nat a = expb::shl(v.u, P - v.bits);
  const Nat b = expb::shl(expb::add(v.u, expb::nat(1)), P - v.bits);
  if (expb::cmp(expb::mul(b, alpha.hi), expb::mul(expb::sub(one, b), beta.lo)) <= 0) return true;
  if (expb::cmp(expb::mul(a, alpha.lo), expb::mul(expb::sub(one, a), beta.hi)) >= 0) return false;
  return std::nullopt;
}

// Bounds of D = prod_(i = from..to) (1 + F_i) - 1, F_i = e^-(lambda 2^i), at precision P (0 if
// from > to): the product of lower (upper) bounds, floored (ceiled) after each factor.
Interval tail_excess(const Dyadic& lambda, int from, int to, int P) {
  const Nat one = expb::pow2(P);
  Nat lo = one, hi = one;
  for (int i = from; i <= to; ++i) {
    const Interval f = expb::exp_neg(digit_exponent(lambda, i), P);
    lo = expb::shr(expb::mul(lo, expb::add(one, f.lo)), P, false);
    hi = expb::shr(expb::mul(hi, expb::add(one, f.hi)), P, true);
  }
  return {expb::sub(lo, one), expb::sub(hi, one)};
}

// The decision `decide(v, P)` on a uniform with prefix v, at precision P = bits + guard, extending
// the uniform one word at a time until decided.
template <typename Decide>
bool lazy_decide(Rng& rng, Lazy v, int guard, Decide decide) {
  for (;;) {
    if (const std::optional<bool> d = decide(v, v.bits + guard)) return *d;
    extend(rng, v);
  }
}

}  // namespace

bool uniform_below_exp_neg(Rng& rng, uint64_t first, int bits, const Dyadic& x) {
  Lazy v = lazy(first, bits);
  if (x.mant == 0) return true;  // e^0 = 1 > V
  return lazy_decide(rng, std::move(v), 64,
                     [&](const Lazy& u, int P) { return decide_below(u, P, expb::exp_neg(x, P)); });
}

// V < 1 / (1 + e^x) = F / (1 + F), F = e^-x  <=>  V (1 + F) < F  <=>  V < (1 - V) F.
bool uniform_below_logistic(Rng& rng, uint64_t first, int bits, const Dyadic& x) {
  if (x.mant == 0) fail("uniform_below_logistic: the exponent must be > 0");
  return lazy_decide(rng, lazy(first, bits), guard_bits(x), [&](const Lazy& u, int P) {
    const Nat one = expb::pow2(P);
    return decide_linear(u, P, Interval{one, one}, expb::exp_neg(x, P));
  });
}

// With Pi = prod (1 + F_i): 1 - prod (1 - q_i) = 1 - prod F_i^-1 / (1 + F_i^-1) = (Pi - 1) / Pi, so
// V < D / (1 + D) with D = Pi - 1  <=>  V < (1 - V) D, the form of uniform_below_logistic.
bool uniform_below_tail(Rng& rng, uint64_t first, int bits, const Dyadic& lambda, int from, int to) {
  if (from < 0 || from > to || to >= kMaxDigits || lambda.mant == 0)
    fail("uniform_below_tail: digits ", from, "..", to, " are out of range");
  return lazy_decide(rng, lazy(first, bits), guard_bits(digit_exponent(lambda, from)), [&](const Lazy& u, int P) {
    const Nat one = expb::pow2(P);
    return decide_linear(u, P, Interval{one, one}, tail_excess(lambda, from, to, P));
  });
}

// Given that none of from..j-1 is set and some digit of j..to is, digit j is set with probability
// q_j / P(A_j), A_j = {some digit of j..to set}. With Pi_k = prod_(i = k..to) (1 + F_i) and
// D_k = Pi_k - 1: q_j = F_j / (1 + F_j), P(A_j) = D_j / Pi_j and D_j = F_j Pi_(j+1) + D_(j+1), so
// V P(A_j) < q_j  <=>  V (F_j Pi_(j+1) + D_(j+1)) < F_j Pi_(j+1)  <=>  V D_(j+1) < (1 - V) F_j (1 + D_(j+1)).
// The last digit is set with probability 1. The digits above the lowest set one are independent of
// the conditioning event and keep their own law.
uint64_t tail_digits_given_any(Rng& rng, const Dyadic& lambda, int from, int to) {
  if (from < 0 || from > to || to >= kMaxDigits || lambda.mant == 0)
    fail("tail_digits_given_any: digits ", from, "..", to, " are out of range");
  int lowest = to;
  for (int j = from; j < to; ++j) {
    const Dyadic xj = digit_exponent(lambda, j);
    const bool set = lazy_decide(rng, lazy(rng.next_u64(), 64), guard_bits(xj), [&](const Lazy& u, int P) {
      const Nat one = expb::pow2(P);
      const Interval f = expb::exp_neg(xj, P);
      const Interval d = tail_excess(lambda, j + 1, to, P);
      const Interval beta{expb::shr(expb::mul(f.lo, expb::add(one, d.lo)), P, false),
                          expb::shr(expb::mul(f.hi, expb::add(one, d.hi)), P, true)};
      return decide_linear(u, P, d, beta);
    });
    if (set) {
      lowest = j;
      break;
    }
  }
  uint64_t digits = uint64_t{1} << lowest;
  for (int i = lowest + 1; i <= to; ++i)
    if (uniform_below_logistic(rng, rng.next_u64(), 64, digit_exponent(lambda, i))) digits |= uint64_t{1} << i;
  return digits;
}

}  // namespace dpf::geom
