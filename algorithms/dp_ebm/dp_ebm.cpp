#include "algorithms/dp_ebm/dp_ebm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "algorithms/common/param_set.hpp"
#include "algorithms/common/privacy_label.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/dp_ebm/binning.hpp"
#include "algorithms/dp_ebm/boosting.hpp"
#include "core/privacy/gdp.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

using dp_ebm::FeatureBins;

enum class Compose { kGdp, kClassic };

struct DpEbmParams {
  double epsilon = 1.0, delta = 1e-5, bin_budget_frac = 0.1, learning_rate = 0.01;
  int max_bins = 32, max_rounds = 300, max_leaves = 3;
  Compose composition = Compose::kGdp;
  bool strict = false, paper_code = false;
};

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

// Per-query GDP parameters (§4.1 / §4.2). Binning: one query per feature, all d columns (T_bin = d);
// boosting: T = max_rounds * d queries of l2 sensitivity lr * R * w_max (w_max = 1: no sample weights).
struct Plan {
  double mu_bin = 0, mu_train = 0;       // per phase, composed
  double mu_bin_query = 0, mu_step = 0;  // per query
  double sensitivity = 0;                // of one step's leaf sums
  double sigma_bin = 0, sigma_step = 0;  // the library's noise_scale_binning_ / noise_scale_boosting_
};

Plan plan_budget(const DpEbmParams& p, std::size_t d, double range) {
  Plan pl;
  const double eps_bin = p.epsilon * p.bin_budget_frac, delta_bin = p.delta / 2;  // §3
  const double eps_train = p.epsilon - eps_bin, delta_train = p.delta - delta_bin;
  const double t_bin = static_cast<double>(d), t = static_cast<double>(p.max_rounds) * static_cast<double>(d);
  pl.sensitivity = range * p.learning_rate;
  if (p.composition == Compose::kGdp) {
    pl.mu_bin = gdp_mu(eps_bin, delta_bin);
    pl.mu_train = gdp_mu(eps_train, delta_train);
    pl.sigma_bin = std::sqrt(t_bin) / pl.mu_bin;  // §4.1 binning: sqrt(T_bin) / mu* w_max
    pl.sigma_step = std::sqrt(t) / pl.mu_train * pl.sensitivity;
  } else {
    // §4.2: sigma = sqrt(8 T Delta^2 ln(e + eps / delta)) / eps.
    pl.sigma_bin = std::sqrt(8 * t_bin * std::log(std::exp(1.0) + eps_bin / delta_bin)) / eps_bin;
    pl.sigma_step =
        std::sqrt(8 * t * pl.sensitivity * pl.sensitivity * std::log(std::exp(1.0) + eps_train / delta_train)) / eps_train;
    pl.mu_bin = std::sqrt(t_bin) / pl.sigma_bin;
    pl.mu_train = std::sqrt(t) * pl.sensitivity / pl.sigma_step;
  }
  pl.mu_bin_query = 1.0 / pl.sigma_bin;
  pl.mu_step = pl.sensitivity / pl.sigma_step;
  return pl;
}

class DpEbmModel : public Model {
 public:
  DpEbmParams params;
  Plan plan;
  TaskKind task = TaskKind::kClassification;
  std::vector<FeatureBins> bins;
  std::vector<std::vector<double>> score;  // per feature: n_bins() + 1 (the last: the unseen bin, 0)
  double intercept = 0.0;
  std::string ledger_summary;

