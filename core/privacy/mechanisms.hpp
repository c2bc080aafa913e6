// Noise and selection mechanisms. Each sampler has an exact probability function next to it, used
// by the statistical conformance tests (privacy.md §7.3) and available for likelihood replay.
//
// Neighbouring datasets are add/remove-one (privacy.md §6.4, dipreme.md §1): callers pass
// add/remove sensitivities. Nothing here records privacy spending: callers charge the
// PrivacyLedger (core/privacy/ledger.hpp) at the point where they draw.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "core/privacy/rng.hpp"

namespace dpf {

// ---- Laplace ---------------------------------------------------------------------------------
// Laplace(0, scale) noise. Sampled as a discrete Laplace on a power-of-two grid of resolution
// r = 2^ceil(log2(scale * 2^-40)) (Google/OpenDP style, privacy.md §1.1, §8.2), so that the output
// is not vulnerable to Mironov's floating-point attack; the rounding error (< r) is negligible
// against the scale. scale must be finite and > 0.
double sample_laplace(Rng& rng, double scale);
// The resolution used by sample_laplace for this scale (tests check the lattice).
double laplace_resolution(double scale);
// CDF of the continuous Laplace(0, scale) at x.
double laplace_cdf(double x, double scale);

// ---- Exponential mechanism over a finite set ---------------------------------------------------
// P(i) ∝ base_i * exp(epsilon * score_i / (2 * sensitivity)) (McSherry & Talwar 2007).
// base (optional) holds log base-measure weights (log μ_i); empty means uniform. Computed in log
// space with the max subtracted; -inf scores or log-bases get probability 0. If every candidate has
// probability 0 (all -inf) the draw is uniform over all candidates.
// epsilon must be > 0 and finite; epsilon = +infinity is allowed only via the non-private callers.
std::size_t exponential_mechanism(Rng& rng, std::span<const double> scores, double epsilon,
                                  double sensitivity, std::span<const double> log_base = {});
std::vector<double> exponential_mechanism_probabilities(std::span<const double> scores, double epsilon,
                                                        double sensitivity,
                                                        std::span<const double> log_base = {});

// ---- Permute-and-flip (McKenna & Sheldon 2020) ------------------------------------------------
// Visit candidates in a uniformly random order; accept r with probability
// exp(epsilon * (score_r - max score) / (2 * sensitivity)). The argmax is always accepted.
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
// breaks[0] and the interval is 0.
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

// Throws dpf::Error unless epsilon > 0 and finite (names `what` in the message).
void check_epsilon(double epsilon, const char* what);

}  // namespace dpf
