// Fletcher & Islam (2017), "Differentially private random decision forests using smooth
// sensitivity" (smooth-rdf.md §1): data-independent random trees of the Table-4 depth, disjoint data
// per tree, majority label per leaf by the exponential mechanism with smooth sensitivity, majority
// vote. Registered as `smooth-rdf` (with the experiment variants as parameters: global sensitivity,
// all data per tree, depth m/2 and m, permute-and-flip, strict) and `rdf-nonprivate` (epsilon = inf).
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> smooth_rdf_algorithms();  // smooth-rdf, rdf-nonprivate

}  // namespace dpf