  double raw(const Dataset& data, uint32_t row) const {
    double s = intercept;
    for (std::size_t j = 0; j < bins.size(); ++j)
      s += score[j][static_cast<std::size_t>(bins[j].bin_of(data.x(row, j)))];
    return s;
  }

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override {
    Predictions p;
    p.task = task;
    if (task == TaskKind::kRegression) {
      p.value.resize(rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) p.value[i] = raw(data, rows[i]);
      return p;
    }
    p.n_classes = 2;
    p.value.resize(rows.size() * 2);
    p.label.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const double s = raw(data, rows[i]);
      const double p1 = 1.0 / (1.0 + std::exp(-s));  // logit link (§2)
      p.value[2 * i] = 1.0 - p1;
      p.value[2 * i + 1] = p1;
      p.label[i] = s > 0.0 ? 1 : 0;  // strictly: a tie goes to classes_[0] (§2)
    }
    return p;
  }

  // The release: per feature its kind, bin count and bin map (cut grid indices or category bins), then
  // the noisy bin weights, the shape scores and the intercept.
  Release released() const override {
    Release r;
    for (std::size_t j = 0; j < bins.size(); ++j) {
      const FeatureBins& b = bins[j];
      r.discrete.push_back(b.nominal ? 1 : 0);
      r.discrete.push_back(static_cast<int64_t>(b.n_bins()));
      if (b.nominal) r.discrete.insert(r.discrete.end(), b.category_bin.begin(), b.category_bin.end());
      else r.discrete.insert(r.discrete.end(), b.cut_grid.begin(), b.cut_grid.end());
      r.continuous.insert(r.continuous.end(), b.weight.begin(), b.weight.end());
      r.continuous.insert(r.continuous.end(), score[j].begin(), score[j].end() - 1);
    }
    r.continuous.push_back(intercept);
    return r;
  }

  // The release as released() lists it, plus the cut values (the public grid points the released
  // grid indices name) and whether the last bin is DPOther, which predict() routes by.
  void save(JsonWriter& w) const override {
    w.begin_object().field("kind", "dp-ebm").field("task", to_string(task));
    w.key("intercept").exact(intercept);
    w.key("features").begin_array();
    for (std::size_t j = 0; j < bins.size(); ++j) {
      const FeatureBins& b = bins[j];
      w.begin_object().field("nominal", b.nominal).field("has_other", b.has_other);
      w.exact_array("cuts", b.cuts).int_array("cut_grid", b.cut_grid).int_array("category_bin", b.category_bin);
      w.exact_array("weight", b.weight).exact_array("score", score[j]);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }

  ModelStats stats() const override {
    ModelStats s;
    s.n_trees = static_cast<std::size_t>(params.max_rounds) * bins.size();
    for (const FeatureBins& b : bins) s.n_leaves += b.n_bins();
    s.mean_depth = 1.0;
    return s;
  }

  std::vector<std::pair<std::string, std::string>> extra_columns() const override {
    double mean_bins = 0.0;
    for (const FeatureBins& b : bins) mean_bins += static_cast<double>(b.n_bins());
    mean_bins /= static_cast<double>(std::max<std::size_t>(bins.size(), 1));
    return {{"dp_ebm_mu_bin", num(plan.mu_bin)},
            {"dp_ebm_mu_train", num(plan.mu_train)},
            {"dp_ebm_sigma_binning", num(plan.sigma_bin)},
            {"dp_ebm_sigma_boosting", num(plan.sigma_step)},
            {"dp_ebm_mean_bins", num(mean_bins)}};
  }

  std::string describe() const override {
    JsonWriter w;
    w.begin_object();
    w.field("algorithm", "dp-ebm").field("task", to_string(task)).field("epsilon", params.epsilon);
    w.field("delta", params.delta).field("strict", params.strict).field("max_rounds", params.max_rounds);
    w.field("learning_rate", params.learning_rate).field("max_leaves", params.max_leaves);
    w.field("mu_bin", plan.mu_bin).field("mu_train", plan.mu_train);
    w.field("noise_scale_binning", plan.sigma_bin).field("noise_scale_boosting", plan.sigma_step);
    w.field("intercept", intercept);
    w.key("terms").begin_array();
    for (std::size_t j = 0; j < bins.size(); ++j) {
      const FeatureBins& b = bins[j];
      w.begin_object();
      w.field("kind", b.nominal ? "nominal" : "continuous");
      w.key(b.nominal ? "category_bin" : "cuts").begin_array();
      if (b.nominal) for (int c : b.category_bin) w.value(c);
      else for (double c : b.cuts) w.value(c);
      w.end_array();
      w.key("bin_weights").begin_array();
      for (double v : b.weight) w.value(v);
      w.end_array();
      w.key("scores").begin_array();
      for (double v : score[j]) w.value(v);
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.field("ledger", ledger_summary);
    w.end_object();
    return w.str();
  }
};

class DpEbmLearner : public Learner {
 public:
  explicit DpEbmLearner(DpEbmParams p) : p_(p) {
    require(std::isfinite(p_.epsilon) && p_.epsilon > 0, "dp-ebm: epsilon must be > 0 and finite");
    require(p_.delta > 0 && p_.delta < 1, "dp-ebm: delta must lie in (0, 1), got ", p_.delta);
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const bool reg = data.task() == TaskKind::kRegression;
    // §1: binary only (the library raises on more than two classes in DP mode).
    require(reg || data.n_classes() == 2, "dp-ebm: binary classification only (the library's DP mode), got ",
            data.n_classes(), " classes");
    require(!rows.empty(), "dp-ebm: no training rows");
    const std::size_t d = data.n_features();
    require(d >= 1, "dp-ebm: needs at least one feature");
    // §8: R = max_target - min_target from the public target bounds (the library's privacy_target_min/max).
    const double lo = data.schema().target.lo, hi = data.schema().target.hi, range = reg ? hi - lo : 1.0;
    require(!reg || (std::isfinite(range) && range > 0), "dp-ebm: the regression target needs public bounds lo < hi");

    auto model = std::make_unique<DpEbmModel>();
    DpEbmModel& M = *model;
    M.params = p_;
    M.task = data.task();
    M.plan = plan_budget(p_, d, range);
    const Plan& pl = M.plan;

    // §5: bin every feature once, on the schema's public bounds and category lists.
    const PrivacyLedger::ScopeId root = ctx.ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "dp-ebm");
    const PrivacyLedger::ScopeId bin_scope = ctx.ledger.open_scope(root, Composition::kSequential, "binning");
    dp_ebm::BinningRule rule{.n_bins = p_.paper_code ? p_.max_bins : p_.max_bins - 1,
                             .mu = pl.mu_bin_query,
                             .strict = p_.strict,
                             .paper_counts = p_.paper_code};
    Rng bin_rng = ctx.rng.derive("dp-ebm-binning");
    std::vector<double> column(rows.size());
    M.bins.resize(d);
    std::vector<std::vector<int32_t>> row_bin(d, std::vector<int32_t>(rows.size()));
    for (std::size_t j = 0; j < d; ++j) {
      const Feature& f = data.schema().features[j];
      for (std::size_t i = 0; i < rows.size(); ++i) column[i] = data.x(rows[i], j);
      if (f.kind == FeatureKind::kNumeric)
        M.bins[j] = dp_ebm::bin_continuous(column, f.lo, f.hi, rule, bin_rng);
      else
        M.bins[j] = dp_ebm::bin_nominal(column, f.n_categories(), rule, bin_rng);
      // Library mode reads the exact n (and, nominal, the observed categories) unpaid (§9 items 2-3).
      ctx.ledger.charge_gdp(bin_scope, "dp-ebm-binning", pl.mu_bin_query, 1.0, p_.strict);
      for (std::size_t i = 0; i < rows.size(); ++i) row_bin[j][i] = M.bins[j].bin_of(column[i]);
    }
    // Rows of a nominal category outside the boosted bins would need the unseen bin boosted; the
    // layout gives such categories DPOther whenever any exist in the training rows (§5.2, §6.3 step 1).
    for (std::size_t j = 0; j < d; ++j)
      for (int32_t b : row_bin[j])
        require(static_cast<std::size_t>(b) < M.bins[j].n_bins(), "dp-ebm: internal error: training row in an "
                                                                   "unboosted bin of feature ", j);

    // §6: boosting on y (0/1 labels, or the target clipped to its public bounds, §8).
    std::vector<double> y(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
      y[i] = reg ? std::clamp(data.y()[rows[i]], lo, hi) : static_cast<double>(data.label(rows[i]));
    dp_ebm::BoostSpec spec{.max_rounds = p_.max_rounds,
                           .max_leaves = p_.max_leaves,
                           .learning_rate = p_.learning_rate,
                           .mu_step = pl.mu_step,
                           .sensitivity = pl.sensitivity,
                           .regression = reg,
                           .clip = reg && p_.strict ? range : 0.0,
                           .natural_order = p_.paper_code,
                           .missing_edge = p_.paper_code,
                           // §9 item 1: unclipped residuals F - y can exceed R, the sensitivity the noise assumes.
                           .certified = !reg || p_.strict};
    const PrivacyLedger::ScopeId boost_scope = ctx.ledger.open_scope(root, Composition::kSequential, "boosting");
    Rng boost_rng = ctx.rng.derive("dp-ebm-boosting");
    M.score = dp_ebm::boost(M.bins, row_bin, y, spec, boost_rng, ctx.ledger, boost_scope);

    // §7: centre every shape function by its noisy-weight mean into the intercept; the unseen slot is 0.
    for (std::size_t j = 0; j < d; ++j) {
      double sw = 0.0, sws = 0.0;
      for (std::size_t b = 0; b < M.bins[j].n_bins(); ++b) {
        sw += M.bins[j].weight[b];
        sws += M.bins[j].weight[b] * M.score[j][b];
      }
      const double m = sw > 0 ? sws / sw : 0.0;
      for (double& s : M.score[j]) s -= m;
      M.intercept += m;
      M.score[j].push_back(0.0);
    }
    ctx.ledger.check_within(p_.epsilon, p_.delta, "dp-ebm");
    M.ledger_summary = ctx.ledger.summary();
    return model;
  }

 private:
  DpEbmParams p_;
};

}  // namespace

