// Learners and registry entries of MRF (multinomial-rf, multinomial-rf-dp) and the family table of the multinomial-rf paper.
#include <cmath>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/mrf/mrf.hpp"
#include "algorithms/mrf/mrf_strict.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

class MrfLearner : public Learner {
 public:
  MrfLearner(std::string name, MrfParams p) : name_(std::move(name)), p_(p) {}

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, name_, ": classification only");
    require(p_.n_trees >= 1, name_, ": n_trees must be >= 1");
    MrfParams p = p_;
    HonestOptions opt;
    opt.min_leaf = p.min_leaf;
    opt.stop = p.stop;
    opt.partition_rate = p.partition_rate;
    if (p.dp) {
      check_epsilon_param(name_, p.epsilon);
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

HonestStop parse_stop(const std::string& s) { return s == "paper" ? HonestStop::kPaper : HonestStop::kRef; }

std::vector<ParamSpec> common_schema() {
  return {
      {"n_trees", ParamType::kInt, "100", 1, 100000, false, {}, "M, number of trees (§1.9: 100)"},
      {"min_leaf", ParamType::kInt, "5", 1, 1e9, false, {}, "k, minimum leaf size on estimation points (§1.9: 5)"},
      {"partition_rate", ParamType::kDouble, "1", 0, 1e9, true, {}, "r = |S|/|E| (§1.2: 1)"},
      {"stop", ParamType::kString, "ref", 0, 0, false, {"ref", "paper"},
       "ref: the code's control flow (children with <= k estimation points become leaves); paper: a split "
       "is kept only if both estimation children hold >= k (§1.7)"},
      {"feature_types", ParamType::kString, "schema", 0, 0, false, {"schema", "continuous"},
       "schema: categorical features split one-vs-rest, numeric at midpoints; continuous: all at midpoints of codes"},
      {"ties", ParamType::kString, "random", 0, 0, false, {"random", "lowest"},
       "hard-vote ties (eq. 6): random = uniform over the tied classes (the spec), lowest = lowest class index"},
  };
}

MrfParams common_params(const Params& q) {
  MrfParams p;
  p.n_trees = q.get_int("n_trees");
  p.min_leaf = q.get_int("min_leaf");
  p.partition_rate = q.get_double("partition_rate");
  p.stop = parse_stop(q.get_string("stop"));
  p.all_continuous = q.get_string("feature_types") == "continuous";
  p.random_ties = q.get_string("ties") == "random";
  return p;
}

}  // namespace

std::vector<AlgorithmInfo> mrf_algorithms() {
  AlgorithmInfo a;
  a.name = "multinomial-rf";
  a.summary = "Multinomial random forest (Bai et al.): S/E partition per tree, softmax draws of feature (B1) and "
              "value (B2) over min-max normalised Gini decreases, majority (B3 = inf) or softmax (B3) leaf labels";
  a.papers = "multinomial-rf";
  a.tasks = {TaskKind::kClassification};
  a.private_algorithm = false;
  a.params = common_schema();
  a.params.push_back({"b1", ParamType::kDouble, "5", 0, INFINITY, false, {},
                      "B1 of the feature softmax exp(B1 Î/2) (§1.9: 5 in demo.py, 10 in MultinomialRF's default)"});
  a.params.push_back({"b2", ParamType::kDouble, "5", 0, INFINITY, false, {}, "B2 of the value softmax exp(B2 Î/2)"});
  a.params.push_back({"b3", ParamType::kDouble, "inf", 0, INFINITY, false, {},
                      "B3 of the leaf-label softmax exp(B3 n_c/2); inf = majority (§1.9)"});
  a.privacy_status = [](const Params&, TaskKind) { return std::string("non-private"); };
  a.make = [](const Params& q, const Schema&) -> std::unique_ptr<Learner> {
    MrfParams p = common_params(q);
    p.b1 = q.get_double("b1");
    p.b2 = q.get_double("b2");
    p.b3 = q.get_double("b3");
    return std::make_unique<MrfLearner>("multinomial-rf", p);
  };

  AlgorithmInfo d;
  d.name = "multinomial-rf-dp";
  d.summary = "MRF in its privacy mode (§3.4, Lemmas 5-7, Theorem 2 as reconstructed in §1.10): depth cap d, "
              "B1 = B2 = ε/(2Md), B3 = ε/M, label mechanism over all classes at every leaf";
  d.papers = "multinomial-rf";
  d.tasks = {TaskKind::kClassification};
  d.private_algorithm = true;
  d.params = common_schema();
  d.params.push_back({"epsilon", ParamType::kDouble, "", 0, 1e9, true, {}, "total privacy budget ε"});
  d.params.push_back({"max_depth", ParamType::kInt, "0", 0, 64, false, {},
                      "hard depth cap d (0: ceil(log2(|E|/k)), the balanced-tree assumption of §1.10)"});
  d.params.push_back({"dp_compose", ParamType::kString, "parallel", 0, 0, false, {"parallel", "sequential"},
                      "per-tree composition of structure and labels: parallel max(d(B1+B2), B3) = ε/M (the "
                      "paper), or sequential d(B1+B2) + B3 = ε/M (half each)"});
  d.params.push_back({"strict", ParamType::kBool, "false", 0, 0, false, {},
                      "true: the repaired ε-DP variant (mrf_strict.hpp): public threshold grids and categories, "
                      "count-scale Gini utility with sensitivity 2, depth-cap stops only, Bernoulli S/E, all-class "
                      "leaf labels; needs max_depth"});
  d.params.push_back({"n_thresholds", ParamType::kInt, "16", 1, 100000, false, {},
                      "strict: T evenly spaced thresholds inside the node's public interval per numeric feature"});
  d.params.push_back(quirks_param(d.quirks));
  d.privacy_status = [](const Params& q, TaskKind) {
    if (q.get_bool("strict")) return std::string("epsilon-DP");
    return std::string(
        "published, not epsilon-DP: the candidate thresholds (data values and midpoints), the candidate-feature "
        "set and the k-based and purity stops depend on the data, and the min-max normalisation over "
        "data-dependent candidates has unbounded sensitivity (multinomial-rf.md §1.10; strict=true repairs "
        "them); the ledger composes the paper's claimed B1, B2, B3");
  };
  d.make = [](const Params& q, const Schema&) -> std::unique_ptr<Learner> {
    check_epsilon_param("multinomial-rf-dp", q.get_double("epsilon"));
    MrfParams p = common_params(q);
    p.dp = true;
    p.epsilon = q.get_double("epsilon");
    p.max_depth = q.get_int("max_depth");
    p.parallel_s_e = q.get_string("dp_compose") == "parallel";
    p.strict = q.get_bool("strict");
    p.n_thresholds = q.get_int("n_thresholds");
    return std::make_unique<MrfLearner>("multinomial-rf-dp", p);
  };
  return {a, d};
}

}  // namespace dpf
