// Hyper-parameter tuning as meta-algorithms of the registry (docs/leaderboard.md "Tracks"): a tuning
// entry takes a base algorithm's name, the base's fixed parameters and a grid of its hyper-parameters,
// and in fit() runs the selection over candidates of the base learner on the training rows only. So
// the runner, sharding, resume, the results schema, the ledger and the privacy audit treat a tuned
// pipeline like any other algorithm.
//   - private-selection: Liu & Talwar (STOC 2019) random stopping, epsilon-DP at the nominal epsilon
//     (private_selection.cpp); over (epsilon, delta) bases accounted in Rényi DP (rdp_selection.cpp);
//   - enumerated-selection: every grid point once at (epsilon/k, delta/k), basic composition
//     (enumerated_selection.cpp), for bases neither random-stopping theorem covers (Lumberjack);
//   - oracle-tuning: the grid point with the best non-private nested-CV score, refitted at the nominal
//     epsilon; an upper bound, labelled not DP (oracle.cpp).
// This folder includes no family: the registry passes a lookup of the other entries when it builds
// these ones (algorithms/registry.cpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

// Finds a registry entry by name (throws dpf::Error for an unknown one). Called at fit and status
// time, after the table is built.
using AlgorithmLookup = std::function<const AlgorithmInfo&(const std::string&)>;

// private-selection, enumerated-selection, oracle-tuning
std::vector<AlgorithmInfo> tuning_algorithms(AlgorithmLookup lookup);

}  // namespace dpf
