#include "algorithms/smooth_rdf/smooth_rdf.hpp"

#include "algorithms/common/rdf_depth.hpp"
#include "algorithms/common/rdf_forest.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {


namespace {

void count_kinds(const Schema& s, int& continuous, int& discrete) {
  continuous = discrete = 0;
  for (const Feature& f : s.features) (f.kind == FeatureKind::kNumeric ? continuous : discrete)++;
}

class RdfLearner : public Learner {
 public:
  RdfLearner(RdfSpec spec, std::string rule, int fixed, bool round_up)
      : spec_(std::move(spec)), rule_(std::move(rule)), fixed_(fixed), round_up_(round_up) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    RdfSpec s = spec_;
    int cont = 0, disc = 0;
    count_kinds(data.schema(), cont, disc);
    s.depth = rdf_depth_for(rule_, fixed_, round_up_, cont, disc);
    return fit_rdf(data, rows, ctx, s);
  }

 private:
  RdfSpec spec_;
  std::string rule_;
  int fixed_;
  bool round_up_;
};

std::vector<ParamSpec> structure_params(const char* tree_data_default) {
  return {
      {"n_trees", ParamType::kInt, "100", 1, 100000, false, {}, "tau, the number of trees (paper default 100)"},
      {"depth_rule", ParamType::kString, "theorem2", 0, 0, false, {"theorem2", "literal", "half-m", "m", "fixed"},
       "theorem2: the authors' rule reproducing Table 4 (smallest k with E[X|k] <= s/2, +1, +floor(r/2), cap 15); "
       "literal: Theorem 2 as printed (one shallower); half-m / m: Fig. 6; fixed: `depth`"},
      {"depth", ParamType::kInt, "0", 0, 40, false, {}, "depth when depth_rule = fixed"},
      {"round_up", ParamType::kBool, "false", 0, 1, false, {},
       "depth_rule half-m with odd m: ceil instead of floor (the paper does not say; smooth-rdf.md §1.3)"},
      {"tree_data", ParamType::kString, tree_data_default, 0, 0, false, {"disjoint", "all"},
       "disjoint: floor(n/tau) shuffled rows per tree, full epsilon each (§4.2); all: every row in every tree, "
       "epsilon/tau per tree (Fig. 5, eq. 14)"},
      {"domains", ParamType::kString, "training", 0, 0, false, {"training", "public"},
       "training: continuous [min, max] and discrete values of the training rows and the classes present in them "
       "(the authors' code, §1.2, §1.6); public: the registry's declared domains and class list"},
  };
}

}  // namespace

std::vector<AlgorithmInfo> smooth_rdf_algorithms() {
  AlgorithmInfo a;
  a.name = "smooth-rdf";
  a.summary = "Fletcher & Islam 2017 random decision forest: data-independent random trees (Table-4 depth), "
              "disjoint data per tree, leaf label by the exponential mechanism with smooth sensitivity e^(-j eps), "
              "empty leaves uniform, majority vote";
  a.papers = "smooth-rdf";
  a.tasks = {TaskKind::kClassification};
  a.params = structure_params("disjoint");
  a.params.insert(a.params.begin(), {"epsilon", ParamType::kDouble, "1", 0, 1e9, true, {}, "total privacy budget"});
  a.params.push_back({"leaf_mechanism", ParamType::kString, "smooth", 0, 0, false, {"smooth", "global", "pf", "em-counts"},
                      "smooth: EM with the 0/1 majority score and smooth sensitivity (the paper); global: the same "
                      "EM with sensitivity 1 (Fig. 4); pf: permute-and-flip on counts (diffprivlib); em-counts: "
                      "EM on counts (sensitivity 1)"});
  a.params.push_back(strict_param());
  a.params.push_back(quirks_param(a.quirks));
  a.privacy_status = [](const Params& p, TaskKind) -> std::string {
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
  };
  a.make = [](const Params& p, const Schema&) -> std::unique_ptr<Learner> {
    RdfSpec s;
    s.algorithm = "smooth-rdf";
    s.n_trees = p.get_int("n_trees");
    s.epsilon = p.get_double("epsilon");
    check_epsilon(s.epsilon, "smooth-rdf epsilon");
    s.disjoint = p.get_string("tree_data") == "disjoint";
    s.domains_from_training = p.get_string("domains") == "training";
    s.mechanism = parse_leaf_mechanism(p.get_string("leaf_mechanism"));
    if (p.get_bool("strict")) {
      // Repaired variant: public domains, and the smooth-sensitivity EM replaced by permute-and-flip
      // on the leaf counts (sensitivity 1), diffprivlib's sound rule (smooth-rdf.md §3, privacy.md §6.1).
      s.domains_from_training = false;
      if (s.mechanism == LeafMechanism::kSmooth) s.mechanism = LeafMechanism::kPermuteAndFlip;
    }
    // Public domains include the public class list (the schema's); the authors' code reads both from the rows.
    s.classes_from_training = s.domains_from_training;

    s.random_assignment = p.get_bool("strict");
    // Certified exactly when privacy_status says epsilon-DP: a sound leaf rule, public domains and
    // classes, and no chunked partition.
    s.certified = s.mechanism != LeafMechanism::kSmooth && !s.domains_from_training && (!s.disjoint || s.random_assignment);
    return std::make_unique<RdfLearner>(s, p.get_string("depth_rule"), p.get_int("depth"), p.get_bool("round_up"));
  };

  AlgorithmInfo np;
  np.name = "rdf-nonprivate";
  np.summary = "the smooth-rdf forest with epsilon = infinity (Fig. 10 'non-private'): true majority label per leaf, "
               "ties to the first class, empty leaves uniform; all data in every tree by default";
  np.papers = "smooth-rdf";
  np.tasks = {TaskKind::kClassification};
  np.private_algorithm = false;
  np.params = structure_params("all");
  np.privacy_status = [](const Params&, TaskKind) -> std::string { return "non-private"; };
  np.make = [](const Params& p, const Schema&) -> std::unique_ptr<Learner> {
    RdfSpec s;
    s.algorithm = "rdf-nonprivate";
    s.n_trees = p.get_int("n_trees");
    s.disjoint = p.get_string("tree_data") == "disjoint";
    s.domains_from_training = p.get_string("domains") == "training";
    s.mechanism = LeafMechanism::kMajority;
    return std::make_unique<RdfLearner>(s, p.get_string("depth_rule"), p.get_int("depth"), p.get_bool("round_up"));
  };

  return {a, np};
}

}  // namespace dpf
