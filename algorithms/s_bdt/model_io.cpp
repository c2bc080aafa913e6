// BoostedModel::save and load_boosted_model (s_bdt.hpp): S-BDT's and DPBoost's ensembles as their release.
#include <string>

#include "algorithms/s_bdt/model.hpp"
#include "algorithms/s_bdt/s_bdt.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace sbdt {

void BoostedModel::save(JsonWriter& w) const {
  w.begin_object().field("kind", "boosted").field("algorithm", algorithm).field("task", to_string(task));
  w.field("logistic", logistic).field("routing", routing == Routing::kLess ? "less" : "less-equal");
  w.key("init").exact(init);
  w.key("learning_rate").exact(learning_rate);
  w.key("y_lo").exact(y_lo);
  w.key("y_hi").exact(y_hi);
  w.key("trees").begin_array();
  for (const GradientTree& t : trees) {
    std::vector<int64_t> feature, categorical, left, right, depth;
    std::vector<double> cut;
    for (const GradientTree::Node& n : t.nodes()) {
      feature.push_back(n.feature);
      depth.push_back(n.depth);
      if (n.feature < 0) continue;
      categorical.push_back(n.categorical ? 1 : 0);
      cut.push_back(n.cut);
      left.push_back(n.left);
      right.push_back(n.right);
    }
    w.begin_object().int_array("feature", feature).int_array("depth", depth).int_array("categorical", categorical);
    w.exact_array("cut", cut).int_array("left", left).int_array("right", right);
    w.exact_array("leaf_values", t.leaf_values()).end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace sbdt

std::unique_ptr<Model> load_boosted_model(const JsonIn& in, const Schema& schema) {
  auto m = std::make_unique<sbdt::BoostedModel>();
  m->algorithm = in["algorithm"].string();
  if (in["task"].string() != to_string(schema.target.task)) in["task"].fail_here("does not match the schema's task");
  m->task = schema.target.task;
  m->logistic = in["logistic"].boolean();
  const std::string routing = in["routing"].string();
  if (routing != "less" && routing != "less-equal") in["routing"].fail_here("expected less or less-equal");
  m->routing = routing == "less" ? Routing::kLess : Routing::kLessEqual;
  m->init = in["init"].number();
  m->learning_rate = in["learning_rate"].number();
  m->y_lo = in["y_lo"].number();
  m->y_hi = in["y_hi"].number();
  const JsonIn trees = in["trees"];
  const auto n_features = static_cast<int64_t>(schema.n_features());
  for (std::size_t i = 0; i < trees.size(); ++i) {
    const JsonIn t = trees.at(i);
    const std::vector<int64_t> feature = t["feature"].integers(-1, n_features - 1);
    const auto n = static_cast<int64_t>(feature.size());
    const std::vector<int64_t> depth = t["depth"].integers(0, 32767), categorical = t["categorical"].integers(0, 1);
    const std::vector<int64_t> left = t["left"].integers(1, n - 1), right = t["right"].integers(1, n - 1);
    const std::vector<double> cut = t["cut"].numbers(), values = t["leaf_values"].numbers();
    if (n == 0 || depth.size() != feature.size()) t.fail_here("feature and depth need one entry per node (at least one)");
    GradientTree& tree = m->trees.emplace_back();
    std::size_t split = 0;
    std::vector<std::pair<int64_t, std::size_t>> splits;  // (node, index into left/right)
    for (int64_t k = 0; k < n; ++k) {
      const auto ku = static_cast<std::size_t>(k);
      if (feature[ku] < 0) {
        tree.add_leaf(static_cast<int>(depth[ku]));
        continue;
      }
      if (split >= cut.size() || split >= categorical.size() || split >= left.size() || split >= right.size())
        t.fail_here("the split arrays end before node " + std::to_string(k));
      tree.add_split(static_cast<int>(depth[ku]), static_cast<int32_t>(feature[ku]), categorical[split] == 1, cut[split]);
      splits.emplace_back(k, split++);
    }
    if (split != cut.size() || values.size() != tree.n_leaves())
      t.fail_here("the node arrays and leaf values do not fit the tree's nodes");
    // Children after their parent (as every grower adds them; set_children checks), so routing ends.
    try {
      for (const auto& [node, s] : splits)
        tree.set_children(static_cast<int32_t>(node), static_cast<int32_t>(left[s]), static_cast<int32_t>(right[s]));
    } catch (const Error& e) {
      t.fail_here(e.what());
    }
    tree.leaf_values() = values;
  }
  return m;
}

}  // namespace dpf
