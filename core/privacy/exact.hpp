// Exact sampling for selection by exponential weights (the exponential mechanism, permute-and-flip,
// the interval exponential mechanism). docs/exact-sampling.md gives the derivations.
//
// A weight exp(-x) computed in floating point and compared with a 53-bit uniform is not the
// mechanism the privacy proof is about: exp underflows to 0 below x ~ 745 (a candidate that can
// never be chosen on D but can on a neighbour D' is an infinite privacy loss), and probabilities
// below 2^-53 are rounded. Here every random decision is an exact comparison between a lazily drawn
// uniform (64 bits at a time, as many as the decision needs) and a number known exactly:
//  * the exponents x are dyadic rationals (Dyadic below): the scale c = epsilon / (2 Delta') is a
//    double, and the scores are rounded to a public grid of spacing gamma = 2^-k (SelectionScale);
//  * Bernoulli(exp(-x)) is Canonne, Kamath & Steinke's Algorithm 1 ("The Discrete Gaussian for
//    Differential Privacy", NeurIPS 2020; CKS20) after factoring out 2^-K, K = floor(x / ln 2)
//    (up to a certified margin): exp(-x) = 2^-K exp(-(x - K ln 2)), where 2^-K is K fair bits and
//    the CKS20 coins Bernoulli((x - K ln 2) / j) compare j U + K ln 2 with x, ln 2 being known to
//    as many bits as a comparison needs (a series with rigorous bounds, extended on demand);
//  * a draw proportional to count_j exp(-x_j) is rejection sampling from the dyadic envelope
//    count_j 2^-K_j (exact integer arithmetic), accepting with Bernoulli(exp(-x_j) 2^K_j) >= 1/2.
// So the output distributions are exactly the stated ones, given uniform 64-bit words.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/privacy/rng.hpp"

namespace dpf {

using u128 = __uint128_t;

// Envelope exponents subtract this from an estimate of x / ln 2 whose error is below 2^-29
// (exact.cpp, envelope_exponent_of).
inline constexpr double kEnvelopeMargin = 0x1p-28;
// Envelope weights of exact draws span 2^kEnvelopeSpan relative to the best candidate's.
inline constexpr int64_t kEnvelopeSpan = 60;

// The non-negative dyadic rational mant * 2^exp.
struct Dyadic {
  u128 mant = 0;
  int exp = 0;
  double to_double() const { return std::ldexp(static_cast<double>(mant), exp); }
};

// Uniform integer in [0, n) for 1 <= n, exactly (Lemire's method below 2^64, else rejection of a
// 128-bit word masked to the bit length of n).
u128 uniform_below128(Rng& rng, u128 n);

// Bernoulli(2^-d) exactly: d fair bits, all zero.
bool bernoulli_pow2(Rng& rng, uint64_t d);

// The envelope exponent of x: an integer K that the code certifies with K ln 2 <= x < K ln 2 + 1.
// x must be below 2^20 (every exponent SelectionScale makes is at most 2^11).
int64_t envelope_exponent(const Dyadic& x);
// The same from any double within relative 2^-51 of x (the error budget of the derivation).
int64_t envelope_exponent_of(double x_approx);

// A weight exp(-x) with its envelope exponent K.
struct ExpWeight {
  Dyadic x;
  int64_t K = 0;
};
inline ExpWeight exp_weight(const Dyadic& x) { return {x, envelope_exponent(x)}; }

// Bernoulli(exp(-x) 2^k) exactly, for 0 <= k <= w.K; k = 0 is Bernoulli(exp(-x)).
bool bernoulli_exp_scaled(Rng& rng, const ExpWeight& w, int64_t k);
inline bool bernoulli_exp_dyadic(Rng& rng, const Dyadic& x) { return bernoulli_exp_scaled(rng, exp_weight(x), 0); }

// floor(ln 2 * 2^(64 t)) - e for some e in {0, 1} (a lower bound within 2 of the true value), as t
// 64-bit limbs, least significant first. Exposed for the tests.
std::span<const uint64_t> ln2_limbs(int t);

// The exponent of a selection mechanism over scores, made exact (docs/exact-sampling.md §1):
//  * grid: scores are rounded to multiples of gamma = 2^(floor(log2 Delta) - 20), Delta the
//    sensitivity the caller passes; rounding moves a score by <= gamma / 2, so the rounded
//    scores have sensitivity <= Delta + gamma (and stay monotone when the scores are);
//  * the mechanism uses Delta' = Delta + gamma (rounded up) and c = epsilon / (2 Delta') (rounded
//    down), so it is epsilon-DP for every score function of sensitivity Delta (or Delta passed as
//    half the sensitivity of a monotone score, the caller's factor-2 convention);
//  * x = c (M - s) for a gap M - s in grid units, capped at 2^10: the cap is the utility map
//    s -> max(s, M - 2^10 / c), which keeps the sensitivity and monotonicity (a max of two
//    Delta'-Lipschitz functions), so capping is part of the mechanism, not an approximation.
//    A capped candidate keeps weight e^-1024 relative to the best, never 0.
// epsilon > 0 finite, sensitivity > 0 finite.
class SelectionScale {
 public:
  SelectionScale(double epsilon, double sensitivity);
  // The score in grid units, round(score / gamma). |score| must be below 2^62 gamma (2^42 times
  // the sensitivity); dpf::Error naming `what` otherwise.
  int64_t units(double score, const char* what) const;
  // The exponent for a gap (best score minus this score, >= 0) in grid units, exactly, with its
  // envelope exponent; envelope(gap) is weight(gap).K alone (cheap: one multiplication).
  ExpWeight weight(uint64_t gap) const;
  int64_t envelope(uint64_t gap) const {
    if (c_mant_ == 0 || gap == 0) return 0;
    if (gap >= gap_cap_) return capped_.K;
    const double q = static_cast<double>(gap) * kappa_ - kEnvelopeMargin;
    return q <= 0.0 ? 0 : static_cast<int64_t>(q);
  }
  double grid() const { return grid_; }
  double sensitivity_used() const { return sensitivity_used_; }
  double c() const { return c_; }

 private:
  double sensitivity_ = 0.0;
  int grid_log2_ = 0;
  double grid_ = 1.0;      // 2^grid_log2_
  double inv_grid_ = 1.0;  // 2^-grid_log2_
  double kappa_ = 0.0;     // c gamma / ln 2, for the envelope exponents
  double sensitivity_used_ = 0.0;
  double c_ = 0.0;
  uint64_t c_mant_ = 0;  // c = c_mant_ 2^c_exp_
  int c_exp_ = 0;
  uint64_t gap_cap_ = 0;  // gaps >= gap_cap_ have c gamma gap >= 2^10
  ExpWeight capped_;
};

// Index j with probability count[j] exp(-x_j) / sum_i count[i] exp(-x_i), x_j = the exponent of
// gap[j] under `scale`, and an offset uniform on [0, count[j]) (a uniform member of candidate j's
// group: the interval mechanism's grid point). Exact. At least one count must be positive and the
// counts must sum to less than 2^64; gaps of zero-count candidates are ignored.
struct WeightedDraw {
  std::size_t index;
  uint64_t offset;
};
WeightedDraw exact_weighted_draw(Rng& rng, std::span<const uint64_t> count, std::span<const uint64_t> gap,
                                 const SelectionScale& scale);

}  // namespace dpf
