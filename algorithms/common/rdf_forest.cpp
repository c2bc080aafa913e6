#include "algorithms/common/rdf_forest.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "algorithms/common/rdf_vote.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

// §2.1 v1 (authors' JAG code): noisy_c = max(0, trunc(n_c + Lap(tau/eps))) per class (the Laplace
// mechanism on the leaf histogram, add/remove sensitivity 1: one record changes one count by one),
// label = argmax. Ties: with `first_seen` (the authors' rule) the class seen first among the leaf's rows,
// then absent classes in class order — a function of the private row order; without it (strict) a
// tied class uniformly at random from the leaf's stream, so the label is post-processing of the noisy
// counts alone.
int jpw_coded_label(std::span<const int32_t> n, const int8_t* first_seen, double eps, Rng& rng) {
  const std::size_t K = n.size();
  double noisy[64] = {};
  require(K <= 64, "jpw: at most 64 classes");
  for (std::size_t c = 0; c < K; ++c) noisy[c] = std::max(0.0, std::trunc(laplace_mechanism(rng, n[c], 1.0, eps)));
  if (first_seen != nullptr) {
    auto rank = [&](std::size_t c) { return first_seen[c] >= 0 ? static_cast<int>(first_seen[c]) : 1000 + static_cast<int>(c); };
    std::size_t best = 0;
    for (std::size_t c = 1; c < K; ++c)
      if (noisy[c] > noisy[best] || (noisy[c] == noisy[best] && rank(c) < rank(best))) best = c;
    return static_cast<int>(best);
  }
  const double top = *std::max_element(noisy, noisy + K);
  uint64_t tied = 0;
  for (std::size_t c = 0; c < K; ++c) tied += noisy[c] == top;
  uint64_t pick = rng.below(tied);
  for (std::size_t c = 0; c < K; ++c)
    if (noisy[c] == top && pick-- == 0) return static_cast<int>(c);
  return 0;
}

class RdfModel : public Model {
 public:
  RdfSpec spec;
  RandomTreeSchema schema;
  std::vector<RandomTree> trees;
  std::vector<std::vector<int16_t>> labels;  // kLabel / kJpwCoded: class index (into classes) per stored leaf
  std::vector<std::vector<float>> noisy;     // kJpwOriginal: noisy counts per stored leaf (x classes)
  std::vector<int> classes;                  // labels present in the training data (§1.6: C), dataset codes
  // Per tree, per node of its routing mirror: the output column (dataset class code) of a stored
  // leaf's label (kLabel / kJpwCoded), -1 for any other node and for kJpwOriginal.
  std::vector<std::vector<int32_t>> vote_column;
  int n_classes_all = 0;
  double eps_tree = 0.0;
  RdfDiagnostics diag;
  std::string ledger_summary;

  // Empty (virtual) leaf: one uniform label per leaf from its own stream (§1.4, §1.6), or JPW
  // original's noisy zero counts. Strict JPW coded: the same noisy-count argmax as a non-empty leaf,
  // on zero counts, from the stream a stored leaf at that position would use.
  int empty_label(uint64_t key) const {
    if (spec.release == RdfRelease::kJpwCoded && spec.random_ties) {
      Rng r = Rng(key).derive("leaf-release");
      const std::vector<int32_t> zero(classes.size(), 0);
      return jpw_coded_label(zero, nullptr, eps_tree, r);
    }
    Rng r = Rng(key).derive("empty-leaf");
    return static_cast<int>(r.below(classes.size()));
  }
  void empty_noisy(uint64_t key, std::vector<double>& out) const {
    Rng r = Rng(key).derive("jpw-noise");
    // §2.1 JPW original: Lap(tau/eps) on every count of every leaf, empty ones included.
    for (std::size_t c = 0; c < classes.size(); ++c) out[c] = laplace_mechanism(r, 0.0, 1.0, eps_tree);
  }

