// Cluster commands (design.md §10): `dpforest slurm` writes an array job and a dependent
// finishing job from the templates in experiments/cluster/templates/ and submits both with sbatch; `dpforest
// status` shows a sweep's progress from its shared results folder (finished and failed units, live
// claims with their host and job, throughput and ETA).
#pragma once
#include <string>
#include <vector>

#include "experiments/config/config.hpp"

namespace dpf {

int cmd_slurm(const std::vector<std::string>& args);
int cmd_status(const std::vector<std::string>& args);

// `text` with every @KEY@ replaced by values[KEY]; fails naming `what` on a placeholder left over.
std::string fill_template(const std::string& text, const std::vector<std::pair<std::string, std::string>>& values,
                          const std::string& what);

// 'text' quoted for bash (single quotes, ' as '\'').
std::string shell_quote(const std::string& text);

// The load-balance lines for one config with N shards: estimated slowest-shard-over-mean by cost (the
// plan) and by cell index modulo N (the former rule), and the number of pieces.
std::string plan_summary(const ExperimentSpec& spec, int shards);

}  // namespace dpf
