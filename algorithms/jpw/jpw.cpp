#include "algorithms/jpw/jpw.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/occupancy.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/rdf_depth.hpp"
#include "algorithms/common/rdf_forest.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

int jpw_depth(const std::vector<int>& branching, double n, bool round_up) {
  require(!branching.empty() && n >= 1, "jpw depth: need features and training rows");
  double b = 0.0;
  for (int v : branching) b += v;
  b /= static_cast<double>(branching.size());
  const double half_m = static_cast<double>(branching.size()) / 2.0;
  // Fletcher & Islam §5.2: d = min(m/2, log_b n - 1); rounding not stated (§7.2).
  const double d = b > 1.0 ? std::min(half_m, std::log(n) / std::log(b) - 1.0) : half_m;
  const double r = round_up ? std::ceil(d - 1e-12) : std::floor(d + 1e-12);
  return std::max(0, static_cast<int>(r));
}

namespace {

struct JpwParams {
  double epsilon = 1;
  int n_trees = 10, depth = 0;
  std::string depth_rule = "jpw";
  bool round_up = false, coded = true, domains_from_training = true, strict = false;
};

// The forest of a configuration (rdf_forest.hpp); certified exactly when privacy_status says epsilon-DP.
RdfSpec jpw_spec(const JpwParams& p) {
  RdfSpec s;
  s.algorithm = "jpw";
  s.n_trees = p.n_trees;
  s.epsilon = p.epsilon;
  s.disjoint = false;  // every tree sees all rows: epsilon / tau per tree
  s.domains_from_training = p.domains_from_training && !p.strict;
  s.classes_from_training = s.domains_from_training;
  s.random_ties = p.strict;  // and empty leaves through the same mechanism
  s.release = p.coded ? RdfRelease::kJpwCoded : RdfRelease::kJpwOriginal;
  s.certified = p.strict || (!p.domains_from_training && !p.coded && p.depth_rule != "jpw");
  return s;
}

class JpwLearner : public Learner {
 public:
  explicit JpwLearner(const JpwParams& p)
      : spec_(jpw_spec(p)), rule_(p.depth_rule), fixed_(p.depth), round_up_(p.round_up), strict_(p.strict) {
    check_epsilon(spec_.epsilon, "jpw epsilon");
  }
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    RdfSpec s = spec_;
    if (rule_ == "jpw") {
      // b: 2 per continuous feature (our assumption, §2.1), the number of domain values per discrete one.
      RandomTreeSchema sc = random_tree_schema(data, rows, s.domains_from_training, 0);
      std::vector<int> branching;
      for (std::size_t f = 0; f < sc.discrete.size(); ++f) branching.push_back(sc.discrete[f] ? sc.n_values[f] : 2);
      // Published: the exact n (private under add/remove-one). Strict: a noisy n, paid from epsilon, and
      // the trees get the rest (common/occupancy.hpp).
      const RowCountForDepth n(ctx, rows.size(), s.epsilon, strict_);
      s.depth = jpw_depth(branching, n.n(), round_up_);
      s.epsilon_total = s.epsilon;
      s.epsilon = n.epsilon_left();
    } else {
      int cont = 0, disc = 0;
      for (const Feature& f : data.schema().features) (f.kind == FeatureKind::kNumeric ? cont : disc)++;
      s.depth = rdf_depth_for(rule_, fixed_, round_up_, cont, disc);
    }
    return fit_rdf(data, rows, ctx, s);
  }

 private:
  RdfSpec spec_;
  std::string rule_;
  int fixed_;
  bool round_up_;
  bool strict_;
};

}  // namespace

std::vector<AlgorithmInfo> jpw_algorithms() {
  AlgorithmInfo a = describe(
      "jpw", "smooth-rdf", kClassificationTask,
      "JPW random decision trees (Jagannathan et al. 2009/2012) as Fletcher & Islam ran them: 10 random "
      "trees of depth min(m/2, log_b n - 1) on all rows with epsilon/tau each, noisy leaf counts");
  a.privacy_status = [](const Params& p, TaskKind) -> std::string {
    if (p.get_bool("strict")) return "epsilon-DP";
    std::string why;
    auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
    if (p.get_string("domains") == "training")
      add("feature domains, the class set (and, for depth_rule jpw, the branching factor) come from the training "
          "rows "
          "(smooth-rdf.md §1.2)");
    if (p.get_string("depth_rule") == "jpw")
      add("the depth min(m/2, log_b n - 1) reads the exact n, private under add/remove-one");
    if (p.get_string("version") == "coded")
      add("tied noisy counts go to the class seen first among the leaf's rows (row order), and empty leaves get a "
          "uniform "
          "label instead of the noisy-count argmax");
    if (why.empty()) return "epsilon-DP";
    return "published, not epsilon-DP: " + why +
           "; strict repairs each (the leaf noise itself is the Laplace mechanism)";
  };
  using P = JpwParams;
  return {with_learner<JpwLearner>(
      a,
      ParamSet<P>()
          .add(&P::epsilon, param::epsilon("total privacy budget"))
          .add(&P::n_trees, param::n_trees(10, "tau (JPW's recommendation, §5.2: 10)"))
          .add(&P::depth_rule, param::choice("depth_rule", "jpw", {"jpw", "theorem2", "half-m", "m", "fixed"},
                                             "jpw: min(m/2, log_b n - 1) with b = mean branching (2 per continuous "
                                             "feature, an assumption; domain size per discrete feature); others as "
                                             "smooth-rdf"))
          .add(&P::depth, param::count("depth", 0, 0, 40, "depth when depth_rule = fixed"))
          .add(&P::round_up, param::flag("round_up", false, "ceil instead of floor for the depth (not stated, §7.2)"))
          .add(&P::coded,
               param::choice("version", "coded",
                             "coded: per-leaf argmax of max(0, trunc(n_c + Lap(tau/eps))), empty leaves uniform, "
                             "majority vote (the authors' JAG code); original: noise on every leaf's counts, summed "
                             "over trees (reconstructed, [R]). AUC score (smooth-rdf.md §5.2, §7.8, open in the "
                             "paper): coded = fraction of trees voting for the class; original = the summed noisy "
                             "counts, clamped at 0 and normalised"),
               {{"coded", true}, {"original", false}})
          .add(&P::domains_from_training,
               param::choice("domains", "training",
                             "feature domains and class set from the training rows (authors' code) or the registry"),
               {{"training", true}, {"public", false}})
          .add(&P::strict, param::strict()))};
}

}  // namespace dpf
