// The exact (epsilon, delta) privacy profile of the discrete Gaussian mechanism on integer vectors
// whose m coordinates each move by 1 (Canonne, Kamath & Steinke, "The Discrete Gaussian for
// Differential Privacy", NeurIPS 2020, arXiv:2004.00010; "CKS20").
//
// Let Y_1..Y_m be independent N_Z(0, sigma2) (the law of sample_discrete_gaussian, mechanisms.hpp)
// and compare x + Y with x + 1 + Y coordinatewise. The privacy loss of an output y is
// sum_j (2 y_j - 1) / (2 sigma2) = (2 S - m) / (2 sigma2) with S = y_1 + ... + y_m: it depends on
// the output only through S. So, exactly as in CKS20 Thm 7 (the case m = 1, Delta = 1),
//   delta_m(eps) = P[S > eps sigma2 - m/2] - e^eps P[S > eps sigma2 + m/2],   S = Y_1 + ... + Y_m,
// for either direction (the reflection y -> 2x + 1 - y swaps the two laws). This is the hockey-stick
// divergence, attained by the event {S > eps sigma2 + m/2 - m}: no smaller delta holds.
//
// The law of S is not a discrete Gaussian, but is close to one: by Poisson summation its pmf is
//   Q_m(s) = C e^{-s^2 / (2 m sigma2)} (1 + eta_s),  |eta_s| <= eta = Σ_{u in A*_{m-1}, u != 0} e^{-2 pi^2 sigma2 |u|^2},
// where A*_{m-1} is the dual root lattice (the projection of Z^m onto the sum-zero hyperplane).
// Each class of A* has a representative n in Z^m with |sum n| <= m/2, for which |u|^2 >= |n|^2 / 2,
// so eta <= theta(pi^2 sigma2)^m - 1 with theta(b) = Σ_{y in Z} e^{-b y^2}. Hence for every set A,
// P[S in A] lies within the factor (1 + eta) / (1 - eta) of P[N_Z(0, m sigma2) in A]. Two ways to
// evaluate a tail, chosen per m:
//  * "lattice": N_Z(0, m sigma2) tails (direct summation, or Euler-Maclaurin with its remainder bound
//    for variances above 1e4), widened by that factor; used when eta <= 1e-10 (sigma >= ~1.8), or
//    when the convolution below would be too large (then still a rigorous, looser bracket);
//  * "convolution": the m-fold convolution of the pmf truncated to |y| <= B, B ~ 13.6 sigma (the
//    dropped mass, <= 1e-40 per coordinate, widens the bracket).
// Every value is returned as a bracket [lo, hi] that contains the exact value (floating-point sums
// widened by a relative 1e-12).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dpf {

struct ProbBracket {
  double lo = 0.0, hi = 0.0;  // lo <= exact value <= hi
};

class DiscreteGaussianProfile {
 public:
  // sigma2: the variance parameter of N_Z(0, sigma2), finite and in [2^-30, 2^52] (the sampler's range).
  explicit DiscreteGaussianProfile(double sigma2);
  double sigma2() const { return sigma2_; }
  // P[S_m >= n], S_m the sum of m >= 1 independent N_Z(0, sigma2).
  ProbBracket tail(int64_t n, int m);
  // delta_m(eps) above, for m >= 0 shifted coordinates (m = 0: 0) and any finite eps.
  ProbBracket delta(double epsilon, int m);
  // "lattice" or "convolution": how tail(., m) is evaluated.
  std::string method(int m);
  // The bound theta(pi^2 sigma2)^m - 1 on the Poisson error eta (0 for m = 1).
  double eta(int m) const;

 private:
  bool use_lattice(int m);
  const std::vector<double>& suffix_sums(int m);  // convolution path: suffix sums of the truncated pmf of S_m
  double sigma2_;
  int64_t bound_ = 0;          // B: the truncation of one coordinate (convolution path)
  double dropped_ = 0.0;       // mass of one coordinate outside [-B, B]
  std::vector<double> pmf1_;   // N_Z(0, sigma2) on [-B, B]
  std::map<int, std::vector<double>> suffix_;  // m -> suffix sums over s in [-m B, m B]
  std::vector<std::vector<double>> pmf_;       // pmf_[m - 1]: truncated pmf of S_m (built incrementally)
};

// P[N_Z(0, v) >= n] as a bracket (v = variance parameter, finite and > 0): direct summation for
// v <= 1e4, Euler-Maclaurin (to the B_6 term) with its remainder bound above.
ProbBracket discrete_gaussian_tail(int64_t n, double v);

}  // namespace dpf
