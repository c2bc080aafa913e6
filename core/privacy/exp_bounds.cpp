// Rigorous bounds of e^-x (core/privacy/exp_bounds.hpp). Every bound below is an integer floor or
// ceiling with its error argued next to it; nothing here uses floating point.
#include "core/privacy/exp_bounds.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "core/util/error.hpp"

namespace dpf::expb {
namespace {

int bit_width128(u128 v) {
  const auto hi = static_cast<uint64_t>(v >> 64);
  return hi != 0 ? 64 + std::bit_width(hi) : std::bit_width(static_cast<uint64_t>(v));
}

void trim(Nat& a) {
  while (!a.empty() && a.back() == 0) a.pop_back();
}

// c[k] = floor(2^W / k!) for 2 <= k <= N (W the width of T): c[2] = 2^(W-1), and
// floor(floor(a / b) / k) = floor(a / (b k)).
template <typename T, int N>
constexpr std::array<T, N + 1> inverse_factorials() {
  std::array<T, N + 1> c{};
  c[2] = T{1} << (8 * sizeof(T) - 1);
  for (int k = 3; k <= N; ++k) c[k] = c[k - 1] / static_cast<T>(k);
  return c;
}

// 1 - e^-y = y (1 - y h_2), h_k = 1/k! - y h_(k+1) (so h_2 = 1/2 - y/6 + y^2/24 - ...). In units
// 2^-W: H_N = c_N, H_k = c_k - mulhi(X, H_(k+1)), K = mulhi(X, H_2) ~ y h_2, Y = X - mulhi(X, K).
// Error of H_k against h_k 2^W: c_k is floored (<= 1), mulhi floors (<= 1), X is below y 2^W by < 1
// (times H / 2^W <= 1/2), and the error of H_(k+1) comes in multiplied by y <= 2^-5; the series
// cut at N adds y/(N+1)! 2^W to H_N, which reaches H_2 multiplied by y^(N-2): below 2^-4 for
// (W, N) = (64, 10) and (128, 18). So |H_2 - h_2 2^W| <= 2.5 + 2.7/32 + 2^-4 < 3, K is within
// 1 + 1/2 + 3/32 < 1.6 of y h_2 2^W, mulhi(X, K) within 1 + 2^-6 + 1.6/32 < 1.1 of y^2 h_2 2^W,
// and Y within 2.1 of (1 - e^-y) 2^W. No step underflows: mulhi(X, H_(k+1)) <= c_(k+1) / 32 < c_k.
template <typename T, int N>
T one_minus_exp_neg_impl(T X) {
  static constexpr std::array<T, N + 1> c = inverse_factorials<T, N>();
  T h = c[N];
  for (int k = N - 1; k >= 2; --k) h = c[static_cast<std::size_t>(k)] - mulhi(X, h);
  return X - mulhi(X, mulhi(X, h));
}

}  // namespace

u128 mulhi(u128 a, u128 b) {
  const auto a0 = static_cast<uint64_t>(a), a1 = static_cast<uint64_t>(a >> 64);
  const auto b0 = static_cast<uint64_t>(b), b1 = static_cast<uint64_t>(b >> 64);
  const u128 p00 = static_cast<u128>(a0) * b0, p01 = static_cast<u128>(a0) * b1;
  const u128 p10 = static_cast<u128>(a1) * b0, p11 = static_cast<u128>(a1) * b1;
  const u128 mid = (p00 >> 64) + static_cast<uint64_t>(p01) + static_cast<uint64_t>(p10);  // < 3 2^64
  return p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
}

uint64_t one_minus_exp_neg(uint64_t X) { return one_minus_exp_neg_impl<uint64_t, 10>(X); }
u128 one_minus_exp_neg(u128 X) { return one_minus_exp_neg_impl<u128, 18>(X); }

// ---- natural numbers ---------------------------------------------------------------------------

Nat nat(u128 v) {
  Nat a{static_cast<uint64_t>(v), static_cast<uint64_t>(v >> 64)};
  trim(a);
  return a;
}

Nat pow2(int s) {
  Nat a(static_cast<std::size_t>(s / 64) + 1, 0);
  a.back() = uint64_t{1} << (s % 64);
  return a;
}

int cmp(const Nat& a, const Nat& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (std::size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

Nat add(const Nat& a, const Nat& b) {
  const Nat& l = a.size() >= b.size() ? a : b;
  const Nat& s = a.size() >= b.size() ? b : a;
  Nat r(l.size() + 1, 0);
  u128 carry = 0;
  for (std::size_t i = 0; i < l.size(); ++i) {
    carry += static_cast<u128>(l[i]) + (i < s.size() ? s[i] : 0);
    r[i] = static_cast<uint64_t>(carry);
    carry >>= 64;
  }
  r.back() = static_cast<uint64_t>(carry);
  trim(r);
  return r;
}

Nat sub(const Nat& a, const Nat& b) {
  if (cmp(a, b) < 0) fail("exp_bounds: natural subtraction a - b with a < b");
  Nat r(a.size(), 0);
  uint64_t borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const uint64_t bi = i < b.size() ? b[i] : 0;
    const uint64_t d = a[i] - bi - borrow;
    borrow = (a[i] < bi || (a[i] == bi && borrow != 0)) ? 1 : 0;
    r[i] = d;
  }
  trim(r);
  return r;
}

Nat mul(const Nat& a, const Nat& b) {
  if (a.empty() || b.empty()) return {};
  Nat r(a.size() + b.size(), 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    u128 carry = 0;
    for (std::size_t j = 0; j < b.size(); ++j) {
      carry += static_cast<u128>(a[i]) * b[j] + r[i + j];  // <= (2^64 - 1)^2 + 2 (2^64 - 1) < 2^128
      r[i + j] = static_cast<uint64_t>(carry);
      carry >>= 64;
    }
    r[i + b.size()] = static_cast<uint64_t>(carry);
  }
  trim(r);
  return r;
}

Nat shl(const Nat& a, int s) {
  if (a.empty()) return {};
  const auto limbs = static_cast<std::size_t>(s / 64);
  const int bits = s % 64;
  Nat r(a.size() + limbs + 1, 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    r[i + limbs] |= a[i] << bits;
    if (bits != 0) r[i + limbs + 1] = a[i] >> (64 - bits);
  }
  trim(r);
  return r;
}

Nat shr(const Nat& a, int s, bool ceil) {
  const auto limbs = static_cast<std::size_t>(s / 64);
  const int bits = s % 64;
  bool rest = false;  // a nonzero bit shifted out
  for (std::size_t i = 0; i < std::min(limbs, a.size()); ++i) rest = rest || a[i] != 0;
  Nat r;
  if (a.size() > limbs) {
    r.assign(a.size() - limbs, 0);
    if (bits != 0) rest = rest || (a[limbs] << (64 - bits)) != 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      r[i] = a[i + limbs] >> bits;
      if (bits != 0 && i + limbs + 1 < a.size()) r[i] |= a[i + limbs + 1] << (64 - bits);
    }
    trim(r);
  }
  return ceil && rest ? add(r, nat(1)) : r;
}

Nat div_small(const Nat& a, uint64_t d) {
  Nat r(a.size(), 0);
  u128 rem = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const u128 cur = (rem << 64) | a[i];
    r[i] = static_cast<uint64_t>(cur / d);
    rem = cur % d;
  }
  trim(r);
  return r;
}

