// ForestModel voting rules (core/tree/forest.hpp), routing of hand-built trees, stats and describe().
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/tree/forest.hpp"
#include "core/util/error.hpp"
#include "tree/tree_fixtures.hpp"

using namespace dpf;

namespace {

// A single-leaf tree holding `values`.
Tree stump(std::vector<double> values) {
  Tree t(static_cast<int>(values.size()));
  t.add_nodes(1, 0);
  t.mutable_nodes()[0].leaf = t.add_leaf_values(values);
  return t;
}

// Root: x0 < 5 -> leaf `low`, else leaf `high`; counts set as if 6 and 10 rows went each way.
Tree threshold_tree(std::vector<double> low, std::vector<double> high) {
  Tree t(static_cast<int>(low.size()));
  t.add_nodes(1, 0);
  const int32_t c = t.add_nodes(2, 1);
  Node& root = t.mutable_nodes()[0];
  root.kind = SplitKind::kThreshold;
  root.feature = 0;
  root.threshold = 5.0;
  root.first_child = c;
  root.n_children = 2;
  root.count = 16;
  t.mutable_nodes()[1].leaf = t.add_leaf_values(low);
  t.mutable_nodes()[1].count = 6;
  t.mutable_nodes()[2].leaf = t.add_leaf_values(high);
  t.mutable_nodes()[2].count = 10;
  return t;
}

Dataset one_row_dataset(int n_classes) {
  Schema s;
  s.features = {Feature{"x0", FeatureKind::kNumeric, 0.0, 10.0, {}}};
  s.target.task = TaskKind::kClassification;
  for (int c = 0; c < n_classes; ++c) s.target.classes.push_back(std::to_string(c));
  Dataset d("one", s);
  const double x[1] = {1.0};
  d.add_row(x, 0);
  return d;
}

Predictions predict_one(const ForestModel& m, const Dataset& d) {
  std::vector<uint32_t> rows{0};
  return m.predict(d, rows);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("soft binary vote predicts class 1 iff the mean class-1 fraction is >= 0.5") {
    Dataset d = one_row_dataset(2);
    {
      ForestModel m("t", TaskKind::kClassification, 2, Vote::kSoft);
      m.add_tree(stump({0.6, 0.4}));
      m.add_tree(stump({0.4, 0.6}));
      m.add_tree(stump({0.5, 0.5}));
      Predictions p = predict_one(m, d);
      CHECK(p.value[1] == doctest::Approx(0.5));
      CHECK(p.label[0] == 1);  // exactly 0.5 -> class 1 (the DiPriMe code's >= 0.5 rule)
    }
    {
      ForestModel m("t", TaskKind::kClassification, 2, Vote::kSoft);
      m.add_tree(stump({0.52, 0.48}));
      m.add_tree(stump({0.5, 0.5}));
      Predictions p = predict_one(m, d);
      CHECK(p.value[1] == doctest::Approx(0.49));
      CHECK(p.label[0] == 0);
      CHECK(p.class_score(1)[0] == doctest::Approx(0.49));
      CHECK(p.n_rows() == 1);
    }
  }

  TEST_CASE("hard vote: majority of the trees' argmax labels, ties to the lowest class") {
    Dataset d = one_row_dataset(2);
    ForestModel m("t", TaskKind::kClassification, 2, Vote::kHard);
    m.add_tree(stump({0.6, 0.4}));
    m.add_tree(stump({0.6, 0.4}));
    m.add_tree(stump({0.1, 0.9}));
    Predictions p = predict_one(m, d);
    CHECK(p.label[0] == 0);  // a soft vote would say 1 (mean class-1 score 0.567)
    CHECK(p.value[0] == doctest::Approx(2.0 / 3.0));
    CHECK(p.value[1] == doctest::Approx(1.0 / 3.0));
    ForestModel tie("t", TaskKind::kClassification, 2, Vote::kHard);
    tie.add_tree(stump({0.2, 0.8}));
    tie.add_tree(stump({0.7, 0.3}));
    CHECK(predict_one(tie, d).label[0] == 0);
  }

  TEST_CASE("weighted vote weighs each tree's label by its top score; multi-class soft is the argmax") {
    Dataset d = one_row_dataset(3);
    ForestModel w("t", TaskKind::kClassification, 3, Vote::kWeighted);
    w.add_tree(stump({0.4, 0.35, 0.25}));  // votes 0 with weight 0.4
    w.add_tree(stump({0.45, 0.3, 0.25}));  // votes 0 with weight 0.45
    w.add_tree(stump({0.0, 0.0, 1.0}));    // votes 2 with weight 1.0
    CHECK(predict_one(w, d).label[0] == 2);
    ForestModel h("t", TaskKind::kClassification, 3, Vote::kHard);
    h.add_tree(stump({0.4, 0.35, 0.25}));
    h.add_tree(stump({0.45, 0.3, 0.25}));
    h.add_tree(stump({0.0, 0.0, 1.0}));
    CHECK(predict_one(h, d).label[0] == 0);
    ForestModel s("t", TaskKind::kClassification, 3, Vote::kSoft);
    s.add_tree(stump({0.2, 0.5, 0.3}));
    s.add_tree(stump({0.2, 0.3, 0.5}));
    s.add_tree(stump({0.2, 0.45, 0.35}));
    Predictions p = predict_one(s, d);
    CHECK(p.label[0] == 1);
    CHECK(p.value[2] == doctest::Approx(1.15 / 3));
  }

  TEST_CASE("mean vote averages regression leaf values; routing picks each row's leaf") {
    Schema s;
    s.features = {Feature{"x0", FeatureKind::kNumeric, 0.0, 10.0, {}}};
    s.target.task = TaskKind::kRegression;
    s.target.lo = 0;
    s.target.hi = 10;
    Dataset d("reg", s);
    for (double x : {1.0, 4.999, 5.0, 9.0}) {
      const double row[1] = {x};
      d.add_row(row, 0.0);
    }
    ForestModel m("t", TaskKind::kRegression, 0, Vote::kMean);
    m.add_tree(threshold_tree({1.0}, {4.0}));
    m.add_tree(threshold_tree({2.0}, {8.0}));
    m.add_tree(stump({6.0}));
    std::vector<uint32_t> rows{0, 1, 2, 3};
    Predictions p = m.predict(d, rows);
    REQUIRE(p.value.size() == 4);
    CHECK(p.value[0] == doctest::Approx(3.0));
    CHECK(p.value[1] == doctest::Approx(3.0));
    CHECK(p.value[2] == doctest::Approx(6.0));  // x = 5 goes to the upper child (x >= threshold)
    CHECK(p.value[3] == doctest::Approx(6.0));
    CHECK(m.trees()[0].leaf_node(d, 1) == 1);
    CHECK(m.trees()[0].leaf_node(d, 2) == 2);
    CHECK(parse_vote("mean") == Vote::kMean);
    CHECK(parse_vote("soft") == Vote::kSoft);
    CHECK_THROWS_WITH_AS(parse_vote("majority"), doctest::Contains("unknown vote 'majority'"), Error);
  }

  TEST_CASE("subset and multiway routing") {
    Schema s;
    s.features = {Feature{"c", FeatureKind::kCategorical, 0, 0, {"a", "b", "c"}}};
    s.target.task = TaskKind::kClassification;
    s.target.classes = {"0", "1"};
    Dataset d("cat", s);
    for (double c : {0.0, 1.0, 2.0}) {
      const double row[1] = {c};
      d.add_row(row, 0);
    }
    Tree t(2);
    t.add_nodes(1, 0);
    const int32_t first = t.add_nodes(2, 1);
    Node& root = t.mutable_nodes()[0];
    root.kind = SplitKind::kSubset;
    root.feature = 0;
    root.mask = 0b100;  // {c} -> child 0
    root.first_child = first;
    root.n_children = 2;
    t.mutable_nodes()[1].leaf = t.add_leaf_values(std::vector<double>{0, 1});
    t.mutable_nodes()[2].leaf = t.add_leaf_values(std::vector<double>{1, 0});
    CHECK(t.leaf_node(d, 0) == 2);
    CHECK(t.leaf_node(d, 1) == 2);
    CHECK(t.leaf_node(d, 2) == 1);

    Tree m(2);
    m.add_nodes(1, 0);
    const int32_t f2 = m.add_nodes(3, 1);
    Node& mr = m.mutable_nodes()[0];
    mr.kind = SplitKind::kMultiway;
    mr.feature = 0;
    mr.first_child = f2;
    mr.n_children = 3;
    for (int k = 0; k < 3; ++k) m.mutable_nodes()[static_cast<std::size_t>(1 + k)].leaf = m.add_leaf_values(std::vector<double>{1, 0});
    for (uint32_t r = 0; r < 3; ++r) CHECK(m.leaf_node(d, r) == 1 + static_cast<int32_t>(r));
    CHECK(m.max_depth() == 1);
    CHECK(m.n_leaves() == 3);
  }

  TEST_CASE("stats count leaves, empty leaves and depth") {
    ForestModel m("t", TaskKind::kClassification, 2, Vote::kSoft);
    m.add_tree(threshold_tree({1, 0}, {0, 1}));
    Tree empty_leaf = threshold_tree({1, 0}, {0, 1});
    empty_leaf.mutable_nodes()[1].count = 0;
    m.add_tree(empty_leaf);
    ModelStats s = m.stats();
    CHECK(s.n_trees == 2);
    CHECK(s.n_leaves == 4);
    CHECK(s.empty_leaf_fraction == doctest::Approx(0.25));
    CHECK(s.mean_depth == doctest::Approx(1.0));
  }

  TEST_CASE("describe() is well-formed JSON with the structure, diagnostics and ledger") {
    ForestModel m("algo \"quoted\"", TaskKind::kClassification, 2, Vote::kSoft);
    m.add_tree(threshold_tree({0.25, 0.75}, {1, 0}));
    m.add_tree(stump({0.5, 0.5}));
    m.set_n_train(16);
    m.set_ledger_summary("laplace: calls=3 epsilon=1.5\nem-median: calls=1 epsilon=0.5\n");
    const std::string j = m.describe();
    CAPTURE(j);
    CHECK(dpf::test::json_well_formed(j));
    CHECK(j.find("\"algorithm\":\"algo \\\"quoted\\\"\"") != std::string::npos);
    CHECK(j.find("\"n_train\":16") != std::string::npos);
    CHECK(j.find("\"task\":\"classification\"") != std::string::npos);
    CHECK(j.find("\\n") != std::string::npos);  // the ledger's newlines are escaped
    CHECK(j.find("\"left_fraction\":[0.375]") != std::string::npos);  // 6 of 16 rows to child 0
    CHECK(j.find("\"leaf_occupancy\":[0.375,0.625,0]") != std::string::npos);
    CHECK(j.find("\"kind\":\"threshold\"") != std::string::npos);
    CHECK(j.find("\"threshold\":5") != std::string::npos);
    CHECK(j.find("\"children\":[1,2]") != std::string::npos);
    CHECK(j.find("\"value\":[0.25,0.75]") != std::string::npos);
    // The checker itself rejects broken JSON.
    CHECK_FALSE(dpf::test::json_well_formed("{\"a\":[1,2}"));
    CHECK_FALSE(dpf::test::json_well_formed("{\"a\":1,}"));
    CHECK_FALSE(dpf::test::json_well_formed("{\"a\":\"x\ny\"}"));
    CHECK(dpf::test::json_well_formed("{\"a\":[1,-2.5e3,true,null,{\"b\":\"\\u00e9\"}]}"));
  }
}
