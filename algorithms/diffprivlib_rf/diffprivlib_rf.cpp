#include "algorithms/diffprivlib_rf/diffprivlib_rf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

// What was reconstructed from the authors' code where diffprivlib-rf.md is silent (read at v0.6.6,
// forest.py _FittingTree.build / fit / apply, validation.check_bounds; no code copied):
//   - the split feature is drawn uniformly among ALL features at every node (randint(n_features)),
//     also when the node's box for that feature is already a point; the threshold is numpy's
//     uniform(lower, upper), i.e. on [lower, upper), and equals lower when lower == upper;
//   - routing is "x <= threshold goes left" both when fitting (_FittingTree.apply) and when
//     predicting (sklearn's Tree). Our Tree sends x < threshold to child 0, so a drawn t is stored as
//     nextafter(t, +inf), and as the largest double when t >= the feature's upper bound: with that,
//     routing the raw x equals routing x clipped to the public bounds, as the library fits on clipped X;
//   - empty leaves get a uniformly random class without a charge. We run permute-and-flip on their
//     all-zero counts instead, which has exactly that distribution (uniform), so every leaf is
//     released by one mechanism and charged ε (no data-dependent branch);
//   - the forest assigns blocks with numpy floor division of float64 positions by n / N_T; we mirror
//     CPython/numpy's floor-division rounding (fmod, then floor with the 0.5 snap);
//   - not mirrored: the float32 cast of X in the forest (we compare doubles; fitting the same seeds on
//     float32-rounded magic-gamma changes none of 57,060 test predictions, docs/diffprivlib-comparison.md), and
//     the accountant's extra per-tree spends on the default accountant (diffprivlib-rf.md §5, an
//     accounting artefact; the forest's true cost is ε, which is what the ledger records).
// The position blocks follow the order of the rows passed to fit, as in the library: the runner passes
// training rows in file order, so on a file sorted by class (magic-gamma) most trees see one class.
// Given the same rows in the same order, library and port agree (docs/diffprivlib-comparison.md).
// Categorical features are treated as ordinal codes on the public bounds [0, c - 1] (v0.6 has no
// categorical handling, §1).

namespace dpf {

namespace {

// a // b as CPython / numpy compute it for floats (a >= 0, b > 0 here).
double py_floordiv(double a, double b) {
  const double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0.0) return 0.0;
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1.0;
  return fl;
}

struct Bounds {
  std::vector<double> lo, hi;
};

Bounds public_bounds(const Schema& s) {
  Bounds b;
  for (const Feature& f : s.features) {
    if (f.kind == FeatureKind::kNumeric) {
      b.lo.push_back(f.lo);
      b.hi.push_back(f.hi);
    } else {
      b.lo.push_back(0.0);
      b.hi.push_back(static_cast<double>(f.n_categories()) - 1.0);
    }
  }
  return b;
}

// The data-independent structure (forest.py _FittingTree.build): depth-first, children contiguous.
void build(Tree& tree, int32_t node, int depth, int max_depth, std::vector<double>& lo, std::vector<double>& hi,
           const Bounds& global, const Rng& tree_rng) {
  if (depth >= max_depth) return;  // stays a leaf; its value is set by release_leaves
  Rng rng = tree_rng.derive("node").derive(static_cast<uint64_t>(node));
  const auto f = static_cast<std::size_t>(rng.below(lo.size()));
  const double t = rng.uniform(lo[f], hi[f]);  // [lo, hi); lo when the box is a point
  const int32_t first = tree.add_nodes(2, static_cast<int16_t>(depth + 1));
  {
    Node& n = tree.mutable_nodes()[static_cast<std::size_t>(node)];
    n.kind = SplitKind::kThreshold;
    n.feature = static_cast<int32_t>(f);
    n.threshold = t >= global.hi[f] ? std::numeric_limits<double>::max()
                                    : std::nextafter(t, std::numeric_limits<double>::infinity());
    n.first_child = first;
    n.n_children = 2;
  }
  const double old_hi = hi[f], old_lo = lo[f];
  hi[f] = t;
  build(tree, first, depth + 1, max_depth, lo, hi, global, tree_rng);
  hi[f] = old_hi;
  lo[f] = t;
  build(tree, first + 1, depth + 1, max_depth, lo, hi, global, tree_rng);
  lo[f] = old_lo;
}

struct DiffprivlibRfParams {
  double epsilon = 1;
  int n_trees = 10, max_depth = 5;
  bool shuffle = false, strict = false;
};

class DiffprivlibRfLearner : public Learner {
 public:
  explicit DiffprivlibRfLearner(const DiffprivlibRfParams& p)
      : epsilon_(p.epsilon), n_trees_(p.n_trees), max_depth_(p.max_depth), shuffle_(p.shuffle), strict_(p.strict) {
    check_epsilon_param("diffprivlib-rf", epsilon_);
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, "diffprivlib-rf: classification only");
    const Schema& schema = data.schema();
    require(schema.n_features() >= 1, "diffprivlib-rf: needs at least one feature");
    const int k = static_cast<int>(data.n_classes());  // the public class list (schema), never the rows
    require(k >= 1, "diffprivlib-rf: the schema lists no classes");
    const Bounds bounds = public_bounds(schema);
    const auto n_trees = static_cast<std::size_t>(n_trees_);

