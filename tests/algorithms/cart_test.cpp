// Non-private CART forests (algorithms/cart): fit, min_samples_leaf, max_features and max_depth
// semantics of scikit-learn (dipreme.md §3.1).
#include <doctest/doctest.h>

#include <set>

#include "algorithms/algo_fixtures.hpp"

using namespace dpf;
using dpf::test::fit_registry;

namespace {

// XOR of two thresholds on a 12 x 12 grid (separable by axis-aligned splits, not by one split),
// plus two noise features.
Dataset xor_grid() {
  Schema s;
  for (const char* n : {"x0", "x1", "n2", "n3"}) s.features.push_back(Feature{n, FeatureKind::kNumeric, 0, 1, {}});
  s.target.task = TaskKind::kClassification;
  s.target.classes = {"0", "1"};
  Dataset d("xor", s);
  Rng rng(4);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) {
      const double x[4] = {(i + 0.5) / 12, (j + 0.5) / 12, rng.uniform(), rng.uniform()};
      d.add_row(x, ((i < 6) != (j < 6)) ? 1.0 : 0.0);
    }
  return d;
}

double training_accuracy(const Model& m, const Dataset& d) {
  std::vector<uint32_t> rows = all_rows(d.n_rows());
  Predictions p = m.predict(d, rows);
  std::size_t ok = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) ok += p.label[i] == d.label(rows[i]);
  return static_cast<double>(ok) / static_cast<double>(rows.size());
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("RF and ERT with unlimited depth fit a separable set perfectly") {
    const Dataset d = xor_grid();
    for (const std::string algo : {"rf", "ert"}) {
      CAPTURE(algo);
      auto f = fit_registry(algo, {{"n_trees", "25"}, {"max_features", "4"}}, d, 21);
      CHECK(training_accuracy(*f.model, d) == 1.0);
      CHECK(f.ledger.n_charges() == 0);
      CHECK(f.model->stats().n_trees == 25);
    }
    // One tree without bootstrap: pure leaves only.
    auto one = fit_registry("rf", {{"n_trees", "1"}, {"bootstrap", "false"}, {"max_features", "2"}}, d, 3);
    for (const Node& n : one.forest()->trees()[0].nodes())
      if (n.kind == SplitKind::kLeaf) {
        auto v = one.forest()->trees()[0].leaf_value(n.leaf);
        CHECK((v[0] == 1.0 || v[1] == 1.0));
      }
  }

  TEST_CASE("min_samples_leaf and max_depth are respected") {
    const Dataset d = dpf::test::synthetic(300, TaskKind::kClassification, 6);
    const Dataset r = dpf::test::synthetic(300, TaskKind::kRegression, 7);
    for (const Dataset* data : {&d, &r})
      for (const std::string algo : {"rf", "ert"})
        for (int msl : {1, 7, 30}) {
          CAPTURE(algo);
          CAPTURE(msl);
          auto f = fit_registry(algo, {{"n_trees", "5"}, {"min_samples_leaf", std::to_string(msl)}}, *data, 8);
          for (const Tree& t : f.forest()->trees()) {
            CHECK(t.n_leaves() > 1);
            for (const Node& n : t.nodes())
              if (n.kind == SplitKind::kLeaf) CHECK(n.count >= msl);
          }
        }
    for (int depth : {1, 3, 6}) {
      auto f = fit_registry("rf", {{"n_trees", "5"}, {"max_depth", std::to_string(depth)}}, d, 9);
      for (const Tree& t : f.forest()->trees()) CHECK(t.max_depth() <= depth);
      CHECK(f.forest()->trees()[0].max_depth() == depth);  // 300 noisy rows: the limit binds
    }
  }

  TEST_CASE("max_features: K non-constant features are inspected, best of them wins") {
    // Features 0-2 are constant, feature 3 separates the classes: with K = 1, constant features do
    // not count towards K (sklearn), so every root splits on feature 3.
    Schema s;
    for (const char* n : {"c0", "c1", "c2", "x3"}) s.features.push_back(Feature{n, FeatureKind::kNumeric, 0, 1, {}});
    s.target.task = TaskKind::kClassification;
    s.target.classes = {"0", "1"};
    Dataset d("const", s);
    for (int i = 0; i < 40; ++i) {
      const double x[4] = {0.5, 0.5, 0.5, i / 40.0};
      d.add_row(x, i < 20 ? 0.0 : 1.0);
    }
    for (const std::string algo : {"rf", "ert"}) {
      auto f = fit_registry(algo, {{"n_trees", "20"}, {"max_features", "1"}}, d, 12);
      for (const Tree& t : f.forest()->trees()) CHECK(t.nodes()[0].feature == 3);
    }
    // Informative features of different strength: with K = D (and no bootstrap) every tree's root is
    // the best split, so all roots agree; with K = 1 the roots spread over several features.
    const Dataset syn = dpf::test::synthetic(400, TaskKind::kClassification, 13);
    auto all = fit_registry("rf", {{"n_trees", "20"}, {"max_features", "5"}, {"bootstrap", "false"}}, syn, 14);
    std::set<int> roots_all, roots_one;
    for (const Tree& t : all.forest()->trees()) roots_all.insert(t.nodes()[0].feature);
    auto one = fit_registry("rf", {{"n_trees", "20"}, {"max_features", "1"}, {"bootstrap", "false"}}, syn, 14);
    for (const Tree& t : one.forest()->trees()) roots_one.insert(t.nodes()[0].feature);
    CHECK(roots_all == std::set<int>{0});
    CHECK(roots_one.size() >= 3);
  }
}
