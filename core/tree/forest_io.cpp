// ForestModel::save and load_forest_model (forest.hpp): a forest's release as node arrays.
#include <string>

#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

void save_tree(const Tree& t, JsonWriter& w) {
  std::vector<int64_t> kind, depth, feature, first_child, n_children;
  std::vector<double> threshold, leaf_values;
  std::vector<std::string> mask;
  for (const Node& n : t.nodes()) {
    kind.push_back(static_cast<int64_t>(n.kind));
    depth.push_back(n.depth);
    if (n.kind == SplitKind::kLeaf) {
      for (double v : t.leaf_value(n.leaf)) leaf_values.push_back(v);
      continue;
    }
    feature.push_back(n.feature);
    first_child.push_back(n.first_child);
    n_children.push_back(n.n_children);
    if (n.kind == SplitKind::kThreshold) threshold.push_back(n.threshold);
    if (n.kind == SplitKind::kSubset) mask.push_back(std::to_string(n.mask));  // 64 bits: text, not a double
  }
  w.begin_object();
  w.field("n_outputs", t.n_outputs());
  w.int_array("kind", kind).int_array("depth", depth).int_array("feature", feature);
  w.int_array("first_child", first_child).int_array("n_children", n_children);
  w.exact_array("threshold", threshold);
  w.key("mask").begin_array();
  for (const std::string& m : mask) w.value(m);
  w.end_array();
  w.exact_array("leaf_values", leaf_values);
  w.end_object();
}

uint64_t parse_mask(const std::string& text, const JsonIn& where) {
  std::size_t used = 0;
  uint64_t m = 0;
  try {
    m = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-') where.fail_here("mask '" + text + "' is not an unsigned 64-bit integer");
  return m;
}

Tree load_tree(const JsonIn& in, const Schema& schema, int n_outputs) {
  const int64_t outputs = in["n_outputs"].integer(1, 1 << 20);
  if (outputs != n_outputs) in.fail_here("n_outputs " + std::to_string(outputs) + " does not match the model's " + std::to_string(n_outputs));
  const std::vector<int64_t> kind = in["kind"].integers(0, 3);
  const std::vector<int64_t> depth = in["depth"].integers(0, 32767);
  const auto n_nodes = static_cast<int64_t>(kind.size());
  const std::vector<int64_t> feature = in["feature"].integers(0, static_cast<int64_t>(schema.n_features()) - 1);
  const std::vector<int64_t> first_child = in["first_child"].integers(1, n_nodes - 1);
  const std::vector<int64_t> n_children = in["n_children"].integers(1, n_nodes - 1);
  const std::vector<double> threshold = in["threshold"].numbers();
  const std::vector<std::string> mask = in["mask"].strings();
  const std::vector<double> leaf_values = in["leaf_values"].numbers();
  if (kind.empty()) in.fail_here("a tree has no node");
  if (depth.size() != kind.size()) in.fail_here("depth has " + std::to_string(depth.size()) + " entries for " + std::to_string(kind.size()) + " nodes");
  Tree t(n_outputs);
  t.add_nodes(static_cast<int>(n_nodes), 0);
  std::size_t split = 0, thr = 0, msk = 0, val = 0;
  for (int64_t i = 0; i < n_nodes; ++i) {
    Node& n = t.mutable_nodes()[static_cast<std::size_t>(i)];
    n.kind = static_cast<SplitKind>(kind[static_cast<std::size_t>(i)]);
    n.depth = static_cast<int16_t>(depth[static_cast<std::size_t>(i)]);
    const std::string node = "node " + std::to_string(i);
    if (n.kind == SplitKind::kLeaf) {
      if (val + static_cast<std::size_t>(n_outputs) > leaf_values.size()) in.fail_here("leaf_values ends before " + node);
      n.leaf = t.add_leaf_values(std::span<const double>(leaf_values.data() + val, static_cast<std::size_t>(n_outputs)));
      val += static_cast<std::size_t>(n_outputs);
      continue;
    }
    if (split >= feature.size() || split >= first_child.size() || split >= n_children.size())
      in.fail_here("feature, first_child or n_children ends before " + node);
    n.feature = static_cast<int32_t>(feature[split]);
    n.first_child = static_cast<int32_t>(first_child[split]);
    n.n_children = static_cast<int32_t>(n_children[split]);
    ++split;
    // Children after their parent (as every grower stores them), so routing always ends at a leaf.
    if (n.first_child <= i || n.first_child + n.n_children > n_nodes)
      in.fail_here(node + ": children " + std::to_string(n.first_child) + ".." + std::to_string(n.first_child + n.n_children - 1) +
                   " are not after it and inside the tree's " + std::to_string(n_nodes) + " nodes");
    // Routing reads any feature as a number (threshold) or a code (subset, multiway; an ordinal code
    // can also be thresholded), so only the child counts the router relies on are checked.
    if (n.kind == SplitKind::kThreshold) {
      if (n.n_children != 2) in.fail_here(node + ": a threshold split needs 2 children");
      if (thr >= threshold.size()) in.fail_here("threshold ends before " + node);
      n.threshold = threshold[thr++];
    } else if (n.kind == SplitKind::kSubset) {
      if (n.n_children != 2) in.fail_here(node + ": a subset split needs 2 children");
      if (msk >= mask.size()) in.fail_here("mask ends before " + node);
      n.mask = parse_mask(mask[msk++], in);
    }
  }
  if (split != feature.size() || thr != threshold.size() || msk != mask.size() || val != leaf_values.size())
    in.fail_here("the node arrays hold more entries than the tree's nodes use");
  return t;
}

}  // namespace

void ForestModel::save(JsonWriter& w) const {
  if (tie_rng_)
    fail(algorithm_, ": this forest breaks tied votes with a random stream derived from the fit's seed; writing "
         "its key would let anyone recompute every noise draw of the fit, so the model cannot be saved "
         "(fit it with ties=lowest to save it)");
  w.begin_object();
  w.field("kind", "forest").field("algorithm", algorithm_).field("task", to_string(task_));
  w.field("n_classes", n_classes_).field("vote", to_string(vote_));
  w.key("trees").begin_array();
  for (const Tree& t : trees_) save_tree(t, w);
  w.end_array();
  w.end_object();
}

std::unique_ptr<ForestModel> load_forest_model(const JsonIn& in, const Schema& schema) {
  const std::string task = in["task"].string();
  if (task != to_string(schema.target.task)) in["task"].fail_here("'" + task + "' does not match the schema's task");
  const TaskKind t = schema.target.task;
  const auto n_classes = static_cast<int>(in["n_classes"].integer(0, 1 << 20));
  if (t == TaskKind::kClassification && n_classes != static_cast<int>(schema.target.n_classes()))
    in["n_classes"].fail_here(std::to_string(n_classes) + " classes, but the schema lists " + std::to_string(schema.target.n_classes()));
  Vote vote;
  try {
    vote = parse_vote(in["vote"].string());
  } catch (const Error& e) {
    in["vote"].fail_here(e.what());
  }
  if ((vote == Vote::kMean) != (t == TaskKind::kRegression)) in["vote"].fail_here("does not fit the task " + task);
  auto model = std::make_unique<ForestModel>(in["algorithm"].string(), t, n_classes, vote);
  const JsonIn trees = in["trees"];
  const int n_outputs = t == TaskKind::kRegression ? 1 : n_classes;
  for (std::size_t i = 0; i < trees.size(); ++i) model->add_tree(load_tree(trees.at(i), schema, n_outputs));
  return model;
}

}  // namespace dpf
