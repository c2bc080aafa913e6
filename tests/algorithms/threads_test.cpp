// Same seed => the same model whatever the fit's thread budget (design.md §5): fit_forest grows
// trees in parallel when a fit gets more than one thread; every tree keeps its own RNG stream and
// ledger, so the structure, leaf values and privacy totals must not change.
#include <doctest/doctest.h>

#include "algorithms/algo_fixtures.hpp"

using namespace dpf;

TEST_SUITE("unit") {
  TEST_CASE("every algorithm gives the same describe() and ledger with 1 and 2 threads") {
    const Dataset clf = dpf::test::synthetic(200, TaskKind::kClassification, 21);
    const Dataset reg = dpf::test::synthetic(200, TaskKind::kRegression, 22);
    const std::vector<uint32_t> rows = all_rows(200);
    int compared = 0;
    for (const auto& a : algorithm_table()) {
      for (TaskKind t : a.tasks) {
        const Dataset& data = t == TaskKind::kClassification ? clf : reg;
        std::map<std::string, std::string> given;
        for (const auto& p : a.params) {
          if (p.name == "epsilon") given["epsilon"] = "3";
          if (p.name == "n_trees") given["n_trees"] = "4";
          if (p.name == "max_depth") given["max_depth"] = "4";
        }
        const std::string name = a.name + " / " + to_string(t);
        CAPTURE(name);
        std::optional<dpf::test::Fitted> one, two;
        try {
          one = dpf::test::fit_registry(a.name, given, data, rows, 33, 1);
        } catch (const Error& e) {
          const std::string note = name + " refused the synthetic data: " + e.what();
          MESSAGE(note);
          continue;
        }
        two = dpf::test::fit_registry(a.name, given, data, rows, 33, 2);
        CHECK(one->model->describe() == two->model->describe());
        CHECK(one->ledger.spent() == two->ledger.spent());
        CHECK(one->ledger.spent_conservative() == two->ledger.spent_conservative());
        CHECK(one->ledger.certified() == two->ledger.certified());
        ++compared;
      }
    }
    CHECK(compared >= 12);  // at least the foundation's seven algorithms on their tasks
  }
}
