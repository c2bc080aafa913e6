#include "algorithms/lumberjack/lumberjack.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "algorithms/common/param_set.hpp"
#include "algorithms/common/privacy_label.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/lumberjack/calibration.hpp"
#include "algorithms/lumberjack/tree.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

using lumberjack::Budget;
using lumberjack::LeafAlgorithm;
using lumberjack::Tree;
using lumberjack::TreeSpec;

struct LumberjackParams {
  double epsilon = 1.0, delta = 1e-6, splitting_fraction = 0.7;
  int n_trees = 100, max_depth = 32;
  LeafAlgorithm leaf = LeafAlgorithm::kNoisyMajority;
  bool as_coded_suppression = false, argmin_threshold = false;
};

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

class LumberjackModel : public Model {
 public:
  LumberjackParams params;
  Budget budget;
  std::vector<Tree> trees;
  int n_classes = 2;
  std::string ledger_summary;

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override {
    Predictions p;
    p.task = TaskKind::kClassification;
    p.n_classes = n_classes;
    const auto K = static_cast<std::size_t>(n_classes);
    p.value.assign(rows.size() * K, 0.0);
    p.label.assign(rows.size(), 0);
    const double w = 1.0 / static_cast<double>(trees.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      double* out = p.value.data() + i * K;
      // §3.3 / §4.4: the mean of the trees' one-hot outputs (sklearn predict_proba), then argmax
      // (numpy: the first maximum, i.e. ties to the lowest class).
      for (const Tree& t : trees) {
        const int leaf = t.leaf_at(data, rows[i]);
        out[static_cast<std::size_t>(t.nodes[static_cast<std::size_t>(leaf)].label)] += w;
      }
      p.label[i] = static_cast<int>(std::max_element(out, out + K) - out);
    }
    return p;
  }

  // The release: per tree, the pruned structure in pre-order (feature and threshold of every internal
  // node, -1 and the label of every leaf). Occupancies and query counts are diagnostics, not released.
  Release released() const override {
    Release r;
    r.discrete.push_back(static_cast<int64_t>(trees.size()));
    for (const Tree& t : trees) {
      std::vector<int32_t> stack{t.root};
      while (!stack.empty()) {
        const lumberjack::Node& n = t.nodes[static_cast<std::size_t>(stack.back())];
        stack.pop_back();
        if (n.feature < 0) {
          r.discrete.push_back(-1);
          r.discrete.push_back(n.label);
          continue;
        }
        r.discrete.push_back(n.feature);
        r.continuous.push_back(n.threshold);
        stack.push_back(n.right);
        stack.push_back(n.left);
      }
    }
    return r;
  }

