#include "algorithms/lumberjack/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/privacy/ledger.hpp"
#include "core/util/error.hpp"

namespace dpf::lumberjack {

double zcdp_delta(double rho, double epsilon) {
  require(rho > 0.0 && std::isfinite(rho), "lumberjack: zcdp_delta needs rho > 0, got ", rho);
  const double t = (epsilon - rho) / (2.0 * rho);
  return 2.0 * std::exp(-t * t * rho) /
         (1.0 + t + std::sqrt((1.0 + t) * (1.0 + t) + 4.0 / (std::numbers::pi * rho)));
}

double leaf_rho_total(double epsilon_l, double delta_l) {
  require(epsilon_l > 0.0 && std::isfinite(epsilon_l), "lumberjack: the leaf epsilon must be > 0, got ", epsilon_l);
  require(delta_l > 0.0 && delta_l < 1.0, "lumberjack: the leaf delta must be in (0, 1), got ", delta_l);
  // dp_sparse_forest.py: "Impossible" unless delta(eps, eps) >= delta_l.
  require(zcdp_delta(epsilon_l, epsilon_l) >= delta_l, "lumberjack: no rho in (0, ", epsilon_l,
          "] reaches delta ", delta_l, " at epsilon ", epsilon_l, " (lumberjack.md §3.1)");
  double lo = 0.0, hi = epsilon_l;  // invariant: delta(lo) <= delta_l < delta(hi) (delta increases in rho)
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (zcdp_delta(mid, epsilon_l) > delta_l) hi = mid; else lo = mid;
  }
  return lo;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

double normal_upper_quantile(double q) {
  require(q > 0.0 && q <= 0.5, "lumberjack: normal_upper_quantile needs q in (0, 1/2], got ", q);
  double lo = 0.0, hi = 40.0;  // 1 - Phi(hi) <= q (the returned end: never a smaller threshold)
  for (int it = 0; it < 300 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (normal_cdf(-mid) > q) lo = mid; else hi = mid;
  }
  return hi;
}

double analytic_gaussian_delta(double epsilon, double mu) {
  if (!(mu > 0.0)) return 0.0;  // §3.2: AG(., 0) = 0 (no remaining counts)
  return normal_cdf(mu / 2.0 - epsilon / mu) - std::exp(epsilon) * normal_cdf(-mu / 2.0 - epsilon / mu);
}

double analytic_gaussian_mu(double epsilon, double delta) {
  require(epsilon > 0.0 && std::isfinite(epsilon) && delta > 0.0 && delta < 1.0,
          "lumberjack: analytic_gaussian_mu needs epsilon > 0 and delta in (0, 1)");
  // AG(eps, .) increases from 0 to 1: bracket the root, then Newton steps that fall back to bisection
  // whenever they leave the bracket (the code's plain Newton from sqrt(eps) converges to the same root).
  double lo = 0.0, hi = std::max(1.0, std::sqrt(epsilon));
  while (analytic_gaussian_delta(epsilon, hi) < delta) hi *= 2.0;
  double mu = std::clamp(std::sqrt(epsilon), 0.5 * hi, hi);
  auto phi = [](double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi); };
  for (int it = 0; it < 200; ++it) {
    const double f = analytic_gaussian_delta(epsilon, mu) - delta;
    if (f > 0) hi = mu; else lo = mu;
    const double e = epsilon;
    const double d = phi(mu / 2 - e / mu) * (0.5 + e / (mu * mu)) -
                     std::exp(e) * phi(-mu / 2 - e / mu) * (-0.5 + e / (mu * mu));
    double next = d > 0 ? mu - f / d : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - mu) <= 1e-15 * mu) break;
    mu = next;
  }
  return mu;
}

double gshm_delta(double epsilon, double sigma, double tau, int k) {
  // §3.2 step 5. p = Phi(tau / sigma) sits within ~1e-9 of 1: work with log p = log1p(-Q).
  const double log_p = std::log1p(-normal_cdf(-tau / sigma));
  const double case1 = -std::expm1(k * log_p);
  double case2 = 0.0, case3 = 0.0;
  for (int i = 1; i <= k; ++i) {
    const double mu = std::sqrt(static_cast<double>(k - i)) / sigma;
    const double pi = std::exp(i * log_p);
    case2 = std::max(case2, -std::expm1(i * log_p) + pi * analytic_gaussian_delta(epsilon - i * log_p, mu));
    case3 = std::max(case3, analytic_gaussian_delta(epsilon + i * log_p, mu));
  }
  return std::max(case1, std::max(case2, case3));
}

