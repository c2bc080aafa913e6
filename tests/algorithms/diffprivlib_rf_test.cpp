// diffprivlib-rf (algorithms/diffprivlib_rf, diffprivlib-rf.md): the ledger, the row blocks of the
// published forest, the data-independent complete trees, the permute-and-flip leaf distribution, the
// thread invariance, a sanity accuracy and the parameter checks.
#include <cmath>

#include "algo_fixtures.hpp"
#include "core/privacy/mechanisms.hpp"

namespace dpf::test {
namespace {

double accuracy(const Model& m, const Dataset& d, std::span<const uint32_t> rows) {
  const Predictions p = m.predict(d, rows);
  double ok = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) ok += p.label[i] == d.label(rows[i]);
  return ok / static_cast<double>(rows.size());
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("diffprivlib-rf: the ledger composes to epsilon; only the strict or one-tree forest is certified") {
    const Dataset d = synthetic(300, TaskKind::kClassification, 7);
    for (const char* strict : {"false", "true"}) {
      for (const char* trees : {"1", "10"}) {
        CAPTURE(strict);
        CAPTURE(trees);
        Fitted f = fit_registry("diffprivlib-rf", {{"epsilon", "0.7"}, {"strict", strict}, {"n_trees", trees}}, d);
        CHECK(f.ledger.spent() == doctest::Approx(0.7).epsilon(1e-12));
        CHECK(f.ledger.spent_conservative() == doctest::Approx(0.7).epsilon(1e-12));
        const bool dp = std::string(strict) == "true" || std::string(trees) == "1";
        CHECK(f.ledger.certified() == dp);
        const AlgorithmInfo& a = find_algorithm("diffprivlib-rf");
        CHECK((a.privacy_status(f.params, TaskKind::kClassification) == "epsilon-DP") == dp);
        // Every leaf of every tree charged once: n_trees * 2^5 permute-and-flip calls.
        CHECK(f.ledger.n_charges() == static_cast<std::size_t>(std::stoi(trees)) * 32);
      }
    }
  }

  TEST_CASE("diffprivlib-rf: published blocks are numpy's floor(i / (n / n_trees)) of the row order") {
    // n = 10, 3 trees: np.arange(10) // (10 / 3) = 0 0 0 0 1 1 1 2 2 2; n = 7, 10 trees: 0 1 2 4 5 7 8.
    for (const auto& [n, t, expected] :
         std::vector<std::tuple<std::size_t, int, std::vector<int>>>{{10, 3, {4, 3, 3}},
                                                                     {7, 10, {1, 1, 1, 0, 1, 1, 0, 1, 1, 0}}}) {
      const Dataset d = synthetic(n, TaskKind::kClassification, 3);
      Fitted f = fit_registry("diffprivlib-rf", {{"n_trees", std::to_string(t)}, {"max_depth", "2"}}, d);
      std::vector<int> sizes;
      for (const Tree& tree : f.forest()->trees()) sizes.push_back(tree.nodes()[0].count);
      CHECK(sizes == expected);
    }
    // strict: every row in exactly one tree.
    const Dataset d = synthetic(500, TaskKind::kClassification, 3);
    Fitted f = fit_registry("diffprivlib-rf", {{"n_trees", "7"}, {"strict", "true"}}, d);
    int total = 0;
    for (const Tree& tree : f.forest()->trees()) total += tree.nodes()[0].count;
    CHECK(total == 500);
  }

  TEST_CASE("diffprivlib-rf: complete trees, thresholds inside the public bounds, one-hot leaves") {
    const Dataset d = synthetic(400, TaskKind::kClassification, 9);
    Fitted f = fit_registry("diffprivlib-rf", {{"max_depth", "4"}, {"n_trees", "5"}}, d);
    REQUIRE(f.forest()->trees().size() == 5);
    for (const Tree& t : f.forest()->trees()) {
      CHECK(t.nodes().size() == 31);
      CHECK(t.n_leaves() == 16);
      for (const Node& n : t.nodes()) {
        if (n.kind == SplitKind::kLeaf) {
          auto v = t.leaf_value(n.leaf);
          CHECK(v[0] + v[1] == 1.0);
          CHECK((v[0] == 0.0 || v[0] == 1.0));
          CHECK(n.depth == 4);
        } else {
          CHECK(n.kind == SplitKind::kThreshold);
          const double hi = n.feature == 4 ? 3.0 : 1.0;  // c4: codes 0..3 as ordinal values
          CHECK(n.threshold >= 0.0);
          CHECK(n.threshold <= hi);
        }
      }
    }
  }

