// Learners and registry entries of MRF (multinomial-rf, multinomial-rf-dp).
#include <cmath>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/privacy_label.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/mrf/mrf.hpp"
#include "algorithms/mrf/mrf_strict.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

class MrfLearner : public Learner {
 public:
  explicit MrfLearner(MrfParams p) : name_(p.name), p_(std::move(p)) {
    if (p_.dp) check_epsilon_param(name_, p_.epsilon);
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, name_, ": classification only");
    require(p_.n_trees >= 1, name_, ": n_trees must be >= 1");
    MrfParams p = p_;
    HonestOptions opt;
    opt.min_leaf = p.min_leaf;
    opt.stop = p.stop;
    opt.partition_rate = p.partition_rate;
    if (p.dp) {
      // strict: the default depth would read the private n (mrf_strict.hpp repair 7).
      require(!p.strict || p.max_depth > 0, name_, ": strict=true needs an explicit max_depth (the default "
              "ceil(log2(|E|/k)) reads the private number of rows)");
      const int d = p.max_depth > 0 ? p.max_depth : mrf_default_depth(rows.size(), p.partition_rate, p.min_leaf);
      const MrfDpBudget b = mrf_dp_budget(p.epsilon, p.n_trees, d, p.parallel_s_e);
      p.b1 = b.b1;
      p.b2 = b.b2;
      p.b3 = b.b3;
      opt.max_depth = d;
      opt.track_privacy = true;
      opt.parallel_s_e = p.parallel_s_e;
      opt.strict = p.strict;
      // The M trees all read the whole training set: sequential composition (§1.10).
      opt.forest_scope = ctx.ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential, name_ + " forest");
    }
    const std::vector<int> labels = data.labels();
    std::unique_ptr<HonestPolicy> policy;
    if (p.strict) {
      policy = std::make_unique<MrfStrictPolicy>(MrfStrictParams{p.b1, p.b2, p.b3, p.n_thresholds},
                                                 static_cast<int>(data.n_features()), static_cast<int>(data.n_classes()));
    } else {
      policy = std::make_unique<MrfPolicy>(p, static_cast<int>(data.n_features()), static_cast<int>(data.n_classes()));
    }
    auto model = std::make_unique<ForestModel>(name_, data.task(), static_cast<int>(data.n_classes()), Vote::kHard);
    model->set_n_train(rows.size());
    if (p.random_ties) model->set_random_ties(ctx.rng.derive("vote ties"));  // eq. 6: ties at random
    for (int t = 0; t < p.n_trees; ++t) {
      Rng tree_rng = ctx.rng.derive("tree").derive(static_cast<uint64_t>(t));
      model->add_tree(grow_honest_tree(data, labels, rows, *policy, opt, tree_rng, ctx.ledger));
    }
    if (p.dp) {
      ctx.ledger.check_within(p.epsilon, name_);
      model->set_ledger_summary(ctx.ledger.summary());
    }
    return model;
  }

 private:
  std::string name_;
  MrfParams p_;
};

// The parameters both MRF entries share (multinomial-rf.md §1.9).
ParamSet<MrfParams> common_params() {
  using P = MrfParams;
  return ParamSet<P>()
      .add(&P::n_trees, param::n_trees(100, "M, number of trees (§1.9: 100)"))
      .add(&P::min_leaf, param::min_leaf(5, "k, minimum leaf size on estimation points (§1.9: 5)"))
      .add(&P::partition_rate, param::partition_rate("r = |S|/|E| (§1.2: 1)"))
      .add(&P::stop,
           param::choice("stop", "ref",
                         "ref: the code's control flow (children with <= k estimation points become leaves); paper: "
                         "a split is kept only if both estimation children hold >= k (§1.7)"),
           {{"ref", HonestStop::kRef}, {"paper", HonestStop::kPaper}})
      .add(&P::all_continuous,
           param::choice("feature_types", "schema",
                         "schema: categorical features split one-vs-rest, numeric at midpoints; continuous: all at "
                         "midpoints of codes"),
           {{"schema", false}, {"continuous", true}})
      .add(&P::random_ties,
           param::choice("ties", "random",
                         "hard-vote ties (eq. 6): random = uniform over the tied classes (the spec), lowest = lowest "
                         "class index"),
           {{"random", true}, {"lowest", false}});
}

}  // namespace

std::vector<AlgorithmInfo> mrf_algorithms() {
  AlgorithmInfo a = describe_non_private(
      "multinomial-rf", "multinomial-rf", kClassificationTask,
      "Multinomial random forest (Bai et al.): S/E partition per tree, softmax draws of feature (B1) and value (B2) "
      "over min-max normalised Gini decreases, majority (B3 = inf) or softmax (B3) leaf labels");
  AlgorithmInfo d = describe(
      "multinomial-rf-dp", "multinomial-rf", kClassificationTask,
      "MRF in its privacy mode (§3.4, Lemmas 5-7, Theorem 2 as reconstructed in §1.10): depth cap d, "
      "B1 = B2 = ε/(2Md), B3 = ε/M, label mechanism over all classes at every leaf");
  d.privacy_status = dp_when_strict(
      "the candidate thresholds (data values and midpoints), the candidate-feature set and the k-based and purity "
      "stops depend on the data, and the min-max normalisation over data-dependent candidates has unbounded "
      "sensitivity (multinomial-rf.md §1.10; strict=true repairs them); the ledger composes the paper's claimed "
      "B1, B2, B3");
  using P = MrfParams;
  return {
      with_learner<MrfLearner>(
          a,
          common_params()
              .add(&P::b1,
                   param::real("b1", "5", 0, INFINITY,
                               "B1 of the feature softmax exp(B1 Î/2) (§1.9: 5 in demo.py, 10 in MultinomialRF's "
                               "default)"))
              .add(&P::b2, param::real("b2", "5", 0, INFINITY, "B2 of the value softmax exp(B2 Î/2)"))
              .add(&P::b3, param::real("b3", "inf", 0, INFINITY,
                                       "B3 of the leaf-label softmax exp(B3 n_c/2); inf = majority (§1.9)")),
          MrfParams{.name = "multinomial-rf"}),
      with_learner<MrfLearner>(
          d,
          common_params()
              .add(&P::epsilon, param::epsilon())
              .add(&P::max_depth,
                   param::max_depth(0,
                                    "hard depth cap d (0: ceil(log2(|E|/k)), the balanced-tree assumption "
                                    "of §1.10)",
                                    0, 64))
              .add(&P::parallel_s_e,
                   param::choice("dp_compose", "parallel",
                                 "per-tree composition of structure and labels: parallel max(d(B1+B2), B3) = ε/M (the "
                                 "paper), or sequential d(B1+B2) + B3 = ε/M (half each)"),
                   {{"parallel", true}, {"sequential", false}})
              .add(&P::strict,
                   param::flag("strict", false,
                               "true: the repaired ε-DP variant (mrf_strict.hpp): public threshold grids and "
                               "categories, count-scale Gini utility with sensitivity 2, depth-cap stops "
                               "only, Bernoulli S/E, all-class leaf labels; needs max_depth"))
              .add(&P::n_thresholds,
                   param::count("n_thresholds", 16, 1, 100000,
                                "strict: T evenly spaced thresholds inside the node's public interval "
                                "per numeric feature")),
          MrfParams{.name = "multinomial-rf-dp", .dp = true})};
}

}  // namespace dpf
