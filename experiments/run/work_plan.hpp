// How a sweep is cut into work for shards, so that shards finish at about the same time: each cell's tasks (repetition x
// fold) are estimated in cost from what is known before any data is read (the registry's rows and
// features, the trees and depth asked for, the protocol's training fraction, the algorithm's calibrated
// factor: cost_model.hpp); a sharded run may cut an expensive
// cell's tasks into contiguous pieces, and the units are assigned to shards by estimated cost (longest
// first onto the least loaded shard) instead of by cell index modulo N. The plan is a pure function of
// the config and N, so every shard of an array computes the same plan without talking to the others.
// Seeds do not depend on it: results are the same for any plan (a piece's rows are its tasks' rows).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "experiments/config/config.hpp"
#include "experiments/config/sweep.hpp"

namespace dpf {

// Estimated cost of one task of the cell: the calibrated CPU seconds of cost_model.hpp (per-algorithm
// factors and exponents over trees, training rows, depth and features, fitted on measured task times;
// a dataset the registry does not mirror costs almost nothing: it is skipped).
double estimated_task_cost(const ExperimentSpec& spec, const Cell& cell);

struct WorkUnit {
  std::size_t cell = 0;           // index into the expanded cells
  int first = 0, end = 0;         // tasks [first, end) in slot order (repetition * folds + fold)
  bool whole = true;              // the whole cell (stored as cells/<id>.csv); else a piece
  double cost = 0;                // estimated
  int shard = 0;
  std::string name;               // "<cell id>" or "<cell id>.part-<first>-<end>": its file stem
};

struct WorkPlan {
  int shard_count = 1;
  int tasks_per_cell = 0;
  std::vector<WorkUnit> units;        // ordered by cell, then first task
  std::vector<double> shard_cost;     // estimated cost per shard
  double total_cost = 0;
  double balance() const;             // slowest shard over mean shard (1 = perfect)
};

enum class Assignment { kByCost, kByIndex };

// kByCost: with N > 1 a cell costing more than total / (4N) is cut into pieces of about that cost
// (at most one per task), then units go longest first to the least loaded shard (ties: lower shard,
// lower cell). kByIndex: the former rule (whole cells, cell index % N), kept to report the difference.
WorkPlan plan_work(const ExperimentSpec& spec, const std::vector<Cell>& cells, int shard_count,
                   Assignment how = Assignment::kByCost);

// "<cell id>.part-<first>-<end>" for a piece.
std::string piece_name(const std::string& cell_id, int first, int end);

// `--shard slurm` or `--shard slurm/N`: this array task's shard from SLURM's environment (read through
// `env`, which returns "" for an unset variable). Without N: N = SLURM_ARRAY_TASK_COUNT and the shard
// is the task's position in the array range (--array=1-4 gives 0..3). With N: the shard is
// SLURM_ARRAY_TASK_ID mod N, so any N consecutive indices cover every shard and a task resubmitted on
// its own (--array=3) keeps its shard. Fails with a message saying what to change otherwise.
void shard_from_slurm(const std::string& arg, const std::function<std::string(const char*)>& env, int& index,
                      int& count);

}  // namespace dpf