std::vector<AlgorithmInfo> dp_ebm_algorithms() {
  AlgorithmInfo a = describe(
      "dp-ebm", "dp-ebm", kBothTasks,
      "DP-EBM (Nori et al. 2021, InterpretML): private binning on public bounds, cyclic boosting of "
      "single-feature random-cut trees with Gaussian leaf sums, Gaussian-DP composition; an additive model");
  a.quirks = {
      {"paper_code",
       "the v0.2.6 code behind the ICML 2021 numbers (dp-ebm.md §10): binning targets max_bins (not max_bins - 1) "
       "bins on a 2 max_bins grid, noisy counts rounded and clipped at 1, features boosted in natural order, and "
       "random cuts may fall on the empty missing bin's edge (a wasted cut). Data-independent or post-processing",
       /*privacy_neutral=*/true},
  };
  a.binary_classification_only = true;  // the library's DP mode classifies two classes (dp-ebm.md §1)
  a.privacy_bound = nominal_epsilon_delta;
  a.privacy_status = [](const Params& p, TaskKind task) -> std::string {
    // Strict: n replaced by the noisy total, the schema's category list noised in full, regression
    // gradients clipped to [-R, R] (dp-ebm.md §9 fixes); the ledger then covers the whole release.
    if (p.get_bool("strict")) return kApproxDpLabel;
    std::string s =
        "published, not (epsilon, delta)-DP: the binning threshold n / (max_bins - 1) reads the exact training-set "
        "size unpaid, and nominal features noise only the categories observed in the training rows (dp-ebm.md §9 "
        "items 2-3)";
    if (task == TaskKind::kRegression)
      s += "; regression residuals F - y are not clipped to the range R that calibrates the noise (§9 item 1)";
    return s;
  };
  using P = DpEbmParams;
  const ParamSet<P> set =
      ParamSet<P>()
          .add(&P::epsilon, param::epsilon("total epsilon of binning and boosting (library default 1)"))
          .add(&P::delta,
               param::delta("1e-5", "total delta (library default 1e-5; the library says it should be < 1/n)"))
          .add(&P::bin_budget_frac,
               param::share("bin_budget_frac", "0.1",
                            "share of epsilon for the private binning, strictly in (0, 1); delta is split in halves "
                            "(dp-ebm.md §3)"))
          .add(&P::max_bins, param::max_bins(32,
                                             "the library's max_bins: the private binning targets max_bins - 1 "
                                             "bins on a 2 (max_bins - 1)-bin uniform grid (§5.1)",
                                             3, 1024))
          .add(&P::learning_rate,
               param::positive("learning_rate", "0.01", 1e6,
                               "step size; also scales the sensitivity, so the noise-to-signal ratio of a step does "
                               "not depend on it (§6.4)"))
          .add(&P::max_rounds, param::count("max_rounds", 300, 1, 1000000,
                                            "cyclic passes over the features: max_rounds * d single-feature trees, "
                                            "each one Gaussian query (§6.2); the library's n_estimators-like knob"))
          .add(&P::max_leaves, param::count("max_leaves", 3, 1, 1024,
                                            "leaves per tree: max_leaves - 1 random cuts among the bin edges (§6.3)"))
          .add(&P::composition,
               param::choice("composition", "gdp",
                             "gdp: noise from Gaussian-DP composition (§4.1, library default); classic: the library's "
                             "sqrt(8 T ln(e + eps/delta)) / eps rule (§4.2). Either way the ledger accounts every "
                             "query in mu (a Gaussian with sigma is (Delta / sigma)-GDP)"),
               {{"gdp", Compose::kGdp}, {"classic", Compose::kClassic}})
          .add(&P::strict, param::strict())
          .quirk(&P::paper_code, "paper_code");
  // What a fit charges (fit() above): d binning queries composing to mu_bin and max_rounds * d boosting
  // steps composing to mu_train (DRS Cor. 3.3). Neither depends on d or R: the per-query noise scales
  // with sqrt(T) and the sensitivity (§4.1, §4.2), so the plan is read at d = 1, R = 1.
  a.prior_ledger = [set](const Params& v, TaskKind task) {
    const DpEbmParams p = set.from(v);
    const Plan pl = plan_budget(p, 1, 1.0);
    PrivacyLedger ledger;
    const PrivacyLedger::ScopeId root = ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "dp-ebm");
    ledger.charge_gdp(root, "dp-ebm-binning", pl.mu_bin, 1.0, p.strict);
    ledger.charge_gdp(root, "dp-ebm-leaf-sums", pl.mu_train, 1.0, task != TaskKind::kRegression || p.strict);
    return ledger;
  };
  return {with_learner<DpEbmLearner>(a, set)};
}

