#include "algorithms/smooth_rdf/smooth_rdf.hpp"

#include <cmath>

#include "algorithms/common/param_set.hpp"
#include "algorithms/common/rdf_depth.hpp"
#include "algorithms/common/rdf_forest.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

// The resolved parameters of smooth-rdf and rdf-nonprivate (the forest's structure, then the leaf rule).
struct RdfParams {
  std::string name;
  double epsilon = 1;
  int n_trees = 100, depth = 0;
  std::string depth_rule = "theorem2";
  bool round_up = false, disjoint = true, domains_from_training = true, strict = false;
  LeafMechanism mechanism = LeafMechanism::kSmooth;
};

ParamSet<RdfParams> structure_params(ParamSet<RdfParams> set, const char* tree_data_default) {
  using P = RdfParams;
  return set.add(&P::n_trees, param::n_trees(100, "tau, the number of trees (paper default 100)"))
      .add(&P::depth_rule,
           param::choice("depth_rule", "theorem2", {"theorem2", "literal", "half-m", "m", "fixed"},
                         "theorem2: the authors' rule reproducing Table 4 (smallest k with E[X|k] <= s/2, +1, "
                         "+floor(r/2), cap 15); literal: Theorem 2 as printed (one shallower); half-m / m: Fig. 6; "
                         "fixed: `depth`"))
      .add(&P::depth, param::count("depth", 0, 0, 40, "depth when depth_rule = fixed"))
      .add(&P::round_up, param::flag("round_up", false,
                                     "depth_rule half-m with odd m: ceil instead of floor (the paper does not say; "
                                     "smooth-rdf.md §1.3)"))
      .add(&P::disjoint,
           param::choice("tree_data", tree_data_default,
                         "disjoint: floor(n/tau) shuffled rows per tree, full epsilon each (§4.2); all: every row in "
                         "every tree, epsilon/tau per tree (Fig. 5, eq. 14)"),
           {{"disjoint", true}, {"all", false}})
      .add(&P::domains_from_training,
           param::choice("domains", "training",
                         "training: continuous [min, max] and discrete values of the training rows and the classes "
                         "present in them (the authors' code, §1.2, §1.6); public: the registry's declared domains "
                         "and class list"),
           {{"training", true}, {"public", false}});
}

// The forest a configuration fits (rdf_forest.hpp). Strict repairs the published variant: public
// domains, and the smooth-sensitivity EM replaced by permute-and-flip on the leaf counts (sensitivity
// 1), diffprivlib's sound rule (smooth-rdf.md §3, privacy.md §6.1); each row goes to a uniformly random
// tree. The ledger charge is certified exactly when privacy_status says epsilon-DP: a sound leaf rule,
// public domains and classes, and no chunked partition.
RdfSpec rdf_spec(const RdfParams& p) {
  RdfSpec s;
  s.algorithm = p.name;
  s.n_trees = p.n_trees;
  s.disjoint = p.disjoint;
  s.domains_from_training = p.domains_from_training && !p.strict;
  s.mechanism = p.mechanism;
  if (p.name == "rdf-nonprivate") return s;
  s.epsilon = p.epsilon;
  if (p.strict && s.mechanism == LeafMechanism::kSmooth) s.mechanism = LeafMechanism::kPermuteAndFlip;
  s.classes_from_training = s.domains_from_training;
  s.random_assignment = p.strict;
  s.certified = s.mechanism != LeafMechanism::kSmooth && !s.domains_from_training && (!s.disjoint || s.random_assignment);
  return s;
}

class RdfLearner : public Learner {
 public:
  explicit RdfLearner(const RdfParams& p) : p_(p), spec_(rdf_spec(p)) {
    if (std::isfinite(spec_.epsilon)) check_epsilon(spec_.epsilon, "smooth-rdf epsilon");
  }
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    RdfSpec s = spec_;
    int cont = 0, disc = 0;
    for (const Feature& f : data.schema().features) (f.kind == FeatureKind::kNumeric ? cont : disc)++;
    s.depth = rdf_depth_for(p_.depth_rule, p_.depth, p_.round_up, cont, disc);
    return fit_rdf(data, rows, ctx, s);
  }

 private:
  RdfParams p_;
  RdfSpec spec_;
};

std::string smooth_rdf_status(const Params& p, TaskKind) {
  if (p.get_bool("strict")) return "epsilon-DP";
  if (p.get_string("leaf_mechanism") == "smooth")
    return "published, not epsilon-DP: the EM temperature uses the data-dependent smooth sensitivity e^(-j eps); "
           "neighbouring leaf counts (0,1) vs (0,2) give a privacy loss of 2.13 at eps = 1, unbounded in j "
           "(privacy.md §6.1)";
  if (p.get_string("domains") == "training")
    return "published, not epsilon-DP: feature domains and the class set are taken from the training rows "
           "(smooth-rdf.md §1.2, §1.6); the leaf mechanism itself is epsilon-DP";
  if (p.get_string("tree_data") == "disjoint")
    return "published, not epsilon-DP: tree_data disjoint cuts a shuffled row order into equal chunks (§1.5), so one "
           "added row moves other rows between trees and the parallel composition over trees fails (strict: each row "
           "to a uniformly random tree)";
  return "epsilon-DP";
}

}  // namespace

std::vector<AlgorithmInfo> smooth_rdf_algorithms() {
  AlgorithmInfo a = describe(
      "smooth-rdf", "smooth-rdf", kClassificationTask,
      "Fletcher & Islam 2017 random decision forest: data-independent random trees (Table-4 depth), disjoint data "
      "per tree, leaf label by the exponential mechanism with smooth sensitivity e^(-j eps), empty leaves uniform, "
      "majority vote");
  a.privacy_status = smooth_rdf_status;
  AlgorithmInfo np = describe_non_private(
      "rdf-nonprivate", "smooth-rdf", kClassificationTask,
      "the smooth-rdf forest with epsilon = infinity (Fig. 10 'non-private'): true majority label per leaf, ties to "
      "the first class, empty leaves uniform; all data in every tree by default");
  using P = RdfParams;
  return {with_learner<RdfLearner>(
              a,
              structure_params(ParamSet<P>().add(&P::epsilon, param::epsilon("total privacy budget")), "disjoint")
                  .add(&P::mechanism,
                       param::choice(
                           "leaf_mechanism", "smooth",
                           "smooth: EM with the 0/1 majority score and smooth sensitivity (the paper); global: the "
                           "same EM with sensitivity 1 (Fig. 4); pf: permute-and-flip on counts (diffprivlib); "
                           "em-counts: EM on counts (sensitivity 1)"),
                       {{"smooth", LeafMechanism::kSmooth},
                        {"global", LeafMechanism::kGlobal},
                        {"pf", LeafMechanism::kPermuteAndFlip},
                        {"em-counts", LeafMechanism::kEmCounts}})
                  .add(&P::strict, param::strict()),
              RdfParams{.name = "smooth-rdf"}),
          with_learner<RdfLearner>(np, structure_params(ParamSet<P>(), "all"),
                                   RdfParams{.name = "rdf-nonprivate", .mechanism = LeafMechanism::kMajority})};
}

}  // namespace dpf
