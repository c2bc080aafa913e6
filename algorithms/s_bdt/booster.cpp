#include "algorithms/s_bdt/booster.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "algorithms/common/gradient_tree.hpp"
#include "algorithms/s_bdt/accounting.hpp"
#include "algorithms/s_bdt/model.hpp"
#include "algorithms/s_bdt/steps.hpp"
#include "core/util/error.hpp"

namespace dpf::sbdt {

namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

// §3.2: gradients (and hessians) of the candidates from the current scores, then clipped (§3.4 step 4).
void compute_gradients(const SbdtParams& p, bool newton, const std::vector<uint32_t>& candidates,
                       const std::vector<double>& F, const std::vector<double>& y, std::vector<double>& g,
                       std::vector<double>& h) {
  for (uint32_t i : candidates) {
    if (newton) {
      const double prob = 1.0 / (1.0 + std::exp(-F[i]));
      g[i] = prob - y[i];
      h[i] = (y[i] + g[i]) * (1.0 - y[i] - g[i]);  // loss.cpp L104: p (1 - p)
    } else {
      g[i] = F[i] - y[i];
    }
    g[i] = std::clamp(g[i], -p.gradient_clip, p.gradient_clip);
  }
}

// §3.6: the individual Rényi filter's per-record ledger. Regular rounds charge everyone (capped at B);
// extra rounds admit those whose charge still fits.
class Filter {
 public:
  Filter(const SbdtParams& p, const Plan& plan, std::size_t n) : charges_(p, plan), acc_(n, 0.0) {
    // The code's tolerance is max_rho + 10e-7 (dp_ensemble.cpp L264); otherwise float rounding only.
    slack_ = p.filter_table ? 1e-6 : 1e-12 * charges_.budget();
  }
  void admit(const std::vector<uint32_t>& candidates, bool regular, const std::vector<double>& g,
             const std::vector<double>& h, std::vector<uint32_t>& pool) {
    for (uint32_t i : candidates) {
      const double r = charges_.rho(g[i], h[i]);
      if (acc_[i] + r <= charges_.budget() + slack_) {
        acc_[i] += r;
        pool.push_back(i);
      } else if (regular) {
        acc_[i] = charges_.budget();
        pool.push_back(i);
      }
    }
  }

 private:
  FilterCharges charges_;
  std::vector<double> acc_;
  double slack_;
};

// One round's tree on the sampled positions (§3.4 steps 5-7): structure, leaf sums routed with <, noisy
// leaves, then every training row's score moves by eta f_t(x) routed with <=. Returns the empty leaves.
std::size_t grow_round(const SbdtParams& p, const Plan& plan, const std::vector<Grid>& grids, const LeafNoise& noise,
                       int t, const Dataset& data, std::span<const uint32_t> rows, const std::vector<uint32_t>& sample,
                       const std::vector<double>& g, const std::vector<double>& h, Rng& tree_rng, Rng& noise_rng,
                       std::vector<double>& F, BoostedModel& M) {
  GradientTree tree = draw_tree(p, grids, t, tree_rng);
  std::vector<uint32_t> sample_rows(sample.size());
  std::vector<double> sg(sample.size()), sh(plan.newton ? sample.size() : 0);
  for (std::size_t k = 0; k < sample.size(); ++k) {
    sample_rows[k] = rows[sample[k]];
    sg[k] = g[sample[k]];
    if (plan.newton) sh[k] = std::clamp(h[sample[k]], 0.0, p.hessian_clip);  // dp_tree.cpp L657
  }
  const LeafSums sums = leaf_sums(tree, data, sample_rows, sg, sh, Routing::kLess);
  release_leaves(tree, sums, noise, noise_rng);
  std::size_t empty = 0;
  for (uint32_t c : sums.count) empty += c == 0;
  for (std::size_t i = 0; i < F.size(); ++i) F[i] += p.learning_rate * tree.predict(data, rows[i], Routing::kLessEqual);
  M.trees.push_back(std::move(tree));
  return empty;
}

}  // namespace

