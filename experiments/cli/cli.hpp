// Helpers of the dpforest CLI that are worth testing on their own.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "experiments/config/config.hpp"
#include "experiments/run/runner.hpp"

namespace dpf {

int default_threads();  // OMP_NUM_THREADS if set, else the number of cores
// "i/N" with 0 <= i < N; throws dpf::Error otherwise.
void parse_shard(const std::string& s, int& index, int& count);
// Repeated `--param name=value` options as a map (a later value of a name replaces an earlier one);
// throws dpf::Error naming the option that has no '=' or no name.
std::map<std::string, std::string> parse_param_options(const std::vector<std::string>& params);

int cmd_list(const std::vector<std::string>& args);
// `dpforest dataset check FILE [--schema S]` (data_cmd.cpp).
int cmd_dataset(const std::vector<std::string>& args);
// `dpforest summarize RESULTS_DIR` (summarize_cmd.cpp): mean ± sd per series x dataset x swept value,
// and the figure drawn by plots/summarize.py.
int cmd_summarize(const std::vector<std::string>& args);

// `dpforest run CONFIG --dry-run`: prints format_preview() (cells, tasks, cells already done, estimated
// CPU and wall time at --threads); with `cells_tsv` also writes one line per cell of this shard
// (id, algorithm, label, dataset, task, train_rows, features, trees, depth, classes, tasks, done, est_task_seconds),
// which `make calibrate` joins with measured times. Runs and writes nothing else.
int dry_run(const ExperimentSpec& spec, const RunOptions& options, const std::string& cells_tsv);
int cmd_describe(const std::vector<std::string>& args);

// Fits `algorithm` with `params` (k=v) on every row of `dataset` and returns describe() JSON with the
// resolved parameters, privacy status and ledger totals.
std::string describe_model(const std::string& algorithm, const std::string& dataset,
                           const std::vector<std::string>& params, uint64_t seed);

}  // namespace dpf
