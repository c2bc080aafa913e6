// The tuning meta-algorithms (algorithms/tuning): grid parsing, the private selection's ledger and
// stopping rule, that both selections pick the better grid point where one is clearly better, and the
// labels (private-selection epsilon-DP over epsilon-DP candidates; oracle-tuning never DP).
#include <cmath>
#include <map>
#include <string>

#include "algo_fixtures.hpp"
#include "algorithms/tuning/grid.hpp"

namespace dpf::test {
namespace {

std::string column(const Model& m, const std::string& name) {
  for (const auto& [k, v] : m.extra_columns())
    if (k == name) return v;
  return "";
}

const std::map<std::string, std::string> kPrivaTreeGrid{
    {"base", "privatree"}, {"grid", "max_depth=1,3"}, {"base_params", "max_bins=8"}, {"strict", "true"}};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("tuning: a grid is the cartesian product of its keys, and bad grids are errors naming the key") {
    const auto g = expand_grid("max_depth=2,3,4;max_bins=8,16", "test");
    REQUIRE(g.size() == 6);
    CHECK(g[0].at("max_depth") == "2");
    CHECK(g[0].at("max_bins") == "8");
    CHECK(g[1].at("max_bins") == "16");
    CHECK(g[5].at("max_depth") == "4");
    CHECK(parse_assignments("none", "t").empty());
    CHECK(parse_assignments("strict=true; n_trees=10", "t").at("n_trees") == "10");
    CHECK_THROWS_WITH_AS(expand_grid("max_depth", "test"), doctest::Contains("key=value"), Error);
    CHECK_THROWS_WITH_AS(parse_assignments("a=1;a=2", "t"), doctest::Contains("twice"), Error);
    const AlgorithmInfo& ps = find_algorithm("private-selection");
    for (const std::string grid : {"epsilon=1,2", "max_dept=2,3"}) {
      const Params p = resolve_params(ps.name, ps.params, {{"base", "privatree"}, {"grid", grid}}, "test");
      const std::string key = grid.substr(0, grid.find('='));
      CHECK_THROWS_WITH_AS(ps.privacy_status(p, TaskKind::kClassification), doctest::Contains(key.c_str()), Error);
    }
    const Params meta = resolve_params(ps.name, ps.params, {{"base", "oracle-tuning"}}, "test");
    CHECK_THROWS_WITH_AS(ps.privacy_status(meta, TaskKind::kClassification), doctest::Contains("meta-algorithm"), Error);
  }

  TEST_CASE("tuning: private selection spends exactly epsilon, split into candidate (eps/3) and selection (2 eps/3)") {
    const Dataset d = xor_data(300, 1);
    for (const double eps : {0.3, 1.0, 3.0}) {
      auto given = kPrivaTreeGrid;
      given["epsilon"] = canonical_number(eps);
      const Fitted f = fit_registry("private-selection", given, d);
      CHECK(f.ledger.spent() == doctest::Approx(eps).epsilon(1e-12));
      CHECK(f.ledger.certified());
      bool selection = false, score = false;
      for (const auto& e : f.ledger.entries()) {
        if (e.mechanism == "random-stopping-selection") {
          selection = true;
          CHECK(e.epsilon == doctest::Approx(2 * eps / 3));
        }
        if (e.mechanism == "laplace-validation-score") {
          score = true;
          CHECK(e.epsilon == doctest::Approx(eps / 3));
        }
      }
      CHECK(selection);
      CHECK(score);
      const AlgorithmInfo& a = find_algorithm("private-selection");
      const Params p = resolve_params(a.name, a.params, given, "test");
      CHECK(a.privacy_status(p, TaskKind::kClassification) == "epsilon-DP");
      CHECK(a.privacy_bound(p, TaskKind::kClassification).epsilon == doctest::Approx(eps));
    }
  }

