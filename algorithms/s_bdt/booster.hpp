// S-BDT's training loop (s-bdt.md §3): data-independent random trees on a public split grid, Poisson
// subsampling, clipped gradients, non-spherical Gaussian leaves, the individual Rényi filter and
// stream mode. The accounting lives in accounting.hpp.
#pragma once
#include <memory>
#include <span>

#include "algorithms/s_bdt/params.hpp"
#include "core/tree/model.hpp"

namespace dpf::sbdt {

std::unique_ptr<Model> fit_sbdt(const SbdtParams& p, const Dataset& data, std::span<const uint32_t> rows,
                                FitContext& ctx);

}  // namespace dpf::sbdt
