// Private selection over (epsilon, delta) bases (algorithms/tuning/rdp_selection.cpp): Papernot &
// Steinke 2022 Thm 2 accounting. A fit over DP-EBM and over S-BDT stays within the nominal (epsilon,
// delta) by the ledger, the ledger shows the candidate's and the selection's shares, the label and the
// a-priori bound follow, and a base without a Renyi-DP curve (Lumberjack's GSHM pruning) is refused,
// pointing at enumerated-selection.
#include <map>
#include <string>

#include "algo_fixtures.hpp"

namespace dpf::test {
namespace {

const std::map<std::string, std::map<std::string, std::string>> kBases{
    {"dp-ebm", {{"base", "dp-ebm"}, {"grid", "max_rounds=5,10"}, {"base_params", "delta=1e-6;max_bins=8"},
                {"strict", "true"}}},
    {"s-bdt", {{"base", "s-bdt"}, {"grid", "n_trees=5,10"}, {"base_params", "delta=1e-6;max_depth=2;subsample=1"},
               {"strict", "true"}}},
};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("rdp selection: a fit over dp-ebm and s-bdt is within (epsilon, delta), split into candidate and selection") {
    const Dataset d = synthetic(300, TaskKind::kClassification, 7);
    const AlgorithmInfo& a = find_algorithm("private-selection");
    for (const auto& [name, grid] : kBases) {
      CAPTURE(name);
      for (const double eps : {0.5, 2.0}) {
        CAPTURE(eps);
        auto given = grid;
        given["epsilon"] = canonical_number(eps);
        given["stop_probability"] = "0.3";
        const Fitted f = fit_registry("private-selection", given, d);
        const double spent = f.ledger.epsilon_for(1e-6);
        CHECK(spent <= eps * (1 + 1e-9));
        CHECK(spent >= 0.99 * eps);  // the bisection leaves little on the table
        double candidate = 0.0, selection = 0.0, total = 0.0;
        for (const auto& sh : f.ledger.breakdown(1e-6)) {
          total += sh.epsilon;
          if (sh.mechanism == "candidate-fit-or-score") candidate = sh.epsilon;
          if (sh.mechanism == "random-stopping-selection") selection = sh.epsilon;
        }
        CHECK(candidate > 0.0);
        CHECK(selection > 0.0);
        CHECK(total == doctest::Approx(spent));
        const Params p = resolve_params(a.name, a.params, given, "test");
        CHECK(a.privacy_status(p, TaskKind::kClassification) == "(epsilon, delta)-DP");
        const PrivacyBound b = a.privacy_bound(p, TaskKind::kClassification);
        CHECK(b.delta == 1e-6);
        CHECK(b.epsilon == doctest::Approx(spent));
      }
    }
  }

  TEST_CASE("rdp selection: the plan is data-independent: every fit of one configuration spends the same") {
    const Dataset d = synthetic(200, TaskKind::kClassification, 8);
    auto given = kBases.at("dp-ebm");
    given["epsilon"] = "1";
    const Fitted f1 = fit_registry("private-selection", given, d, 1);
    const Fitted f2 = fit_registry("private-selection", given, d, 2);
    CHECK(f1.ledger.epsilon_for(1e-6) == f2.ledger.epsilon_for(1e-6));
    const std::string chosen = f1.model->describe();
    CHECK(chosen.find("Papernot-Steinke") != std::string::npos);
  }

  TEST_CASE("rdp selection: a base with (epsilon, delta)-only charges is refused, naming why") {
    const AlgorithmInfo& a = find_algorithm("private-selection");
    const Params lj = resolve_params(a.name, a.params, {{"base", "lumberjack"}, {"grid", "max_depth=2,3"}}, "test");
    CHECK_THROWS_WITH_AS(a.privacy_status(lj, TaskKind::kClassification), doctest::Contains("no Renyi-DP bound"), Error);
    CHECK_THROWS_WITH_AS(a.privacy_status(lj, TaskKind::kClassification), doctest::Contains("gshm-pruning"), Error);
    // ... and points at the entry that takes it (basic composition over the grid).
    CHECK_THROWS_WITH_AS(a.privacy_status(lj, TaskKind::kClassification), doctest::Contains("use enumerated-selection"),
                         Error);
    const Dataset d = synthetic(100, TaskKind::kClassification, 9);
    CHECK_THROWS_WITH_AS(fit_registry("private-selection", {{"base", "lumberjack"}, {"grid", "max_depth=2,3"}}, d),
                         doctest::Contains("refuses this base"), Error);
    // The grid may not vary delta: the pipeline's delta is the base's.
    const Params vary = resolve_params(a.name, a.params, {{"base", "dp-ebm"}, {"grid", "delta=1e-6,1e-7"}}, "test");
    CHECK_THROWS_WITH_AS(a.privacy_status(vary, TaskKind::kClassification), doctest::Contains("may not vary delta"),
                         Error);
  }
}

}  // namespace dpf::test
