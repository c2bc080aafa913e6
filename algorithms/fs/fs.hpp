// FS: Friedman & Schuster (KDD 2010) DiffP-C4.5 as Fletcher & Islam (2017) ran it (one tree, depth 5,
// eps = 1; smooth-rdf.md §2.2). The split policy is shared with RGV's trees (algorithms/common/fs_split.hpp).
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> fs_algorithms();  // fs

}  // namespace dpf
