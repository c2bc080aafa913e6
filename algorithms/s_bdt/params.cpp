#include "algorithms/s_bdt/params.hpp"

#include <cmath>

#include "algorithms/common/shared_params.hpp"
#include "core/util/error.hpp"

namespace dpf::sbdt {

ParamSet<SbdtParams> sbdt_params() {
  using P = SbdtParams;
  return ParamSet<P>()
          .add(&P::epsilon, param::epsilon("total epsilon (privacy_budget; the library's default is 0.1)"))
          .add(&P::delta, param::delta("5e-8", "delta of the (epsilon, delta) guarantee (the authors' DELTA, §4.2)"))
          .add(&P::n_trees, param::n_trees(150, "T, the regular boosting rounds (nb_trees)"))
          .add(&P::max_depth, param::max_depth(2, "depth of every (full) tree", 1, 20))
          .add(&P::learning_rate, param::positive("learning_rate", "0.1", 1e3, "eta, shrinkage applied at prediction"))
          .add(&P::subsample,
               param::share("subsample", "0.1", "Q, Poisson sampling rate per round (subsampling_ratio)"))
          .add(&P::denominator_weight, param::share("denominator_weight", "0.2",
                                                    "r1 = w in (0, 1): share of the noise energy on the leaf "
                                                    "denominator (leaf_denom_noise_weight, §3.4 step 6)"))
          .add(&P::gradient_clip,
               param::positive("gradient_clip", "0.1", 1e9, "G: gradients clipped to [-G, G] (l2_threshold)"))
          .add(&P::hessian_clip, param::positive("hessian_clip", "1", 1e9,
                                                 "H: hessians clipped to [0, H] in Newton mode (hess_l2_threshold)"))
          .add(&P::lambda, param::positive("lambda", "15", 1e9,
                                           "l2_lambda: leaf value -num/(den + lambda) (add) or -num/max(den, lambda)"))
          .add(&P::lambda_mode, param::choice("lambda_mode", "add", "lambda_reg_mode: ADD or MAX"),
               {{"add", LambdaMode::kAdd}, {"max", LambdaMode::kMax}})
          .add(&P::leaf_clamp,
               param::real("leaf_clamp", "2", 0, 1e9, "reg_delta: leaf values clamped to [-c, c]; 0 = off"))
          .add(&P::newton, param::flag("newton", false,
                                       "newton_boosting (classification): logistic gradients with hessian "
                                       "denominators; false = squared loss on the raw score with count denominators "
                                       "(§3.2)"))
          .add(&P::init_ratio, param::real("init_ratio", "0.1", 0, 0.999999,
                                           "share of epsilon for the Laplace initial score "
                                           "(privacy_budget_init_score_ratio; 0 = score 0, §3.3)"))
          .add(&P::init_clip, param::positive("init_clip", "1", 1e9,
                                              "T0: labels clipped for the initial score (init_score_threshold)"))
          .add(&P::n_split_candidates, param::count("n_split_candidates", 32, 1, 1e6,
                                                    "public grid points per numeric feature (num_split_candidates, "
                                                    "§3.4 step 1)"))
          .add(&P::ignore_split_constraints,
               param::flag(
                   "ignore_split_constraints", true,
                   "isc: every node draws from the whole grid; false = the index-range recursion of §3.4 step 5"))
          .add(&P::cyclical,
               param::flag("cyclical", true, "cfi: tree t splits on feature t mod d; false = a weighted draw per node"))
          .add(&P::grid_splits,
               param::flag("grid_splits", true, "rsc: thresholds from the grid; false = uniform on the domain"))
          .add(&P::cut_off_leaf_denom,
               param::flag("cut_off_leaf_denom", true, "a leaf whose noisy denominator is < 0 gets 0"))
          .add(&P::split_domain,
               param::choice("split_domain", "schema",
                             "schema: each numeric feature's grid spans its public domain; border: every feature uses "
                             "[border_lo, border_hi) as the library (feature_val_border)"),
               {{"schema", SplitDomain::kSchema}, {"border", SplitDomain::kBorder}})
          .add(&P::border_lo, param::number("border_lo", "0", "feature_val_border.first (split_domain: border)"))
          .add(&P::border_hi, param::number("border_hi", "0.5", "feature_val_border.second (split_domain: border)"))
          .add(&P::filter, param::flag("filter", false, "the individual Rényi filter (use_privacy_filter, §3.6)"))
          .add(&P::extra_trees,
               param::count("extra_trees", 0, 0, 100000,
                            "rounds after the T regular ones: the filter's (pf_additional_nb_trees), or in stream mode "
                            "without the filter the rounds on the new records only (additional_nb_trees <= T); "
                            "refused otherwise (§7 F7)"))
          .add(&P::stream,
               param::flag(
                   "stream", false,
                   "continuous_learning (§3.7): the regular rounds see only the initial population (class 0, or scaled "
                   "label <= stream_split), then the rest arrives"))
          .add(&P::stream_split, param::real("stream_split", "-0.36", -1, 1,
                                             "regression stream: initial population has scaled y <= this"))
          .add(&P::strict, param::strict())
          .quirk(&P::half_hessian_noise, "half_hessian_noise")
          .quirk(&P::init_half_scale, "init_half_scale")
          .quirk(&P::filter_table, "filter_table");
}

void validate(const SbdtParams& p) {
  require(std::isfinite(p.epsilon) && p.epsilon > 0, "s-bdt: epsilon must be > 0 and finite");
  require(p.delta > 0 && p.delta < 1, "s-bdt: delta must be in (0, 1)");
  require(p.denominator_weight > 0 && p.denominator_weight < 1,
          "s-bdt: denominator_weight must lie strictly in (0, 1) (w = 0 is the Laplace/DPBoost path), got ",
          p.denominator_weight);
  require(p.subsample > 0 && p.subsample <= 1, "s-bdt: subsample must be in (0, 1], got ", p.subsample);
  require(p.init_ratio >= 0 && p.init_ratio < 1, "s-bdt: init_ratio must be in [0, 1), got ", p.init_ratio);
  require(p.lambda > 0, "s-bdt: lambda must be > 0, got ", p.lambda);
  if (p.split_domain == SplitDomain::kBorder)
    require(p.border_hi > p.border_lo, "s-bdt: split_domain border needs border_hi > border_lo, got [", p.border_lo, ", ",
            p.border_hi, ")");
  require(p.extra_trees == 0 || p.filter || p.stream,
          "s-bdt: extra_trees > 0 needs filter: true or stream: true; extra rounds on all data with the same sigma are "
          "not accounted (s-bdt.md §7 F7)");
  if (p.stream && !p.filter)
    require(p.extra_trees <= p.n_trees, "s-bdt: in stream mode without the filter extra_trees must be <= n_trees (",
            p.n_trees, "), got ", p.extra_trees);
}

}  // namespace dpf::sbdt