  TEST_CASE("tuning: private selection over a candidate that is not epsilon-DP is not labelled epsilon-DP") {
    const AlgorithmInfo& a = find_algorithm("private-selection");
    auto given = kPrivaTreeGrid;
    given["strict"] = "false";
    const Params p = resolve_params(a.name, a.params, given, "test");
    CHECK(a.privacy_status(p, TaskKind::kClassification).rfind("published, not epsilon-DP: candidate", 0) == 0);
    // An (epsilon, delta) base is accounted in Renyi DP (rdp_selection_test.cpp), never labelled epsilon-DP.
    const Params ebm = resolve_params(a.name, a.params, {{"base", "dp-ebm"}, {"grid", "max_rounds=5,10"}}, "test");
    CHECK(a.privacy_status(ebm, TaskKind::kClassification).rfind("published, not (epsilon, delta)-DP", 0) == 0);
  }

  TEST_CASE("tuning: the number of candidate runs is Geometric(stop_probability)") {
    const Dataset d = xor_data(60, 2);
    for (const double gamma : {1.0, 0.25}) {
      auto given = kPrivaTreeGrid;
      given["stop_probability"] = canonical_number(gamma);
      double total = 0;
      int n = 0, min_runs = 1 << 30;
      for (uint64_t seed = 1; seed <= 200; ++seed, ++n) {
        const Fitted f = fit_registry("private-selection", given, d, seed);
        const int runs = std::stoi(column(*f.model, "tuning_runs"));
        total += runs;
        min_runs = std::min(min_runs, runs);
      }
      CHECK(min_runs == 1);
      // Mean of 200 Geometric(0.25) draws: 4 +- 0.245 (sd sqrt(12)/sqrt(200)); 5 sd is 1.2.
      if (gamma == 1.0) CHECK(total / n == 1.0);
      else CHECK(std::abs(total / n - 4.0) < 1.25);
    }
  }

  TEST_CASE("tuning: both selections pick the depth that fits XOR, and the release names the chosen point") {
    const Dataset d = xor_data(2000, 3);
    int private_deep = 0, oracle_deep = 0;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      auto given = kPrivaTreeGrid;
      given["epsilon"] = "30";
      given["stop_probability"] = "0.1";
      const Fitted ps = fit_registry("private-selection", given, d, seed);
      private_deep += column(*ps.model, "tuned_params") == "max_depth=3";
      const Release r = ps.model->released();
      REQUIRE(!r.discrete.empty());
      CHECK(r.discrete.back() == (column(*ps.model, "tuned_params") == "max_depth=3" ? 1 : 0));
      CHECK(r.continuous.back() == doctest::Approx(std::stod(column(*ps.model, "tuning_score"))));
      given.erase("stop_probability");
      const Fitted o = fit_registry("oracle-tuning", given, d, seed);
      oracle_deep += column(*o.model, "tuned_params") == "max_depth=3";
      CHECK(o.ledger.spent() <= 30.0 * (1 + 1e-9));
    }
    // With gamma = 0.1 a run sees max_depth=3 with probability >= 1 - E[(1/2)^T] = 1 - 0.1/1.1 ... > 0.9.
    CHECK(private_deep >= 7);
    CHECK(oracle_deep == 10);
  }

  TEST_CASE("tuning: the oracle is never labelled DP, and a base that releases at prediction is refused") {
    const AlgorithmInfo& o = find_algorithm("oracle-tuning");
    const Params p = resolve_params(o.name, o.params, kPrivaTreeGrid, "test");
    CHECK(!is_dp_label(o.privacy_status(p, TaskKind::kClassification)));
    const Dataset d = synthetic(200, TaskKind::kClassification, 4);
    CHECK_THROWS_WITH_AS(fit_registry("private-selection",
                                      {{"base", "mrf-predict"}, {"grid", "max_depth=1,2"}, {"base_params", "cutoffs=equal-width:4"}},
                                      d),
                         doctest::Contains("predict()"), Error);
  }
}

}  // namespace dpf::test
