// DPBoost (Li, Wu, Wang, He; AAAI 2020) on S-BDT's boosting path, as s-bdt.md §9 recommends it rather
// than the authors' Laplace branch (§7 F5, F6): gradient-based data filtering (GDF), geometric leaf
// clipping (GLC) with loretanr/dp-gbdt's sensitivity, exponential-mechanism splits on a public grid,
// Laplace leaves, and disjoint rows per tree (Algorithm 2 line 8's geometric shares), one ensemble.
// Pure epsilon-DP: per tree epsilon / (2 depth) per level and epsilon / 2 for the leaves; trees on
// disjoint rows compose in parallel.
#include "algorithms/s_bdt/dpboost.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/param_set.hpp"
#include "algorithms/common/privacy_label.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/s_bdt/dpboost_tree.hpp"
#include "algorithms/s_bdt/model.hpp"
#include "algorithms/s_bdt/steps.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

struct DpboostParams {
  double epsilon = 1.0, learning_rate = 0.1, gradient_clip = 1.0, lambda = 0.1;
  int n_trees = 50, max_depth = 6, n_split_candidates = 32;
  bool gradient_filtering = true, leaf_clipping = true, strict = false;
  sbdt::SplitDomain split_domain = sbdt::SplitDomain::kSchema;
  double border_lo = 0.0, border_hi = 0.5;
};

class DpboostLearner : public Learner {
 public:
  explicit DpboostLearner(const DpboostParams& p) : p_(p) {
    require(std::isfinite(p_.epsilon) && p_.epsilon > 0, "dpboost: epsilon must be > 0 and finite");
    if (p_.split_domain == sbdt::SplitDomain::kBorder)
      require(p_.border_hi > p_.border_lo, "dpboost: split_domain border needs border_hi > border_lo");
  }
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override;

 private:
  std::vector<uint32_t> select_rows(int t, bool clf, const std::vector<int>& tree_of, double share,
                                    const std::vector<double>& F, const std::vector<double>& y, std::vector<char>& used,
                                    std::vector<double>& g, Rng& rng) const;
  DpboostParams p_;
};

// Algorithm 2 line 8: tree t's share of the rows is eta (1 - eta)^t / (1 - (1 - eta)^T).
std::vector<double> shares(double eta, int T) {
  std::vector<double> s(static_cast<std::size_t>(T));
  const double norm = 1.0 - std::pow(1.0 - eta, T);
  for (int t = 0; t < T; ++t) s[static_cast<std::size_t>(t)] = eta * std::pow(1.0 - eta, t) / norm;
  return s;
}

// Tree t's rows (positions), with their gradients in g: strict, the rows assigned to t up front; as
// published, floor(n share_t) rows drawn from the unused pool (then marked used). Gradients come from the
// current model: logistic p - y (classification) or F - y (squared loss).
std::vector<uint32_t> DpboostLearner::select_rows(int t, bool clf, const std::vector<int>& tree_of, double share,
                                                  const std::vector<double>& F, const std::vector<double>& y,
                                                  std::vector<char>& used, std::vector<double>& g, Rng& rng) const {
  const std::size_t n = F.size();
  std::vector<uint32_t> kept;
  for (uint32_t i = 0; i < n; ++i) {
    if (p_.strict ? tree_of[i] != t : used[i] != 0) continue;
    g[i] = (clf ? 1.0 / (1.0 + std::exp(-F[i])) : F[i]) - y[i];
    // GDF (Algorithm 2 line 9): rows with |g| > g* are left out; without GDF they are clipped.
    if (p_.gradient_filtering && std::abs(g[i]) > p_.gradient_clip) continue;
    g[i] = std::clamp(g[i], -p_.gradient_clip, p_.gradient_clip);
    kept.push_back(i);
  }
  if (p_.strict) return kept;
  // The published draw: floor(n share_t) of the kept rows, uniformly without replacement.
  const auto want = static_cast<std::size_t>(std::floor(static_cast<double>(n) * share));
  for (std::size_t k = 0; k < std::min(want, kept.size()); ++k) std::swap(kept[k], kept[k + rng.below(kept.size() - k)]);
  if (kept.size() > want) kept.resize(want);
  for (uint32_t i : kept) used[i] = 1;
  return kept;
}