  // The release as node arrays per tree (children before parents, as grown): feature and threshold
  // of every split (-1 for a leaf), its children, every leaf's label. No row counts, no query counts.
  void save(JsonWriter& w) const override {
    w.begin_object();
    w.field("kind", "lumberjack").field("n_classes", n_classes);
    w.key("trees").begin_array();
    for (const Tree& t : trees) {
      std::vector<int64_t> feature, left, right, label, depth;
      std::vector<double> threshold;
      for (const lumberjack::Node& n : t.nodes) {
        feature.push_back(n.feature);
        depth.push_back(n.depth);
        if (n.feature < 0) {
          label.push_back(n.label);
          continue;
        }
        threshold.push_back(n.threshold);
        left.push_back(n.left);
        right.push_back(n.right);
      }
      w.begin_object().field("root", t.root).int_array("feature", feature).int_array("depth", depth);
      w.exact_array("threshold", threshold).int_array("left", left).int_array("right", right).int_array("label", label);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }

  ModelStats stats() const override {
    ModelStats s;
    s.n_trees = trees.size();
    std::size_t empty = 0;
    double depth = 0;
    for (const Tree& t : trees) {
      for (const lumberjack::Node& n : t.nodes)
        if (n.feature < 0) {
          ++s.n_leaves;
          empty += n.n_rows == 0;
        }
      depth += t.max_leaf_depth();
    }
    s.empty_leaf_fraction = s.n_leaves ? static_cast<double>(empty) / static_cast<double>(s.n_leaves) : 0.0;
    s.mean_depth = trees.empty() ? 0.0 : depth / static_cast<double>(trees.size());
    return s;
  }

  std::vector<std::pair<std::string, std::string>> extra_columns() const override {
    std::size_t queries = 0;
    for (const Tree& t : trees) queries += t.heavy_queries;
    return {{"lumberjack_k", std::to_string(budget.k)},
            {"lumberjack_sigma_split", num(budget.gshm.sigma)},
            {"lumberjack_tau", num(budget.gshm.tau)},
            {"lumberjack_rho_tree", num(budget.rho_tree)},
            {"lumberjack_sigma_leaf", num(budget.sigma_leaf)},
            {"lumberjack_heavy_queries", std::to_string(queries)}};
  }

  std::string describe() const override {
    JsonWriter w;
    w.begin_object();
    w.field("algorithm", "lumberjack").field("n_trees", params.n_trees).field("max_depth", params.max_depth);
    w.field("epsilon", params.epsilon).field("delta", params.delta).field("splitting_fraction", params.splitting_fraction);
    w.field("leaf_algorithm", params.leaf == LeafAlgorithm::kNoisyMajority ? "noisy_majority" : "exponential_mechanism");
    w.field("k", budget.k).field("sigma_split", budget.gshm.sigma).field("tau", budget.gshm.tau);
    w.field("calibration_valid", budget.gshm.valid);
    w.field("rho_total", budget.rho_total).field("rho_tree", budget.rho_tree).field("sigma_leaf", budget.sigma_leaf);
    w.key("trees").begin_array();
    for (const Tree& t : trees) {
      w.begin_object();
      w.field("leaves", static_cast<int64_t>(t.n_leaves())).field("max_leaf_depth", t.max_leaf_depth());
      w.field("heavy_queries", static_cast<int64_t>(t.heavy_queries));
      w.key("labels").begin_array();
      for (const lumberjack::Node& n : t.nodes)
        if (n.feature < 0) w.value(n.label);
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.field("ledger", ledger_summary);
    w.end_object();
    return w.str();
  }
};

Budget plan(const LumberjackParams& p) {
  require(std::isfinite(p.epsilon) && p.epsilon > 0, "lumberjack: epsilon must be > 0 and finite");
  require(p.splitting_fraction > 0 && p.splitting_fraction < 1,
          "lumberjack: splitting_fraction must lie strictly in (0, 1), got ", p.splitting_fraction);
  return lumberjack::plan_budget(p.epsilon, p.delta, p.splitting_fraction, p.n_trees, p.max_depth,
                                 p.argmin_threshold);
}

// The ledger of a fit (§3 item 3): a function of the parameters and their budget only. Every tree
// reads every row: trees compose sequentially.
void charge_forest(PrivacyLedger& ledger, const LumberjackParams& p, const Budget& budget) {
  const PrivacyLedger::ScopeId forest = ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "forest");
  // The pruning of the whole forest is ONE Gaussian sparse-histogram release calibrated for k counts
  // per record (§3.2; l2 sensitivity sqrt(k)), (eps_s, delta_s)-DP by the GSHM analysis made exact for
  // the discrete noise and integer threshold we use (calibration.hpp gshm_delta_discrete); it is not a
  // zCDP charge, and it has no Rényi-DP bound at any order: a node whose count is 0 without the record
  // is never released as heavy, and with it is heavy with positive probability (Wilkins et al.'s
  // case 1), an event of probability 0 under one neighbour only. The argmin quirk can choose a pair that
  // does not hold delta_s: then uncertified.
  ledger.charge_approx(forest, "gshm-pruning", budget.epsilon_split, budget.delta_split,
                       std::sqrt(static_cast<double>(budget.k)), budget.gshm.valid && !p.as_coded_suppression);
  // Leaves: rho_tree-zCDP per tree (§3.3), rho_total = T rho_tree in all.
  const char* leaf_name = p.leaf == LeafAlgorithm::kNoisyMajority ? "discrete-gaussian-leaves" : "noisy-max-leaves";
  for (int t = 0; t < p.n_trees; ++t) {
    const PrivacyLedger::ScopeId ts_scope = ledger.open_scope(forest, Composition::kSequential, "tree");
    ledger.charge_zcdp(ts_scope, leaf_name, budget.rho_tree, 1.0);
  }
}

class LumberjackLearner : public Learner {
 public:
  // The budget and its calibration (§3) are a pure function of the public parameters: planned once
  // per learner, not per fit (the exact discrete calibration is not free, and audits fit 10^5 times).
  // Fails before any fit when the budget cannot be calibrated (delta too small for the leaves, or no
  // pruning noise in the authors' range holds delta_s under the exact discrete analysis).
  explicit LumberjackLearner(LumberjackParams p) : p_(p), budget_(plan(p)) {}

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, "lumberjack: classification only");
    const std::size_t K = data.n_classes();  // the schema's public class list (§1: not np.unique(y))
    require(K >= 2 && K <= 1000, "lumberjack: needs 2 to 1000 classes in the schema, got ", K);
    // §1: public bounds from the schema. Numeric features: the registry domain [lo, hi]; a categorical
    // feature is split as an ordinal code on [0, m - 1] (the code's "ordinal categoricals", §1), its
    // public domain. Data outside the box are not clipped and follow the <= test (§1).
    std::vector<double> lo, hi;
    for (const Feature& f : data.schema().features) {
      if (f.kind == FeatureKind::kNumeric) {
        require(std::isfinite(f.lo) && std::isfinite(f.hi) && f.lo <= f.hi, "lumberjack: feature '", f.name,
                "' needs a finite public domain [lo, hi] in the schema");
        lo.push_back(f.lo);
        hi.push_back(f.hi);
      } else {
        lo.push_back(0.0);
        hi.push_back(static_cast<double>(std::max<std::size_t>(f.n_categories(), 1) - 1));
      }
    }
    require(!lo.empty(), "lumberjack: needs at least one feature");

