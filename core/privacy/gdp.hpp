// Gaussian differential privacy (Dong, Roth & Su, "Gaussian Differential Privacy", JRSS-B 2022,
// arXiv 1905.02383; DRS below). A mechanism is mu-GDP when distinguishing neighbouring datasets from
// its output is at least as hard as distinguishing N(0, 1) from N(mu, 1). The Gaussian mechanism with
// l2 sensitivity Delta and noise N(0, sigma^2) is exactly (Delta / sigma)-GDP (DRS Thm 2.7).
//
//  * Composition: mu_1-GDP, ..., mu_k-GDP mechanisms run adaptively on the same records compose to
//    sqrt(sum mu_i^2)-GDP (DRS Cor. 3.3), exactly (no slack, unlike zCDP or RDP conversions).
//  * Conversion: mu-GDP is (epsilon, delta(epsilon))-DP for every epsilon >= 0 with (DRS Cor. 2.13)
//        delta(epsilon; mu) = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2),
//    and no smaller delta holds (the conversion is tight).
//  * mu-GDP implies (mu^2 / 2)-zCDP: a mu-GDP pair is a post-processing of (N(0, 1), N(mu, 1))
//    (Blackwell), whose Renyi divergence of order alpha is alpha mu^2 / 2 (Bun & Steinke 2016 Lem. 2.4).
//    The ledger uses this only when GDP charges meet pure or zCDP charges.
//
// The two inversions below bisect to a RIGOROUS end: gdp_epsilon returns an epsilon whose computed
// delta is <= the target, gdp_mu a mu whose computed delta is <= the target, each with a relative
// margin of 1e-12 on delta against the floating-point error of Phi (erfc: a few ulps).
#pragma once
#include <cstdint>

namespace dpf {

class Rng;

// Standard normal CDF Phi(x) = erfc(-x / sqrt 2) / 2 (accurate in both tails), and log Phi(x)
// (an asymptotic series below x = -30, where Phi underflows towards 1e-198).
double normal_cdf(double x);
double log_normal_cdf(double x);

// delta(epsilon; mu) above, computed as Phi(a) (1 - e^(epsilon + log Phi(a - mu) - log Phi(a))) with
// a = -epsilon/mu + mu/2, which stays finite for epsilon up to 1e300 (e^epsilon alone overflows at 710).
// epsilon >= 0 finite, mu > 0 finite (dpf::Error otherwise).
double gdp_delta(double epsilon, double mu);
// The smallest epsilon >= 0 with delta(epsilon; mu) <= delta (bisection; the returned end satisfies it).
// mu >= 0 finite (mu = 0 gives 0), delta in (0, 1).
double gdp_epsilon(double mu, double delta);
// The largest mu with delta(epsilon; mu) <= delta: the mu* of dp-ebm.md §4.1 (the library bisects on
// [1e-5, 1000] to |f| stagnation; this bisects to a relative 1e-13 and keeps the feasible end).
// epsilon > 0 finite, delta in (0, 1).
double gdp_mu(double epsilon, double delta);
// mu-GDP composition of k equal parts: each part gets mu / sqrt(k) (DRS Cor. 3.3). k >= 1.
double gdp_split(double mu, uint64_t k);

// ---- A lattice Gaussian mechanism accounted in GDP --------------------------------------------
// value + noise on the lattice r Z, r = gaussian_resolution(Delta / mu) (mechanisms.hpp), charged as
// mu-GDP for a query of l2 sensitivity Delta. Rounding the value to the lattice moves neighbouring
// values apart by at most Delta / r + 1 lattice steps, so the lattice noise N_Z(0, s) has
// s = ((Delta / r + 1) / mu)^2 (1 + kGdpLatticeMargin): the same construction as gaussian_mechanism
// (CKS20 §2), with the standard deviation set by the GDP target instead of rho. No floating-point
// value that depends on the data decides a branch or the low-order bits of the output (Mironov 2012).
//
// The discrete Gaussian is not exactly mu-GDP at mu = Delta'/sqrt(s): its tail on the integers is a
// midpoint sum of the continuous density, and the Gaussian-quantile step between neighbouring
// thresholds exceeds Delta'/sqrt(s) by a relative 1/(24 s) to first order (checked by exact
// summation in tests/privacy/test_gdp.cpp for s in [1, 256]; the excess shrinks as 1/s). Here
// s > 2^46, so the excess is below 1e-15; kGdpLatticeMargin = 2^-20 inflates sigma far past it.
inline constexpr double kGdpLatticeMargin = 0x1p-20;
// The standard deviation of the released noise (r times the lattice one) for (Delta, mu).
double gdp_lattice_sigma(double l2_sensitivity, double mu);
// Delta > 0 finite, mu > 0 finite with Delta / mu in [2^-900, 2^900], value finite. The caller charges
// PrivacyLedger::charge_gdp(scope, name, mu, l2_sensitivity).
double gdp_gaussian_mechanism(Rng& rng, double value, double l2_sensitivity, double mu);

}  // namespace dpf