  TEST_CASE("diffprivlib-rf: the structure does not depend on the data") {
    const Dataset a = synthetic(300, TaskKind::kClassification, 1);
    const Dataset b = synthetic(300, TaskKind::kClassification, 2);
    Fitted fa = fit_registry("diffprivlib-rf", {{"n_trees", "3"}}, a, 11);
    Fitted fb = fit_registry("diffprivlib-rf", {{"n_trees", "3"}}, b, 11);
    for (std::size_t t = 0; t < 3; ++t) {
      const auto& na = fa.forest()->trees()[t].nodes();
      const auto& nb = fb.forest()->trees()[t].nodes();
      REQUIRE(na.size() == nb.size());
      for (std::size_t i = 0; i < na.size(); ++i) {
        CHECK(na[i].feature == nb[i].feature);
        CHECK(na[i].threshold == nb[i].threshold);
      }
    }
  }

  TEST_CASE("diffprivlib-rf: same describe() and ledger with 1 and 2 threads") {
    const Dataset d = synthetic(300, TaskKind::kClassification, 4);
    const std::vector<uint32_t> rows = all_rows(300);
    for (const char* strict : {"false", "true"}) {
      Fitted one = fit_registry("diffprivlib-rf", {{"strict", strict}, {"n_trees", "6"}}, d, rows, 21, 1);
      Fitted two = fit_registry("diffprivlib-rf", {{"strict", strict}, {"n_trees", "6"}}, d, rows, 21, 2);
      CHECK(one.model->describe() == two.model->describe());
      CHECK(one.model->released() == two.model->released());
      CHECK(one.ledger.spent() == two.ledger.spent());
    }
  }

  TEST_CASE("diffprivlib-rf: unknown or out-of-range parameters and regression are rejected") {
    const AlgorithmInfo& a = find_algorithm("diffprivlib-rf");
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"epsilon", "0"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"n_trees", "0"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"max_depth", "0"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"max_depth", "21"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"n_estimators", "3"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"epsilon", "inf"}}, "t"), Error);
    CHECK(!a.supports(TaskKind::kRegression));
    const Dataset reg = synthetic(50, TaskKind::kRegression, 1);
    CHECK_THROWS_AS(fit_registry("diffprivlib-rf", {}, reg), Error);
    // The defaults are diffprivlib's: epsilon 1, 10 trees, depth 5, no shuffle.
    const Params p = resolve_params(a.name, a.params, {}, "t");
    CHECK(p.get_double("epsilon") == 1.0);
    CHECK(p.get_int("n_trees") == 10);
    CHECK(p.get_int("max_depth") == 5);
    CHECK(!p.get_bool("shuffle"));
  }

  TEST_CASE("diffprivlib-rf: at epsilon = 10 the forest clearly beats the majority class") {
    const Dataset d = synthetic(4000, TaskKind::kClassification, 12);
    std::vector<uint32_t> train, test;
    for (uint32_t i = 0; i < 4000; ++i) (i % 4 == 0 ? test : train).push_back(i);
    double majority = 0;
    for (uint32_t r : test) majority += d.label(r);
    majority = std::max(majority, static_cast<double>(test.size()) - majority) / static_cast<double>(test.size());
    Fitted f = fit_registry("diffprivlib-rf", {{"epsilon", "10"}, {"strict", "true"}, {"n_trees", "10"}}, d, train, 3);
    const double acc = accuracy(*f.model, d, test);
    MESSAGE("diffprivlib-rf accuracy ", acc, " vs majority ", majority);
    CHECK(acc > majority + 0.1);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("diffprivlib-rf: a leaf's label follows permute-and-flip on its counts; an empty leaf is uniform") {
    // One tree of depth 1 on one feature; every row at x = 0 reaches the left leaf (x <= t for t >= 0);
    // the right leaf is empty. Counts (1, 3) at epsilon = 0.8: P(label 0) from the exact PF pmf with
    // diffprivlib's monotonic scale (our sensitivity 1/2). 4000 fits; two-sided exact binomial tails at
    // 1e-6 each (false-alarm probability < 4e-6 for the two checks).
    const Dataset d = one_feature({{0.0, 0}, {0.0, 1}, {0.0, 1}, {0.0, 1}});
    const double counts[2] = {1, 3};
    const double p0 = permute_and_flip_probabilities(counts, 0.8, 0.5)[0];
    CHECK(p0 == doctest::Approx(0.5 * std::exp(-0.8 * 2)));  // visit 0 first and accept it
    const int n = 4000;
    uint64_t left0 = 0, right0 = 0;
    for (int s = 0; s < n; ++s) {
      Fitted f = fit_registry("diffprivlib-rf", {{"epsilon", "0.8"}, {"n_trees", "1"}, {"max_depth", "1"}}, d,
                              static_cast<uint64_t>(1000 + s));
      const Tree& t = f.forest()->trees()[0];
      left0 += t.leaf_value(t.nodes()[1].leaf)[0] == 1.0;
      right0 += t.leaf_value(t.nodes()[2].leaf)[0] == 1.0;
    }
    CHECK(binom_cdf(n, left0, p0) > 1e-6);
    CHECK(binom_sf(n, left0, p0) > 1e-6);
    CHECK(binom_cdf(n, right0, 0.5) > 1e-6);
    CHECK(binom_sf(n, right0, 0.5) > 1e-6);
  }
}

}  // namespace dpf::test
