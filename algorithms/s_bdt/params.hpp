// S-BDT's parameters (s-bdt.md §2.1), declared once. Defaults are the library's (include/parameters.h,
// the Cython wrapper's example) except epsilon (the registry's shared default 1), the split grid's
// domain (the schema's public per-feature range; the library's global border (0, 0.5) is
// split_domain: border) and the filter's pf_* thresholds (always the regular ones, as in every
// published run). Names: n_trees = nb_trees (T), max_depth, learning_rate (eta), subsample
// (subsampling_ratio, Q), denominator_weight (leaf_denom_noise_weight, r1 = w), gradient_clip
// (l2_threshold, G), hessian_clip (hess_l2_threshold, H), lambda (l2_lambda), lambda_mode
// (lambda_reg_mode), leaf_clamp (reg_delta), newton (newton_boosting), init_ratio
// (privacy_budget_init_score_ratio), init_clip (init_score_threshold), ignore_split_constraints
// (isc), cyclical (cyclical_feature_interactions, cfi), grid_splits (random_splits_from_candidates,
// rsc), filter (use_privacy_filter), extra_trees (pf_additional_nb_trees with the filter,
// additional_nb_trees in stream mode), stream (continuous_learning).
//
// Variants (design.md §4 fidelity options). The default is the paper's method: the noise the
// accountant assumes, the initial score with its true sensitivity (but the scale divides by the
// private n, §3.3, so a configuration with init_ratio > 0 is labelled not DP), the filter's per-record
// charges rounded up. reference_quirks reproduce the authors' code (§7): half_hessian_noise (F1),
// init_half_scale (F2), filter_table (F3; the published runs' approximate_privacy_filter). strict: true
// also replaces the initial score by a noisy sum over a noisy count, so n is never read.
#pragma once
#include "algorithms/common/param_set.hpp"

namespace dpf::sbdt {

enum class LambdaMode { kAdd, kMax };
enum class SplitDomain { kSchema, kBorder };

struct SbdtParams {
  double epsilon = 1.0, delta = 5e-8;
  int n_trees = 150, max_depth = 2;
  double learning_rate = 0.1, subsample = 0.1, denominator_weight = 0.2;
  double gradient_clip = 0.1, hessian_clip = 1.0, lambda = 15.0, leaf_clamp = 2.0;
  LambdaMode lambda_mode = LambdaMode::kAdd;
  bool newton = false;
  double init_ratio = 0.1, init_clip = 1.0;
  int n_split_candidates = 32;
  bool ignore_split_constraints = true, cyclical = true, grid_splits = true, cut_off_leaf_denom = true;
  SplitDomain split_domain = SplitDomain::kSchema;
  double border_lo = 0.0, border_hi = 0.5;
  bool filter = false;
  int extra_trees = 0;
  bool stream = false;
  double stream_split = -0.36;
  bool strict = false;
  bool half_hessian_noise = false, init_half_scale = false, filter_table = false;  // quirks (§7 F1-F3)
};

// The schema and the struct it fills (built anew on each call; the registry entry keeps one).
ParamSet<SbdtParams> sbdt_params();
// Throws dpf::Error naming the parameter when a combination is refused (s-bdt.md §10.3).
void validate(const SbdtParams& p);

}  // namespace dpf::sbdt
