// S-BDT (algorithms/s_bdt, ../shared/specs/s-bdt.md): the labels and a-priori bounds of its variants,
// each step of a round replayed against the spec (tree drawing, Poisson sampling, the leaf formula with
// its noise), the ledger of whole fits, and the individual Rényi filter.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "algo_fixtures.hpp"
#include "algorithms/common/gradient_tree.hpp"
#include "algorithms/s_bdt/accounting.hpp"
#include "algorithms/s_bdt/model.hpp"
#include "algorithms/s_bdt/steps.hpp"
#include "core/privacy/normal.hpp"
#include "core/privacy/rdp.hpp"

using namespace dpf;
using dpf::test::fit_registry;
using dpf::test::synthetic;

namespace {

Params params_of(const std::map<std::string, std::string>& given) {
  const AlgorithmInfo& a = find_algorithm("s-bdt");
  return resolve_params("s-bdt", a.params, given, "test");
}
sbdt::SbdtParams sbdt_of(const std::map<std::string, std::string>& given) {
  return sbdt::sbdt_params().from(params_of(given));
}
std::string status(const std::map<std::string, std::string>& given, TaskKind t = TaskKind::kClassification) {
  return find_algorithm("s-bdt").privacy_status(params_of(given), t);
}
double apriori(const std::map<std::string, std::string>& given, TaskKind t = TaskKind::kClassification) {
  return find_algorithm("s-bdt").privacy_bound(params_of(given), t).epsilon;
}
const std::map<std::string, std::string> kAdult05 = {
    {"epsilon", "0.5"}, {"n_trees", "200"},          {"subsample", "1"},   {"denominator_weight", "0.04"},
    {"newton", "true"}, {"init_ratio", "0"},         {"max_depth", "6"}};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("s-bdt: labels and a-priori bounds of the variants") {
    // The library's defaults have an initial score (init_ratio 0.1) whose scale divides by n.
    CHECK(status({}).rfind("published, not (epsilon, delta)-DP: the initial score's Laplace scale divides", 0) == 0);
    CHECK(apriori({}) <= 1.0 * (1 + 1e-9));
    CHECK(status({{"strict", "true"}}) == kApproxDpLabel);
    CHECK(apriori({{"strict", "true"}}) <= 1.0 * (1 + 1e-9));
    // Newton without an initial score: the paper's method is (epsilon, delta)-DP and spends the budget.
    CHECK(status(kAdult05) == kApproxDpLabel);
    CHECK(apriori(kAdult05) == doctest::Approx(0.5).epsilon(1e-6));
    // As run (§7 F1): the halved hessian noise costs 1.06x at w = 0.04 and 1.62x at w = 0.5.
    auto as_run = kAdult05;
    as_run["reference_quirks"] = "half_hessian_noise";
    CHECK(status(as_run).find("half_hessian_noise: Newton mode adds half") != std::string::npos);
    CHECK(apriori(as_run) == doctest::Approx(0.530).epsilon(5e-3));
    as_run["denominator_weight"] = "0.5";
    CHECK(apriori(as_run) == doctest::Approx(0.80).epsilon(1e-2));
    // The Newton quirk does nothing for regression (count denominators), but any non-neutral quirk
    // withholds the label.
    CHECK(apriori(as_run, TaskKind::kRegression) == doctest::Approx(0.5).epsilon(1e-6));
    CHECK(status(as_run, TaskKind::kRegression).find("reference_quirks half_hessian_noise") != std::string::npos);
    // §7 F2: the initial score at half its sensitivity is charged 2 eps_init.
    CHECK(apriori({{"reference_quirks", "init_half_scale"}}) > 1.0);
  }

