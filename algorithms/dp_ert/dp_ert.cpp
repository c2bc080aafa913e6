#include "algorithms/dp_ert/dp_ert.hpp"

#include <bit>
#include <cmath>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/leaves.hpp"
#include "algorithms/common/occupancy.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

// Data-independent random split (dipreme.md §3.2): no privacy cost.
class RandomSplit : public SplitPolicy {
 public:
  std::unique_ptr<SplitPolicy> clone() const override { return std::make_unique<RandomSplit>(*this); }
  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger&) override {
    SplitChoice c;
    c.feature = node.active[rng.below(node.active.size())];
    const FeatureDomain& d = node.domains[static_cast<std::size_t>(c.feature)];
    if (node.data.schema().features[static_cast<std::size_t>(c.feature)].kind == FeatureKind::kNumeric) {
      c.kind = SplitKind::kThreshold;
      c.threshold = rng.uniform(d.lo, d.hi);
      return c;
    }
    // Uniform over the 2^(k-1) - 1 bipartitions of the allowed categories, the first allowed
    // category always in the complement (the DiPriMe code's enumeration, dipreme.md §2.6).
    std::vector<int> cats;
    for (int k = 0; k < 64; ++k)
      if ((d.categories >> k) & 1u) cats.push_back(k);
    const uint64_t n = (uint64_t{1} << (cats.size() - 1)) - 1;
    const uint64_t i = 1 + rng.below(n);
    c.kind = SplitKind::kSubset;
    for (std::size_t b = 0; b + 1 < cats.size(); ++b)
      if ((i >> b) & 1u) c.mask |= uint64_t{1} << cats[b + 1];
    return c;
  }
};

struct DpErtParams {
  double epsilon = 1;
  int n_trees = 10, max_depth = 5, occupancy = 0;
  bool strict = false;
};

class DpErtLearner : public Learner {
 public:
  explicit DpErtLearner(const DpErtParams& p)
      : epsilon_(p.epsilon), n_trees_(p.n_trees), max_depth_(p.max_depth), strict_(p.strict), occupancy_(p.occupancy) {
    check_epsilon_param("dp-ert", epsilon_);
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const bool clf = data.task() == TaskKind::kClassification;
    for (const Feature& f : data.schema().features)
      require(f.kind == FeatureKind::kNumeric || f.n_categories() <= 64, "dp-ert: categorical feature '", f.name,
              "' has more than 64 categories");
    // Strict: the occupancy rule reads a noisy n paid from the budget (common/occupancy.hpp).
    int depth = max_depth_;
    double epsilon = epsilon_;
    if (occupancy_ > 0) {
      const RowCountForDepth n(ctx, rows.size(), epsilon_, strict_);
      depth = occupancy_depth(n.n(), occupancy_, 2.0, 1);
      epsilon = n.epsilon_left();
    }
    const double eps_leaf = epsilon / n_trees_;  // all data in every tree: sequential composition
    RandomSplit split;
    std::unique_ptr<LeafPolicy> leaf;
    if (clf) leaf = std::make_unique<ClassCountLeaf>(static_cast<int>(data.n_classes()), eps_leaf, strict_, true);
    else leaf = std::make_unique<MeanLeaf>(data.schema().target.lo, data.schema().target.hi, eps_leaf, strict_);
    ForestFitSpec spec;
    spec.algorithm = "dp-ert";
    spec.n_trees = n_trees_;
    spec.max_depth = depth;
    spec.rows = TreeRows::kAll;
    spec.epsilon = epsilon_;
    spec.vote = clf ? Vote::kSoft : Vote::kMean;
    return fit_forest(data, rows, ctx, spec, split, *leaf);
  }

 private:
  double epsilon_;
  int n_trees_, max_depth_;
  bool strict_;
  int occupancy_;
};

}  // namespace

std::vector<AlgorithmInfo> dp_ert_algorithms() {
  AlgorithmInfo a = describe(
      "dp-ert", "dipreme, dipreme-v1", kBothTasks,
      "DP extremely randomised trees (Bojarski et al. 2014): data-independent random structure, noisy leaves");
  a.quirks = {
      {"l1_error",
       "the DiPriMe notebooks never threshold DP-ERT: its reported classification error is mean |y - p|, "
       "accuracy 1 - L1 (dipreme.md §3.2, §3.6); plots and checks then use l1_error",
       /*privacy_neutral=*/true},
  };
  a.privacy_status = [](const Params& p, TaskKind task) -> std::string {
    if (p.get_bool("strict")) return "epsilon-DP";
    return with_occupancy_note(
        task == TaskKind::kRegression
            ? "published, not epsilon-DP: leaf noise scale depends on the private leaf count (privacy.md §6.2)"
            : "published, not epsilon-DP: empty leaves switch to a uniform value, a data-dependent branch "
              "(dipreme.md §4 P5)",
        p, "the exact training-set size");
  };
  using P = DpErtParams;
  return {with_learner<DpErtLearner>(
      a, ParamSet<P>()
             .add(&P::epsilon, param::epsilon())
             .add(&P::n_trees, param::n_trees(10, "N_T"))
             .add(&P::max_depth, param::max_depth(5, "depth of every tree (d_full in the papers)"))
             .add(&P::occupancy, occupancy_param("d_full = floor(log2(n_train / occupancy))"))
             .add(&P::strict, param::strict()))};
}

}  // namespace dpf