    // Rows of each tree (forest.py fit: "Split samples between trees as evenly as possible").
    std::vector<std::vector<uint32_t>> tree_rows(n_trees);
    Rng rows_rng = ctx.rng.derive("tree-rows");
    if (strict_) {
      // Repair: each row to a uniformly random tree, independently (README "Privacy labels").
      for (uint32_t r : rows) tree_rows[rows_rng.below(n_trees)].push_back(r);
    } else {
      const std::size_t n = rows.size();
      std::vector<uint32_t> pos(n);
      for (std::size_t i = 0; i < n; ++i) pos[i] = static_cast<uint32_t>(i);
      if (shuffle_) rows_rng.shuffle(std::span<uint32_t>(pos));
      const double block = static_cast<double>(n) / static_cast<double>(n_trees);
      for (std::size_t i = 0; i < n; ++i) {
        const auto t = static_cast<std::size_t>(py_floordiv(static_cast<double>(pos[i]), block));
        tree_rows[std::min(t, n_trees - 1)].push_back(rows[i]);
      }
    }

    // Parallel composition over trees is claimed; it holds for the strict assignment and one tree.
    const bool certified = strict_ || n_trees == 1;
    const PrivacyLedger::ScopeId forest_scope =
        ctx.ledger.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "diffprivlib-rf forest");
    auto model = std::make_unique<ForestModel>("diffprivlib-rf", TaskKind::kClassification, k, Vote::kHard);
    model->set_n_train(rows.size());