    auto model = std::make_unique<LumberjackModel>();
    LumberjackModel& M = *model;
    M.params = p_;
    M.n_classes = static_cast<int>(K);
    M.budget = budget_;
    TreeSpec ts;
    ts.max_depth = p_.max_depth;
    ts.sigma_split = M.budget.gshm.sigma;
    ts.tau = M.budget.gshm.tau;
    ts.rho_tree = M.budget.rho_tree;
    ts.leaf = p_.leaf;
    ts.as_coded_suppression = p_.as_coded_suppression;
    ts.n_classes = static_cast<int>(K);

    const auto T = static_cast<std::size_t>(p_.n_trees);
    M.trees.resize(T);
    std::vector<std::string> errors(T);
    const Rng base = ctx.rng.derive("lumberjack-tree");
    const int threads = std::max(1, std::min(ctx.threads, p_.n_trees));
    // Trees are independent (keyed streams, own row copies): parallel when the fit has threads.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::size_t t = 0; t < T; ++t) {
      try {
        M.trees[t] = lumberjack::grow_tree(data, rows, lo, hi, ts, base.derive(static_cast<uint64_t>(t)).key());
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    }
    for (const std::string& e : errors)
      if (!e.empty()) throw Error(e);

    charge_forest(ctx.ledger, p_, M.budget);
    ctx.ledger.check_within(p_.epsilon, p_.delta, "lumberjack");
    M.ledger_summary = ctx.ledger.summary();
    return model;
  }

 private:
  LumberjackParams p_;
  Budget budget_;
};

}  // namespace

std::vector<AlgorithmInfo> lumberjack_algorithms() {
  AlgorithmInfo a = describe(
      "lumberjack", "lumberjack", kClassificationTask,
      "Lumberjack (Lebeda et al. 2026): deep data-independent random trees on all rows, pruned by an "
      "(eps, delta)-DP Gaussian sparse-histogram heavy-hitter test, noisy-count leaves, majority vote");
  a.quirks = {
      {"as_coded_suppression",
       "dp_alternative_sparse.py lines 950-962: nodes with n <= 2 are suppressed deterministically and a node is "
       "heavy iff n + N(0, sigma^2) >= tau; the GSHM calibration (p = Phi(tau/sigma)) does not cover a 2 -> 3 "
       "change, so the release is not certified (lumberjack.md §4.2-§4.3). Default: only n = 0 suppressed, "
       "integer threshold ceil(tau) + 2 (covers an appearing count of 1 under discrete noise)"},
      {"argmin_threshold",
       "threshold_calculator.py: invalid (sigma, tau) candidates are stored as tau = -1 and argmin picks them, "
       "making every queried node heavy (lumberjack.md §3.2 'code bug'); default: the smallest valid tau. It "
       "changes nothing when sigma_min is valid (every worked setting of §3.2)"},
  };
  a.privacy_bound = nominal_epsilon_delta;
  // strict changes nothing: the default is already the repaired form (public classes and bounds,
  // n = 0 suppression with threshold ceil(tau) + 2, smallest valid tau). Quirks are downgraded by the registry.
  a.privacy_status = [](const Params&, TaskKind) -> std::string { return kApproxDpLabel; };
  using P = LumberjackParams;
  const ParamSet<P> set =
      ParamSet<P>()
          .add(&P::epsilon, param::epsilon("total epsilon of the forest (authors' yaml: 4)"))
          .add(&P::delta, param::delta("1e-6", "total delta of the forest (authors' yaml: 1e-6)"))
          .add(&P::splitting_fraction,
               param::share("splitting_fraction", "0.7",
                            "f: share of epsilon AND delta for the heavy-hitter pruning of the whole forest, strictly "
                            "in (0, 1) (yaml: 0.7)"))
          .add(&P::n_trees, param::n_trees(100, "T (the authors' n_estimators; code default 100, yaml 1)"))
          .add(&P::max_depth, param::max_depth(32, "h, the tree height (code default 32, yaml 90)", 1, 200))
          .add(&P::leaf,
               param::choice("leaf_algorithm", "noisy_majority",
                             "noisy_majority: class counts + N_Z(0, 1/(2 rho_tree)), argmax (code default); "
                             "exponential_mechanism: Gumbel noisy max with scale 1/sqrt(8 rho_tree) (yaml) — "
                             "rho_tree-zCDP because counts are monotone under add/remove; under replace-one the scale "
                             "would have to double (lumberjack.md §3.3 factor-of-2 caveat)"),
               {{"noisy_majority", LeafAlgorithm::kNoisyMajority},
                {"exponential_mechanism", LeafAlgorithm::kExponentialMechanism}})
          .declare(param::strict())  // the default is already the repaired form (privacy_status)
          .quirk(&P::as_coded_suppression, "as_coded_suppression")
          .quirk(&P::argmin_threshold, "argmin_threshold");
  a.prior_ledger = [set](const Params& v, TaskKind) {
    const LumberjackParams p = set.from(v);
    PrivacyLedger ledger;
    charge_forest(ledger, p, plan(p));
    return ledger;
  };
  return {with_learner<LumberjackLearner>(a, set)};
}