  // Tree t's vote for a row that stopped at node `at` of the tree's routing mirror, when it is not a
  // stored leaf with a label (vote_column): JPW original's noisy counts, an abstaining tree, or a row
  // that leaves the stored part, which route() follows through the virtual splits.
  void vote(std::size_t t, int32_t at, const double* x, std::vector<double>& tmp, double* out) const {
    const std::size_t K = classes.size();
    const int32_t code = trees[t].mirror().code(at);
    if (code == RouteMirror::kAbstain) return;  // §1.7: a value outside the tree's domain: the tree abstains
    int32_t leaf = code;  // >= 0: a stored leaf; -1: the virtual leaf with key virtual_key
    uint64_t virtual_key = 0;
    if (code == RouteMirror::kResolve) {
      const RouteResult r = trees[t].route(schema, x, RowBlock::kRows);
      if (r.abstain) return;
      leaf = r.leaf;
      virtual_key = r.virtual_key;
    }
    if (spec.release != RdfRelease::kJpwOriginal) {
      const int l = leaf >= 0 ? labels[t][static_cast<std::size_t>(leaf)] : empty_label(virtual_key);
      out[classes[static_cast<std::size_t>(l)]] += 1.0;
    } else if (leaf >= 0) {
      const float* z = noisy[t].data() + static_cast<std::size_t>(leaf) * K;
      for (std::size_t c = 0; c < K; ++c) out[classes[c]] += z[c];
    } else {
      empty_noisy(virtual_key, tmp);
      for (std::size_t c = 0; c < K; ++c) out[classes[c]] += tmp[c];
    }
  }

  // Rows in blocks (core/tree/route.hpp) that every tree routes in turn, in lock-step groups through
  // the tree's routing mirror; rows that leave a tree's stored part follow its virtual splits one by
  // one (vote()). Each row's votes are summed in tree order, as a row-by-row loop would, into its
  // output scores (class classes[c] holds class c's sum until the last pass turns the sums into scores).
  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override {
    Predictions p;
    p.task = TaskKind::kClassification;
    p.n_classes = n_classes_all;
    const auto C = static_cast<std::size_t>(n_classes_all);
    p.value.assign(rows.size() * C, 0.0);
    p.label.assign(rows.size(), 0);
    const std::size_t K = classes.size();
    RowBlock block(data);
    std::vector<double> tmp(K);
    int32_t at[RowBlock::kRows];
    for (std::size_t b = 0; b < rows.size(); b += RowBlock::kRows) {
      const std::span<const uint32_t> block_rows = rows.subspan(b, std::min(RowBlock::kRows, rows.size() - b));
      block.load(block_rows);
      for (std::size_t t = 0; t < trees.size(); ++t) {
        block.route(trees[t].mirror(), at);
        const int32_t* column = vote_column[t].data();
        double* out = p.value.data() + b * C;
        for (std::size_t k = 0; k < block_rows.size(); ++k, out += C) {
          const int32_t col = column[at[k]];
          if (col >= 0) out[col] += 1.0;  // a stored leaf's label: the common case
          else vote(t, at[k], block.row_values(k), tmp, out);
        }
      }
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      double* out = p.value.data() + i * C;
      for (std::size_t c = 0; c < K; ++c) tmp[c] = out[classes[c]];
      p.label[i] = rdf_scores(tmp, classes, out);  // the rule a saved forest votes by (rdf_vote.hpp)
    }
    return p;
  }

  // Released output: per tree the full tree's features and thresholds (data-dependent when domains come
  // from the training rows) and every leaf's label or noisy counts, empty (virtual) leaves included.
  Release released() const override {
    Release r;
    r.discrete.push_back(static_cast<int64_t>(trees.size()));
    r.discrete.push_back(schema.depth);
    r.discrete.push_back(static_cast<int64_t>(classes.size()));
    for (int c : classes) r.discrete.push_back(c);
    std::vector<double> tmp(classes.size());
    for (std::size_t t = 0; t < trees.size(); ++t) {
      trees[t].walk(
          schema,
          [&](int feature, double threshold, int n_children) {
            r.discrete.push_back(feature);
            r.discrete.push_back(n_children);
            if (!schema.discrete[static_cast<std::size_t>(feature)]) r.continuous.push_back(threshold);
          },
          [&](int32_t leaf, uint64_t key) {
            r.discrete.push_back(-1);
            if (spec.release == RdfRelease::kJpwOriginal) {
              if (leaf >= 0) {
                const float* v = noisy[t].data() + static_cast<std::size_t>(leaf) * classes.size();
                r.continuous.insert(r.continuous.end(), v, v + classes.size());
              } else {
                empty_noisy(key, tmp);
                r.continuous.insert(r.continuous.end(), tmp.begin(), tmp.end());
              }
            } else {
              r.discrete.push_back(classes[static_cast<std::size_t>(leaf >= 0 ? labels[t][static_cast<std::size_t>(leaf)]
                                                                              : empty_label(key))]);
            }
          });
    }
    return r;
  }