    std::vector<Tree> trees(n_trees);
    std::vector<PrivacyLedger> ledgers(n_trees);
    std::vector<std::string> errors(n_trees);
    const int threads = std::max(1, std::min<int>(ctx.threads, n_trees_));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::size_t t = 0; t < n_trees; ++t) {
      try {
        trees[t] = grow(data, tree_rows[t], bounds, k, ctx.rng.derive("tree").derive(static_cast<uint64_t>(t)),
                        ledgers[t], certified);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    }
    for (std::size_t t = 0; t < n_trees; ++t) {
      if (!errors[t].empty()) throw Error(errors[t]);
      ctx.ledger.absorb(forest_scope, ledgers[t]);
      model->add_tree(std::move(trees[t]));
    }
    ctx.ledger.check_within(epsilon_, "diffprivlib-rf");
    model->set_ledger_summary(ctx.ledger.summary());
    return model;
  }

 private:
  Tree grow(const Dataset& data, std::span<const uint32_t> rows, const Bounds& bounds, int k, const Rng& rng,
            PrivacyLedger& ledger, bool certified) const {
    Tree tree(k);
    tree.add_nodes(1, 0);
    std::vector<double> lo = bounds.lo, hi = bounds.hi;
    build(tree, 0, 0, max_depth_, lo, hi, bounds, rng);

    // Class counts per leaf (forest.py _FittingTree.fit). Routing needs no data statistics.
    const auto kk = static_cast<std::size_t>(k);
    std::vector<double> counts(tree.nodes().size() * kk, 0.0);
    for (uint32_t r : rows) {
      const auto leaf = static_cast<std::size_t>(tree.leaf_node(data, r));
      counts[leaf * kk + static_cast<std::size_t>(data.label(r))] += 1.0;
      ++tree.mutable_nodes()[leaf].count;  // diagnostics only
    }
    auto& nodes = tree.mutable_nodes();  // children follow their parent: sum the counts upwards
    for (std::size_t i = nodes.size(); i-- > 0;)
      if (nodes[i].kind != SplitKind::kLeaf)
        nodes[i].count = nodes[static_cast<std::size_t>(nodes[i].first_child)].count +
                         nodes[static_cast<std::size_t>(nodes[i].first_child) + 1].count;
    // Leaves hold disjoint rows: parallel composition inside the tree.
    const PrivacyLedger::ScopeId leaves = ledger.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "leaves");
    std::vector<double> value(kk);
    for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
      if (tree.nodes()[i].kind != SplitKind::kLeaf) continue;
      // Permute-and-flip on the class counts (diffprivlib-rf.md §4; exponential.py PermuteAndFlip,
      // sensitivity 1, monotonic: acceptance exp(ε (u_i − max u))). Our permute_and_flip accepts with
      // exp(ε (u_i − max u) / (2Δ)), so Δ = 1/2 gives the monotonic scale ε / 1. Counts have add/remove
      // sensitivity 1 and only rise when a row is added: monotonic. Empty leaves: all-zero counts, a
      // uniform label, as the library's randint(n_classes) (see the reconstruction note above).
      Rng leaf_rng = rng.derive("leaf").derive(static_cast<uint64_t>(i));
      const std::size_t label =
          permute_and_flip(leaf_rng, std::span<const double>(counts.data() + i * kk, kk), epsilon_, 0.5);
      ledger.charge(ledger.open_scope(leaves, Composition::kSequential), "permute-and-flip (leaf)", epsilon_, 1.0,
                    certified);
      std::fill(value.begin(), value.end(), 0.0);
      value[label] = 1.0;
      tree.mutable_nodes()[i].leaf = tree.add_leaf_values(value);
    }
    return tree;
  }

  double epsilon_;
  int n_trees_, max_depth_;
  bool shuffle_, strict_;
};

}  // namespace

std::vector<AlgorithmInfo> diffprivlib_rf_algorithms() {
  AlgorithmInfo a = describe(
      "diffprivlib-rf", "privatree, lumberjack (the baseline of both)", kClassificationTask,
      "IBM diffprivlib v0.6 RandomForestClassifier: random trees on public bounds, disjoint row blocks per tree, "
      "permute-and-flip leaf labels (diffprivlib-rf.md). Names: n_estimators = n_trees; bounds = the schema's "
      "public domains (categorical codes on [0, c-1]); classes = the schema's class list. Reconstructed from "
      "the v0.6.6 code: uniform feature over all features, threshold on [lower, upper), x <= t goes left, "
      "empty leaves uniform (as permute-and-flip on zero counts), float64 instead of float32 X. The blocks follow "
      "the order of the training rows (file order in the runner): on a file sorted by class, such as magic-gamma, "
      "most trees see one class; the library does the same on the same rows (docs/diffprivlib-comparison.md)");
  a.privacy_status = [](const Params& p, TaskKind) -> std::string {
    if (p.get_bool("strict") || p.get_int("n_trees") == 1) return kPureDpLabel;
    return "published, not epsilon-DP: rows go to trees in contiguous blocks floor(i / (n / n_trees)) of the row "
           "order (or of a random permutation with shuffle), so one added row moves block boundaries and other "
           "rows between trees; parallel composition over trees does not hold (diffprivlib-rf.md §3)";
  };
  using P = DiffprivlibRfParams;
  return {with_learner<DiffprivlibRfLearner>(
      a, ParamSet<P>()
             .add(&P::epsilon, param::epsilon("total privacy budget ε (diffprivlib default 1.0)"))
             .add(&P::n_trees, param::n_trees(10, "number of trees (diffprivlib n_estimators, default 10)"))
             .add(&P::max_depth,
                  param::max_depth(5, "depth of every (complete) tree (diffprivlib default 5: 32 leaves)", 1, 20))
             .add(&P::shuffle, param::flag("shuffle", false,
                                           "diffprivlib shuffle: blocks of a random permutation instead of by row "
                                           "position (published variant only)"))
             .add(&P::strict, param::strict()))};
}

}  // namespace dpf