// ---- e^-x at any precision ----------------------------------------------------------------------

// y = x 2^-s < 2^-5 (x < 2^(bit_width(mant) + exp)), computed at Q = P + s + 32 bits:
//  * Y = floor(y 2^Q); terms T_1 = Y, T_(k+1) = floor(floor(T_k Y / 2^Q) / (k + 1)). By induction
//    T_k lies in [t_k - 3, t_k], t_k = y^k / k! 2^Q: from T_k >= t_k - 3 and Y > y 2^Q - 1,
//    T_k Y / 2^Q >= t_k y - 3/32 - 1 (t_k < 2^Q), so the two floors and the division by k + 1 >= 2
//    leave T_(k+1) >= t_(k+1) - 2.05; every step floors a value at most the true one.
//  * The series 1 - e^-y = sum_k (-1)^(k+1) t_k 2^-Q stops at the first T_(n+1) = 0; the alternating
//    tail is at most t_(n+1) <= 3, so (1 - e^-y) 2^Q is within 3 n + 3 of the computed sum.
//  * Squaring s times: floor(lo^2 / 2^Q) and ceil(hi^2 / 2^Q) keep the bounds; the width (at most
//    0.6 Q + 3 units at first, Q / 5 terms at most) at most doubles plus 2 per squaring, so the
//    32 guard bits leave a width below 2 units at precision P.
Interval exp_neg(const Dyadic& x, int P) {
  if (P < 0) fail("exp_neg: precision ", P, " is negative");
  if (x.mant == 0) return {pow2(P), pow2(P)};
  const int s = std::max(0, bit_width128(x.mant) + x.exp + 5);
  const int Q = P + s + 32;
  const int e = x.exp - s + Q;  // y 2^Q = mant 2^e
  const Nat Y = e >= 0 ? shl(nat(x.mant), e) : (-e >= 128 ? Nat{} : nat(x.mant >> -e));
  Nat pos, neg, t = Y;
  uint64_t n = 0;
  for (uint64_t k = 1; !t.empty(); ++k, ++n) {
    (k % 2 == 1 ? pos : neg) = add(k % 2 == 1 ? pos : neg, t);
    t = div_small(shr(mul(t, Y), Q, false), k + 1);
  }
  const Nat err = nat(3 * static_cast<u128>(n) + 3);
  const Nat one = pow2(Q);
  const Nat base = add(one, neg);  // e^-y 2^Q is within err of base - pos
  const Nat lo_sub = add(pos, err);
  Nat lo = cmp(base, lo_sub) > 0 ? sub(base, lo_sub) : Nat{};
  Nat hi = add(base, err);
  hi = cmp(hi, pos) > 0 ? sub(hi, pos) : Nat{};
  if (cmp(hi, one) > 0) hi = one;  // e^-y <= 1
  for (int i = 0; i < s; ++i) {
    lo = shr(mul(lo, lo), Q, false);
    hi = shr(mul(hi, hi), Q, true);
  }
  return {shr(lo, Q - P, false), shr(hi, Q - P, true)};
}

}  // namespace dpf::expb
