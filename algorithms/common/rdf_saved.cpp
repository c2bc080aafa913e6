// A saved forest of random decision trees (RdfModel::save in rdf_forest.cpp): the full trees as
// written, routed like RandomTree::route and voted by the same rdf_vote, so that it predicts exactly
// as the fitted forest did.
#include <string>

#include "algorithms/common/rdf_forest.hpp"
#include "algorithms/common/rdf_vote.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

struct SavedTree {
  std::vector<int32_t> feature;     // per node, -1 for a leaf
  std::vector<double> threshold;    // per node (continuous splits)
  std::vector<int32_t> first_kid;   // per internal node: offset into kids; per leaf: its leaf index
  std::vector<int32_t> n_children;  // per node
  std::vector<int32_t> kids;        // node indices of the children, contiguous per node
  std::vector<int32_t> label;       // per leaf: index into classes (labels)
  std::vector<double> counts;       // per leaf x classes (noisy counts)
};

class RdfSavedModel : public Model {
 public:
  std::string algorithm;
  int n_classes_all = 0, depth = 0;
  std::vector<int> classes;
  bool noisy_counts = false;
  std::vector<uint8_t> discrete;
  std::vector<std::vector<int16_t>> child_of;
  std::vector<int> n_values;  // discrete: children of a split on the feature (entries of child_of >= 0)
  std::vector<SavedTree> trees;

  // The leaf a row reaches, or -1 when the tree abstains (child_index of random_tree.cpp, §1.4, §1.7).
  int32_t leaf_of(const SavedTree& t, const Dataset& data, uint32_t row) const {
    int32_t i = 0;
    for (;;) {
      const auto n = static_cast<std::size_t>(i);
      const int32_t f = t.feature[n];
      if (f < 0) return t.first_kid[n];
      const double x = data.column(static_cast<std::size_t>(f))[row];
      int c;
      if (!discrete[static_cast<std::size_t>(f)]) {
        c = x < t.threshold[n] ? 0 : 1;
      } else {
        const auto code = static_cast<std::size_t>(x);
        const auto& m = child_of[static_cast<std::size_t>(f)];
        c = code < m.size() ? m[code] : -1;
      }
      if (c < 0) return -1;
      i = t.kids[static_cast<std::size_t>(t.first_kid[n] + c)];
    }
  }

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override {
    const std::size_t K = classes.size();
    return rdf_vote(rows, trees.size(), classes, n_classes_all,
                    [&](std::size_t t, uint32_t row, std::vector<double>& acc, std::vector<double>&) {
                      const int32_t leaf = leaf_of(trees[t], data, row);
                      if (leaf < 0) return;
                      if (noisy_counts) {
                        const double* v = trees[t].counts.data() + static_cast<std::size_t>(leaf) * K;
                        for (std::size_t c = 0; c < K; ++c) acc[c] += v[c];
                      } else {
                        acc[static_cast<std::size_t>(trees[t].label[static_cast<std::size_t>(leaf)])] += 1.0;
                      }
                    });
  }

  // The same vectors as RdfModel::released(): the walk of the full tree is the saved node order.
  Release released() const override {
    Release r;
    r.discrete.push_back(static_cast<int64_t>(trees.size()));
    r.discrete.push_back(depth);
    r.discrete.push_back(static_cast<int64_t>(classes.size()));
    for (int c : classes) r.discrete.push_back(c);
    const std::size_t K = classes.size();
    for (const SavedTree& t : trees)
      for (std::size_t n = 0; n < t.feature.size(); ++n) {
        const int32_t f = t.feature[n];
        if (f >= 0) {
          r.discrete.push_back(f);
          r.discrete.push_back(t.n_children[n]);
          if (!discrete[static_cast<std::size_t>(f)]) r.continuous.push_back(t.threshold[n]);
          continue;
        }
        r.discrete.push_back(-1);
        const auto leaf = static_cast<std::size_t>(t.first_kid[n]);
        if (noisy_counts) r.continuous.insert(r.continuous.end(), t.counts.begin() + static_cast<std::ptrdiff_t>(leaf * K),
                                              t.counts.begin() + static_cast<std::ptrdiff_t>((leaf + 1) * K));
        else r.discrete.push_back(classes[static_cast<std::size_t>(t.label[leaf])]);
      }
    return r;
  }

  ModelStats stats() const override {
    ModelStats s;
    s.n_trees = trees.size();
    for (const SavedTree& t : trees) s.n_leaves += noisy_counts ? t.counts.size() / classes.size() : t.label.size();
    s.mean_depth = depth;
    return s;
  }

  std::string describe() const override {
    JsonWriter w;
    w.begin_object().field("algorithm", algorithm).field("n_trees", static_cast<int64_t>(trees.size()));
    w.field("depth", depth).field("saved", true).end_object();
    return w.str();
  }
};

// One tree from its depth-first node arrays: the children of a node are the subtrees that follow it.
SavedTree load_tree(const JsonIn& in, const RdfSavedModel& m, int64_t n_features) {
  SavedTree t;
  const std::vector<int64_t> feature = in["feature"].integers(-1, n_features - 1);
  const std::vector<int64_t> n_children = in["n_children"].integers(1, 1 << 16);
  const std::vector<double> threshold = in["threshold"].numbers();
  const std::size_t K = m.classes.size();
  std::vector<int64_t> label;
  if (m.noisy_counts) t.counts = in["noisy_counts"].numbers();
  else label = in["label"].integers(0, static_cast<int64_t>(K) - 1);
  const std::size_t n = feature.size();
  if (n == 0) in.fail_here("a tree has no node");
  t.feature.resize(n);
  t.threshold.assign(n, 0.0);
  t.first_kid.assign(n, -1);
  t.n_children.assign(n, 0);
  struct Open {
    std::size_t node;
    int32_t next;
  };
  std::vector<Open> open;
  std::size_t split = 0, thr = 0, leaves = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) {
      if (open.empty()) in.fail_here("node " + std::to_string(i) + " is past the end of the tree");
      Open& parent = open.back();
      t.kids[static_cast<std::size_t>(t.first_kid[parent.node] + parent.next++)] = static_cast<int32_t>(i);
    }
    t.feature[i] = static_cast<int32_t>(feature[i]);
    if (feature[i] < 0) {
      t.first_kid[i] = static_cast<int32_t>(leaves++);
    } else {
      if (split >= n_children.size()) in.fail_here("n_children ends before node " + std::to_string(i));
      t.n_children[i] = static_cast<int32_t>(n_children[split++]);
      const auto f = static_cast<std::size_t>(feature[i]);
      if (!m.discrete[f]) {
        if (t.n_children[i] != 2) in.fail_here("node " + std::to_string(i) + ": a continuous split needs 2 children");
        if (thr >= threshold.size()) in.fail_here("threshold ends before node " + std::to_string(i));
        t.threshold[i] = threshold[thr++];
      } else if (t.n_children[i] != m.n_values[f]) {
        in.fail_here("node " + std::to_string(i) + ": a split on a discrete feature needs one child per value in its domain");
      }
      t.first_kid[i] = static_cast<int32_t>(t.kids.size());
      t.kids.resize(t.kids.size() + static_cast<std::size_t>(t.n_children[i]), -1);
      open.push_back({i, 0});
    }
    while (!open.empty() && open.back().next == t.n_children[open.back().node]) open.pop_back();
  }
  if (!open.empty()) in.fail_here("the tree ends before its last split's children");
  if (split != n_children.size() || thr != threshold.size()) in.fail_here("the node arrays hold more entries than the nodes use");
  if (m.noisy_counts ? t.counts.size() != leaves * K : label.size() != leaves)
    in.fail_here("the leaf values do not match the tree's " + std::to_string(leaves) + " leaves");
  for (int64_t l : label) t.label.push_back(static_cast<int32_t>(l));
  return t;
}

}  // namespace

std::unique_ptr<Model> load_rdf_model(const JsonIn& in, const Schema& schema) {
  auto m = std::make_unique<RdfSavedModel>();
  m->algorithm = in["algorithm"].string();
  m->n_classes_all = static_cast<int>(in["n_classes"].integer(1, 1 << 16));
  if (static_cast<std::size_t>(m->n_classes_all) != schema.target.n_classes()) in["n_classes"].fail_here("does not match the schema");
  m->depth = static_cast<int>(in["depth"].integer(0, 1 << 16));
  for (int64_t c : in["classes"].integers(0, m->n_classes_all - 1)) m->classes.push_back(static_cast<int>(c));
  if (m->classes.empty()) in["classes"].fail_here("needs at least one class");
  const std::string release = in["release"].string();
  if (release != "labels" && release != "noisy-counts") in["release"].fail_here("expected labels or noisy-counts");
  m->noisy_counts = release == "noisy-counts";
  const auto d = static_cast<int64_t>(schema.n_features());
  for (int64_t v : in["discrete"].integers(0, 1)) m->discrete.push_back(static_cast<uint8_t>(v));
  const JsonIn child_of = in["child_of"];
  if (m->discrete.size() != schema.n_features() || child_of.size() != schema.n_features())
    in.fail_here("discrete and child_of need one entry per feature of the schema");
  for (std::size_t f = 0; f < schema.n_features(); ++f) {
    if (m->discrete[f] != (schema.features[f].kind == FeatureKind::kCategorical ? 1 : 0))
      in["discrete"].fail_here("feature '" + schema.features[f].name + "' has another kind in the schema");
    auto& map = m->child_of.emplace_back();
    const JsonIn entry = child_of.at(f);
    if (entry.size() > 0)
      for (int64_t c : entry.integers(-1, 1 << 15)) map.push_back(static_cast<int16_t>(c));
    // The domain's values map to children 0..k-1 in order (random_tree_schema).
    int k = 0;
    for (int16_t c : map)
      if (c >= 0 && c != k++) entry.fail_here("child indices must count 0, 1, ... over the values in the domain");
    m->n_values.push_back(k);
  }
  const JsonIn trees = in["trees"];
  for (std::size_t t = 0; t < trees.size(); ++t) m->trees.push_back(load_tree(trees.at(t), *m, d));
  return m;
}

}  // namespace dpf
