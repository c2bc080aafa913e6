// Rényi differential privacy (RDP, Mironov 2017) of the Poisson-subsampled Gaussian mechanism, its
// composition and its conversion to (epsilon, delta)-DP: the accountant of S-BDT (s-bdt.md §4) and of
// any other algorithm that releases Gaussian-noised sums of a Poisson subsample.
//
// Orders. Everything here works at the integer orders alpha = 2 .. kRdpMaxOrder (s-bdt.md §4.2: the
// authors' MAX_ALPHA = 2000), where the subsampled-Gaussian RDP has the exact finite-sum form below.
// An RdpCurve is a mechanism's RDP bound at each of those orders; at a real order alpha > 1 it is read
// as the smallest value at an integer order >= alpha, valid because D_alpha is non-decreasing in alpha
// (van Erven & Harremoës 2014, Thm 3).
//
// Neighbouring relation: add/remove one record (what Poisson subsampling amplification needs).
#pragma once
#include <functional>
#include <memory>
#include <vector>

namespace dpf {

inline constexpr int kRdpMinOrder = 2;
inline constexpr int kRdpMaxOrder = 2000;

// RDP at integer order alpha >= 2 of the Poisson-subsampled Gaussian mechanism (SGM): each record is
// kept independently with probability q in [0, 1], and Gaussian noise is added to a (vector) sum query.
// `mu` = sum over the coordinates of Delta_c^2 / (2 s_c^2) >= 0, where Delta_c bounds one record's
// contribution to coordinate c and s_c is that coordinate's noise standard deviation; without
// subsampling the mechanism is (alpha, alpha mu)-RDP (Mironov 2017, Prop. 7). With subsampling
// (Mironov, Talwar & Zhang 2019, "Rényi Differential Privacy of the Sampled Gaussian Mechanism",
// §3.3: noise multiplier z = 1 / sqrt(2 mu)):
//   rho(alpha) = log(A_alpha) / (alpha - 1),
//   A_alpha    = sum_{j=0}^{alpha} C(alpha, j) (1 - q)^(alpha - j) q^j exp(j (j - 1) mu),
// the exact Rényi divergence of the "remove" direction, which dominates the "add" one (MTZ19 §3.3).
// A_alpha is computed as 1 + sum_{j>=2} C(alpha, j) (1-q)^(alpha-j) q^j expm1(j (j-1) mu) (the
// binomial weights sum to 1), a sum of non-negative terms in log space: no cancellation for small q.
// q = 1 gives alpha mu exactly; q = 0 or mu = 0 gives 0. Returns +inf when the value overflows.
double sgm_rdp(double q, double mu, int alpha);

class RdpCurve {
 public:
  // values[alpha - kRdpMinOrder] is the RDP bound at integer order alpha, for alpha = 2 .. kRdpMaxOrder
  // (exactly kRdpMaxOrder - 1 values, each >= 0 or +inf; dpf::Error otherwise). A non-monotone input is
  // tightened to its suffix minimum (a bound at order k also bounds every order below k).
  explicit RdpCurve(std::vector<double> values);
  // sgm_rdp(q, mu, alpha) at every order (one O(kRdpMaxOrder^2) pass, a few milliseconds).
  static RdpCurve subsampled_gaussian(double q, double mu);
  // A mechanism known to be (alpha, rho)-RDP at one order only (+inf elsewhere above it; the value at
  // lower orders is rho by monotonicity): e.g. the individual Rényi filter's budget (s-bdt.md §3.6).
  static RdpCurve single_order(int alpha, double rho);
  // A summand of a composed bound, not a mechanism's own curve: the values are kept as given (no
  // suffix-minimum tightening), because only their sum with the other charges at each integer order is
  // a Rényi bound, and the monotonicity that justifies the tightening holds for that sum alone. Read at
  // a real order as at(ceil(alpha)) like every curve: the sum at ceil(alpha) bounds the composed
  // mechanism at ceil(alpha), hence at alpha. E.g. the random-stopping overhead below.
  static RdpCurve summand(std::vector<double> values);

  // The bound at integer order alpha (>= 2; +inf above kRdpMaxOrder; the order-2 bound below 2).
  double at(int alpha) const;
  // The bound at a real order alpha > 1: at(ceil(alpha)).
  double at_real(double alpha) const;

