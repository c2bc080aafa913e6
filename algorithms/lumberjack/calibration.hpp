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

// §3.2 step 5: the exact GSHM delta of Wilkins et al. for k counts per record, noise sigma, threshold
// tau at privacy level epsilon: max(case1, case2, case3) with p = Phi(tau / sigma).
double gshm_delta(double epsilon, double sigma, double tau, int k);

struct GshmCandidate {
  double sigma = 0.0;
  double tau = 0.0;
  double delta_exact = 0.0;
  bool valid = false;
};

struct GshmCalibration {
  double mu = 0.0;         // analytic-Gaussian mu for (eps_s, delta_s)
  double sigma = 0.0;      // chosen noise standard deviation of every pruning count
  double tau = 0.0;        // chosen threshold (the code's `split_threshold`)
  bool valid = false;      // the chosen pair passed the exact GSHM check
  std::vector<GshmCandidate> candidates;
};

// §3.2 compute_parameters_min_threshold(eps_s, delta_s, k), max_sigma_factor 2, 20 candidates:
// sigma_j = linspace(sqrt(k)/mu, 2 sqrt(k)/mu, 20), tau_j = sigma_j Phi^-1((1 - delta_s)^(1/k)), each
// validated by gshm_delta(...) <= delta_s (relative slack 1e-9; the code allows an absolute 1e-10).
// Returns the smallest VALID tau. argmin_quirk reproduces the code's bug (§3.2 "Code bug to avoid"):
// invalid candidates are stored as tau = -1 and the argmin of the list is returned, so any invalid
// candidate gives tau = -1 (every queried node heavy). Throws dpf::Error if no candidate is valid
// and the quirk is off.
GshmCalibration calibrate_gshm(double epsilon_s, double delta_s, int k, bool argmin_quirk = false);

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
