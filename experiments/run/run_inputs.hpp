// The data a run's pending cells need, read before any task starts: each dataset loaded once,
// prepared once per preprocessing, and its fold plans. Folds depend only on (master seed, dataset,
// repetition), so every algorithm and every epsilon sees the same splits (design.md §5).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/eval/cv.hpp"
#include "datasets/registry.hpp"
#include "experiments/config/sweep.hpp"

namespace dpf {

struct RunInputs {
  // "<dataset>|<preprocess key>" -> the prepared table. A cell without preprocessing shares the
  // loaded table instead of a copy (an 11M-row HIGGS-shaped table is 2.5 GB).
  std::map<std::string, std::shared_ptr<const Dataset>> prepared;
  std::map<std::string, std::string> skipped;                // dataset -> why its cells cannot run
  // Fold plans (2 bytes per row and repetition), not splits: each task builds its own Split when it
  // runs, so memory holds only the splits of the running tasks (a 10x10 CV at 11M rows would
  // otherwise hold 4.4 GB of row indices). Empty for resubstitution.
  std::map<std::string, std::vector<FoldPlan>> fold_plans;  // dataset -> per repetition
  std::map<std::string, int> positive;                       // classification dataset -> least frequent class

  bool runs(const Cell& c) const { return !skipped.count(c.dataset); }
  const Dataset& data(const Cell& c) const;
  Split split(const Protocol& protocol, const Cell& c, int repetition, int fold) const;
  int positive_class(const Cell& c) const;  // for AUC / F1; 1 for regression
};

// Loads what `pending` needs. A dataset that is missing (dpf::MissingInput) or has fewer rows than
// k-fold's folds skips its cells with a note; the others run.
RunInputs load_run_inputs(const ExperimentSpec& spec, const std::vector<const Cell*>& pending, const DataOptions& data,
                          std::vector<std::string>& notes);

}  // namespace dpf
