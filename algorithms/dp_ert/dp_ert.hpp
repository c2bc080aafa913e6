// DP-ERT (Bojarski et al. 2014, as the DiPriMe authors ran it: dipreme.md §3.2). The structure is
// drawn without looking at the data: a uniformly random remaining attribute per node, a threshold
// uniform on the node's current domain (or a uniformly random bipartition of the allowed
// categories). Every tree sees all training rows, so the trees compose sequentially: each tree's
// leaves get ε / N_T. Leaves as in dipreme.md §2.8 (noisy class counts; regression analogue: noisy
// clipped mean). Prediction: the mean of the trees' leaf values.
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> dp_ert_algorithms();  // dp-ert

}  // namespace dpf
