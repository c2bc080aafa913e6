// The parallel runner (design.md §2): cells -> tasks (cell x repetition x fold) -> OpenMP over tasks
// with a thread budget -> one result row per task -> one CSV per finished cell, written atomically.
// A rerun skips cells whose file exists and matches its record (cell_store.hpp); `--shard i/N` runs the units that work_plan.hpp gives shard i (by estimated cost); the merge
// step joins the cell files of the config into results.csv. Seeds depend only on task coordinates,
// so results do not depend on thread count, shard layout or interruption.
#pragma once
#include <string>
#include <vector>

#include "datasets/registry.hpp"
#include "experiments/config/config.hpp"

namespace dpf {

struct RunOptions {
  int threads = 1;
  int shard_index = 0, shard_count = 1;
  std::string results_root = "results";
  DataOptions data;
  bool progress = true;
  // Claims on units (cell_claim.hpp): on by default; a claim not refreshed for claim_ttl seconds is
  // stale. handle_signals: SIGTERM/SIGINT are blocked by the caller and end the run cleanly.
  bool claims = true;
  int claim_ttl = 300;
  bool handle_signals = false;
};

struct RunReport {
  std::size_t cells = 0, cells_in_shard = 0;
  // Units of work (work_plan.hpp: cells or pieces of cells) of this shard, and what became of them.
  // computed + already_done + failed + unwritten + missing_data + claimed_elsewhere = in_shard.
  std::size_t in_shard = 0, already_done = 0, computed = 0, failed = 0, missing_data = 0, claimed_elsewhere = 0;
  std::size_t unwritten = 0;   // computed, but the unit's file could not be written
  bool merge_failed = false;   // the merged results.csv could not be written (a note says why)
  double balance = 1;  // the plan's slowest shard over mean (estimated cost)
  std::size_t tasks = 0;
  double seconds = 0;
  std::vector<std::string> notes;  // one line per missing dataset / failed cell
  std::string results_csv;         // merged table (empty when sharded or when no cell has results)
};

// What `dpforest run --dry-run` reports: the work of this shard (all of it without --shard), how much
// of it the results folder already holds, and the calibrated cost model's estimate of the rest
// (cost_model.hpp). Reads only the results folder, never the datasets; writes nothing.
struct RunPreview {
  struct CellCost {
    std::string id, label, algorithm, dataset, task;
    std::string cost_key;  // the cost table's row (cost_model.hpp cost_key)
    double train_rows = 0, features = 0, numeric_features = 0, trees = 0, depth = 0, classes = 0;
    double task_seconds = 0;  // estimated CPU seconds of one task
    int tasks = 0;            // tasks of this cell in this shard
    bool done = false;
  };
  std::size_t cells = 0, tasks = 0;            // of the experiment
  std::size_t shard_cells = 0, shard_tasks = 0;  // of this shard (= the above without --shard)
  std::size_t cells_done = 0, tasks_left = 0;  // of this shard, in the results folder / still to run
  std::size_t cells_not_mirrored = 0;          // of this shard: on a dataset the registry marks not mirrored (skipped)
  double cpu_seconds = 0, cpu_seconds_left = 0, wall_seconds_left = 0, largest_task_seconds = 0;
  int threads = 1;
  std::vector<CellCost> per_cell;  // this shard's cells, in cell order
};
RunPreview preview_run(const ExperimentSpec& spec, const RunOptions& options);
// The dry run's text: a few lines with the counts and estimates.
std::string format_preview(const ExperimentSpec& spec, const RunOptions& options, const RunPreview& p);

std::string experiment_dir(const ExperimentSpec& spec, const std::string& results_root);
// Fails, before any dataset is read or task run, when the results folder or its cells/ folder (cell
// files and claims) cannot be written. Writes experiment.yaml there (experiment_header_yaml).
RunReport run_experiment(const ExperimentSpec& spec, const RunOptions& options);

struct MergeReport {
  std::size_t cells = 0, present = 0, rows = 0;
  std::vector<std::string> missing;  // labels of cells without a result file
  std::vector<std::string> invalid;  // cells whose file fails its record (label: why)
  std::string path;
  bool written = false;  // false: cells were missing or invalid and allow_partial was not given
};
// Joins the valid cell files into results.csv. With cells missing or invalid the table is written
// only when `allow_partial`; without any valid cell only when `write_empty` as well (a run passes
// false: a run whose cells were all skipped writes no table). The report says what is missing.
MergeReport merge_experiment(const ExperimentSpec& spec, const std::string& results_root, bool allow_partial = false,
                             bool write_empty = true);

}  // namespace dpf
