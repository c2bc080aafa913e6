// The algorithm registry (design.md §4): one explicit table in registry.cpp (no static
// self-registration). Each entry: name -> factory, parameter schema, supported tasks, the fidelity
// options (reference quirks, strict variant) and the privacy status. Included by experiments/ and
// python/ only; algorithm families include algorithms/common/algorithm_info.hpp.
#pragma once
#include <string>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

const std::vector<AlgorithmInfo>& algorithm_table();
// Throws dpf::Error naming the unknown name and listing the known ones.
const AlgorithmInfo& find_algorithm(const std::string& name);


}  // namespace dpf
