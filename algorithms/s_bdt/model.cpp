#include "algorithms/s_bdt/model.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/json.hpp"

namespace dpf::sbdt {

double BoostedModel::raw_score(const Dataset& data, uint32_t row) const {
  double s = 0.0;
  for (const GradientTree& t : trees) s += t.predict(data, row, routing);
  return init + learning_rate * s;
}

Predictions BoostedModel::predict(const Dataset& data, std::span<const uint32_t> rows) const {
  Predictions p;
  p.task = task;
  // Tree by tree over all rows: each tree reads one column at a time (cache-friendly).
  std::vector<double> sum(rows.size(), 0.0);
  for (const GradientTree& t : trees)
    for (std::size_t i = 0; i < rows.size(); ++i) sum[i] += t.predict(data, rows[i], routing);
  if (task == TaskKind::kRegression) {
    p.value.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
      p.value[i] = y_lo + (init + learning_rate * sum[i] + 1.0) * 0.5 * (y_hi - y_lo);
    return p;
  }
  p.n_classes = 2;
  p.value.resize(2 * rows.size());
  p.label.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double f = init + learning_rate * sum[i];
    const double p1 = logistic ? 1.0 / (1.0 + std::exp(-f)) : std::clamp(f, 0.0, 1.0);
    p.value[2 * i] = 1.0 - p1;
    p.value[2 * i + 1] = p1;
    p.label[i] = p1 < 0.5 ? 0 : 1;  // loss.cpp L113: below the threshold is class 0
  }
  return p;
}

ModelStats BoostedModel::stats() const {
  ModelStats s;
  s.n_trees = trees.size();
  std::size_t empty = 0;
  double depth = 0.0;
  for (std::size_t t = 0; t < trees.size(); ++t) {
    s.n_leaves += trees[t].n_leaves();
    empty += t < empty_leaves.size() ? empty_leaves[t] : 0;
    int d = 0;
    for (const GradientTree::Node& n : trees[t].nodes()) d = std::max<int>(d, n.depth);
    depth += d;
  }
  s.empty_leaf_fraction = s.n_leaves ? static_cast<double>(empty) / static_cast<double>(s.n_leaves) : 0.0;
  s.mean_depth = trees.empty() ? 0.0 : depth / static_cast<double>(trees.size());
  return s;
}

std::string BoostedModel::describe() const {
  JsonWriter w;
  w.begin_object();
  w.field("algorithm", algorithm).field("task", task == TaskKind::kRegression ? "regression" : "classification");
  w.field("init_score", init).field("learning_rate", learning_rate).field("n_trees", static_cast<int64_t>(trees.size()));
  for (const auto& [k, v] : columns) w.field(k, v);
  w.key("trees").begin_array();
  for (const GradientTree& t : trees) {
    w.begin_object();
    w.key("nodes").begin_array();
    for (const GradientTree::Node& n : t.nodes()) {
      w.begin_object();
      if (n.feature < 0) {
        w.field("leaf", n.leaf).field("value", t.leaf_values()[static_cast<std::size_t>(n.leaf)]);
      } else {
        w.field("feature", n.feature).field(n.categorical ? "equals" : "threshold", n.cut);
      }
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.field("details", details);
  w.field("ledger", ledger_summary);
  w.end_object();
  return w.str();
}

Release BoostedModel::released() const {
  Release r;
  r.continuous.push_back(init);
  r.discrete.push_back(static_cast<int64_t>(trees.size()));
  for (const GradientTree& t : trees) {
    for (const GradientTree::Node& n : t.nodes()) {
      if (n.feature < 0) {
        r.discrete.push_back(-1);
        r.discrete.push_back(n.leaf);
        r.continuous.push_back(t.leaf_values()[static_cast<std::size_t>(n.leaf)]);
      } else {
        r.discrete.push_back(n.feature);
        r.discrete.push_back(n.categorical ? 1 : 0);
        r.continuous.push_back(n.cut);
      }
    }
  }
  return r;
}

}  // namespace dpf::sbdt
