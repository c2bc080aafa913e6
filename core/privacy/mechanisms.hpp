// Noise and selection mechanisms. Each sampler has an exact probability function next to it, used
// by the statistical conformance tests (privacy.md §7.3) and available for likelihood replay.
//
// Neighbouring datasets are add/remove-one (privacy.md §6.4, dipreme.md §1): callers pass
// add/remove sensitivities. Nothing here records privacy spending: callers charge the
// PrivacyLedger (core/privacy/ledger.hpp) at the point where they draw.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/privacy/rng.hpp"

namespace dpf {

// ---- Laplace ---------------------------------------------------------------------------------
// Laplace(0, scale) noise. Sampled as a discrete Laplace on a power-of-two grid of resolution
// r = 2^ceil(log2(scale * 2^-40)) (Google/OpenDP style, privacy.md §1.1, §8.2), so that the output
// is not vulnerable to Mironov's floating-point attack; the rounding error (< r) is negligible
// against the scale. scale must be finite and > 0 (and within [2^-1000, 2^1000]).
// The output is k * r with P(k) ∝ exp(-|k| r / scale) exactly, given uniform 64-bit words
// (google/differential-privacy:common_docs/Secure_Noise_Generation.pdf; every random decision is an
// exact comparison, docs/exact-sampling.md §7), conditioned on the magnitude's binary digits with
// exponent |digit value| r / scale >= 2^12 being 0: a removed mass below 2 e^-4096. |k| < 2^53.
double sample_laplace(Rng& rng, double scale);
// The resolution used by sample_laplace for this scale (tests check the lattice).
double laplace_resolution(double scale);
// CDF of the continuous Laplace(0, scale) at x.
double laplace_cdf(double x, double scale);

// The full secure Laplace mechanism of Secure_Noise_Generation.pdf §3 (privacy.md §1.1): rounds
// `value` to the grid r = laplace_resolution(sensitivity / epsilon) and adds k * r with
// P(k) ∝ exp(-|k| r epsilon / (sensitivity + r)), i.e. the rounding is paid for by inflating the
// sensitivity by r, so the release is epsilon-DP for add/remove `sensitivity` with no slack.
double laplace_mechanism(Rng& rng, double value, double sensitivity, double epsilon);

// Two-sided geometric ("discrete Laplace") on the integers: P(k) ∝ exp(-lambda |k|). The building
// block of sample_laplace, usable directly for integer counts. The magnitude is a geometric whose
// binary digits are independent Bernoullis (Google's distributions.cc): the low digits, whose
// Bernoullis are within 2^-5 of 1/2, are drawn together by rejection, the others from one 64-bit
// word each, and the digits of probability below e^-45 through the sign word's unused bits; every
// decision compares a lazily extended uniform with the exact probability (docs/exact-sampling.md
// §7). Digits i with lambda 2^i >= 2^12 are not drawn (removed mass < 2 e^-4096; |k| < 2^62). A fair
// sign is drawn and (-, 0) rejected so that 0 is not counted twice. lambda must be finite and >= 2^-50.
int64_t sample_two_sided_geometric(Rng& rng, double lambda);
// Exact pmf: (1 - e^-lambda) / (1 + e^-lambda) * e^(-lambda |k|).
double two_sided_geometric_pmf(int64_t k, double lambda);

// ---- Exact integer samplers and the discrete Gaussian ------------------------------------------
// Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020,
// arXiv:2004.00010; CKS20), Section 5. Implemented in core/privacy/discrete_gaussian.cpp.
// These samplers use only integer draws from the Rng (Rng::below and raw 64-bit words) and exact
// integer arithmetic: no floating-point value ever decides a branch, so the output distribution is
// exactly the stated one (given uniform words), with the two documented exceptions below (the
// rational grid of sigma^2 and the truncation at 64 t).

// Bernoulli(exp(-num / den)) exactly (CKS20 Algorithm 1). den >= 1; num >= 0.
bool sample_bernoulli_exp(Rng& rng, uint64_t num, uint64_t den);

// Discrete Laplace with integer scale t >= 1: P(k) = (1 - e^(-1/t)) / (1 + e^(-1/t)) e^(-|k|/t),
// i.e. two_sided_geometric_pmf(k, 1/t) (CKS20 Algorithm 2 with s = 1). Exact; t <= 2^40.
int64_t sample_discrete_laplace(Rng& rng, uint64_t t);

// Discrete Gaussian N_Z(0, sigma2): P(k) ∝ exp(-k^2 / (2 sigma2)) on the integers (CKS20
// Algorithm 3: discrete Laplace proposals with t = floor(sqrt(sigma2)) + 1, accepted with
// probability exp(-(|Y| - sigma2/t)^2 / (2 sigma2)) by Algorithm 1).
// What is exact and what is not:
//  * sigma2 is used as the rational p / 2^q with q = 57 - 2 bit_width(t) (q >= 3) and p = the
//    smallest integer with p / 2^q >= sigma2. Every double sigma2 >= 1/8 is exactly on that grid
//    (a double in [2^m, 2^(m+1)) has 52 - m fractional bits, and q >= 55 - m), so for those the
//    target is sigma2 itself; smaller values are rounded UP (more noise) by less than 2^-55, a
//    relative change below 2^-25 over the allowed range. discrete_gaussian_sigma2_used() returns it.
//  * The proposal is cut at |Y| < 64 t (geometric part V < 64), so the output is exactly N_Z(0, s)
//    conditioned on |k| < 64 t, t > sqrt(s): the removed mass is below 2 exp(-2048) / (1 - e^-1),
//    i.e. below 10^-889 (the bound keeps every intermediate integer below 2^127).
// sigma2 must be finite and in [2^-30, 2^52] (dpf::Error otherwise).
int64_t sample_discrete_gaussian(Rng& rng, double sigma2);
// The variance parameter the sampler actually targets (p / 2^q above, rounded to the nearest double).
double discrete_gaussian_sigma2_used(double sigma2);
// Exact normalised pmf exp(-k^2 / (2 sigma2)) / Z(sigma2). Z is summed directly for sigma2 < 1 and
// by Poisson summation (Z = sqrt(2 pi sigma2) (1 + 2 sum_{n>=1} exp(-2 pi^2 sigma2 n^2)), the
// Jacobi theta identity) for sigma2 >= 1, accurate to a few ulps. sigma2 > 0, finite.
double discrete_gaussian_pmf(int64_t k, double sigma2);

// Lattice spacing of gaussian_mechanism for a noise standard deviation sigma:
// r = 2^(ceil(log2(sigma)) - 24), so sigma / r lies in (2^23, 2^24]. sigma in [2^-1000, 2^1000].
double gaussian_resolution(double sigma);
// The discrete Gaussian mechanism on the lattice r Z, rho-zCDP for add/remove neighbours with
// |f(x) - f(x')| <= l2_sensitivity (a scalar query: its l2 sensitivity is the absolute one).
// sigma = l2_sensitivity / sqrt(2 rho) and r = gaussian_resolution(sigma). The value is rounded to
// the nearest multiple of r, which can move the difference of two neighbouring values by up to r,
// so the lattice sensitivity is Delta' = l2_sensitivity / r + 1 and the noise is k r with
// k ~ N_Z(0, Delta'^2 / (2 rho)) (CKS20 §2, Theorem 4: N_Z(0, s) added to an integer query of
// sensitivity Delta' is Delta'^2/(2 s)-zCDP). The double evaluation of Delta'^2/(2 rho) is inflated
// by 2^-40 relative before the sampler rounds it up to its grid, so rounding never lowers the
// noise. The caller charges PrivacyLedger::charge_zcdp(scope, "gaussian", rho, l2_sensitivity).
// rho > 0 finite, l2_sensitivity > 0 finite, value finite; rho must not be so small that
// Delta'^2/(2 rho) exceeds 2^52 (i.e. rho >~ 2^-49).
double gaussian_mechanism(Rng& rng, double value, double l2_sensitivity, double rho);

// ---- Selection by exponential weights ---------------------------------------------------------
// exponential_mechanism, permute_and_flip and interval_exponential_mechanism (core/privacy/
// selection.cpp) sample EXACTLY: no weight is computed in floating point, every random decision is
// an exact comparison with lazily drawn uniform bits (core/privacy/exact.hpp; docs/exact-sampling.md).
// What they implement exactly, for a caller's sensitivity Delta:
//  * scores are rounded to the public grid gamma = 2^(floor(log2 Delta) - 20) (SelectionScale);
//  * the temperature is c = epsilon / (2 Delta') with Delta' = Delta + gamma (rounded up; c rounded
//    down), which pays for the rounding: the mechanism is epsilon-DP for every score function of
//    sensitivity Delta (McSherry & Talwar 2007, Thm 6; McKenna & Sheldon 2020, Thm 1), and for a
//    score that is monotone in the data (counts under add/remove) the caller passes Delta / 2;
//  * a candidate more than 2^10 / c below the best is treated as exactly 2^10 / c below it (a
//    utility map that keeps the sensitivity): its weight is e^-1024 of the best's, never 0.
// Scores must be finite or -inf (weight 0) with |score| below 2^42 Delta; sensitivity > 0 and
// finite; epsilon > 0. epsilon = +infinity is the non-private limit (argmax, ties weighted by the
// base measure) for non-private callers; private callers validate with check_epsilon, and
// PrivacyLedger::charge rejects an infinite epsilon anyway. dpf::Error on bad input.

// The exponential mechanism over a finite set: P(i) ∝ base_i exp(c score_i) (McSherry & Talwar
// 2007; privacy.md §7.3). base (optional) holds integer base-measure weights (0 excludes a
// candidate); empty means uniform. If every candidate has weight 0 the draw is uniform over all.
std::size_t exponential_mechanism(Rng& rng, std::span<const double> scores, double epsilon, double sensitivity,
                                  std::span<const uint64_t> base = {});
// The exact law of exponential_mechanism (grid, Delta' and cap included), in long double.
std::vector<double> exponential_mechanism_probabilities(std::span<const double> scores, double epsilon,
                                                        double sensitivity, std::span<const uint64_t> base = {});

// ---- Permute-and-flip (McKenna & Sheldon 2020) ------------------------------------------------
// Visit candidates in a uniformly random order; accept r with probability
// exp(c (score_r - max score)) (McKenna & Sheldon, "Permute-and-Flip: a new mechanism for
// differentially private selection", NeurIPS 2020, Alg. 1), c as above. The best is always
// accepted. -inf scores are never accepted, all -inf gives a uniform draw, epsilon = +inf is the
// uniform argmax.
std::size_t permute_and_flip(Rng& rng, std::span<const double> scores, double epsilon, double sensitivity);
// Exact output distribution (privacy.md §7.3): P(i) = p_i (1/k) Σ_m e_m({1 - p_j}_{j≠i}) / C(k-1, m).
std::vector<double> permute_and_flip_probabilities(std::span<const double> scores, double epsilon,
                                                   double sensitivity);

// ---- The public threshold grid ----------------------------------------------------------------
// Thresholds drawn between data points are released on the grid r Z ∩ [lo, hi] of the PUBLIC domain,
// r = 2^(ceil(log2(hi - lo)) - 40) (the resolution laplace_resolution gives a scale hi - lo), raised
// to the spacing of doubles near max(|lo|, |hi|) so that every grid point is an exact double. A
// released threshold then carries no low-order bits of the data points around it. lo < hi finite.
double threshold_grid(double lo, double hi);
// A uniform point of that grid in (a, b] ([lo, b] when a <= lo), for values a <= b clamped to
// [lo, hi]; when the range holds no grid point, the largest grid point <= b (lo if there is none).
// Returns lo when lo >= hi.
double uniform_threshold_between(Rng& rng, double a, double b, double lo, double hi);

// ---- Exponential mechanism over intervals (a length base measure, on the grid) -----------------
// The output space is [breaks[0], breaks[m]] cut into m intervals I_j = [breaks[j], breaks[j+1]]
// (breaks non-decreasing, breaks[0] and breaks[m] the PUBLIC domain), with a score constant on
// each interval. The mechanism is the exponential mechanism over the threshold grid of the domain
// with a uniform base measure: grid point t in (breaks[j], breaks[j+1]] (interval 0 also holds
// breaks[0]) has score_j, so interval j is chosen with probability ∝ n_j exp(c score_j), n_j its
// number of grid points (the length base measure on the grid: dipreme.md §2.5a; McSherry & Talwar
// 2007), and the value is a uniform grid point in it (exact: n_j is an integer). A point t sends
// the values < t below it, which is what score_j counts. Intervals without a grid point (ties)
// have probability 0. If every interval has zero length the value is breaks[0] and the interval
// is 0. If every interval with a grid point has score -inf the draw is uniform on the grid.
// breaks must be finite with m >= 1; scores.size() == m.
struct IntervalDraw {
  std::size_t interval;
  double value;
};
IntervalDraw interval_exponential_mechanism(Rng& rng, std::span<const double> breaks,
                                            std::span<const double> scores, double epsilon, double sensitivity);
// Exact probabilities of each interval.
std::vector<double> interval_exponential_mechanism_probabilities(std::span<const double> breaks,
                                                                 std::span<const double> scores,
                                                                 double epsilon, double sensitivity);
// Exact CDF of the released value at x (a step function on the grid): P(value <= x).
double interval_exponential_mechanism_cdf(std::span<const double> breaks, std::span<const double> scores,
                                          double epsilon, double sensitivity, double x);

// Throws dpf::Error unless epsilon > 0 and finite (names `what` in the message).
void check_epsilon(double epsilon, const char* what);

}  // namespace dpf