  // The release of released(), materialised: every node of the full tree in depth-first order,
  // unreached (virtual) subtrees included, and every leaf's label or noisy counts. The trees are drawn
  // lazily from RNG keys derived from the fit's seed, and those keys cannot be written: from one, the
  // fit's key and so every noise draw could be recomputed. Nor can only the reached nodes: which leaves
  // hold training rows is private. So a saved forest holds the full trees, up to kMaxSavedRdfLeaves.
  void save(JsonWriter& w) const override {
    double expected = 0.0;
    LeafCountExpectation expect(schema);
    for (const RandomTree& t : trees) expected += t.total_leaves(schema, expect);
    if (expected > kMaxSavedRdfLeaves)
      fail(spec.algorithm, ": the full trees hold about ", expected, " leaves (more than ", kMaxSavedRdfLeaves,
           "): a saved file must hold every leaf, reached or not, because writing the trees' RNG keys would reveal "
           "the fit's noise and writing only the reached leaves would reveal where the training rows fall; "
           "use fewer trees or a smaller depth to save this model");
    const std::size_t K = classes.size();
    const bool counts = spec.release == RdfRelease::kJpwOriginal;
    w.begin_object();
    w.field("kind", "rdf").field("algorithm", spec.algorithm).field("n_classes", n_classes_all).field("depth", schema.depth);
    w.int_array("classes", classes).field("release", counts ? "noisy-counts" : "labels");
    w.int_array("discrete", schema.discrete);
    w.key("child_of").begin_array();
    for (const auto& m : schema.child_of) w.int_array_value(m);
    w.end_array();
    w.key("trees").begin_array();
    std::vector<double> tmp(K);
    for (std::size_t t = 0; t < trees.size(); ++t) {
      std::vector<int64_t> feature, n_children, label;
      std::vector<double> threshold, noisy_counts;
      trees[t].walk(
          schema,
          [&](int f, double thr, int nc) {
            feature.push_back(f);
            n_children.push_back(nc);
            if (!schema.discrete[static_cast<std::size_t>(f)]) threshold.push_back(thr);
          },
          [&](int32_t leaf, uint64_t key) {
            feature.push_back(-1);
            if (counts) {
              if (leaf >= 0) {
                const float* v = noisy[t].data() + static_cast<std::size_t>(leaf) * K;
                noisy_counts.insert(noisy_counts.end(), v, v + K);
              } else {
                empty_noisy(key, tmp);
                noisy_counts.insert(noisy_counts.end(), tmp.begin(), tmp.end());
              }
            } else {
              label.push_back(leaf >= 0 ? labels[t][static_cast<std::size_t>(leaf)] : empty_label(key));
            }
          });
      w.begin_object().int_array("feature", feature).int_array("n_children", n_children).exact_array("threshold", threshold);
      if (counts) w.exact_array("noisy_counts", noisy_counts);
      else w.int_array("label", label);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }

  ModelStats stats() const override {
    ModelStats s;
    s.n_trees = trees.size();
    s.n_leaves = static_cast<std::size_t>(std::llround(diag.total_leaves));
    s.empty_leaf_fraction = diag.empty_leaf_fraction;
    s.mean_depth = diag.depth;
    return s;
  }

  // Diagnostics as result columns (Table 3/4, Fig. 5b, Fig. 8 read them from results.csv).
  std::vector<std::pair<std::string, std::string>> extra_columns() const override {
    auto num = [](double v) {
      char b[32];
      std::snprintf(b, sizeof b, "%.6g", v);
      return std::string(b);
    };
    return {{"tree_depth", std::to_string(diag.depth)},
            {"flipped_fraction", num(diag.flipped_fraction)},
            {"mean_smooth_sensitivity", num(diag.mean_smooth_sensitivity)}};
  }

  std::string describe() const override {
    JsonWriter w;
    w.begin_object();
    w.field("algorithm", spec.algorithm).field("n_trees", static_cast<int>(trees.size())).field("depth", schema.depth);
    w.field("disjoint", spec.disjoint).field("domains_from_training", spec.domains_from_training);
    w.field("epsilon_per_tree", std::isfinite(eps_tree) ? eps_tree : -1.0);
    w.field("leaf_mechanism", to_string(spec.mechanism));
    w.field("empty_leaf_fraction", diag.empty_leaf_fraction).field("flipped_fraction", diag.flipped_fraction);
    w.field("mean_smooth_sensitivity", diag.mean_smooth_sensitivity).field("total_leaves", diag.total_leaves);
    w.key("stored_leaves").begin_array();
    for (const auto& t : trees) w.value(static_cast<int64_t>(t.n_leaves()));
    w.end_array();
    w.field("ledger", ledger_summary);
    w.end_object();
    return w.str();
  }
};

}  // namespace

