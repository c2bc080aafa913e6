// DP-RF (dipreme.md §3.3, §3.4) and DP-DF (§3.5) as the DiPriMe papers ran them: binned inputs,
// the ledger totals of their budget rules, the dprf_reg_split_eps / authors_asrun / half_epsilon
// quirks, DP-DF's diverse roots, and that both learn an easy problem at a large epsilon.
#include <doctest/doctest.h>

#include <set>

#include "algorithms/algo_fixtures.hpp"
#include "core/data/preprocess.hpp"

using namespace dpf;
using dpf::test::fit_registry;
using dpf::test::synthetic;

namespace {

Dataset binned(std::size_t n, TaskKind task, uint64_t seed = 1) { return bin_equal_width(synthetic(n, task, seed), 5); }

double accuracy_on(const Model& m, const Dataset& d) {
  std::vector<uint32_t> rows = all_rows(d.n_rows());
  Predictions p = m.predict(d, rows);
  std::size_t ok = 0;
  for (uint32_t r : rows) ok += p.label[r] == d.label(r) ? 1 : 0;
  return static_cast<double>(ok) / static_cast<double>(rows.size());
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("dp-rf and dp-df refuse numeric inputs and name the preprocessing") {
    Dataset raw = synthetic(200, TaskKind::kClassification);
    CHECK_THROWS_WITH_AS(fit_registry("dp-rf", {{"epsilon", "1"}}, raw), doctest::Contains("bins: 5"), Error);
    CHECK_THROWS_WITH_AS(fit_registry("dp-df", {{"epsilon", "1"}}, raw), doctest::Contains("bins: 5"), Error);
  }

  TEST_CASE("dp-rf classification: ε/N_T per tree, (d_max + 1) levels of counts and selections, certified") {
    Dataset d = binned(600, TaskKind::kClassification);
    for (const char* eps : {"0.5", "5"}) {
      auto f = fit_registry("dp-rf", {{"epsilon", eps}, {"n_trees", "4"}, {"max_depth", "3"}}, d);
      const double e = std::stod(eps);
      const double level = e / 4 / 4;  // ε_tree / (d_max + 1)
      CHECK(f.ledger.spent() <= e * (1 + 1e-9));
      CHECK(f.ledger.spent() >= 4 * level / 2 * (1 - 1e-9));  // every tree releases its root counts
      CHECK(f.ledger.certified());
      CHECK(find_algorithm("dp-rf").privacy_status(f.params, TaskKind::kClassification) == "epsilon-DP");
      for (const Tree& t : f.forest()->trees()) CHECK(t.max_depth() <= 3);
    }
  }

  TEST_CASE("dp-rf subsample: one floor(b n) subsample shared by every tree") {
    Dataset d = binned(400, TaskKind::kClassification);
    auto f = fit_registry("dp-rf", {{"epsilon", "1"}, {"n_trees", "3"}, {"subsample", "0.25"}}, d);
    for (const Tree& t : f.forest()->trees()) CHECK(t.nodes()[0].count == 100);
  }

  TEST_CASE("dp-rf regression: ledger as published, with dprf_reg_split_eps, and strict") {
    Dataset d = binned(500, TaskKind::kRegression);
    const double eps = 2.0, n_trees = 4, depth = 3;
    const double tree = eps / n_trees, level = tree / (depth + 1);
    // Regression stops only at d_max (5 attributes > 3 levels): every path has d_max selections
    // (ε_level/2 each) and one leaf mean (ε_level/2); the internal nodes' means are never used.
    auto f = fit_registry("dp-rf", {{"epsilon", "2"}, {"n_trees", "4"}, {"max_depth", "3"}}, d);
    CHECK(f.ledger.spent() == doctest::Approx(n_trees * (depth + 1) * level / 2).epsilon(1e-9));
    CHECK_FALSE(f.ledger.certified());
    CHECK(find_algorithm("dp-rf").privacy_status(f.params, TaskKind::kRegression).rfind("published, not", 0) == 0);
    auto q = fit_registry("dp-rf", {{"epsilon", "2"}, {"n_trees", "4"}, {"max_depth", "3"},
                                    {"reference_quirks", "dprf_reg_split_eps"}}, d);
    CHECK(q.ledger.spent() == doctest::Approx(n_trees * (depth * tree + level / 2)).epsilon(1e-9));
    CHECK(q.ledger.spent() > eps);  // the quirk overspends, and the ledger says so
    auto s = fit_registry("dp-rf", {{"epsilon", "2"}, {"n_trees", "4"}, {"max_depth", "3"}, {"strict", "true"}}, d);
    CHECK(s.ledger.certified());
    CHECK(s.ledger.spent() <= eps * (1 + 1e-9));
  }

  TEST_CASE("dp-df: ε_query = ε/(N_T (2h - 1)), depth h - 1, diverse roots") {
    Dataset d = binned(800, TaskKind::kClassification);
    auto f = fit_registry("dp-df", {{"epsilon", "3"}, {"n_trees", "5"}, {"max_height", "3"}}, d);
    CHECK(f.ledger.spent() <= 3 * (1 + 1e-9));
    CHECK(f.ledger.spent() >= 5 * 3.0 / (5 * 5) * (1 - 1e-9));  // at least every root's counts
    CHECK_FALSE(f.ledger.certified());  // local Gini sensitivity at the noisy size (P10)
    std::set<int> roots;
    for (const Tree& t : f.forest()->trees()) {
      CHECK(t.max_depth() <= 2);
      if (t.nodes()[0].kind != SplitKind::kLeaf) roots.insert(t.nodes()[0].feature);
    }
    CHECK(roots.size() == 5);  // 5 trees, 5 attributes: no root attribute repeats
    auto h = fit_registry("dp-df", {{"epsilon", "3"}, {"n_trees", "5"}, {"max_height", "3"},
                                    {"reference_quirks", "half_epsilon"}}, d);
    CHECK(h.ledger.spent() <= 1.5 * (1 + 1e-9));
    auto s = fit_registry("dp-df", {{"epsilon", "3"}, {"n_trees", "5"}, {"max_height", "3"}, {"strict", "true"}}, d);
    CHECK(s.ledger.certified());
    CHECK(find_algorithm("dp-df").privacy_status(s.params, TaskKind::kClassification) == "epsilon-DP");
  }

  TEST_CASE("dp-df authors_asrun: every record gets the same label (the root's noisy majority)") {
    Dataset d = binned(800, TaskKind::kClassification);
    auto f = fit_registry("dp-df", {{"epsilon", "100"}, {"max_height", "4"}, {"reference_quirks", "authors_asrun"}}, d);
    std::vector<uint32_t> rows = all_rows(d.n_rows());
    Predictions p = f.model->predict(d, rows);
    std::set<int> labels(p.label.begin(), p.label.end());
    CHECK(labels.size() == 1);
    std::size_t ones = 0;
    for (uint32_t r : rows) ones += static_cast<std::size_t>(d.label(r));
    CHECK(*labels.begin() == (2 * ones > rows.size() ? 1 : 0));  // at ε = 100 the noisy majority is the majority
  }
}

TEST_SUITE("reproduction") {
  // Not a published number: at ε = 10^4 the noise is negligible and both must learn the synthetic
  // rule y = [f0 + f1/2 + noise > 0.75] from 5-bin inputs (a constant predictor scores about 0.5).
  TEST_CASE("dp-rf and dp-df learn an easy rule at a large epsilon") {
    Dataset d = binned(2000, TaskKind::kClassification);
    auto rf = fit_registry("dp-rf", {{"epsilon", "10000"}, {"max_depth", "3"}}, d);
    CHECK(accuracy_on(*rf.model, d) > 0.8);
    auto df = fit_registry("dp-df", {{"epsilon", "10000"}, {"max_height", "4"}}, d);
    CHECK(accuracy_on(*df.model, d) > 0.8);
  }
}
