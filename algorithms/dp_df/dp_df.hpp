// DP-DF (Fletcher & Islam, AusDM 2015, "A differentially private decision forest") as specified in
// dipreme.md §3.5: 5-bin categorical inputs, every tree on all records, ε_query = ε/(N_T (2h - 1)),
// noisy class counts per node, attribute by the exponential mechanism on the Gini gain with the
// AusDM local sensitivity at the noisy node size, diverse roots, confidence-weighted vote, and the
// optional bottom-up pruning on the released noisy counts (`prune`, algorithms/dp_df/prune.hpp).
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

// Registry entry: dp-df (classification).
std::vector<AlgorithmInfo> dp_df_algorithms();

}  // namespace dpf
