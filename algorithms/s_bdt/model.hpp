// A boosted ensemble of GradientTrees (S-BDT and DPBoost): raw score F(x) = init + eta * sum_t f_t(x)
// (s-bdt.md §3.5). Regression maps F from the scaled label space [-1, 1] back to the public target
// range; binary classification reports p = sigmoid(F) in Newton mode and p = clamp(F, 0, 1) when the
// trees fit the 0/1 labels with squared loss (§3.2), class 1 when p >= 0.5.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "algorithms/common/gradient_tree.hpp"
#include "core/tree/model.hpp"

namespace dpf::sbdt {

class BoostedModel : public Model {
 public:
  std::string algorithm;
  TaskKind task = TaskKind::kRegression;
  bool logistic = false;       // classification: sigmoid(F) (Newton) or clamp(F, 0, 1)
  double init = 0.0, learning_rate = 0.1;
  double y_lo = -1.0, y_hi = 1.0;  // regression: the public target range mapped to [-1, 1]
  Routing routing = Routing::kLessEqual;  // prediction rule (§8.1 item 2)
  std::vector<GradientTree> trees;
  std::vector<std::size_t> empty_leaves;  // per tree: leaves no sampled row reached (diagnostic)
  std::vector<std::pair<std::string, std::string>> columns;  // extra result columns
  std::string details;  // describe(): algorithm-specific JSON fields (without braces)
  std::string ledger_summary;

  double raw_score(const Dataset& data, uint32_t row) const;
  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override;
  ModelStats stats() const override;
  std::string describe() const override;
  std::vector<std::pair<std::string, std::string>> extra_columns() const override { return columns; }
  // Per tree in order: the pre-order structure (feature and categorical flag per internal node, -1 and
  // the leaf index per leaf) as discrete parts, cuts and leaf values as continuous parts; the initial
  // score first.
  Release released() const override;
  // The release as node arrays per tree (model_io.cpp): every node's feature (-1 for a leaf),
  // categorical flag, cut, children and depth, and the leaf values; the initial score, the learning
  // rate, the link and the public target range. No empty-leaf counts, no diagnostics.
  void save(JsonWriter& w) const override;
};

}  // namespace dpf::sbdt