const RdfDiagnostics* rdf_diagnostics(const Model& model) {
  const auto* m = dynamic_cast<const RdfModel*>(&model);
  return m ? &m->diag : nullptr;
}

namespace {

// C, the classes the forest can output (sorted dataset codes, into `classes`), and each dataset class's
// index into C (-1: not in C). C = the labels present in the training data (§1.6, the authors' code), or
// every class of the schema's public class list: a class set read from the private rows is itself a
// release (a class absent from D is never output, one added row makes it possible: unbounded loss).
std::vector<int> forest_classes(const Dataset& data, std::span<const uint32_t> rows, const RdfSpec& spec,
                                std::vector<int>& classes) {
  std::vector<int> idx_of(data.n_classes(), -1);
  if (spec.classes_from_training) {
    for (uint32_t r : rows) idx_of[static_cast<std::size_t>(data.label(r))] = 0;
  } else {
    std::fill(idx_of.begin(), idx_of.end(), 0);
  }
  for (std::size_t c = 0; c < idx_of.size(); ++c)
    if (idx_of[c] == 0) {
      idx_of[c] = static_cast<int>(classes.size());
      classes.push_back(static_cast<int>(c));
    }
  require(!classes.empty(), spec.algorithm, ": no training rows");
  require(spec.release != RdfRelease::kJpwCoded || classes.size() <= 64, spec.algorithm, ": at most 64 classes");
  return idx_of;
}

// The rows each tree reads (§1.5): a shuffled order cut into tau chunks of floor(n / tau) rows
// (leftovers unused), all rows in every tree, or (strict) every row to one tree uniformly at random,
// independently. Equal chunks of a shuffled order (the paper's rule) let one added row shift the chunk
// boundaries and move other rows between trees, which breaks the parallel composition over trees (a
// loss of 3 eps with 3 trees on 5 vs 6 rows).
class TreeRows {
 public:
  TreeRows(std::span<const uint32_t> rows, const RdfSpec& spec, const Rng& rng)
      : order_(rows.begin(), rows.end()), per_tree_(order_.size()), disjoint_(spec.disjoint) {
    const auto T = static_cast<std::size_t>(spec.n_trees);
    if (spec.disjoint && spec.random_assignment) {
      Rng assign_rng = rng.derive("tree-assignment");
      assigned_.resize(T);
      for (uint32_t r : rows) assigned_[static_cast<std::size_t>(assign_rng.below(T))].push_back(r);
    } else if (spec.disjoint) {
      Rng shuffle_rng = rng.derive("tree-rows");
      shuffle_rng.shuffle(std::span<uint32_t>(order_));
      per_tree_ = order_.size() / T;
    }
  }
  std::span<const uint32_t> of(std::size_t t) const {
    if (!assigned_.empty()) return assigned_[t];
    return std::span<const uint32_t>(order_).subspan(disjoint_ ? t * per_tree_ : 0, per_tree_);
  }

 private:
  std::vector<uint32_t> order_;
  std::size_t per_tree_;
  bool disjoint_;
  std::vector<std::vector<uint32_t>> assigned_;
};

// Per stored leaf of a tree (L x K, leaf-major): its class counts and the order in which it first saw
// each class (-1: never; the authors' JPW tie rule). Growing the tree by routing its rows stores
// exactly the leaves that receive a row. The buffers are reused from tree to tree.
struct LeafCounts {
  std::vector<int32_t> counts;
  std::vector<int8_t> first_seen;