std::unique_ptr<Model> load_lumberjack_model(const JsonIn& in, const Schema& schema) {
  auto model = std::make_unique<LumberjackModel>();
  model->n_classes = static_cast<int>(in["n_classes"].integer(2, 1000));
  if (static_cast<std::size_t>(model->n_classes) != schema.target.n_classes())
    in["n_classes"].fail_here("does not match the schema's " + std::to_string(schema.target.n_classes()) + " classes");
  const JsonIn trees = in["trees"];
  if (trees.size() == 0) trees.fail_here("a lumberjack forest needs at least one tree");
  const auto n_features = static_cast<int64_t>(schema.n_features());
  for (std::size_t i = 0; i < trees.size(); ++i) {
    const JsonIn t = trees.at(i);
    const std::vector<int64_t> feature = t["feature"].integers(-1, n_features - 1);
    const auto n = static_cast<int64_t>(feature.size());
    const std::vector<int64_t> depth = t["depth"].integers(0, 1 << 20);
    const std::vector<double> threshold = t["threshold"].numbers();
    const std::vector<int64_t> left = t["left"].integers(0, n - 1), right = t["right"].integers(0, n - 1);
    const std::vector<int64_t> label = t["label"].integers(0, model->n_classes - 1);
    Tree& tree = model->trees.emplace_back();
    tree.root = static_cast<int32_t>(t["root"].integer(0, n - 1));
    if (depth.size() != feature.size()) t["depth"].fail_here("needs one entry per node");
    std::size_t split = 0, leaf = 0;
    tree.nodes.resize(feature.size());
    for (int64_t k = 0; k < n; ++k) {
      lumberjack::Node& node = tree.nodes[static_cast<std::size_t>(k)];
      node.feature = static_cast<int32_t>(feature[static_cast<std::size_t>(k)]);
      node.depth = static_cast<int32_t>(depth[static_cast<std::size_t>(k)]);
      if (node.feature < 0) {
        if (leaf >= label.size()) t["label"].fail_here("ends before node " + std::to_string(k));
        node.label = static_cast<int32_t>(label[leaf++]);
        continue;
      }
      if (split >= threshold.size() || split >= left.size() || split >= right.size())
        t.fail_here("threshold, left or right ends before node " + std::to_string(k));
      node.threshold = threshold[split];
      node.left = static_cast<int32_t>(left[split]);
      node.right = static_cast<int32_t>(right[split]);
      ++split;
      // Children before their parent (post-order, as grown), so routing always ends at a leaf.
      if (node.left >= k || node.right >= k) t.fail_here("node " + std::to_string(k) + ": a child is not stored before it");
    }
    if (split != threshold.size() || leaf != label.size()) t.fail_here("the node arrays hold more entries than the nodes use");
  }
  return model;
}

}  // namespace dpf
