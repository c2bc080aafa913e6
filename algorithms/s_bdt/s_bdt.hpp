// S-BDT (Peinemann, Kirschte, Mohammadi; arXiv 2309.12041): DP gradient-boosted trees with Poisson
// subsampling, clipped gradients, data-independent splits on a public grid, non-spherical Gaussian
// leaves, Rényi accounting converted to (epsilon, delta) and individual Rényi filters
// (../shared/specs/s-bdt.md, read from kirschte/sbdt), and DPBoost on the same boosting path (§9).
#pragma once
#include <memory>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

// s-bdt and dpboost.
std::vector<AlgorithmInfo> s_bdt_algorithms();
// A boosted model written by its save() (the loader table, algorithms/model_io.cpp).
std::unique_ptr<Model> load_boosted_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf
