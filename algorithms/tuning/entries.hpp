// The two registry entries of this folder and the parameters they share (tuning.cpp).
#pragma once
#include <string>
#include <vector>

#include "algorithms/tuning/tuning.hpp"

namespace dpf {

AlgorithmInfo private_selection_algorithm(AlgorithmLookup lookup);
AlgorithmInfo oracle_tuning_algorithm(AlgorithmLookup lookup);
// base, base_params, grid (default `default_grid`), strict.
std::vector<ParamSpec> tuning_common_params(const std::string& default_grid);

}  // namespace dpf
