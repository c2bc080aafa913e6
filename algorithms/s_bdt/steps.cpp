#include "algorithms/s_bdt/steps.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "core/privacy/mechanisms.hpp"
#include "core/privacy/normal.hpp"
#include "core/util/error.hpp"

namespace dpf::sbdt {

std::vector<Grid> build_grids(const SbdtParams& p, const Schema& schema) {
  std::vector<Grid> grids;
  for (const Feature& f : schema.features) {
    Grid g;
    if (f.kind == FeatureKind::kCategorical) {
      require(f.n_categories() >= 1, "s-bdt: categorical feature '", f.name, "' has no categories in the schema");
      g.categorical = true;
      g.n_codes = static_cast<int>(f.n_categories());
    } else {
      g.lo = p.split_domain == SplitDomain::kBorder ? p.border_lo : f.lo;
      g.hi = p.split_domain == SplitDomain::kBorder ? p.border_hi : f.hi;
      require(std::isfinite(g.lo) && std::isfinite(g.hi) && g.lo <= g.hi, "s-bdt: feature '", f.name,
              "' needs a finite public domain [lo, hi] in the schema (or split_domain: border)");
      for (int k = 0; k < p.n_split_candidates; ++k) g.cuts.push_back(g.lo + k * ((g.hi - g.lo) / p.n_split_candidates));
    }
    grids.push_back(std::move(g));
  }
  require(!grids.empty(), "s-bdt: needs at least one feature");
  return grids;
}

namespace {

// §3.4 step 5: full depth; the feature is t mod d (cfi) or drawn per node with weight 1 per numeric and
// m per m-category feature; a numeric threshold is a uniform grid index (the node's index range when
// ignore_split_constraints is off) or uniform on the domain (grid_splits off); a categorical split is
// x == v for a uniform code v. The children's ranges are [lo, k - 1] and [k + 1, hi] with k = -1 for
// categorical and off-grid splits (dp_tree.cpp L124-125, the split_index = -1 quirk), and a node whose
// range has lo >= hi is a leaf when the constraints are on.
class TreeDrawer {
 public:
  TreeDrawer(const SbdtParams& p, const std::vector<Grid>& grids, int round, Rng& rng)
      : p_(p), grids_(grids), round_(round), rng_(rng) {}
  GradientTree draw() {
    build(0, 0, p_.n_split_candidates - 1);
    return std::move(tree_);
  }

