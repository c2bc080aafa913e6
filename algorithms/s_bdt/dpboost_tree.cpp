#include "algorithms/s_bdt/dpboost_tree.hpp"

#include <algorithm>
#include <cmath>

#include "core/privacy/mechanisms.hpp"

namespace dpf::sbdt {

namespace {

struct Candidate {
  int32_t feature;
  bool categorical;
  double cut;
};

// Every public candidate: each numeric feature's grid points (x < c_k left), each category (x == v left).
std::vector<Candidate> candidates(const std::vector<Grid>& grids) {
  std::vector<Candidate> c;
  for (std::size_t f = 0; f < grids.size(); ++f) {
    const Grid& g = grids[f];
    if (g.categorical)
      for (int v = 0; v < g.n_codes; ++v) c.push_back({static_cast<int32_t>(f), true, static_cast<double>(v)});
    else
      for (double cut : g.cuts) c.push_back({static_cast<int32_t>(f), false, cut});
  }
  return c;
}

// DPBoost's gain (Li et al. 2020 §4.1, XGBoost's without the parent term): sum_L^2 / (n_L + lambda) +
// sum_R^2 / (n_R + lambda). Its add/remove sensitivity is 3 g*^2 (s-bdt.md §3.8; adding a row with
// |g| <= g* changes one side's term by at most 2 g*^2 up or 3 g*^2 down).
double gain(double sl, double nl, double sr, double nr, double lambda) {
  return sl * sl / (nl + lambda) + sr * sr / (nr + lambda);
}

// Gains of every candidate for the rows at positions `at` (into rows / g): one pass per feature
// accumulates per-bin sums, then prefix sums give each grid cut's left side.
std::vector<double> scores(const std::vector<Grid>& grids, const Dataset& data,
                           std::span<const uint32_t> rows, std::span<const double> g, const std::vector<uint32_t>& at,
                           double lambda) {
  double total = 0.0;
  for (uint32_t i : at) total += g[i];
  const auto n = static_cast<double>(at.size());
  std::vector<double> out;
  std::vector<double> sum;
  std::vector<double> cnt;
  for (std::size_t f = 0; f < grids.size(); ++f) {
    const Grid& gr = grids[f];
    const std::size_t bins = gr.categorical ? static_cast<std::size_t>(gr.n_codes) : gr.cuts.size() + 1;
    sum.assign(bins, 0.0);
    cnt.assign(bins, 0.0);
    for (uint32_t i : at) {
      const double x = data.x(rows[i], f);
      std::size_t b;
      if (gr.categorical) {
        b = static_cast<std::size_t>(x);
      } else {
        b = static_cast<std::size_t>(std::upper_bound(gr.cuts.begin(), gr.cuts.end(), x) - gr.cuts.begin());
      }
      sum[b] += g[i];
      cnt[b] += 1.0;
    }
    if (gr.categorical) {
      for (std::size_t v = 0; v < bins; ++v) out.push_back(gain(sum[v], cnt[v], total - sum[v], n - cnt[v], lambda));
      continue;
    }
    // Left of cut c_k: the rows with fewer than k + 1 cuts <= x, i.e. bins 0 .. k.
    double sl = 0.0, nl = 0.0;
    for (std::size_t k = 0; k < gr.cuts.size(); ++k) {
      sl += sum[k];
      nl += cnt[k];
      out.push_back(gain(sl, nl, total - sl, n - nl, lambda));
    }
  }
  return out;
}

}  // namespace

GradientTree grow_dpboost_tree(const DpboostTreeSpec& spec, const std::vector<Grid>& grids, const Dataset& data,
                               std::span<const uint32_t> rows, std::span<const double> g, Rng& rng,
                               PrivacyLedger& ledger, PrivacyLedger::ScopeId scope) {
  const std::vector<Candidate> cand = candidates(grids);
  GradientTree tree;
  struct Open {
    int32_t parent;
    bool left;
    std::vector<uint32_t> at;
  };
  std::vector<Open> level{{-1, false, {}}};
  for (uint32_t i = 0; i < rows.size(); ++i) level[0].at.push_back(i);
  auto attach = [&](const Open& o, int32_t node) {
    if (o.parent >= 0) tree.set_child(o.parent, o.left, node);
  };
  const double split_sensitivity = 3.0 * spec.G * spec.G;
  for (int depth = 0; depth < spec.max_depth; ++depth) {
    const PrivacyLedger::ScopeId lv = ledger.open_scope(scope, Composition::kParallel, "level");
    std::vector<Open> next;
    for (Open& o : level) {
      // Algorithm 1 line 7 / §4.1: the exponential mechanism over the public candidates, epsilon / (2 depth).
      const std::vector<double> s = scores(grids, data, rows, g, o.at, spec.lambda);
      const std::size_t pick = exponential_mechanism(rng, s, spec.eps_level, split_sensitivity);
      // A scope's own charges add up; disjoint nodes are parallel children of the level.
      ledger.charge(ledger.open_scope(lv, Composition::kSequential, "node"), "dpboost-split-em", spec.eps_level,
                    split_sensitivity);
      const Candidate& c = cand[pick];
      const int32_t node = tree.add_split(depth, c.feature, c.categorical, c.cut);
      attach(o, node);
      Open l{node, true, {}}, r{node, false, {}};
      for (uint32_t i : o.at) {
        const double x = data.x(rows[i], static_cast<std::size_t>(c.feature));
        (c.categorical ? x == c.cut : x < c.cut) ? l.at.push_back(i) : r.at.push_back(i);
      }
      next.push_back(std::move(l));
      next.push_back(std::move(r));
    }
    level = std::move(next);
  }
  // Leaves: -sum g / (n + lambda), clamped to the GLC bound, plus Laplace noise (Algorithm 1 line 12).
  // Sensitivity: g*/(1 + lambda) for the unclamped value (Li et al. Thm 2), and at most 2 c_t after
  // clamping to [-c_t, c_t] (loretanr/dp-gbdt's min(g*/(1 + lambda), 2 g*(1 - eta)^t), s-bdt.md §7 F6).
  const double sens =
      spec.leaf_bound > 0 ? std::min(spec.G / (1 + spec.lambda), 2 * spec.leaf_bound) : spec.G / (1 + spec.lambda);
  const PrivacyLedger::ScopeId leaves = ledger.open_scope(scope, Composition::kParallel, "leaves");
  for (const Open& o : level) {
    double sum = 0.0;
    for (uint32_t i : o.at) sum += g[i];
    double v = -sum / (static_cast<double>(o.at.size()) + spec.lambda);
    if (spec.leaf_bound > 0) v = std::clamp(v, -spec.leaf_bound, spec.leaf_bound);
    const int32_t node = tree.add_leaf(spec.max_depth);
    attach(o, node);
    tree.leaf_values()[static_cast<std::size_t>(tree.node(static_cast<std::size_t>(node)).leaf)] =
        laplace_mechanism(rng, v, sens, spec.eps_leaf);
    ledger.charge(ledger.open_scope(leaves, Composition::kSequential, "leaf"), "dpboost-leaf-laplace", spec.eps_leaf,
                  sens);
  }
  return tree;
}

}  // namespace dpf::sbdt