GshmCalibration calibrate_gshm(double epsilon_s, double delta_s, int k, bool argmin_quirk) {
  require(k >= 1, "lumberjack: k must be >= 1, got ", k);
  GshmCalibration c;
  c.mu = analytic_gaussian_mu(epsilon_s, delta_s);
  const double sigma_min = std::sqrt(static_cast<double>(k)) / c.mu;  // l2 sensitivity sqrt(k) (§3.2 step 2)
  // (1 - delta_s)^(1/k) = 1 - q: tau / sigma is the upper q-quantile of N(0, 1) (§3.2 step 4).
  const double q = -std::expm1(std::log1p(-delta_s) / k);
  const double z = normal_upper_quantile(q);
  constexpr int kCandidates = 20;   // threshold_calculator.py: datapoints = 20
  constexpr double kMaxFactor = 2;  // max_sigma_factor = 2
  for (int j = 0; j < kCandidates; ++j) {
    GshmCandidate g;
    g.sigma = sigma_min + (kMaxFactor * sigma_min - sigma_min) * j / (kCandidates - 1);  // numpy linspace
    g.tau = g.sigma * z;
    g.delta_exact = gshm_delta(epsilon_s, g.sigma, g.tau, k);
    g.valid = g.delta_exact <= delta_s * (1.0 + 1e-9);
    c.candidates.push_back(g);
  }
  if (argmin_quirk) {
    // The code stores invalid pairs as tau = -1 and returns argmin (first minimum) of the list.
    std::size_t best = 0;
    for (std::size_t j = 0; j < c.candidates.size(); ++j) {
      const double tj = c.candidates[j].valid ? c.candidates[j].tau : -1.0;
      const double tb = c.candidates[best].valid ? c.candidates[best].tau : -1.0;
      if (tj < tb) best = j;
    }
    c.sigma = c.candidates[best].sigma;
    c.valid = c.candidates[best].valid;
    c.tau = c.valid ? c.candidates[best].tau : -1.0;
    return c;
  }
  for (const GshmCandidate& g : c.candidates) {
    if (!g.valid) continue;
    if (!c.valid || g.tau < c.tau) {
      c.sigma = g.sigma;
      c.tau = g.tau;
      c.valid = true;
    }
  }
  require(c.valid, "lumberjack: no (sigma, tau) candidate passes the exact GSHM check at (epsilon_s, delta_s) = (",
          epsilon_s, ", ", delta_s, "), k = ", k, " (lumberjack.md §3.2)");
  return c;
}

int pruning_queries_per_record(int n_trees, int max_depth) {
  return n_trees * (1 + static_cast<int>(std::floor(std::log2(static_cast<double>(max_depth) + 1.0))));
}

int queried_layers(int max_depth) {
  // Build(hgt): hgt == 1 queries one layer; otherwise one layer at m = floor(hgt / 2) and, below a
  // heavy node, Build(hgt - m - 1) on its children (§4.3), unless hgt <= 2.
  int layers = 0;
  for (int hgt = max_depth; hgt >= 1;) {
    ++layers;
    if (hgt <= 2) break;
    hgt = hgt - hgt / 2 - 1;
  }
  return layers;
}

Budget plan_budget(double epsilon, double delta, double splitting_fraction, int n_trees, int max_depth,
                   bool argmin_quirk) {
  require(epsilon > 0.0 && std::isfinite(epsilon), "lumberjack: epsilon must be > 0 and finite, got ", epsilon);
  require(delta > 0.0 && delta < 1.0, "lumberjack: delta must be in (0, 1), got ", delta);
  require(splitting_fraction > 0.0 && splitting_fraction < 1.0,
          "lumberjack: splitting_fraction must lie strictly in (0, 1), got ", splitting_fraction);
  require(n_trees >= 1 && max_depth >= 1, "lumberjack: n_trees and max_depth must be >= 1");
  Budget b;
  // §3 items 1-2 (dp_sparse_forest.py lines 304-338).
  b.epsilon_split = splitting_fraction * epsilon;
  b.delta_split = splitting_fraction * delta;
  b.epsilon_leaf = epsilon - b.epsilon_split;
  b.delta_leaf = delta - b.delta_split;
  b.k = pruning_queries_per_record(n_trees, max_depth);
  b.gshm = calibrate_gshm(b.epsilon_split, b.delta_split, b.k, argmin_quirk);
  // §3.1's conversion; never above the harness's own conversion (ledger.hpp rho_for_target, CKS20),
  // so that the ledger certifies (eps_l, delta_l) for the leaves. In every setting we tried the §3.1
  // value is the smaller one (e.g. 0.02874 vs 0.0310 at (1.2, 3e-7)), so the minimum is the spec's rho.
  b.rho_total = std::min(leaf_rho_total(b.epsilon_leaf, b.delta_leaf), rho_for_target(b.epsilon_leaf, b.delta_leaf));
  b.rho_tree = b.rho_total / n_trees;  // zCDP composition over trees that all see every row (§3 item 2)
  b.sigma_leaf = 1.0 / std::sqrt(2.0 * b.rho_tree);
  return b;
}

}  // namespace dpf::lumberjack
