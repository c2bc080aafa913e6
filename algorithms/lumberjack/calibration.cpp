#include "algorithms/lumberjack/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/privacy/discrete_gaussian_profile.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/mechanisms.hpp"
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

double integer_threshold(double tau) { return std::ceil(tau) + 2.0; }

double pruning_sigma2(double sigma) { return discrete_gaussian_sigma2_used(sigma * sigma); }

GshmExact gshm_delta_discrete(double epsilon, double sigma2, double threshold, int k) {
  require(k >= 1, "lumberjack: k must be >= 1, got ", k);
  require(std::isfinite(threshold) && std::abs(threshold) < 4e18, "lumberjack: the heavy threshold must be finite");
  DiscreteGaussianProfile prof(sigma2);
  GshmExact out;
  // An appearing count passes iff 1 + Z >= T, i.e. Z >= T - 1: 1 - p lies in the bracket `app`, so
  // ln p lies in [lp_lo, lp_hi] (both <= 0).
  const ProbBracket app = prof.tail(static_cast<int64_t>(threshold) - 1, 1);
  out.appear = app.hi;
  const double lp_lo = std::log1p(-app.hi), lp_hi = std::log1p(-app.lo);
  auto dhi = [&](double e, int m) { return prof.delta(e, m).hi; };
  // Upper bound of both cases over i in [i1, i2] and p in its bracket (exact up to the brackets when
  // i1 == i2): p^i >= p_lo^i2 and delta_{k-i}(eps - i ln p) <= delta_{k-i1}(eps - i1 ln p_hi) for case 2;
  // delta_{k-i}(eps + i ln p) <= delta_{k-i1}(eps + i2 ln p_lo) for case 3.
  auto bound = [&](int i1, int i2) {
    const double c2 = -std::expm1(i2 * lp_lo) + std::exp(i2 * lp_lo) * dhi(epsilon - i1 * lp_hi, k - i1);
    const double c3 = dhi(epsilon + i2 * lp_lo, k - i1);
    return std::max(c2, c3);
  };
  // Seed with the two ends (all counts move; all appear): one of them is the maximum in every
  // setting we tried, and a good first value lets the bounds prune nearly every block.
  out.delta = bound(0, 0);
  if (const double u = bound(k, k); u > out.delta) {
    out.delta = u;
    out.worst_i = k;
  }
  std::vector<std::pair<int, int>> stack;
  if (k >= 2) stack.emplace_back(1, k - 1);
  while (!stack.empty()) {
    const auto [i1, i2] = stack.back();
    stack.pop_back();
    const double u = bound(i1, i2);
    if (i1 == i2) {
      if (u > out.delta) {
        out.delta = u;
        out.worst_i = i1;
      }
      continue;
    }
    if (u <= out.delta) continue;  // no i in the block can beat the best exact value found
    const int mid = i1 + (i2 - i1) / 2;
    stack.emplace_back(mid + 1, i2);
    stack.emplace_back(i1, mid);
  }
  return out;
}

GshmCalibration calibrate_gshm(double epsilon_s, double delta_s, int k, bool argmin_quirk, double max_sigma_factor) {
  require(k >= 1, "lumberjack: k must be >= 1, got ", k);
  require(max_sigma_factor >= 1.0, "lumberjack: max_sigma_factor must be >= 1, got ", max_sigma_factor);
  GshmCalibration c;
  c.mu = analytic_gaussian_mu(epsilon_s, delta_s);
  const double sigma_min = std::sqrt(static_cast<double>(k)) / c.mu;  // l2 sensitivity sqrt(k) (§3.2 step 2)
  // (1 - delta_s)^(1/k) = 1 - q: tau / sigma is the upper q-quantile of N(0, 1) (§3.2 step 4).
  const double q = -std::expm1(std::log1p(-delta_s) / k);
  const double z = normal_upper_quantile(q);
  auto candidate = [&](double sigma) {
    GshmCandidate g;
    g.sigma = sigma;
    g.tau = sigma * z;
    g.delta_continuous = gshm_delta(epsilon_s, g.sigma, g.tau, k);
    g.valid_continuous = g.delta_continuous <= delta_s * (1.0 + 1e-9);
    g.delta_exact = gshm_delta_discrete(epsilon_s, pruning_sigma2(sigma), integer_threshold(g.tau), k).delta;
    g.valid = g.delta_exact <= delta_s;
    return g;
  };
  auto choose = [&](const GshmCandidate& g, bool refined) {
    c.sigma = g.sigma;
    c.tau = g.tau;
    c.valid = g.valid;
    c.delta_exact = g.delta_exact;
    c.delta_continuous = g.delta_continuous;
    c.refined = refined;
  };
  constexpr int kCandidates = 20;  // threshold_calculator.py: datapoints = 20 (max_sigma_factor = 2 by default)
  for (int j = 0; j < kCandidates; ++j)
    c.candidates.push_back(candidate(sigma_min + (max_sigma_factor * sigma_min - sigma_min) * j / (kCandidates - 1)));  // numpy linspace
  if (argmin_quirk) {
    // The code stores pairs its (continuous) check rejects as tau = -1 and returns argmin (first minimum).
    std::size_t best = 0;
    for (std::size_t j = 0; j < c.candidates.size(); ++j) {
      const double tj = c.candidates[j].valid_continuous ? c.candidates[j].tau : -1.0;
      const double tb = c.candidates[best].valid_continuous ? c.candidates[best].tau : -1.0;
      if (tj < tb) best = j;
    }
    choose(c.candidates[best], false);
    if (!c.candidates[best].valid_continuous) {
      c.tau = -1.0;
      c.valid = false;
    }
    return c;
  }
  std::size_t first = 0;
  while (first < c.candidates.size() && !c.candidates[first].valid) ++first;
  if (first == c.candidates.size()) {
    const GshmCandidate& last = c.candidates.back();
    fail("lumberjack: no pruning noise up to sigma = ", max_sigma_factor,
         " sqrt(k)/mu holds the pruning budget: at (epsilon_s, delta_s) = (",
         epsilon_s, ", ", delta_s, ") with k = ", k, " counts per record, sigma in [", sigma_min, ", ", last.sigma,
         "] spends delta ", c.candidates.front().delta_exact, " to ", last.delta_exact,
         " under the exact discrete-Gaussian analysis (lumberjack.md §3.2; docs/lumberjack-calibration.md)");
  }
  if (first == 0) {
    choose(c.candidates[0], false);
    return c;
  }
  // The smallest valid sigma in (sigma_{first-1}, sigma_first]: bisection keeping hi valid.
  double lo = c.candidates[first - 1].sigma;
  GshmCandidate hi = c.candidates[first];
  for (int it = 0; it < 60 && hi.sigma - lo > 1e-12 * hi.sigma; ++it) {
    const GshmCandidate m = candidate(0.5 * (lo + hi.sigma));
    if (m.valid) hi = m; else lo = m.sigma;
  }
  choose(hi, true);
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