  // The tree's rows in their order, a block at a time: gathering a block's features is a burst of
  // independent loads, where routing a row straight from the columns is a chain of cache misses.
  void grow(RandomTree& tree, const RandomTreeSchema& schema, const Dataset& data, std::span<const uint32_t> rows,
            const std::vector<int>& idx_of, std::size_t K) {
    counts.clear();
    first_seen.clear();
    RowBlock block(data);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i % RowBlock::kRows == 0) block.load(rows.subspan(i, std::min(RowBlock::kRows, rows.size() - i)));
      const uint32_t row = rows[i];
      const int32_t leaf = tree.route_grow(schema, block.row_values(i % RowBlock::kRows), RowBlock::kRows);
      if (leaf < 0) continue;
      const auto l = static_cast<std::size_t>(leaf);
      if (counts.size() < (l + 1) * K) {
        counts.resize((l + 1) * K, 0);
        first_seen.resize((l + 1) * K, -1);
      }
      const auto c = static_cast<std::size_t>(idx_of[static_cast<std::size_t>(data.label(row))]);
      if (counts[l * K + c]++ == 0) {
        int8_t seen = 0;
        for (std::size_t k = 0; k < K; ++k) seen = static_cast<int8_t>(seen + (first_seen[l * K + k] >= 0));
        first_seen[l * K + c] = seen;
      }
    }
    const std::size_t L = tree.n_leaves();  // every stored leaf received at least one row
    counts.resize(L * K, 0);
    first_seen.resize(L * K, -1);
  }
};

// What one tree releases for its stored leaves (a label each, or noisy counts for JPW original), with
// the diagnostics of its leaves: labels that differ from the true majority, and the summed smooth
// sensitivity of the majority (Fig. 5b, Fig. 8).
struct TreeRelease {
  std::vector<int16_t> labels;
  std::vector<float> noisy;
  std::size_t flipped = 0;
  double sensitivity_sum = 0.0;
};

TreeRelease release_leaves(const RandomTree& tree, const LeafCounts& lc, std::size_t K, const RdfSpec& spec,
                           double eps_tree) {
  const bool priv = std::isfinite(spec.epsilon);
  const std::size_t L = tree.n_leaves();
  TreeRelease out;
  if (spec.release == RdfRelease::kJpwOriginal) out.noisy.resize(L * K);
  else out.labels.resize(L);
  for (std::size_t l = 0; l < L; ++l) {
    std::span<const int32_t> n(lc.counts.data() + l * K, K);
    Rng leaf_rng = Rng(tree.leaf_key(static_cast<int32_t>(l))).derive("leaf-release");
    const auto truth = static_cast<int>(std::max_element(n.begin(), n.end()) - n.begin());  // first maximum
    if (priv) out.sensitivity_sum += smooth_sensitivity(majority_gap(n), eps_tree);
    if (spec.release == RdfRelease::kLabel) {
      out.labels[l] = static_cast<int16_t>(priv ? release_leaf_label(spec.mechanism, n, eps_tree, leaf_rng)
                                                : release_leaf_label(LeafMechanism::kMajority, n, 0.0, leaf_rng));
    } else if (spec.release == RdfRelease::kJpwCoded) {
      out.labels[l] = static_cast<int16_t>(
          jpw_coded_label(n, spec.random_ties ? nullptr : lc.first_seen.data() + l * K, eps_tree, leaf_rng));
    } else {
      // §2.1 v2: Laplace(tau/eps) on every class count (sensitivity 1), kept for summing.
      for (std::size_t c = 0; c < K; ++c)
        out.noisy[l * K + c] = static_cast<float>(laplace_mechanism(leaf_rng, n[c], 1.0, eps_tree));
    }
    if (!out.labels.empty() && out.labels[l] != truth) ++out.flipped;
  }
  return out;
}

// Per node of the tree's routing mirror: the class (of the schema's classes) a stored leaf votes
// for, or -1 where RdfModel::vote() decides (not a stored leaf; JPW original's noisy counts).
std::vector<int32_t> leaf_vote_column(const RandomTree& tree, const std::vector<int16_t>& labels,
                                      const std::vector<int>& classes) {
  std::vector<int32_t> column(tree.mirror().size(), -1);
  for (std::size_t i = 0; i < column.size() && !labels.empty(); ++i) {
    const int32_t leaf = tree.mirror().code(static_cast<int32_t>(i));
    if (leaf >= 0) column[i] = classes[static_cast<std::size_t>(labels[static_cast<std::size_t>(leaf)])];
  }
  return column;
}

}  // namespace

