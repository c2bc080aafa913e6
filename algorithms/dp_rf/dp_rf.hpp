// DP-RF as the DiPriMe authors ran it (dipreme.md §3.3 classification, after Patil & Singh 2014;
// §3.4 the authors' regression analogue): 5-bin categorical inputs (preprocess bins: 5), one
// subsample of size floor(b n) without replacement shared by all trees, ε/N_T per tree, multi-way
// splits over each attribute's full category list, noisy counts (classification) or noisy means
// (regression) at the nodes.
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

// Registry entry: dp-rf (classification and regression).
std::vector<AlgorithmInfo> dp_rf_algorithms();

}  // namespace dpf
