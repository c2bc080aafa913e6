// DiPriMe registry parameters that shape the experiments: the double_epsilon_sweep quirk of the
// regression ε-sweeps (dipreme.md §6.4 item 2) and the [v1] uniform-position median (§2.5b, P7).
#include <doctest/doctest.h>

#include "algorithms/algo_fixtures.hpp"

using namespace dpf;
using dpf::test::fit_registry;
using dpf::test::synthetic;

TEST_SUITE("unit") {
  TEST_CASE("double_epsilon_sweep: the forest spends twice the nominal epsilon, the paper's accounting otherwise") {
    Dataset d = synthetic(400, TaskKind::kRegression, 3);
    for (const char* algo : {"dipreme", "dipreme-exp", "dipreme-flip"}) {
      CAPTURE(algo);
      auto plain = fit_registry(algo, {{"epsilon", "1"}, {"n_trees", "4"}, {"max_depth", "3"}}, d);
      auto twice = fit_registry(algo, {{"epsilon", "1"}, {"n_trees", "4"}, {"max_depth", "3"},
                                       {"reference_quirks", "double_epsilon_sweep"}}, d);
      CHECK(plain.ledger.spent() <= 1 + 1e-9);
      CHECK(twice.ledger.spent() > 1.5);
      CHECK(twice.ledger.spent() <= 2 + 1e-9);
      CHECK(twice.ledger.spent() == doctest::Approx(2 * plain.ledger.spent()).epsilon(1e-9));
    }
  }

  TEST_CASE("median_base uniform_positions: a different mechanism, same budget; strict repairs it") {
    Dataset d = synthetic(400, TaskKind::kClassification, 5);
    for (const char* algo : {"dipreme", "dipreme-exp"}) {
      CAPTURE(algo);
      auto leb = fit_registry(algo, {{"epsilon", "2"}, {"n_trees", "3"}, {"max_depth", "3"}}, d);
      auto pos = fit_registry(algo, {{"epsilon", "2"}, {"n_trees", "3"}, {"max_depth", "3"},
                                     {"median_base", "uniform_positions"}}, d);
      CHECK(pos.ledger.spent() == doctest::Approx(leb.ledger.spent()).epsilon(1e-9));
      CHECK(pos.model->describe() != leb.model->describe());
      CHECK(pos.ledger.summary().find("em-median-positions") != std::string::npos);
      auto strict = fit_registry(algo, {{"epsilon", "2"}, {"n_trees", "3"}, {"max_depth", "3"},
                                        {"median_base", "uniform_positions"}, {"strict", "true"}}, d);
      CHECK(strict.ledger.summary().find("em-median-positions") == std::string::npos);
    }
    CHECK_THROWS(fit_registry("dipreme", {{"epsilon", "2"}, {"median_base", "uniform"}}, d));
  }
}