std::unique_ptr<Model> DpboostLearner::fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const {
  const bool clf = data.task() == TaskKind::kClassification;
  require(!clf || data.n_classes() == 2, "dpboost: classification needs exactly two classes in the schema (got ",
          data.n_classes(), ")");
  sbdt::SbdtParams grid_params;
  grid_params.split_domain = p_.split_domain;
  grid_params.border_lo = p_.border_lo;
  grid_params.border_hi = p_.border_hi;
  grid_params.n_split_candidates = p_.n_split_candidates;
  const std::vector<sbdt::Grid> grids = sbdt::build_grids(grid_params, data.schema());
  const Target& target = data.schema().target;
  if (!clf) require(target.lo < target.hi, "dpboost: regression needs public target bounds lo < hi in the schema");
  const std::size_t n = rows.size();
  std::vector<double> y(n), F(n, 0.0), g(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = data.y()[rows[i]];
    y[i] = clf ? v : 2.0 * (v - target.lo) / (target.hi - target.lo) - 1.0;
  }
  const std::vector<double> share = shares(p_.learning_rate, p_.n_trees);
  const Rng base = ctx.rng.derive("dpboost");
  // strict: each record is assigned to one tree up front, independently of every other record (a
  // categorical draw with the shares), so one record never moves another: exact parallel composition.
  // As published: tree t takes floor(n share_t) rows from the unused pool, a count read from the
  // private n (s-bdt.md §7 F9).
  std::vector<int> tree_of(n, -1);
  if (p_.strict) {
    Rng assign = base.derive("assign");
    for (std::size_t i = 0; i < n; ++i) {
      double u = assign.uniform();
      int t = 0;
      while (t + 1 < p_.n_trees && u >= share[static_cast<std::size_t>(t)]) u -= share[static_cast<std::size_t>(t++)];
      tree_of[i] = t;
    }
  }
  std::vector<char> used(n, 0);
  auto model = std::make_unique<sbdt::BoostedModel>();
  sbdt::BoostedModel& M = *model;
  M.algorithm = "dpboost";
  M.task = data.task();
  M.logistic = clf;
  M.learning_rate = p_.learning_rate;
  M.routing = Routing::kLess;
  M.y_lo = target.lo;
  M.y_hi = target.hi;
  const PrivacyLedger::ScopeId fit = ctx.ledger.open_scope(
      PrivacyLedger::kRoot, p_.strict ? Composition::kParallel : Composition::kClaimedParallel, "dpboost trees");
  std::vector<uint32_t> tree_rows;
  std::vector<double> tree_g;
  for (int t = 0; t < p_.n_trees; ++t) {
    Rng rng = base.derive(static_cast<uint64_t>(t));
    const std::vector<uint32_t> kept = select_rows(t, clf, tree_of, share[static_cast<std::size_t>(t)], F, y, used, g, rng);
    tree_rows.resize(kept.size());
    tree_g.resize(kept.size());
    for (std::size_t k = 0; k < kept.size(); ++k) {
      tree_rows[k] = rows[kept[k]];
      tree_g[k] = g[kept[k]];
    }
    sbdt::DpboostTreeSpec spec;
    spec.max_depth = p_.max_depth;
    spec.G = p_.gradient_clip;
    spec.lambda = p_.lambda;
    spec.eps_level = p_.epsilon / (2.0 * p_.max_depth);
    spec.eps_leaf = p_.epsilon / 2.0;
    spec.leaf_bound = p_.leaf_clipping ? p_.gradient_clip * std::pow(1.0 - p_.learning_rate, t) : 0.0;
    const PrivacyLedger::ScopeId ts = ctx.ledger.open_scope(fit, Composition::kSequential, "tree");
    GradientTree tree = sbdt::grow_dpboost_tree(spec, grids, data, tree_rows, tree_g, rng, ctx.ledger, ts);
    for (std::size_t i = 0; i < n; ++i) F[i] += p_.learning_rate * tree.predict(data, rows[i], Routing::kLess);
    M.trees.push_back(std::move(tree));
    M.empty_leaves.push_back(0);
  }
  if (p_.strict) ctx.ledger.check_within(p_.epsilon, "dpboost");
  M.ledger_summary = ctx.ledger.summary();
  return model;
}

}  // namespace

