#include "experiments/run/task.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

#include "algorithms/registry.hpp"
#include "algorithms/registry_fit.hpp"
#include "core/data/preprocess.hpp"
#include "core/eval/metrics.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"
#include "experiments/run/privacy_label.hpp"

namespace dpf {

uint64_t task_seed(const ExperimentSpec& spec, const Cell& cell, int repetition, int fold) {
  uint64_t h = hash_combine(mix64(spec.seed), hash_string(spec.paper));
  h = hash_combine(h, hash_string(spec.experiment));
  h = hash_combine(h, hash_string(cell.key));
  h = hash_combine(h, static_cast<uint64_t>(repetition));
  return hash_combine(h, static_cast<uint64_t>(fold));
}

namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Per-fold imputation (registry rule impute-train-median, datasets/README.md): the medians of the
// task's training rows replace every missing value of the training and the test rows, so that no
// algorithm sees a NaN and no test value moves a median. Datasets without the rule are used as given.
struct ImputedData {
  Dataset data;
  MedianImputer imputer;
  bool applied = false;
};

ImputedData impute_for_task(const Dataset& given, const Split& split, const Cell& cell, const AlgorithmInfo& info) {
  ImputedData out;
  if (given.schema().missing_numeric.empty()) return out;
  require(given.schema().missing_numeric == "train-median", "dataset ", cell.dataset,
          ": unknown missing-value imputation '", given.schema().missing_numeric, "'");
  if (info.private_algorithm)
    fail("dataset ", cell.dataset, " imputes missing numeric values with training-fold medians, which are not ",
         "differentially private (privacy.md §6: a private path needs finite data or a data-independent ",
         "cleaning rule); algorithm '", cell.algorithm, "' is private: use a variant without ",
         "missing.rule impute-train-median");
  out.imputer = fit_median_imputer(given, split.train);
  out.data = given;
  out.imputer.apply(out.data);
  out.applied = true;
  return out;
}

// The dataset's shape as the algorithm sees it, for the leaderboard's regimes (features, categorical
// share, classes; docs/leaderboard.md "Decision tables").
void set_shape(ResultRow& row, const Dataset& data) {
  std::size_t categorical = 0;
  for (const Feature& f : data.schema().features) categorical += f.kind == FeatureKind::kCategorical;
  row.set("n_features", std::to_string(data.schema().n_features()));
  row.set("n_categorical", std::to_string(categorical));
  row.set("n_classes", std::to_string(data.task() == TaskKind::kClassification ? data.n_classes() : 0));
}

// The task's coordinates: which cell, data, preprocessing, parameters, repetition, fold and seed.
void set_coordinates(ResultRow& row, const TaskCoordinates& t, const Dataset& data, const Split& split,
                     const ImputedData& imputed) {
  const Cell& cell = *t.cell;
  row.set("paper", t.spec->paper);
  row.set("experiment", t.spec->experiment);
  row.set("cell_id", cell.id);
  row.set("algorithm", cell.algorithm);
  row.set("label", cell.label);
  row.set("dataset", cell.dataset);
  row.set("task", to_string(data.task()));
  row.set("target_scaling", cell.preprocess.target_scaling);
  row.set("domains", data.schema().domains_source);
  row.set("bins", std::to_string(cell.preprocess.bins));
  if (imputed.applied) {
    // Which features fell back to their public domain midpoint (no training value in this fold).
    std::string fallback;
    for (const std::string& f : imputed.imputer.fallback) fallback += (fallback.empty() ? "" : " ") + f;
    row.set("imputation", "train-median");
    row.set("imputation_fallback", fallback);
  }
  for (const auto& [k, v] : cell.params.values()) row.set(k, v);
  row.set("repetition", std::to_string(t.repetition));
  row.set("fold", std::to_string(t.fold));
  char seed[24];
  std::snprintf(seed, sizeof seed, "%016llx", static_cast<unsigned long long>(t.seed));
  row.set("seed", seed);
  row.set("n_train", std::to_string(split.train.size()));
  row.set("n_test", std::to_string(split.test.size()));
  set_shape(row, data);
  row.set("started_at", utc_now());
}

void set_metrics(ResultRow& row, const Dataset& data, const Split& split, const Predictions& pred, int positive_class) {
  if (data.task() == TaskKind::kClassification) {
    std::vector<int> truth(split.test.size());
    for (std::size_t i = 0; i < truth.size(); ++i) truth[i] = data.label(split.test[i]);
    row.set("accuracy", accuracy(truth, pred.label));
    row.set("error", error_rate(truth, pred.label));
    if (data.n_classes() == 2) {
      // The class-1 score; DP-ERT's published "error" is mean |y - p| (dipreme.md §3.6).
      std::vector<double> p1 = pred.class_score(1);
      row.set("l1_error", l1_error(truth, p1));
      std::vector<double> pos = pred.class_score(positive_class);
      row.set("auc", roc_auc(truth, pos, positive_class));
      row.set("f1", f1_score(truth, pred.label, positive_class));
    }
  } else {
    std::vector<double> truth(split.test.size());
    for (std::size_t i = 0; i < truth.size(); ++i) truth[i] = data.y()[split.test[i]];
    row.set("mse", mean_squared_error(truth, pred.value));
  }
}

// The a-priori guarantee of the configuration (fixed before the data is read) next to what this
// fit's ledger composed, which can be less (levels not grown, early stops).
void set_privacy(ResultRow& row, const AlgorithmInfo& info, const Cell& cell, const Dataset& data,
                 const PrivacyLedger& ledger) {
  const bool priv = info.private_algorithm;
  const PrivacyBound bound = info.privacy_bound(cell.params, data.task());
  // Every row records its delta: 0 for pure-epsilon ledgers; for an (epsilon, delta) algorithm (a-priori
  // delta > 0, e.g. lumberjack) epsilon_spent is the ledger's epsilon at that delta (epsilon_for).
  const SpentTotals spent = spent_totals(info, bound, ledger);
  row.set("epsilon_requested", priv ? cell.params.text("epsilon") : "inf");
  row.set("epsilon_spent", !priv ? "0" : format_double(spent.epsilon));
  row.set("epsilon_spent_conservative", !priv ? "0" : format_double(spent.epsilon_conservative));
  row.set("delta_spent", spent.delta > 0.0 ? format_double(spent.delta) : "0");
  row.set("epsilon_apriori", priv ? format_double(bound.epsilon) : "0");
  row.set("epsilon_apriori_conservative", priv ? format_double(bound.epsilon_conservative) : "0");
  row.set("delta_apriori", priv ? format_double(bound.delta) : "0");
  row.set("privacy_status",
          cell_privacy_status(info, cell, data.task(), data.schema().domains_source == "from-data"));
  row.set("ledger_certified", priv ? (ledger.certified() ? "true" : "false") : "n/a");
  row.set("neighbours", "add/remove-one");
}

// The config's `record:` diagnostics (space-separated values per fit).
void set_recorded(ResultRow& row, const ExperimentSpec& spec, const Cell& cell, const Model& model) {
  if (spec.record.empty()) return;
  const auto* forest = dynamic_cast<const ForestModel*>(&model);
  if (!forest) fail(spec.path, ": record: needs a forest model; algorithm '", cell.algorithm, "' does not fit one");
  for (const std::string& what : spec.record) {
    std::string out;
    char buf[32];
    for (double v : what == "leaf_occupancy" ? forest->leaf_occupancy() : forest->left_fraction()) {
      std::snprintf(buf, sizeof buf, "%s%.6g", out.empty() ? "" : " ", v);
      out += buf;
    }
    row.set(what, out);
  }
}

}  // namespace

