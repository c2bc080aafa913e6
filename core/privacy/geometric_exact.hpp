// Exact comparisons of a lazily drawn uniform with the probabilities of the secure Laplace's
// geometric magnitude (core/privacy/mechanisms.cpp; docs/exact-sampling.md §7).
//
// The sampler draws the binary digits of G, P(G = g) ∝ e^(-lambda g), as independent Bernoullis: digit
// i is 1 with probability 1 / (1 + e^(lambda 2^i)). Each random decision "V < p" reads a uniform V on
// [0, 1) as an infinite bit string of which the sampler has drawn the first word; these functions
// finish the comparison exactly when that word alone does not decide it, drawing further 64-bit
// words only while V's known interval straddles p (p is irrational: lambda is a nonzero dyadic
// rational, so e^x is transcendental for every exponent x below; the loop ends with probability 1).
// Bounds of p come from expb::exp_neg at a precision growing with the words drawn.
#pragma once
#include <cstdint>

#include "core/privacy/exact.hpp"
#include "core/privacy/rng.hpp"

namespace dpf::geom {

// Digit i of the magnitude is drawn iff lambda 2^i < 2^12 (and i <= 62). A digit beyond is 1 with
// probability below e^-4096, and G is drawn conditioned on all of them being 0: the removed mass
// is below 2 e^-4096 (docs/exact-sampling.md §7).
inline constexpr double kMaxDigitExponent = 4096.0;
inline constexpr int kMaxDigits = 63;

// V is a uniform on [0, 1) whose first `bits` bits (1 <= bits <= 64) are `first`.
// V < e^-x, x >= 0.
bool uniform_below_exp_neg(Rng& rng, uint64_t first, int bits, const Dyadic& x);
// V < 1 / (1 + e^x), x > 0: whether a digit with exponent x is set.
bool uniform_below_logistic(Rng& rng, uint64_t first, int bits, const Dyadic& x);
// V < 1 - prod_(i = from..to) (1 - q_i), q_i = 1 / (1 + e^(lambda 2^i)): whether at least one of the
// digits from..to is set. 0 <= from <= to <= 62.
bool uniform_below_tail(Rng& rng, uint64_t first, int bits, const Dyadic& lambda, int from, int to);
// The digits from..to (a bit mask of the magnitude) drawn from their joint law conditioned on at
// least one being set: the lowest set digit j with P(j | some set) = q_j prod_(from <= i < j) (1 - q_i)
// / P(some set), drawn one position at a time, then the digits above j independently. Draws its own
// uniform words.
uint64_t tail_digits_given_any(Rng& rng, const Dyadic& lambda, int from, int to);

}  // namespace dpf::geom