std::vector<AlgorithmInfo> dpboost_algorithms() {
  AlgorithmInfo a = describe(
      "dpboost", "s-bdt", kBothTasks,
      "DPBoost (Li et al., AAAI 2020) on S-BDT's boosting path: GDF, geometric leaf clipping, "
      "exponential-mechanism splits on a public grid, Laplace leaves, disjoint rows per tree; one ensemble");
  a.binary_classification_only = true;  // the authors' code classifies two classes (s-bdt.md §1)
  // As published the trees' parallel composition is claimed; summed, T epsilon.
  a.privacy_bound = trees_summed_unless_strict;
  a.privacy_status = dp_when_strict(
      "tree t takes floor(n eta (1 - eta)^t / (1 - (1 - eta)^T)) rows of the unused pool, a count read from the "
      "private training-set size, and one added record moves others between trees, so the claimed parallel "
      "composition does not hold (s-bdt.md §7 F9); strict: true assigns each record to a tree independently up front");
  using P = DpboostParams;
  return {with_learner<DpboostLearner>(
      a,
      ParamSet<P>()
          .add(&P::epsilon, param::epsilon("total epsilon of the ensemble (one ensemble; DPBoost's composition of "
                                           "several ensembles is out of scope)"))
          .add(&P::n_trees, param::n_trees(50,
                                           "T, trees of the ensemble (DPBoost's per-ensemble count is UNVERIFIED; "
                                           "loretanr/dp-gbdt sets none)"))
          .add(&P::max_depth, param::max_depth(6, "depth of every tree (loretanr/dp-gbdt default 6)", 1, 20))
          .add(&P::learning_rate,
               param::share("learning_rate", "0.1",
                            "eta: shrinkage, the GLC bound g* (1 - eta)^t and the rows' geometric shares"))
          .add(&P::gradient_clip,
               param::positive("gradient_clip", "1", 1e9,
                               "g*: GDF keeps rows with |g| <= g* (l2_threshold; loretanr/dp-gbdt default 1)"))
          .add(&P::lambda, param::positive("lambda", "0.1", 1e9,
                                           "l2 regularisation of gains and leaves (loretanr/dp-gbdt default 0.1)"))
          .add(&P::n_split_candidates,
               param::count("n_split_candidates", 32, 1, 1e6,
                            "public grid points per numeric feature (s-bdt.md §9: a public grid)"))
          .add(&P::gradient_filtering, param::flag("gradient_filtering", true,
                                                   "GDF: rows with |g| > g* are not used by the tree (else clipped)"))
          .add(&P::leaf_clipping, param::flag("leaf_clipping", true,
                                              "GLC: leaf values clamped to g* (1 - eta)^t before the Laplace noise"))
          .add(&P::split_domain,
               param::choice("split_domain", "schema",
                             "schema: the grid spans each feature's public domain; border: [border_lo, border_hi)"),
               {{"schema", sbdt::SplitDomain::kSchema}, {"border", sbdt::SplitDomain::kBorder}})
          .add(&P::border_lo, param::number("border_lo", "0", "grid start (split_domain: border)"))
          .add(&P::border_hi, param::number("border_hi", "0.5", "grid end (split_domain: border)"))
          .add(&P::strict, param::strict()))};
}

}  // namespace dpf