std::unique_ptr<Model> fit_rdf(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx, const RdfSpec& spec) {
  require(data.task() == TaskKind::kClassification, spec.algorithm, ": classification only");
  require(spec.n_trees >= 1 && spec.depth >= 0, spec.algorithm, ": n_trees must be >= 1 and depth >= 0");
  const bool priv = std::isfinite(spec.epsilon);
  if (priv) check_epsilon(spec.epsilon, spec.algorithm.c_str());
  auto model = std::make_unique<RdfModel>();
  RdfModel& M = *model;
  M.spec = spec;
  M.n_classes_all = static_cast<int>(data.n_classes());
  const std::vector<int> idx_of = forest_classes(data, rows, spec, M.classes);
  const std::size_t K = M.classes.size();
  M.schema = random_tree_schema(data, rows, spec.domains_from_training, spec.depth);
  M.diag.depth = spec.depth;
  const TreeRows tree_rows(rows, spec, ctx.rng);

  // Budget: disjoint subsets compose in parallel, so every tree's leaves use the whole epsilon;
  // with all rows in every tree the trees compose sequentially, epsilon / tau each (eq. 14).
  M.eps_tree = priv ? (spec.disjoint ? spec.epsilon : spec.epsilon / spec.n_trees) : spec.epsilon;
  PrivacyLedger::ScopeId forest_scope = PrivacyLedger::kRoot;
  if (priv)
    forest_scope = ctx.ledger.open_scope(PrivacyLedger::kRoot, spec.disjoint ? Composition::kParallel : Composition::kSequential,
                                         spec.algorithm + " forest");
  const char* mech_name = spec.release == RdfRelease::kLabel ? to_string(spec.mechanism) : "laplace";

  const auto T = static_cast<std::size_t>(spec.n_trees);
  double empty_sum = 0.0, flipped_sum = 0.0, sens_sum = 0.0, leaves_sum = 0.0;
  LeafCounts leaf_counts;
  LeafCountExpectation expect(M.schema);  // unreached subtrees' expected leaf counts, shared by the trees
  const Rng tree_base = ctx.rng.derive("tree");
  for (std::size_t t = 0; t < T; ++t) {
    RandomTree tree(tree_base.derive(static_cast<uint64_t>(t)).key(), M.schema);
    leaf_counts.grow(tree, M.schema, data, tree_rows.of(t), idx_of, K);
    if (priv) {
      // One charge per tree: the leaves of a tree hold disjoint rows (parallel composition, §4.2).
      const PrivacyLedger::ScopeId ts = ctx.ledger.open_scope(forest_scope, Composition::kSequential, "tree");
      ctx.ledger.charge(ts, mech_name, M.eps_tree, 1.0, spec.certified);
    }
    TreeRelease rel = release_leaves(tree, leaf_counts, K, spec, M.eps_tree);
    const auto L = static_cast<double>(tree.n_leaves());
    const double total = tree.total_leaves(M.schema, expect);
    leaves_sum += total;
    empty_sum += total > 0 ? 1.0 - L / total : 0.0;
    flipped_sum += L > 0 ? static_cast<double>(rel.flipped) / L : 0.0;
    sens_sum += L > 0 ? rel.sensitivity_sum / L : 0.0;
    tree.build_mirror(M.schema);
    M.vote_column.push_back(leaf_vote_column(tree, rel.labels, M.classes));
    M.trees.push_back(std::move(tree));
    M.labels.push_back(std::move(rel.labels));
    M.noisy.push_back(std::move(rel.noisy));
  }
  M.diag.empty_leaf_fraction = empty_sum / static_cast<double>(T);
  M.diag.flipped_fraction = flipped_sum / static_cast<double>(T);
  M.diag.mean_smooth_sensitivity = sens_sum / static_cast<double>(T);
  M.diag.total_leaves = leaves_sum;
  if (priv) {
    ctx.ledger.check_within(std::isnan(spec.epsilon_total) ? spec.epsilon : spec.epsilon_total, spec.algorithm);
    M.ledger_summary = ctx.ledger.summary();
  }
  return model;
}

}  // namespace dpf