  TEST_CASE("s-bdt: refused configurations name the parameter") {
    CHECK_THROWS_WITH_AS(sbdt::validate(sbdt_of({{"extra_trees", "5"}})), doctest::Contains("extra_trees"), Error);
    CHECK_THROWS_WITH_AS(sbdt::validate(sbdt_of({{"denominator_weight", "1"}})), doctest::Contains("denominator_weight"),
                         Error);
    CHECK_THROWS_WITH_AS(sbdt::validate(sbdt_of({{"stream", "true"}, {"extra_trees", "200"}})),
                         doctest::Contains("extra_trees must be <= n_trees"), Error);
    Schema s;
    s.features.push_back(Feature{"x", FeatureKind::kNumeric, 0.0, 1.0, {}});
    s.target.task = TaskKind::kClassification;
    s.target.classes = {"a", "b", "c"};
    Dataset three("three", s);
    for (int i = 0; i < 9; ++i) {
      const double x[1] = {i / 9.0};
      three.add_row(x, i % 3);
    }
    CHECK_THROWS_WITH_AS(fit_registry("s-bdt", {}, three), doctest::Contains("exactly two classes"), Error);
  }

  TEST_CASE("s-bdt: trees are data-independent draws on the public grid (§3.4 step 5)") {
    const Dataset d = synthetic(10, TaskKind::kClassification);
    sbdt::SbdtParams p = sbdt_of({{"max_depth", "3"}});
    const std::vector<sbdt::Grid> grids = sbdt::build_grids(p, d.schema());
    REQUIRE(grids[0].cuts.size() == 32);
    CHECK(grids[0].cuts[1] == doctest::Approx(1.0 / 32));  // c_k = a + k (b - a) / 32, b excluded
    CHECK(grids[4].categorical);
    for (int round : {0, 1, 7, 9}) {
      Rng rng(round + 100);
      const GradientTree t = sbdt::draw_tree(p, grids, round, rng);
      CHECK(t.n_leaves() == 8);  // full depth with ignore_split_constraints
      for (const GradientTree::Node& n : t.nodes()) {
        if (n.feature < 0) {
          CHECK(n.depth == 3);
          continue;
        }
        CHECK(n.feature == round % 5);  // cyclic: feature t mod d, categorical ones included
        if (n.categorical) {
          CHECK(n.cut == std::floor(n.cut));
          CHECK((n.cut >= 0 && n.cut < 4));
        } else {
          const auto& c = grids[static_cast<std::size_t>(n.feature)].cuts;
          CHECK(std::find(c.begin(), c.end(), n.cut) != c.end());
        }
      }
    }
    // Constraints on: a categorical split has index -1, so its left child's range [lo, -2] is empty and
    // the left child is a leaf at depth 1 (dp_tree.cpp L124, the split_index = -1 quirk).
    p.ignore_split_constraints = false;
    Rng rng(3);
    const GradientTree t = sbdt::draw_tree(p, grids, 4, rng);
    CHECK(t.node(0).categorical);
    CHECK(t.node(static_cast<std::size_t>(t.node(0).left)).feature == -1);
    CHECK(t.node(static_cast<std::size_t>(t.node(0).left)).depth == 1);
    // Numeric with constraints: the children's index ranges shrink, so cuts on a root-to-leaf path are
    // strictly ordered (left below, right above).
    Rng rng2(4);
    const GradientTree u = sbdt::draw_tree(p, grids, 0, rng2);
    const GradientTree::Node& root = u.node(0);
    if (u.node(static_cast<std::size_t>(root.left)).feature >= 0)
      CHECK(u.node(static_cast<std::size_t>(root.left)).cut < root.cut);
    if (u.node(static_cast<std::size_t>(root.right)).feature >= 0)
      CHECK(u.node(static_cast<std::size_t>(root.right)).cut > root.cut);
  }

  TEST_CASE("s-bdt: training routes x < cut left, prediction x <= cut (§8.1 item 2)") {
    const Dataset d = synthetic(3, TaskKind::kRegression);
    GradientTree t;
    const int32_t root = t.add_split(0, 0, false, d.x(1, 0));
    const int32_t left = t.add_leaf(1);
    const int32_t right = t.add_leaf(1);
    t.set_children(root, left, right);
    CHECK(t.leaf_of(d, 1, Routing::kLess) == 1);
    CHECK(t.leaf_of(d, 1, Routing::kLessEqual) == 0);
  }

