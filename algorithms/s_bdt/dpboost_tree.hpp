// One DPBoost tree (Li et al., AAAI 2020, Algorithm 1; s-bdt.md §9 recommendation): splits chosen by the
// exponential mechanism over a public grid with the XGBoost-style gain, leaves released with Laplace
// noise after gradient-based leaf clipping. Pure epsilon-DP on the tree's own rows.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/common/gradient_tree.hpp"
#include "algorithms/s_bdt/steps.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rng.hpp"

namespace dpf::sbdt {

struct DpboostTreeSpec {
  int max_depth = 6;
  double G = 1.0;          // gradient bound g*: GDF drops |g| > G before the tree sees a row
  double lambda = 0.1;
  double eps_level = 0.0;  // epsilon / (2 depth) per level (the nodes of a level hold disjoint rows)
  double eps_leaf = 0.0;   // epsilon / 2 for the leaves
  double leaf_bound = 0.0; // GLC: leaves clamped to [-c_t, c_t] (0 = no clipping)
};

// Grows a tree on `rows` (data row ids) with gradients g (g[i] belongs to rows[i], |g| <= G), charging
// `ledger` under `scope` (sequential): per level a parallel scope with one exponential-mechanism charge
// per node, then a parallel scope with one Laplace charge per leaf. Training and prediction both route
// numeric rows with x < cut to the left.
GradientTree grow_dpboost_tree(const DpboostTreeSpec& spec, const std::vector<Grid>& grids, const Dataset& data,
                               std::span<const uint32_t> rows, std::span<const double> g, Rng& rng,
                               PrivacyLedger& ledger, PrivacyLedger::ScopeId scope);

}  // namespace dpf::sbdt
