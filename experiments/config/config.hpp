// Experiment configs (design.md §2): YAML validated in full before any work. Every key is checked:
// an unknown key is an error naming the file and the key's path (e.g. "algorithms[2].parms").
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datasets/local.hpp"
#include "datasets/registry.hpp"

namespace dpf {

// How a dataset is prepared for a cell (applied once per dataset, before the splits, as the
// DiPriMe notebooks do; every choice is recorded in the result rows).
struct Preprocess {
  std::string target_scaling = "none";  // none | minmax | max   (over the whole dataset, dipreme.md §1)
  std::string domains = "registry";     // registry | from-data  (from-data: min/max of the whole dataset, P6)
  int bins = 0;                         // > 0: equal-width bins over the domains (DP-RF / DP-DF inputs)
  std::string key() const;
};

// Applies overrides (already validated) to a dataset's preprocessing.
Preprocess with_overrides(Preprocess p, const std::map<std::string, std::string>& overrides);

struct DatasetRef {
  std::string id;  // registry id or id:variant, a generator spec, or an own dataset's id
  Preprocess preprocess;
  // An own CSV file with its public schema (`{csv: FILE, schema: FILE}` or the schema inline;
  // docs/own-data.md); null for the registry's datasets.
  std::shared_ptr<const LocalDataset> local;
};

struct AlgorithmRef {
  std::string name;   // registry name
  std::string label;  // series label in plots and tables (defaults to name)
  std::map<std::string, std::vector<std::string>> params;  // each a scalar or a list (swept)
  // Keys that override the dataset's preprocessing for this algorithm (e.g. bins: 5 for DP-RF).
  std::map<std::string, std::string> preprocess_overrides;
  // Datasets of the config this algorithm does not run on, each with the reason printed by dry-run,
  // status and list (e.g. the authors' code refuses the data). No cells are expanded for them, so a
  // run, its snapshot and its plots count them as excluded rather than unfinished.
  std::map<std::string, std::string> exclude_datasets;
  std::string where;      // "algorithms[i]" for messages
};

struct Protocol {
  // holdout | kfold | resubstitution (fit on every row and evaluate on every row, one split per
  // repetition: the "train on all, query rows of the same data" protocol of matrix-rf Fig. 3b)
  std::string type = "holdout";
  int repetitions = 10;
  double test_fraction = 0.1;    // holdout
  int folds = 10;                // kfold
  bool stratified = false;
  int n_folds() const { return type == "kfold" ? folds : 1; }
};

struct ExperimentSpec {
  std::string path;
  std::string paper, experiment, title, kind = "figure";
  uint64_t seed = 0;
  Protocol protocol;
  std::vector<DatasetRef> datasets;
  std::map<std::string, std::vector<std::string>> defaults;  // merged where an algorithm has the parameter
  std::vector<AlgorithmRef> algorithms;
  // Per-fit structure diagnostics written as extra row columns (space-separated values), for the
  // balance figures (dipreme.md §8): "leaf_occupancy" (leaf count / n_train, every leaf of every
  // tree) and "left_fraction" (share of a binary node's rows sent to child 0).
  std::vector<std::string> record;
  // A closed-form table (experiments/config/formula.hpp) instead of datasets x algorithms: the formula's
  // name and its grid (each argument a value or a list). Empty: an ordinary experiment.
  std::string formula;
  std::map<std::string, std::vector<std::string>> formula_grid;

  // The own dataset of that id, or null (a registry or generated dataset).
  const LocalDataset* local_dataset(const std::string& id) const;
};

// What is public about a dataset of the config before any row is read: the own dataset's schema,
// else the registry's entry or the generator's spec (datasets/registry.hpp).
DatasetFacts config_dataset_facts(const ExperimentSpec& spec, const std::string& id);

// The keys that describe an experiment's results (paper, experiment, title, protocol) of a config,
// or of the experiment.yaml a run writes beside its results; other keys are ignored, not checked.
struct ExperimentHeader {
  std::string paper, experiment, title;
  Protocol protocol;
};
ExperimentHeader read_experiment_header(const std::string& path);
// The experiment.yaml a run writes into its results folder (what `dpforest summarize` reads).
std::string experiment_header_yaml(const ExperimentSpec& spec);

// Parses and validates; throws dpf::Error naming the file and key.
ExperimentSpec load_experiment(const std::string& path);
ExperimentSpec parse_experiment(const std::string& yaml_text, const std::string& path);

}  // namespace dpf