  TEST_CASE("s-bdt: the leaf release replays the spec's formula (§3.4 step 6, §7 F1)") {
    GradientTree tree;
    const int32_t root = tree.add_split(0, 0, false, 0.5);
    const int32_t left = tree.add_leaf(1);
    const int32_t right = tree.add_leaf(1);
    tree.set_children(root, left, right);
    LeafSums s{{0.7, -2.0}, {3.1, 0.0}, {40, 0}};
    for (bool newton : {false, true})
      for (bool half : {false, true})
        for (bool add : {true, false}) {
          CAPTURE(newton);
          CAPTURE(half);
          CAPTURE(add);
          const sbdt::LeafNoise n{3.0, 0.5, 0.1, 0.2, 10.0, 2.0, newton, half && newton, true, add};
          Rng rng(17), replay(17);
          sbdt::release_leaves(tree, s, n, rng);
          for (std::size_t l = 0; l < 2; ++l) {
            const double num = s.g[l] + sample_normal(replay, 3.0 * 0.5 / std::sqrt(2 * 0.8));
            const double z = sample_normal(replay, 3.0 * (newton ? 0.1 : 1.0) / std::sqrt(2 * 0.2));
            const double den = (newton ? s.h[l] : s.count[l]) + (half && newton ? 0.5 : 1.0) * z;
            double v = den < 0 ? 0.0 : -num / (add ? den + 10.0 : std::max(den, 10.0));
            v = std::clamp(v, -2.0, 2.0);
            CHECK(tree.leaf_values()[l] == v);
          }
        }
  }

  TEST_CASE("s-bdt: Poisson sampling keeps each record with probability q (§3.4 step 3)") {
    std::vector<uint32_t> pool(20000), out;
    for (uint32_t i = 0; i < pool.size(); ++i) pool[i] = 3 * i;
    Rng rng(9);
    std::size_t total = 0, first = 0;
    for (int rep = 0; rep < 50; ++rep) {
      sbdt::poisson_sample(pool, 0.01, rng, out);
      total += out.size();
      first += !out.empty() && out[0] == 0;
      CHECK(std::is_sorted(out.begin(), out.end()));
      CHECK(std::adjacent_find(out.begin(), out.end()) == out.end());
    }
    // 50 x 20000 Bernoulli(0.01): mean 10000, sd 99.5; the bound is 5 sd (false alarm < 1e-6).
    CHECK(std::abs(static_cast<double>(total) - 10000.0) < 5 * 99.5);
    CHECK(first <= 5);  // P(first kept) = 0.01 per draw
    sbdt::poisson_sample(pool, 1.0, rng, out);
    CHECK(out == pool);
  }

  TEST_CASE("s-bdt: with negligible noise the first tree is the boosting step -sum g / (n + lambda)") {
    const Dataset d = synthetic(300, TaskKind::kRegression, 21);
    auto f = fit_registry("s-bdt",
                          {{"epsilon", "1e7"}, {"n_trees", "1"}, {"max_depth", "1"}, {"subsample", "1"},
                           {"init_ratio", "0"}, {"gradient_clip", "0.3"}, {"lambda", "2"}, {"strict", "true"}},
                          d);
    const auto* m = dynamic_cast<const sbdt::BoostedModel*>(f.model.get());
    REQUIRE(m != nullptr);
    REQUIRE(m->trees.size() == 1);
    const GradientTree& t = m->trees[0];
    CHECK(t.node(0).feature == 0);
    double sum[2] = {0, 0}, cnt[2] = {0, 0};
    for (uint32_t r = 0; r < d.n_rows(); ++r) {
      const double y = 2 * d.y()[r] - 1;  // public target range [0, 1] -> [-1, 1]
      const int leaf = d.x(r, 0) < t.node(0).cut ? 0 : 1;
      sum[leaf] += std::clamp(0.0 - y, -0.3, 0.3);
      ++cnt[leaf];
    }
    for (int l = 0; l < 2; ++l) CHECK(t.leaf_values()[static_cast<std::size_t>(l)] == doctest::Approx(-sum[l] / (cnt[l] + 2)).epsilon(1e-4));
    CHECK(m->init == 0.0);
  }