ResultRow run_task(const Dataset& given, const Split& split, const TaskCoordinates& t, const RunContext& ctx) {
  const Cell& cell = *t.cell;
  const AlgorithmInfo& info = find_algorithm(cell.algorithm);
  ImputedData imputed = impute_for_task(given, split, cell, info);
  // Public bounds (core/data/dataset.hpp): the fit and the predictions see every value clamped to
  // the schema's domains and target bounds, a fixed map of public knowledge. Registry domains hold
  // their files, so this copies nothing there; a hand-written narrower domain gets a clamped copy.
  if (imputed.applied) clamp_to_bounds(imputed.data);
  Dataset clamped;
  const Dataset& data = imputed.applied ? imputed.data : clamped_to_bounds(given, clamped);
  if (!info.supports(data.task()))
    fail("algorithm '", cell.algorithm, "' does not support ", to_string(data.task()), " (dataset ", cell.dataset, ")");
  ResultRow row;
  set_coordinates(row, t, data, split, imputed);

  std::unique_ptr<Learner> learner = info.make(cell.params, data.schema());
  FitContext fit{Rng(t.seed), PrivacyLedger(), ctx.fit_threads};
  auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<Model> model = learner->fit(data, split.train, fit);
  const double fit_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  Predictions pred = model->predict(data, split.test);
  const double predict_s = seconds_since(t0);

  set_metrics(row, data, split, pred, t.positive_class);
  set_privacy(row, info, cell, data, fit.ledger);
  row.set("fit_seconds", fit_s);
  row.set("predict_seconds", predict_s);
  ModelStats st = model->stats();
  row.set("n_leaves", std::to_string(st.n_leaves));
  row.set("empty_leaf_fraction", st.empty_leaf_fraction);
  row.set("mean_tree_depth", st.mean_depth);  // the depth actually grown (after any occupancy rule)
  set_recorded(row, *t.spec, cell, *model);
  row.set("git_commit", ctx.git_commit);
  row.set("threads", std::to_string(ctx.threads));
  row.set("host", ctx.host);
  for (const auto& [k, v] : model->extra_columns()) row.set(k, v);
  return row;
}

}  // namespace dpf
