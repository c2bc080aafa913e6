// Rigorous bounds of e^-x for a dyadic x >= 0, the arithmetic of the exact secure Laplace
// (core/privacy/geometric_exact.hpp; docs/exact-sampling.md §7). Integer arithmetic only:
//  * one machine word (64 or 128 bits) for y <= 2^-5, a fixed Horner scheme: the bounds of the fast
//    paths, computed on every draw (64 bits) or once per table (128 bits);
//  * any precision, on natural numbers of 64-bit limbs: the slow paths, reached when the first word
//    of a uniform does not decide a comparison (probability about 2^-60 per comparison).
#pragma once
#include <cstdint>
#include <vector>

#include "core/privacy/exact.hpp"

namespace dpf::expb {

// floor(a b / 2^128) and floor(a b / 2^64).
u128 mulhi(u128 a, u128 b);
inline uint64_t mulhi(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<u128>(a) * b) >> 64); }

// For X = floor(y 2^W) with 0 <= y <= 2^-5 (W = 64 or 128 bits): Y with |Y - (1 - e^-y) 2^W| <= 4.
uint64_t one_minus_exp_neg(uint64_t X);
u128 one_minus_exp_neg(u128 X);

// ---- natural numbers and intervals at any precision ------------------------------------------

// A natural number in 64-bit limbs, least significant first, without leading zero limbs (0 is empty).
using Nat = std::vector<uint64_t>;
Nat nat(u128 v);
Nat pow2(int s);
int cmp(const Nat& a, const Nat& b);
Nat add(const Nat& a, const Nat& b);
Nat sub(const Nat& a, const Nat& b);  // a >= b
Nat mul(const Nat& a, const Nat& b);
Nat shl(const Nat& a, int s);
Nat shr(const Nat& a, int s, bool ceil);  // floor or ceil of a / 2^s
Nat div_small(const Nat& a, uint64_t d);  // floor(a / d), d >= 1

// lo <= v 2^P <= hi for the value v an interval stands for.
struct Interval {
  Nat lo, hi;
};
// Bounds of e^-x 2^P, at most a few units apart (exp_bounds.cpp gives the argument). P >= 0.
Interval exp_neg(const Dyadic& x, int P);

}  // namespace dpf::expb
