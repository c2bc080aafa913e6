// The privacy status of a cell's configuration, as its result rows record it and as `run`, `--dry-run`
// and `status` summarise it per series before any work.
#pragma once
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "experiments/config/sweep.hpp"

namespace dpf {

// The registry's status of the configuration, rewritten when preprocessing reads the rows (the
// target's range, or domains from the data): that is a release the algorithm's ledger does not pay
// for, so such a configuration is never labelled epsilon-DP.
std::string cell_privacy_status(const AlgorithmInfo& info, const Cell& cell, TaskKind task, bool domains_from_data);

// "k of N series are not epsilon-DP (published variants):" followed by one "<label>: <status>" line
// per such series (N counts the series of private algorithms; non-private baselines claim nothing).
// Empty when every private series is epsilon-DP. Statuses come from the registry and the datasets'
// public facts, before any data is read.
std::vector<std::string> privacy_summary(const ExperimentSpec& spec, const std::vector<Cell>& cells);

}  // namespace dpf
