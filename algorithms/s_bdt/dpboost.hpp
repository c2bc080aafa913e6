// DPBoost (Li, Wu, Wang, He; AAAI 2020) as s-bdt.md §9 recommends it on S-BDT's boosting path: the
// `dpboost` registry entry of this family.
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> dpboost_algorithms();

}  // namespace dpf