std::unique_ptr<Model> fit_sbdt(const SbdtParams& p, const Dataset& data, std::span<const uint32_t> rows,
                                FitContext& ctx) {
  const bool clf = data.task() == TaskKind::kClassification;
  require(!clf || data.n_classes() == 2, "s-bdt: classification needs exactly two classes in the schema (got ",
          data.n_classes(), "); multiclass is not supported (s-bdt.md §1)");
  const Plan plan = plan_budget(p, data.task());
  const std::vector<Grid> grids = build_grids(p, data.schema());
  const Target& target = data.schema().target;
  if (!clf)
    require(std::isfinite(target.lo) && std::isfinite(target.hi) && target.lo < target.hi,
            "s-bdt: regression needs public target bounds lo < hi in the schema");
  const std::size_t n = rows.size();
  // Labels: 0/1, or the target mapped from its PUBLIC range to [-1, 1] (the code's scale_y reads the
  // fold's min and max, §7 F8).
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = data.y()[rows[i]];
    y[i] = clf ? v : 2.0 * (v - target.lo) / (target.hi - target.lo) - 1.0;
  }
  std::vector<uint32_t> all(n), initial, novel;
  for (uint32_t i = 0; i < n; ++i) all[i] = i;
  for (uint32_t i = 0; i < n; ++i) (!p.stream || (clf ? y[i] != 1.0 : y[i] <= p.stream_split) ? initial : novel).push_back(i);

  auto model = std::make_unique<BoostedModel>();
  BoostedModel& M = *model;
  M.algorithm = "s-bdt";
  M.task = data.task();
  M.logistic = plan.newton;
  M.learning_rate = p.learning_rate;
  M.y_lo = target.lo;
  M.y_hi = target.hi;
  const Rng base = ctx.rng.derive("s-bdt");
  Rng init_rng = base.derive("init");
  M.init = initial_score(p, plan, y, initial, clf, init_rng);

  std::vector<double> F(n, M.init), g(n, 0.0), h(n, 0.0);
  std::unique_ptr<Filter> filter = p.filter ? std::make_unique<Filter>(p, plan, n) : nullptr;
  LeafNoise noise{plan.regular.sigma, p.gradient_clip, p.hessian_clip, p.denominator_weight, p.lambda, p.leaf_clamp,
                  plan.newton, plan.half_hessian, p.cut_off_leaf_denom, p.lambda_mode == LambdaMode::kAdd};
  std::vector<uint32_t> pool, sample;
  double extra_pool_total = 0.0;
  int extra_run = 0;
  for (int t = 0; t < p.n_trees + p.extra_trees; ++t) {
    const bool regular = t < p.n_trees;
    if (!regular && plan.stream_extra) noise.sigma = plan.extra.sigma;
    const std::vector<uint32_t>& candidates = regular ? initial : (filter ? all : novel);
    compute_gradients(p, plan.newton, candidates, F, y, g, h);
    pool.clear();
    if (filter) {
      filter->admit(candidates, regular, g, h, pool);
      if (!regular) {
        if (pool.empty()) break;  // dp_ensemble.cpp L304-306: nobody has budget left
        extra_pool_total += static_cast<double>(pool.size());
        ++extra_run;
      }
    } else {
      pool = candidates;
    }
    Rng round_rng = base.derive(static_cast<uint64_t>(t));
    Rng sample_rng = round_rng.derive("sample"), tree_rng = round_rng.derive("structure"), noise_rng = round_rng.derive("noise");
    poisson_sample(pool, p.subsample, sample_rng, sample);
    M.empty_leaves.push_back(grow_round(p, plan, grids, noise, t, data, rows, sample, g, h, tree_rng, noise_rng, F, M));
  }

  charge(ctx.ledger, p, plan);
  // A fit without quirks spends at most (epsilon, delta) by its ledger (the initial score's claim
  // included when it is not certified); the quirks record what the authors' code spends.
  if (!p.half_hessian_noise && !p.init_half_scale) ctx.ledger.check_within(p.epsilon, p.delta, "s-bdt");
  M.ledger_summary = ctx.ledger.summary();
  M.columns = {{"sbdt_sigma", fmt(plan.regular.sigma)},
               {"sbdt_alpha", std::to_string(plan.regular.alpha)},
               {"sbdt_rho", fmt(plan.regular.rho)},
               {"sbdt_epsilon_accountant", fmt(plan.eps_init + plan.regular.epsilon)},
               {"sbdt_rounds_run", std::to_string(M.trees.size())},
               {"sbdt_filter_mean_pool", fmt(extra_run ? extra_pool_total / extra_run : 0.0)}};
  return model;
}

}  // namespace dpf::sbdt
