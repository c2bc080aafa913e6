// Lumberjack's budget split and noise calibration (lumberjack.md §3; Lebeda, Erb, Cebere & Bellet,
// arXiv 2605.22756; authors' code daviderb/Lumberjack b613fe7, dp_sparse_forest.py lines 11-75 and
// 304-338, utils/threshold_calculator.py). Pure functions of public inputs (epsilon, delta, f, T, h):
// nothing here reads data.
#pragma once
#include <vector>

namespace dpf::lumberjack {

// §3.1 (dp_sparse_forest.py lines 11-26, the authors' translation of `rhoEpsilonToDelta`): with
// t = (eps - rho) / (2 rho), delta(rho, eps) = 2 exp(-t^2 rho) / (1 + t + sqrt((1 + t)^2 + 4 / (pi rho))).
// Valid only for eps >= rho (code comment, line 41). rho > 0.
double zcdp_delta(double rho, double epsilon);

// §3.1 get_zcdp_rho_from_epsilon_delta (lines 28-75): bisection for rho in [0, eps] on zcdp_delta, but
// returning the feasible LOWER end (delta(lo) <= delta_l) instead of the midpoint the code returns
// (spec: "return the lower end for safety"). Throws dpf::Error if delta(eps, eps) < delta_l
// ("Impossible" in the code). eps > 0 finite, delta in (0, 1).
double leaf_rho_total(double epsilon_l, double delta_l);

// The analytic Gaussian privacy profile (Balle & Wang 2018, Thm 8; threshold_calculator.py):
// AG(e, mu) = Phi(mu/2 - e/mu) - e^e Phi(-mu/2 - e/mu); AG(e, 0) = 0.
double analytic_gaussian_delta(double epsilon, double mu);
// mu with AG(eps, mu) = delta (§3.2 step 1: the code runs 100 Newton steps from sqrt(eps); here Newton
// safeguarded by a bracket, converged to the same root).
double analytic_gaussian_mu(double epsilon, double delta);
// Standard normal cdf and the upper-tail quantile z with 1 - Phi(z) = q (bisection, q in (0, 1/2]).
double normal_cdf(double x);
double normal_upper_quantile(double q);

// §3.2 step 5: the GSHM delta of Wilkins et al. for k counts per record, noise sigma, threshold tau
// at privacy level epsilon, as the code computes it: max(case1, case2, case3) with p = Phi(tau / sigma)
// and the continuous Gaussian's profile AG in cases 2-3 (i = 1..k).
double gshm_delta(double epsilon, double sigma, double tau, int k);

// The integer heavy threshold of the default (repaired) tree: a queried node is heavy iff
// n + Z >= ceil(tau) + 2, Z ~ N_Z(0, sigma^2) (tree.cpp). An appearing count (0 -> 1) passes iff
// Z >= ceil(tau) + 1.
double integer_threshold(double tau);

// The same GSHM analysis, exact for the noise the tree draws: Z ~ N_Z(0, sigma2) (sigma2 as the
// sampler uses it) and the integer threshold T (heavy iff n + Z >= T). A record touches k counts:
// i of them appear (0 -> 1; released iff Z >= T - 1, probability 1 - p) and k - i move by 1 (a
// discrete Gaussian mechanism on k - i coordinates, whose exact profile delta_{k-i} is
// DiscreteGaussianProfile::delta, CKS20 Thm 7 on the sum). By the hockey-stick argument of Wilkins
// et al., for i = 0..k (i = 0: every count already non-empty; i = k: case 1)
//   D' over D: 1 - p^i + p^i delta_{k-i}(eps - i ln p),    D over D': delta_{k-i}(eps + i ln p),
// and the mechanism's delta is the largest of these. Returned: an upper bound on that maximum (the
// profiles' upper brackets), found by branch and bound over blocks of i (delta_m grows with m, a
// projection being post-processing, and falls with eps), and the i that attains it.
struct GshmExact {
  double delta = 0.0;
  int worst_i = 0;
  double appear = 0.0;  // 1 - p: probability that an appearing count passes
};
GshmExact gshm_delta_discrete(double epsilon, double sigma2, double threshold, int k);

struct GshmCandidate {
  double sigma = 0.0;
  double tau = 0.0;
  double delta_continuous = 0.0;  // gshm_delta: the code's check (continuous Gaussian)
  bool valid_continuous = false;  // delta_continuous <= delta_s (relative slack 1e-9, as before)
  double delta_exact = 0.0;       // gshm_delta_discrete at sigma2_used and integer_threshold(tau)
  bool valid = false;             // delta_exact <= delta_s: the guarantee of the noise we draw
};

struct GshmCalibration {
  double mu = 0.0;         // analytic-Gaussian mu for (eps_s, delta_s)
  double sigma = 0.0;      // chosen noise standard deviation of every pruning count
  double tau = 0.0;        // chosen threshold (the code's `split_threshold`)
  bool valid = false;      // the chosen pair holds delta_s under the exact discrete analysis
  double delta_exact = 0.0;       // its exact delta (discrete noise, integer threshold)
  double delta_continuous = 0.0;  // its delta under the code's continuous analysis
  bool refined = false;    // sigma was found by bisection between two grid candidates (see below)
  std::vector<GshmCandidate> candidates;
};

// The sampler's variance for a standard deviation sigma (discrete_gaussian_sigma2_used(sigma^2)):
// the profile is evaluated at the variance the noise actually has.
double pruning_sigma2(double sigma);

// §3.2 compute_parameters_min_threshold(eps_s, delta_s, k), max_sigma_factor 2, 20 candidates:
// sigma_j = linspace(sqrt(k)/mu, 2 sqrt(k)/mu, 20), tau_j = sigma_j Phi^-1((1 - delta_s)^(1/k)).
// The code validates each pair with the continuous analysis (gshm_delta); our tree draws discrete
// noise against an integer threshold, so a pair is valid here iff gshm_delta_discrete <= delta_s.
// Returns the smallest valid tau, as the code: the first valid candidate (tau grows with sigma). When
// that is not the first candidate, the smallest valid sigma between it and the last invalid one is
// found by bisection (the grid steps by 5 %, while the discrete and continuous profiles differ by
// 1e-8 to 1e-3 relative at the configured settings). Throws dpf::Error naming epsilon_s, delta_s,
// k, the sigmas tried and the delta they would spend if no candidate up to max_sigma_factor sqrt(k)/mu is
// valid (never the case at the default factor 2 in a scan of eps_s in [0.1, 200], delta_s in [1e-9, 0.5], k <= 20).
// argmin_quirk reproduces the code's bug (§3.2 "Code bug to avoid") with the code's own check:
// invalid candidates are stored as tau = -1 and the argmin of the list is returned; `valid` then
// says whether the chosen pair holds delta_s exactly.
// max_sigma_factor is the code's keyword of the same name (the grid's upper end, in units of sigma_min).
GshmCalibration calibrate_gshm(double epsilon_s, double delta_s, int k, bool argmin_quirk = false,
                               double max_sigma_factor = 2.0);

// k = T (1 + floor(log2(h + 1))) (dp_sparse_forest.py line 328): the most pruning counts one record
// touches across the forest (one per queried layer per tree, §4.3).
int pruning_queries_per_record(int n_trees, int max_depth);
// The number of layers the recursive builder of §4.3 queries on one root-to-leaf path of a tree of
// height h (exact count of the recursion; the bound above is 1 + floor(log2(h + 1))).
int queried_layers(int max_depth);

// The whole budget of §3: (eps_s, delta_s) = f (eps, delta) for the pruning of the whole forest,
// (eps_l, delta_l) = the rest converted to rho_total, rho_tree = rho_total / T.
struct Budget {
  double epsilon_split = 0.0, delta_split = 0.0;
  double epsilon_leaf = 0.0, delta_leaf = 0.0;
  double rho_total = 0.0, rho_tree = 0.0;
  double sigma_leaf = 0.0;  // 1 / sqrt(2 rho_tree): l2 sensitivity 1 of a tree's leaf counts (§3.3)
  int k = 0;
  GshmCalibration gshm;
};
Budget plan_budget(double epsilon, double delta, double splitting_fraction, int n_trees, int max_depth,
                   bool argmin_quirk = false);

}  // namespace dpf::lumberjack