  TEST_CASE("s-bdt: fits are deterministic and their ledgers match the a-priori bound") {
    const Dataset clf = synthetic(400, TaskKind::kClassification, 22);
    std::map<std::string, std::string> given{{"epsilon", "0.8"}, {"n_trees", "12"}, {"max_depth", "3"},
                                             {"newton", "true"}, {"strict", "true"}, {"subsample", "0.3"}};
    auto a = fit_registry("s-bdt", given, clf, 7), b = fit_registry("s-bdt", given, clf, 7), c = fit_registry("s-bdt", given, clf, 8);
    CHECK(a.model->released() == b.model->released());
    CHECK_FALSE(a.model->released() == c.model->released());
    CHECK(a.ledger.has_rdp());
    CHECK(a.ledger.certified());
    // Strict: the initial score (noisy sum and count, 0.08) and the leaves (0.72) compose in RDP to <= 0.8.
    CHECK(a.ledger.epsilon_for(5e-8) <= 0.8 * (1 + 1e-9));
    CHECK(a.ledger.epsilon_for(5e-8) == doctest::Approx(apriori(given)).epsilon(1e-12));
    // As run: the ledger records the halved hessian noise, above the nominal epsilon.
    given.erase("strict");
    given["init_ratio"] = "0";
    given["reference_quirks"] = "half_hessian_noise";
    auto q = fit_registry("s-bdt", given, clf, 7);
    CHECK(q.ledger.epsilon_for(5e-8) > 0.8);
    CHECK(q.ledger.epsilon_for(5e-8) == doctest::Approx(apriori(given)).epsilon(1e-12));
  }

  TEST_CASE("s-bdt: stream mode without the filter composes the two populations in parallel (§3.7)") {
    const Dataset clf = synthetic(400, TaskKind::kClassification, 23);
    auto f = fit_registry("s-bdt",
                          {{"epsilon", "0.5"}, {"n_trees", "6"}, {"extra_trees", "4"}, {"stream", "true"},
                           {"init_ratio", "0"}, {"max_depth", "2"}},
                          clf);
    CHECK(f.model->stats().n_trees == 10);
    // Each population is calibrated to (0.5, delta) on its own: the max, not the sum.
    CHECK(f.ledger.epsilon_for(5e-8) == doctest::Approx(0.5).epsilon(1e-6));
  }

  TEST_CASE("s-bdt filter: per-record charges are rounded up, the worst record costs a full round (§3.6)") {
    for (const bool newton : {false, true}) {
      CAPTURE(newton);
      const sbdt::SbdtParams p = sbdt_of({{"epsilon", "0.3"}, {"n_trees", "20"}, {"subsample", "0.2"}, {"filter", "true"},
                                          {"extra_trees", "20"}, {"newton", newton ? "true" : "false"},
                                          {"init_ratio", "0"}, {"gradient_clip", "0.5"}, {"hessian_clip", "0.1"}});
      const sbdt::Plan plan = sbdt::plan_budget(p, TaskKind::kClassification);
      const sbdt::FilterCharges ch(p, plan);
      const double worst = plan.regular.per_round.at(plan.regular.alpha);
      CHECK(ch.alpha() == plan.regular.alpha);
      CHECK(ch.budget() == doctest::Approx(20 * worst).epsilon(1e-12));
      CHECK(ch.rho(0.5, 0.1) == doctest::Approx(worst).epsilon(1e-12));
      CHECK(ch.rho(-0.7, 0.3) == doctest::Approx(worst).epsilon(1e-12));  // clipped at G and H
      const double s2 = plan.regular.sigma * plan.regular.sigma;
      Rng rng(5);
      for (int i = 0; i < 200; ++i) {
        const double g = rng.uniform(-0.5, 0.5), h = rng.uniform(0.0, 0.1);
        const double u = 0.8 * (g / 0.5) * (g / 0.5) + 0.2 * (newton ? (h / 0.1) * (h / 0.1) : 1.0);
        const double exact = sgm_rdp(0.2, u / s2, plan.regular.alpha);
        CHECK(ch.rho(g, h) >= exact);
        CHECK(ch.rho(g, h) <= exact * 1.01 + 1e-3 * worst);
      }
      // §7 F3: the authors' table charges an unclipped record's hessian as ~0 in Newton mode.
      sbdt::SbdtParams quirk = p;
      quirk.filter_table = true;
      const sbdt::FilterCharges table(quirk, plan);
      const double u = 0.8 * 0.25 + 0.2 * (newton ? 0.25 : 1.0);  // |g| = G / 2, h = H / 2
      const double exact = sgm_rdp(0.2, u / s2, plan.regular.alpha);
      if (newton) CHECK(table.rho(0.25, 0.05) < 0.9 * exact);
      else CHECK(table.rho(0.25, 0.05) >= exact);
    }
  }

