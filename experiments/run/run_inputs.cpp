#include "experiments/run/run_inputs.hpp"

#include "core/data/preprocess.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

using DatasetMap = std::map<std::string, std::shared_ptr<const Dataset>>;

// True when prepare() would return an unchanged copy.
bool is_identity(const Preprocess& p) { return p.target_scaling == "none" && p.domains != "from-data" && p.bins <= 0; }

// The target scaled as `p` asks: minmax / max read the target's range from the rows (the papers'
// notebooks; not private); public-minmax / public-max use the registry's public target bounds.
void scale_target(Dataset& d, const std::vector<uint32_t>& all, const std::string& scaling) {
  require(d.task() == TaskKind::kRegression, d.name(), ": target_scaling '", scaling, "' needs a regression target");
  const Target& t = d.schema().target;
  TargetScaler s = scaling == "max"          ? fit_target_max(d, all)
                   : scaling == "minmax"     ? fit_target_minmax(d, all)
                   : scaling == "public-max" ? TargetScaler{0.0, t.hi}
                                             : TargetScaler{t.lo, t.hi};
  s.apply(d);
}

// A dataset prepared as a cell asks (dipreme.md §1, §6.1: over the whole dataset, before splitting).
Dataset prepare(const Dataset& raw, const Preprocess& p) {
  // Binning alone reads `raw` directly: no intermediate copy (peak 2 datasets, not 3).
  if (p.target_scaling == "none" && p.domains != "from-data" && p.bins > 0) return bin_equal_width(raw, p.bins);
  Dataset d = raw;
  std::vector<uint32_t> all = all_rows(d.n_rows());
  if (p.target_scaling != "none") scale_target(d, all, p.target_scaling);
  if (p.domains == "from-data") domains_from_data(d, all);
  if (p.bins > 0) d = bin_equal_width(d, p.bins);
  return d;
}

void skip(RunInputs& in, const std::string& dataset, const std::string& why, std::vector<std::string>& notes) {
  in.skipped[dataset] = why;
  notes.push_back("skipped cells of dataset " + dataset + ": " + why);
}

// Each dataset of the pending cells (an own CSV file or the registry's), loaded once; a missing one
// is skipped with its reason.
DatasetMap load_raw(const ExperimentSpec& spec, const std::vector<const Cell*>& pending, const DataOptions& opt,
                    RunInputs& in, std::vector<std::string>& notes) {
  DatasetMap raw;
  for (const Cell* c : pending) {
    if (raw.count(c->dataset) || in.skipped.count(c->dataset)) continue;
    try {
      const LocalDataset* local = spec.local_dataset(c->dataset);
      raw[c->dataset] = std::make_shared<const Dataset>(local ? load_local_dataset(*local) : load_dataset(c->dataset, opt));
    } catch (const MissingInput& e) {
      skip(in, c->dataset, e.what(), notes);
    }
  }
  return raw;
}

// k-fold needs at least one row per fold.
void skip_too_small_for_folds(const ExperimentSpec& spec, DatasetMap& raw, RunInputs& in, std::vector<std::string>& notes) {
  if (spec.protocol.type != "kfold") return;
  for (auto it = raw.begin(); it != raw.end();) {
    const std::size_t n = it->second->n_rows();
    if (n >= static_cast<std::size_t>(spec.protocol.folds)) {
      ++it;
      continue;
    }
    skip(in, it->first,
         spec.path + ": protocol.folds = " + std::to_string(spec.protocol.folds) + " exceeds the " + std::to_string(n) +
             " rows of dataset " + it->first,
         notes);
    it = raw.erase(it);
  }
}

void prepare_all(const std::vector<const Cell*>& pending, DatasetMap& raw, RunInputs& in) {
  for (const Cell* c : pending) {
    if (!in.runs(*c)) continue;
    const std::string key = c->dataset + "|" + c->preprocess.key();
    if (in.prepared.count(key)) continue;
    in.prepared[key] = is_identity(c->preprocess) ? raw[c->dataset]
                                                  : std::make_shared<const Dataset>(prepare(*raw[c->dataset], c->preprocess));
  }
}

int least_frequent_class(const std::vector<int>& labels, std::size_t n_classes) {
  std::vector<std::size_t> count(n_classes, 0);
  for (int l : labels) ++count[static_cast<std::size_t>(l)];
  int pos = 0;
  for (std::size_t k = 1; k < count.size(); ++k)
    if (count[k] < count[static_cast<std::size_t>(pos)]) pos = static_cast<int>(k);
  return pos;
}

void plan_folds(const ExperimentSpec& spec, const DatasetMap& raw, RunInputs& in) {
  const Protocol& pr = spec.protocol;
  for (const auto& [id, data] : raw) {
    std::vector<int> labels;
    if (data->task() == TaskKind::kClassification) {
      labels = data->labels();
      in.positive[id] = least_frequent_class(labels, data->n_classes());
    }
    std::span<const int> strat = pr.stratified ? std::span<const int>(labels) : std::span<const int>();
    auto& per_rep = in.fold_plans[id];
    // resubstitution: every row is fitted and evaluated (repetitions differ only by seed); no plan.
    if (pr.type == "resubstitution") continue;
    for (int r = 0; r < pr.repetitions; ++r) {
      Rng rng = Rng(mix64(spec.seed)).derive(hash_string(id)).derive(static_cast<uint64_t>(r));
      per_rep.push_back(pr.type == "kfold" ? kfold_plan(data->n_rows(), pr.folds, rng, strat)
                                           : holdout_plan(data->n_rows(), pr.test_fraction, rng, strat));
    }
  }
}

}  // namespace

const Dataset& RunInputs::data(const Cell& c) const { return *prepared.at(c.dataset + "|" + c.preprocess.key()); }

Split RunInputs::split(const Protocol& protocol, const Cell& c, int repetition, int fold) const {
  if (protocol.type != "resubstitution") return fold_plans.at(c.dataset)[static_cast<std::size_t>(repetition)].split(fold);
  Split split;
  split.train = all_rows(data(c).n_rows());
  split.test = split.train;
  return split;
}

int RunInputs::positive_class(const Cell& c) const { return positive.count(c.dataset) ? positive.at(c.dataset) : 1; }

RunInputs load_run_inputs(const ExperimentSpec& spec, const std::vector<const Cell*>& pending, const DataOptions& data,
                          std::vector<std::string>& notes) {
  RunInputs in;
  DatasetMap raw = load_raw(spec, pending, data, in, notes);
  skip_too_small_for_folds(spec, raw, in, notes);
  prepare_all(pending, raw, in);
  plan_folds(spec, raw, in);
  return in;  // `raw` ends here: a dataset no cell shares stays alive only through `prepared`
}

}  // namespace dpf
