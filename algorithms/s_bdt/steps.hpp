// The steps of one S-BDT round (s-bdt.md §3.3-§3.4), each a function of public inputs, the data it is
// given and its own random stream, so that tests can replay them.
#pragma once
#include <cstdint>
#include <vector>

#include "algorithms/common/gradient_tree.hpp"
#include "algorithms/s_bdt/accounting.hpp"
#include "algorithms/s_bdt/params.hpp"
#include "core/privacy/rng.hpp"

namespace dpf::sbdt {

// A feature's public split candidates (§3.4 step 1): numeric c_k = a + k (b - a) / K for k < K (b itself
// never a candidate), (a, b) the schema's public domain or the border; categorical codes 0 .. m - 1
// (the schema's category list: the public domain).
struct Grid {
  bool categorical = false;
  int n_codes = 0;
  double lo = 0.0, hi = 0.0;
  std::vector<double> cuts;
};
std::vector<Grid> build_grids(const SbdtParams& p, const Schema& schema);

// The data-independent tree of round `round` (§3.4 step 5).
GradientTree draw_tree(const SbdtParams& p, const std::vector<Grid>& grids, int round, Rng& rng);

// Poisson sampling at rate q (§3.4 step 3): each member of `pool` independently, by geometric gaps.
void poisson_sample(const std::vector<uint32_t>& pool, double q, Rng& rng, std::vector<uint32_t>& out);

// §3.3: the initial score from the labels y[i] of the positions in `pool` (regression labels scaled
// to [-1, 1]; binary 0/1, the score is then logit of the noisy mean).
double initial_score(const SbdtParams& p, const Plan& plan, const std::vector<double>& y,
                     const std::vector<uint32_t>& pool, bool clf, Rng& rng);

// §3.4 step 6: the noisy leaf values of every leaf, empty ones included.
struct LeafNoise {
  double sigma, G, H, w, lambda, clamp;
  bool newton, half_hessian, cut_off, add;
};
void release_leaves(GradientTree& tree, const LeafSums& s, const LeafNoise& n, Rng& rng);

}  // namespace dpf::sbdt