  TEST_CASE("s-bdt filter: records at the worst case have no budget for extra rounds; small ones do") {
    const Dataset reg = synthetic(300, TaskKind::kRegression, 24);
    std::map<std::string, std::string> given{{"epsilon", "0.5"}, {"n_trees", "5"}, {"extra_trees", "5"},
                                             {"filter", "true"}, {"init_ratio", "0"}, {"max_depth", "2"},
                                             {"strict", "true"}, {"subsample", "1"}};
    given["gradient_clip"] = "1e-6";  // every gradient clipped: each round costs the worst case
    auto clipped = fit_registry("s-bdt", given, reg);
    CHECK(clipped.model->stats().n_trees == 5);  // the extra rounds find nobody with budget left
    given["gradient_clip"] = "100";  // gradients far below G: charges ~ w / sigma^2 only
    auto small = fit_registry("s-bdt", given, reg);
    CHECK(small.model->stats().n_trees == 10);
    // The ledger holds one (alpha*, B) charge: the filtered release converts to the calibrated epsilon.
    CHECK(small.ledger.n_charges() == 1);
    CHECK(small.ledger.epsilon_for(5e-8) == doctest::Approx(0.5).epsilon(1e-6));
  }
}

TEST_SUITE("unit") {
  TEST_CASE("dpboost: pure epsilon per tree, trees in parallel (strict) or claimed parallel (as published)") {
    const Dataset clf = synthetic(300, TaskKind::kClassification, 31);
    auto strict = fit_registry("dpboost", {{"epsilon", "0.7"}, {"n_trees", "5"}, {"max_depth", "3"}, {"strict", "true"}}, clf);
    CHECK(strict.ledger.spent() == doctest::Approx(0.7).epsilon(1e-12));
    CHECK(strict.ledger.spent_conservative() == doctest::Approx(0.7).epsilon(1e-12));
    CHECK(strict.ledger.certified());
    CHECK(find_algorithm("dpboost").privacy_status(strict.params, TaskKind::kClassification) == kPureDpLabel);
    // Per tree: 3 levels x 0.7 / 6 (7 nodes) and 8 leaves x 0.35.
    CHECK(strict.ledger.n_charges() == 5 * (7 + 8));
    auto published = fit_registry("dpboost", {{"epsilon", "0.7"}, {"n_trees", "5"}, {"max_depth", "3"}}, clf);
    CHECK(published.ledger.spent() == doctest::Approx(0.7).epsilon(1e-12));
    CHECK(published.ledger.spent_conservative() == doctest::Approx(3.5).epsilon(1e-12));
    CHECK(find_algorithm("dpboost").privacy_status(published.params, TaskKind::kClassification).rfind(
              "published, not epsilon-DP", 0) == 0);
  }

  TEST_CASE("dpboost: with negligible noise the splits follow the gain and GLC bounds the leaves") {
    const Dataset clf = synthetic(600, TaskKind::kClassification, 32);  // y depends on f0 (and f1)
    auto f = fit_registry("dpboost",
                          {{"epsilon", "1e7"}, {"n_trees", "4"}, {"max_depth", "1"}, {"strict", "true"},
                           {"learning_rate", "0.5"}, {"lambda", "1"}},
                          clf);
    const auto* m = dynamic_cast<const sbdt::BoostedModel*>(f.model.get());
    REQUIRE(m != nullptr);
    CHECK(m->trees[0].node(0).feature == 0);
    for (std::size_t t = 0; t < m->trees.size(); ++t)
      for (double v : m->trees[t].leaf_values()) CHECK(std::abs(v) <= 1.0 * std::pow(0.5, t) + 1e-4);
  }
}
