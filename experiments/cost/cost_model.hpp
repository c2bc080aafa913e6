// The calibrated cost model (behind the shard plan, the dry run and the progress ETA): an estimate of the CPU seconds
// of one task, known before any data is read, from the config and the registries only (the algorithm,
// the dataset's registry shape, the protocol's training fraction, the cell's trees and depth).
//
//   log(cpu seconds) = a[alg, task] + t[alg] log(trees) + r[alg] log(training rows)
//                      + d[alg] log(depth) + f[alg] log(features) + n[alg] log(1 + numeric features)
//                      + c[alg] log(classes)
//
// depth = min(max_depth, log2(training rows)) (log2(rows) where the algorithm has no max_depth or it is
// 0 = unlimited; the occupancy rule's depth where `occupancy` > 0; the random decision forests' depth
// rule, from the numbers of continuous and discrete features, where the cell has a `depth_rule`);
// trees = n_trees (1 where the algorithm grows a single tree); training rows are each tree's share
// where the DiPriMe family partitions the rows among its trees; matrix-rf's per_dataset entry
// overrides n_trees and max_depth. Numeric features are counted apart because the families that sort
// every numeric attribute at every node (FS, and RGV's published variant, whose FS trees grow to
// max_depth) cost about linearly in them, while a categorical feature costs a counting pass (smooth-rdf
// Figure 14: 5 to 20 numeric features, 27,000 rows, 4x the CPU). The coefficients per
// algorithm (and task kind, where an algorithm fits both) are fitted by least squares in log space on
// measured per-task CPU times (the `cpu_seconds` column), each algorithm's exponents shrunk towards the
// exponents shared by all algorithms, and stored in experiments/cost/cost_table.inc, which
// `make calibrate` regenerates (experiments/tools/calibrate_cost.py; the file names the runs it was
// fitted on: the calibration sweeps, and with PAPER_RESULTS the papers' own runs). Seconds are CPU
// seconds of the calibrating machine: another machine scales all of them
// by about one factor, which neither the shard plan nor the runner's ETA (which rescales by measured
// times) depends on.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "experiments/config/config.hpp"
#include "experiments/config/sweep.hpp"

namespace dpf {

// What the model reads of a task; `known` is false when the registry does not know the dataset (then
// 1,000 rows x 10 features are assumed) and `mirrored` false when its cells are skipped (cost ~0).
struct TaskShape {
  double train_rows = 0, features = 0, trees = 1, depth = 1;
  double numeric_features = 0;  // of `features`, those not categorical
  double classes = 2;  // the registry's class list (1 for regression)
  std::string task = "classification";  // the dataset's task kind
  bool known = true, mirrored = true;
};
TaskShape task_shape(const ExperimentSpec& spec, const Cell& cell);

// One row of the fitted table (experiments/cost/cost_table.inc).
struct AlgorithmCost {
  const char* algorithm;
  const char* task;  // "classification" | "regression"
  double log_factor, trees, rows, depth, features, numeric, classes;
  int measured_tasks;  // how many measured tasks it was fitted on
};

// The fitted table, and the coefficients used for an algorithm it lacks (the shared fit, with the
// median factor).
const std::vector<AlgorithmCost>& cost_table();
const AlgorithmCost& shared_cost();

// The row used for (algorithm, task): that pair, else the algorithm under the other task kind, else
// shared_cost().
const AlgorithmCost& cost_row(const std::string& algorithm, const std::string& task);

// The cost table's name for the cell's algorithm: the registry name, except where a parameter changes
// the work by more than the shape can say. RGV's published variant spends the whole epsilon in every
// tree, so its FS trees grow to max_depth; strict RGV divides epsilon by n_trees and FS's stopping
// rule ends most trees at the root (38x less CPU on SynthC, 110 trees): "rgv/published" is its own row.
std::string cost_key(const Cell& cell);

// Estimated CPU seconds of one task of the cell (a skipped, not mirrored dataset: 1e-6).
double estimated_task_seconds(const ExperimentSpec& spec, const Cell& cell);

struct ExperimentEstimate {
  std::size_t cells = 0, tasks = 0;
  double cpu_seconds = 0;         // all tasks
  double largest_task_seconds = 0;
};
// A formula (closed-form) experiment: 0 tasks, 0 s. Expands the cells (validating the config).
ExperimentEstimate estimate_experiment(const ExperimentSpec& spec);

// Wall seconds of `cpu_seconds` of work in `tasks` tasks on `threads` threads (tasks in parallel, or
// trees in parallel when tasks are fewer than threads, as the runner does): the larger of an even
// spread and the largest task on its own.
double estimated_wall_seconds(double cpu_seconds, double largest_task_seconds, std::size_t tasks, int threads);

// "<0.1 s", "4.2 s", "42 s", "3.5 min", "2.1 h", "1.3 days".
std::string human_seconds(double s);

// The runner's ETA: the estimated cost left times the seconds measured per unit of estimated cost so
// far (so a model that is off by a constant factor on this machine, or a loaded machine, is corrected
// by the first finished tasks). Before any task finished it falls back to the model's estimate spread
// over the threads. Not thread-safe: the runner calls it under its progress lock.
class EtaEstimator {
 public:
  EtaEstimator(double total_cost, int threads) : total_(total_cost), threads_(threads < 1 ? 1 : threads) {}
  void finished(double task_cost) { done_ += task_cost; ++tasks_done_; }
  double done_cost() const { return done_; }
  std::size_t tasks_done() const { return tasks_done_; }
  // Seconds left after `elapsed` wall seconds.
  double seconds_left(double elapsed) const;
  // Fraction of the estimated cost done (0..1).
  double fraction_done() const { return total_ > 0 ? done_ / total_ : 1.0; }

 private:
  double total_ = 0, done_ = 0;
  int threads_ = 1;
  std::size_t tasks_done_ = 0;
};

}  // namespace dpf
