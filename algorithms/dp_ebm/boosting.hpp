// DP-EBM boosting (../shared/specs/dp-ebm.md §6; InterpretML _boost.py with libebm's random splits):
// max_rounds cyclic passes over the features in one random order fixed at the start; each step grows a
// single-feature tree whose <= max_leaves - 1 cuts are drawn uniformly among the feature's bin edges
// (data-independent), releases every leaf's learning-rate-scaled gradient sum with Gaussian noise (one
// mu_step-GDP query: a record adds its gradient to one leaf), and moves the leaf's bins by
// -(lr G + Z) / W, W the leaf's noisy binning weight (§6.3). A gradient step, not a Newton step.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/dp_ebm/binning.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rng.hpp"

namespace dpf::dp_ebm {

struct BoostSpec {
  int max_rounds = 300;
  int max_leaves = 3;
  double learning_rate = 0.01;
  double mu_step = 1.0;        // GDP parameter of one step's leaf-sum query
  double sensitivity = 0.01;   // its l2 sensitivity: lr * R * w_max (§4.1)
  bool regression = false;     // gradient F - y (RMSE), else sigmoid(F) - y (log-loss)
  double clip = 0.0;           // > 0: clip each regression gradient to [-clip, clip] (strict, §9 fix 3)
  bool natural_order = false;  // v0.2.6: features in order 0..d-1 (§10.7), not one random permutation
  bool missing_edge = false;   // v0.2.6: a cut may fall on the empty missing bin's edge (§10.6)
  bool certified = true;       // false: the charges are claims, not guarantees (unclipped regression, §9)
};

// Per-feature bin scores after boosting, before centering. row_bin[j][i] is the bin of training row i
// in feature j; y the training targets (class 0/1 or the clipped value). One GDP charge per step on
// `scope`.
std::vector<std::vector<double>> boost(const std::vector<FeatureBins>& bins,
                                       const std::vector<std::vector<int32_t>>& row_bin, std::span<const double> y,
                                       const BoostSpec& spec, Rng& rng, PrivacyLedger& ledger,
                                       PrivacyLedger::ScopeId scope);

// The random cuts of one step (§6.3 step 2): s = min(max_leaves - 1, k - 1) distinct internal edges of
// k bins (edge e separates bins e - 1 and e), uniformly by a partial Fisher-Yates shuffle, sorted.
// With missing_edge, edge 0 (the empty missing bin's) is a candidate too and yields no leaf.
std::vector<int> random_cuts(int k, int max_leaves, bool missing_edge, Rng& rng);

}  // namespace dpf::dp_ebm