 private:
  int32_t build(int depth, int lo, int hi) {
    if (depth == p_.max_depth || (!p_.ignore_split_constraints && lo >= hi)) return tree_.add_leaf(depth);
    const int f = feature();
    const Grid& g = grids_[static_cast<std::size_t>(f)];
    int k = -1;
    double cut = 0.0;
    if (g.categorical) {
      cut = static_cast<double>(rng_.below(static_cast<uint64_t>(g.n_codes)));
    } else if (p_.grid_splits) {
      const int a = p_.ignore_split_constraints ? 0 : lo, b = p_.ignore_split_constraints ? p_.n_split_candidates - 1 : hi;
      k = a + static_cast<int>(rng_.below(static_cast<uint64_t>(b - a + 1)));
      cut = g.cuts[static_cast<std::size_t>(k)];
    } else {
      cut = g.lo + rng_.uniform() * (g.hi - g.lo);
    }
    const int32_t node = tree_.add_split(depth, f, g.categorical, cut);
    const int32_t left = build(depth + 1, lo, k - 1);
    const int32_t right = build(depth + 1, k + 1, hi);
    tree_.set_children(node, left, right);
    return node;
  }
  int feature() {
    const auto d = static_cast<int>(grids_.size());
    if (p_.cyclical) return round_ % d;
    double total = 0.0;
    for (const Grid& g : grids_) total += g.categorical ? g.n_codes : 1.0;
    double u = rng_.uniform() * total;
    for (int f = 0; f < d; ++f) {
      const Grid& g = grids_[static_cast<std::size_t>(f)];
      u -= g.categorical ? g.n_codes : 1.0;
      if (u < 0) return f;
    }
    return d - 1;
  }
  const SbdtParams& p_;
  const std::vector<Grid>& grids_;
  int round_;
  Rng& rng_;
  GradientTree tree_;
};

}  // namespace

GradientTree draw_tree(const SbdtParams& p, const std::vector<Grid>& grids, int round, Rng& rng) {
  return TreeDrawer(p, grids, round, rng).draw();
}

// Poisson sampling at rate q (§3.4 step 3): each pool member independently, by geometric gaps.
void poisson_sample(const std::vector<uint32_t>& pool, double q, Rng& rng, std::vector<uint32_t>& out) {
  out.clear();
  if (q >= 1.0) {
    out = pool;
    return;
  }
  const double l1q = std::log1p(-q);
  for (std::size_t i = 0;;) {
    const double gap = std::floor(std::log(rng.uniform_open()) / l1q);
    if (gap >= static_cast<double>(pool.size() - i)) break;
    i += static_cast<std::size_t>(gap);
    out.push_back(pool[i]);
    ++i;
  }
}

// §3.3: the initial score from the labels of the rows in `pool` (positions into y).
double initial_score(const SbdtParams& p, const Plan& plan, const std::vector<double>& y,
                     const std::vector<uint32_t>& pool, bool clf, Rng& rng) {
  if (plan.eps_init <= 0) return 0.0;  // loss.cpp L25/L78: score 0 (p = 0.5) without budget
  const double t0 = p.init_clip;
  double sum = 0.0;
  for (uint32_t i : pool) sum += clf ? std::clamp(y[i], 0.0, t0) : std::clamp(y[i], -t0, t0);
  double m;
  if (p.strict) {
    // Noisy sum (add/remove sensitivity T0) over noisy count (1), epsilon_init / 2 each: n is never read.
    const double s = laplace_mechanism(rng, sum, t0, plan.eps_init / 2);
    const double c = laplace_mechanism(rng, static_cast<double>(pool.size()), 1.0, plan.eps_init / 2);
    m = s / std::max(c, 1.0);
    m = clf ? std::clamp(m, 0.0, t0) : std::clamp(m, -t0, t0);
  } else {
    // The clipped mean's sensitivity is 2 T0 / n (regression, labels in [-T0, T0]) or T0 / n (binary,
    // [0, T0]); the code's scales are half that (loss.cpp L24 / L76, §7 F2: quirk init_half_scale).
    const double n = std::max<double>(1.0, static_cast<double>(pool.size()));
    const double sensitivity = (clf ? 1.0 : 2.0) * t0 / n;
    m = laplace_mechanism(rng, sum / n, p.init_half_scale ? sensitivity / 2 : sensitivity, plan.eps_init);
  }
  if (!clf) return m;
  m = std::clamp(m, 10 * DBL_EPSILON, 1 - 10 * DBL_EPSILON);  // loss.cpp L81
  return std::log(m) - std::log(1.0 - m);
}

// §3.4 step 6: every leaf, empty ones included.
void release_leaves(GradientTree& tree, const LeafSums& s, const LeafNoise& n, Rng& rng) {
  const double sd_num = n.sigma * n.G / std::sqrt(2 * (1 - n.w));           // dp_tree.cpp L651
  const double sd_den = n.sigma * (n.newton ? n.H : 1.0) / std::sqrt(2 * n.w);  // L659 / L662
  for (std::size_t l = 0; l < tree.n_leaves(); ++l) {
    const double num = s.g[l] + sample_normal(rng, sd_num);
    const double z = sample_normal(rng, sd_den);
    // §7 F1: the published Newton branch adds half the noise the accountant assumes.
    const double den = (n.newton ? s.h[l] : static_cast<double>(s.count[l])) + (n.half_hessian ? 0.5 * z : z);
    double v = 0.0;
    if (!(n.cut_off && den < 0.0)) v = -num / (n.add ? den + n.lambda : std::max(den, n.lambda));
    if (n.clamp != 0.0) v = std::clamp(v, -n.clamp, n.clamp);
    tree.leaf_values()[l] = v;
  }
}

}  // namespace dpf::sbdt