 private:
  std::vector<double> v_;
};

// ---- Private selection by random stopping -----------------------------------------------------
// Papernot & Steinke, "Hyperparameter tuning with Renyi differential privacy" (ICLR 2022, arXiv
// 2110.03620v2), Thm 2 with eta = 1. The selection A runs a candidate mechanism Q a random number K of
// times, K ~ Geometric(gamma) on {1, 2, ...} (their Definition 1, the truncated negative binomial
// D_{eta, gamma} at eta = 1: P[K = k] = gamma (1 - gamma)^(k - 1), E[K] = 1 / gamma), drawn independently
// of the data, and outputs the run with the best score. If Q is (lambda, eps)-RDP and (lambda_hat,
// eps_hat)-RDP (lambda > 1, lambda_hat >= 1, gamma in (0, 1)), A is (lambda, eps')-RDP with
//   eps' = eps + (1 + eta) (1 - 1/lambda_hat) eps_hat + (1 + eta) log(1/gamma) / lambda_hat
//              + log(E[K]) / (lambda - 1)
//        = eps + c + log(1/gamma) / (lambda - 1),
//   c    = 2 (1 - 1/lambda_hat) eps_hat + 2 log(1/gamma) / lambda_hat   (eta = 1, E[K] = 1/gamma).
// lambda_hat is free, so c is minimised over the integer orders 2 .. kRdpMaxOrder of the candidate's
// curve (a subset of [1, inf): a valid, possibly looser, choice). With gamma = 1, K = 1 and A is Q:
// the overhead is 0.
struct RandomStoppingOverhead {
  double constant = 0.0;            // c above (0 when gamma = 1)
  int lambda_hat = kRdpMinOrder;    // the minimising order
  std::shared_ptr<const RdpCurve> curve;  // summand: c + log(1/gamma) / (lambda - 1) at each order lambda
};
// candidate: Q's curve (finite at some order); gamma in (0, 1].
RandomStoppingOverhead random_stopping_overhead(const RdpCurve& candidate, double gamma);

// Conversions of an (alpha, rho)-RDP guarantee to (epsilon, delta)-DP, delta in (0, 1), alpha > 1:
//  * Canonne, Kamath & Steinke 2020 Prop. 12 (= Balle et al. 2020 Thm 21, Asoodeh et al. 2021): the
//    one S-BDT uses (rdp_accountant.cpp L181) and the tighter of the two, always:
//      epsilon = rho + log((alpha - 1) / alpha) - (log delta + log alpha) / (alpha - 1);
//  * Mironov 2017 Prop. 3: epsilon = rho + log(1 / delta) / (alpha - 1) (for comparison and tests).
// Results below 0 are reported as 0.
double rdp_epsilon_cks(double rho, double alpha, double delta);
double rdp_epsilon_mironov(double rho, double alpha, double delta);

struct RdpEpsilon {
  double epsilon = 0.0;
  int alpha = kRdpMinOrder;  // the minimising order
};
// min over alpha = 2 .. kRdpMaxOrder of rdp_epsilon_cks(rho_at(alpha), alpha, delta) (a full scan;
// ties go to the smaller order).
RdpEpsilon rdp_best_epsilon(const std::function<double(int)>& rho_at, double delta);

// Noise calibration of S-BDT's leaf releases (s-bdt.md §4.2): `rounds` compositions of the SGM with
// sampling rate q and mu = c / sigma^2. Returns the smallest sigma (bisection to a relative 1e-10)
// whose composed curve converts, by rdp_best_epsilon, to at most target_epsilon at delta; the
// order, epsilon and total rho = rounds * rho(alpha) at that order are those of the full scan, and
// `per_round` is the one-round curve at sigma. The authors bisect 20 times on [1e-9, 1000 sigma_0]
// and keep the smallest sigma they saw below the target, so their sigma is at most ~0.1% larger.
// q in (0, 1], c > 0, rounds >= 1, target_epsilon > 0 finite, delta in (0, 1).
struct SgmCalibration {
  double sigma = 0.0;
  int alpha = kRdpMinOrder;
  double epsilon = 0.0;
  double rho = 0.0;  // rounds * rho_round(alpha)
  RdpCurve per_round{std::vector<double>(kRdpMaxOrder - kRdpMinOrder + 1, 0.0)};
};
SgmCalibration calibrate_subsampled_gaussian(double q, double c, int rounds, double target_epsilon, double delta);

}  // namespace dpf
