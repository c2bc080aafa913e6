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
// The output is k * r with P(k) ∝ exp(-|k| r / scale) exactly up to 2^-64 per random bit
// (google/differential-privacy:common_docs/Secure_Noise_Generation.pdf). Binary digits of the
// magnitude whose probability of being 1 is below e^-45 are not drawn, so |output| stays below
// 45 to 90 times the scale; the mass moved by this truncation is < 3e-20.
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
// binary digits are independent Bernoullis (Google's distributions.cc), each drawn by comparing a
// 64-bit word with a 64-bit threshold; the low digits, whose Bernoullis are within 2^-5 of 1/2, are
// drawn together by rejection. A fair sign is drawn and (-, 0) rejected so that 0 is not counted
// twice. lambda must be finite and >= 2^-50.
int64_t sample_two_sided_geometric(Rng& rng, double lambda);
// Exact pmf: (1 - e^-lambda) / (1 + e^-lambda) * e^(-lambda |k|).
double two_sided_geometric_pmf(int64_t k, double lambda);

// ---- Exponential mechanism over a finite set ---------------------------------------------------
// P(i) ∝ base_i * exp(epsilon * score_i / (2 * sensitivity)) (McSherry & Talwar 2007, Thm 6;
// privacy.md §7.3). For a utility that is monotone in the data (counts under add/remove) the
// factor 2 may be dropped: pass sensitivity / 2.
// base (optional) holds log base-measure weights (log μ_i); empty means uniform. Computed in log
// space with the max subtracted; -inf scores or log-bases get probability 0. If every candidate has
// probability 0 (all -inf) the draw is uniform over all candidates.
// Scores and log-bases must not be NaN or +inf; sensitivity must be > 0 and finite; the sizes must
// agree and be non-zero (dpf::Error otherwise).
// epsilon must be > 0. epsilon = +infinity is the non-private limit (argmax, ties weighted by the
// base) for non-private callers; private callers validate with check_epsilon, and
// PrivacyLedger::charge rejects an infinite epsilon anyway.
std::size_t exponential_mechanism(Rng& rng, std::span<const double> scores, double epsilon,
                                  double sensitivity, std::span<const double> log_base = {});
std::vector<double> exponential_mechanism_probabilities(std::span<const double> scores, double epsilon,
                                                        double sensitivity,
                                                        std::span<const double> log_base = {});

// ---- Permute-and-flip (McKenna & Sheldon 2020) ------------------------------------------------
// Visit candidates in a uniformly random order; accept r with probability
// exp(epsilon * (score_r - max score) / (2 * sensitivity)). The argmax is always accepted.
// (McKenna & Sheldon, "Permute-and-Flip: a new mechanism for differentially private selection",
// NeurIPS 2020, Alg. 1.) Same input rules as exponential_mechanism: -inf scores are never accepted,
// all -inf gives a uniform draw, epsilon = +inf is the uniform argmax.
std::size_t permute_and_flip(Rng& rng, std::span<const double> scores, double epsilon, double sensitivity);
// Exact output distribution (privacy.md §7.3): P(i) = p_i (1/k) Σ_m e_m({1 - p_j}_{j≠i}) / C(k-1, m).
std::vector<double> permute_and_flip_probabilities(std::span<const double> scores, double epsilon,
                                                   double sensitivity);

// ---- Exponential mechanism over intervals with a Lebesgue base measure ------------------------
// The output space is [breaks[0], breaks[m]] cut into m intervals I_j = [breaks[j], breaks[j+1]]
// (breaks non-decreasing), with a score constant on each interval. The density is
// ∝ exp(epsilon * score_j / (2 * sensitivity)) on I_j; equivalently interval j is chosen with
// probability ∝ len(I_j) exp(...) and the value is uniform inside it (dipreme.md §2.5a).
// Zero-length intervals get probability 0. If every interval has zero length the value is
// breaks[0] and the interval is 0. If every positive-length interval has score -inf the draw is
// uniform on [breaks[0], breaks[m]] (the all -inf rule of exponential_mechanism).
// Computed in log space: log len(I_j) + epsilon * score_j / (2 * sensitivity), max subtracted
// (dipreme.md §2.5a; McSherry & Talwar 2007 with a Lebesgue base measure).
// breaks must be finite and non-decreasing with m >= 1; scores.size() == m.
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
// Exact CDF of the released value at x (piecewise linear in x): P(value <= x).
double interval_exponential_mechanism_cdf(std::span<const double> breaks, std::span<const double> scores,
                                          double epsilon, double sensitivity, double x);

// Throws dpf::Error unless epsilon > 0 and finite (names `what` in the message).
void check_epsilon(double epsilon, const char* what);

}  // namespace dpf