std::unique_ptr<Model> load_dp_ebm_model(const JsonIn& in, const Schema& schema) {
  auto m = std::make_unique<DpEbmModel>();
  const std::string task = in["task"].string();
  if (task != to_string(schema.target.task)) in["task"].fail_here("does not match the schema's task");
  m->task = schema.target.task;
  if (m->task == TaskKind::kClassification && schema.target.n_classes() != 2)
    in["task"].fail_here("dp-ebm classification is binary; the schema lists " + std::to_string(schema.target.n_classes()) + " classes");
  m->intercept = in["intercept"].number();
  const JsonIn features = in["features"];
  if (features.size() != schema.n_features()) features.fail_here("needs one entry per feature of the schema");
  for (std::size_t j = 0; j < features.size(); ++j) {
    const JsonIn f = features.at(j);
    FeatureBins b;
    b.nominal = f["nominal"].boolean();
    b.has_other = f["has_other"].boolean();
    b.cuts = f["cuts"].numbers();
    for (int64_t g : f["cut_grid"].integers(0, 1 << 20)) b.cut_grid.push_back(static_cast<int>(g));
    b.weight = f["weight"].numbers();
    const auto n_bins = static_cast<int64_t>(b.weight.size());
    for (int64_t c : f["category_bin"].integers(-1, n_bins - 1)) b.category_bin.push_back(static_cast<int>(c));
    std::vector<double> score = f["score"].numbers();
    // bin_of returns 0..n_bins (n_bins: the unseen bin), so the score needs n_bins + 1 entries; the cuts
    // must be sorted for its binary search.
    if (n_bins < 1 || static_cast<int64_t>(score.size()) != n_bins + 1 || b.nominal != (b.cuts.empty() && b.cut_grid.empty()) ||
        (!b.nominal && static_cast<int64_t>(b.cuts.size()) != n_bins - 1) || !std::is_sorted(b.cuts.begin(), b.cuts.end()) ||
        b.cuts.size() != b.cut_grid.size())
      f.fail_here("the bins, cuts and scores do not fit together");
    if (b.nominal != (schema.features[j].kind == FeatureKind::kCategorical)) f["nominal"].fail_here("does not match the feature's kind");
    m->bins.push_back(std::move(b));
    m->score.push_back(std::move(score));
  }
  return m;
}

}  // namespace dpf
