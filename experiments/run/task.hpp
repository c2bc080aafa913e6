// One task: fit on the training rows, predict the test rows, measure. Produces one result row.
#pragma once
#include <string>

#include "core/data/dataset.hpp"
#include "core/eval/cv.hpp"
#include "experiments/store/results.hpp"
#include "experiments/config/sweep.hpp"

namespace dpf {

struct TaskCoordinates {
  const ExperimentSpec* spec;
  const Cell* cell;
  int repetition = 0, fold = 0;
  uint64_t seed = 0;
  int positive_class = 1;  // for AUC / F1: the least frequent class of the dataset
};

struct RunContext {
  std::string git_commit, host;
  int threads = 1;      // the run's thread budget (recorded in the row)
  int fit_threads = 1;  // threads one fit may use for its trees
};

ResultRow run_task(const Dataset& data, const Split& split, const TaskCoordinates& t, const RunContext& ctx);

// The task's RNG key: hash(master seed, paper, experiment, cell key, repetition, fold).
uint64_t task_seed(const ExperimentSpec& spec, const Cell& cell, int repetition, int fold);

}  // namespace dpf
