// Lumberjack (lumberjack.md): the worked values of §3.1 and §3.2, the recursion bound behind k, the
// (epsilon, delta) ledger, determinism across thread counts, a one-leaf tree when the root is light,
// accuracy well above the majority class, and parameter validation.
#include <doctest/doctest.h>

#include <cmath>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/lumberjack/calibration.hpp"
#include "core/data/synthetic.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/mechanisms.hpp"

using namespace dpf;
namespace lj = dpf::lumberjack;

TEST_SUITE("unit") {
  TEST_CASE("lumberjack §3.1: the leaf rho of the worked table, feasible lower end, certified by the ledger") {
    struct Row {
      double eps, delta, rho;
    };
    for (const Row& r : {Row{1.2, 3e-7, 0.02874}, Row{0.5, 2.5e-7, 0.005399}, Row{0.3, 3e-7, 0.002073},
                        Row{0.5, 5e-7, 0.005714}}) {
      CAPTURE(r.eps);
      CAPTURE(r.delta);
      const double rho = lj::leaf_rho_total(r.eps, r.delta);
      CHECK(rho == doctest::Approx(r.rho).epsilon(5e-4));
      CHECK(lj::zcdp_delta(rho, r.eps) <= r.delta);                      // the lower, feasible end
      CHECK(lj::zcdp_delta(rho * (1 + 1e-9), r.eps) > r.delta * (1 - 1e-6));  // and tight
      CHECK(zcdp_to_epsilon(rho, r.delta) <= r.eps);                      // the harness's conversion agrees
    }
    CHECK_THROWS_AS(lj::leaf_rho_total(1e-3, 0.5), Error);  // "Impossible" in the code
  }

  TEST_CASE("lumberjack §3.2: k, sigma_split, tau, rho_tree and the leaf sigma of the worked table") {
    struct Row {
      double eps, delta, f;
      int T, h, k;
      double sigma, tau, rho_tree, sigma_leaf;
    };
    for (const Row& r : {Row{4, 1e-6, 0.7, 1, 90, 7, 4.411, 22.94, 0.02874, 4.17},
                        Row{2, 1e-6, 0.75, 25, 100, 175, 38.92, 224.1, 0.000216, 48.1},
                        Row{1, 1e-6, 0.7, 100, 90, 700, 158.5, 950.9, 2.07e-5, 155.3},
                        Row{1, 1e-6, 0.5, 50, 30, 250, 132.0, 776.7, 1.14e-4, 66.2}}) {
      CAPTURE(r.k);
      const lj::Budget b = lj::plan_budget(r.eps, r.delta, r.f, r.T, r.h);
      CHECK(b.k == r.k);
      CHECK(b.gshm.valid);
      CHECK(b.gshm.sigma == doctest::Approx(r.sigma).epsilon(1e-3));
      CHECK(b.gshm.tau == doctest::Approx(r.tau).epsilon(1e-3));
      CHECK(b.rho_tree == doctest::Approx(r.rho_tree).epsilon(3e-3));
      CHECK(b.sigma_leaf == doctest::Approx(r.sigma_leaf).epsilon(2e-3));
      // sigma_min = sqrt(k) / mu is already valid here (§3.2), so the argmin quirk changes nothing.
      CHECK(b.gshm.sigma == doctest::Approx(std::sqrt(r.k) / b.gshm.mu));
      const lj::GshmCalibration q = lj::calibrate_gshm(b.epsilon_split, b.delta_split, b.k, true);
      CHECK(q.tau == b.gshm.tau);
      CHECK(lj::gshm_delta(b.epsilon_split, b.gshm.sigma, b.gshm.tau, b.k) <= b.delta_split * (1 + 1e-9));
      CHECK(lj::analytic_gaussian_delta(b.epsilon_split, b.gshm.mu) == doctest::Approx(b.delta_split).epsilon(1e-9));
    }
  }

  TEST_CASE("lumberjack: with discrete noise, the integer threshold ceil(tau) + 2 keeps an appearing count below 1 - p") {
    // A node with one row is heavy iff Z >= ceil(tau) + 1; §3.2 assumes probability 1 - Phi(tau / sigma).
    for (const double sigma : {0.7, 4.411, 9.13, 38.92}) {
      CAPTURE(sigma);
      const double tau = sigma * lj::normal_upper_quantile(1e-8);
      const double s2 = sigma * sigma;
      double tail = 0.0;
      for (int64_t j = static_cast<int64_t>(std::ceil(tau)) + 1; j < static_cast<int64_t>(tau + 60 * sigma + 10); ++j)
        tail += discrete_gaussian_pmf(j, s2);
      CHECK(tail <= lj::normal_cdf(-tau / sigma));
    }
  }

  TEST_CASE("lumberjack §4.3: the builder queries at most 1 + floor(log2(h + 1)) layers per path (the k of §3.2)") {
    CHECK(lj::queried_layers(90) == 6);  // 45, 68, 79, 85, 88, 89 (§4.3)
    for (int h = 1; h <= 400; ++h) {
      CAPTURE(h);
      CHECK(lj::queried_layers(h) <= lj::pruning_queries_per_record(1, h));
    }
  }

  TEST_CASE("ledger: approximate-DP charges compose componentwise and add to the rest by basic composition") {
    PrivacyLedger pure;
    pure.charge(PrivacyLedger::kRoot, "laplace", 0.5, 1.0);
    CHECK(pure.epsilon_for(1e-6) == 0.5);  // pure ledgers unchanged
    CHECK_NOTHROW(pure.check_within(0.5, "pure"));

    PrivacyLedger l;
    const auto par = l.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "par");
    l.charge_approx(par, "a", 1.0, 1e-6, 1.0);
    const auto child = l.open_scope(par, Composition::kSequential, "child");
    l.charge_approx(child, "a", 0.4, 3e-6, 1.0);
    CHECK(l.approx_epsilon() == doctest::Approx(1.4));  // own 1.0 + max over the parallel children (0.4)
    CHECK(l.approx_delta() == doctest::Approx(4e-6));   // own 1e-6 + max(child 3e-6)
    CHECK(l.has_approx());
    CHECK(l.spent() == 0.0);
    CHECK_THROWS_AS(l.check_within(10.0, "approx"), Error);  // no pure guarantee
    CHECK(l.epsilon_for(4e-6) == doctest::Approx(1.4));
    CHECK_THROWS_AS(l.epsilon_for(1e-6), Error);  // below the approximate part's delta
    l.charge(PrivacyLedger::kRoot, "laplace", 0.25, 1.0);
    CHECK(l.epsilon_for(5e-6) == doctest::Approx(1.65));
    l.charge_zcdp(PrivacyLedger::kRoot, "gauss", 0.01, 1.0);
    CHECK_THROWS_AS(l.epsilon_for(4e-6), Error);  // the zCDP part needs delta left over
    PrivacyLedger z;
    z.charge_zcdp(PrivacyLedger::kRoot, "gauss", 0.01, 1.0);
    z.charge(PrivacyLedger::kRoot, "laplace", 0.25, 1.0);
    CHECK(l.epsilon_for(5e-6) == doctest::Approx(1.4 + z.epsilon_for(1e-6)));
    PrivacyLedger g;
    g.absorb(PrivacyLedger::kRoot, l);
    CHECK(g.epsilon_for(5e-6) == doctest::Approx(l.epsilon_for(5e-6)));
    CHECK(l.summary().find("delta=") != std::string::npos);
  }

  TEST_CASE("lumberjack: the ledger total is (epsilon, delta) = (eps_s + eps_l, delta_s + delta_l)") {
    const Dataset d = dpf::test::synthetic(600, TaskKind::kClassification, 3);
    for (const char* leaf : {"noisy_majority", "exponential_mechanism"}) {
      CAPTURE(leaf);
      const auto f = dpf::test::fit_registry(
          "lumberjack", {{"epsilon", "2"}, {"delta", "1e-6"}, {"n_trees", "7"}, {"max_depth", "12"}, {"leaf_algorithm", leaf}}, d);
      const lj::Budget b = lj::plan_budget(2, 1e-6, 0.7, 7, 12);
      CHECK(f.ledger.approx_epsilon() == doctest::Approx(1.4));
      CHECK(f.ledger.approx_delta() == doctest::Approx(7e-7));
      CHECK(f.ledger.rho_spent() == doctest::Approx(b.rho_total));
      CHECK(f.ledger.rho_spent() == doctest::Approx(7 * b.rho_tree));
      const double total = f.ledger.epsilon_for(1e-6);
      CHECK(total <= 2.0 * (1 + 1e-9));
      CHECK(total == doctest::Approx(1.4 + zcdp_to_epsilon(b.rho_total, 1e-6 - 7e-7)));
      CHECK(total > 1.9);  // the leaves' conversion is close to their 0.6
      CHECK(f.ledger.certified());
      const AlgorithmInfo& a = find_algorithm("lumberjack");
      const PrivacyBound pb = a.privacy_bound(f.params, TaskKind::kClassification);
      CHECK(pb.epsilon == 2.0);
      CHECK(pb.epsilon_conservative == 2.0);
      CHECK(pb.delta == 1e-6);
      CHECK(a.privacy_status(f.params, TaskKind::kClassification) == "(epsilon, delta)-DP");
    }
  }

  TEST_CASE("lumberjack: the same model and ledger with 1 and 2 threads") {
    const Dataset d = dpf::test::synthetic(900, TaskKind::kClassification, 4);
    const std::vector<uint32_t> rows = all_rows(d.n_rows());
    const std::map<std::string, std::string> p{{"epsilon", "3"}, {"n_trees", "6"}, {"max_depth", "20"}};
    const auto one = dpf::test::fit_registry("lumberjack", p, d, rows, 11, 1);
    const auto two = dpf::test::fit_registry("lumberjack", p, d, rows, 11, 2);
    CHECK(one.model->describe() == two.model->describe());
    CHECK(one.model->released() == two.model->released());
    CHECK(one.ledger.epsilon_for(1e-6) == two.ledger.epsilon_for(1e-6));
    const auto other = dpf::test::fit_registry("lumberjack", p, d, rows, 12, 1);
    CHECK(!(one.model->released() == other.model->released()));
  }

  TEST_CASE("lumberjack: a light root gives a one-leaf tree; every leaf, empty or not, is labelled") {
    const Dataset d = dpf::test::synthetic(5, TaskKind::kClassification, 5);
    const auto f = dpf::test::fit_registry("lumberjack", {{"epsilon", "1"}, {"n_trees", "4"}}, d);
    const ModelStats s = f.model->stats();
    CHECK(s.n_trees == 4);
    CHECK(s.n_leaves == 4);  // tau ~ 200 >> 5 rows: no node is heavy
    CHECK(s.mean_depth == 0.0);
    const Release r = f.model->released();
    REQUIRE(r.discrete.size() == 1 + 4 * 2);
    for (int t = 0; t < 4; ++t) {
      CHECK(r.discrete[static_cast<std::size_t>(1 + 2 * t)] == -1);
      const int64_t label = r.discrete[static_cast<std::size_t>(2 + 2 * t)];
      CHECK((label == 0 || label == 1));
    }
    CHECK(r.continuous.empty());
    // Even on no rows at all (every leaf empty) the release is a labelled one-leaf tree per tree.
    const auto e = dpf::test::fit_registry("lumberjack", {{"epsilon", "1"}, {"n_trees", "3"}}, d,
                                           std::span<const uint32_t>(), 5, 1);
    CHECK(e.model->stats().n_leaves == 3);
    CHECK(e.model->stats().empty_leaf_fraction == 1.0);
  }

  TEST_CASE("lumberjack: accuracy well above the majority class at epsilon 4 on 16000 rows") {
    // The bench's synthetic:classification (10 numeric features). With the defaults (T = 100, h = 32)
    // tau is ~244, so only nodes holding ~1.5 % of the rows survive the first query at layer 16.
    const Dataset d = make_synthetic_dataset("synthetic:classification:n=20000,d=10");
    std::vector<uint32_t> train, test;
    for (uint32_t i = 0; i < d.n_rows(); ++i) (i % 5 == 0 ? test : train).push_back(i);
    const auto f = dpf::test::fit_registry("lumberjack", {{"epsilon", "4"}}, d, train, 7, 2);
    const Predictions p = f.model->predict(d, test);
    std::size_t right = 0, ones = 0;
    for (std::size_t i = 0; i < test.size(); ++i) {
      right += p.label[i] == d.label(test[i]);
      ones += d.label(test[i]) == 1;
    }
    const double acc = static_cast<double>(right) / static_cast<double>(test.size());
    const double share1 = static_cast<double>(ones) / static_cast<double>(test.size());
    const double majority = std::max(share1, 1 - share1);
    MESSAGE("lumberjack accuracy ", acc, " (majority ", majority, ", ", f.model->stats().n_leaves, " leaves)");
    CHECK(acc > majority + 0.2);
    CHECK(f.model->stats().n_leaves > 300);  // the pruning keeps real structure
  }

  TEST_CASE("lumberjack: bad parameters and quirks") {
    const AlgorithmInfo& a = find_algorithm("lumberjack");
    auto make = [&](std::map<std::string, std::string> given) {
      const Params p = resolve_params("lumberjack", a.params, given, "test");
      return a.make(p, Schema{});
    };
    CHECK_NOTHROW(make({{"epsilon", "1"}}));
    CHECK_THROWS_AS(make({{"epsilon", "0"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"delta", "0"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"delta", "0.5"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"splitting_fraction", "1"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"splitting_fraction", "0"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"max_depth", "0"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"n_trees", "0"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"leaf_algorithm", "noisy_count"}}), Error);
    CHECK_THROWS_AS(make({{"epsilon", "1"}, {"reference_quirks", "nope"}}), Error);
    // Regression is refused at fit time, naming the algorithm.
    const Dataset reg = dpf::test::synthetic(50, TaskKind::kRegression, 2);
    CHECK_THROWS_WITH_AS(dpf::test::fit_registry("lumberjack", {{"epsilon", "1"}}, reg),
                         doctest::Contains("lumberjack"), Error);
    // The authors' n <= 2 suppression is outside the calibration: not certified, not labelled DP.
    const Params q = resolve_params("lumberjack", a.params, {{"epsilon", "1"}, {"reference_quirks", "as_coded_suppression"}}, "t");
    CHECK(a.privacy_status(q, TaskKind::kClassification).rfind("published, not (epsilon, delta)-DP: ", 0) == 0);
    const Dataset d = dpf::test::synthetic(300, TaskKind::kClassification, 8);
    const auto f = dpf::test::fit_registry("lumberjack", {{"epsilon", "1"}, {"n_trees", "3"}, {"reference_quirks", "as_coded_suppression"}}, d);
    CHECK(!f.ledger.certified());
  }
}
