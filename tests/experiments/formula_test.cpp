// Closed-form tables (experiments/config/formula.hpp): a config with `formula:` instead of datasets and
// algorithms writes one row per grid point with the library function's value; bad configs name the
// file and key.
#include <doctest/doctest.h>

#include <cmath>

#include "experiments/exp_fixtures.hpp"
#include "experiments/config/formula.hpp"

using namespace dpf;
using dpf::test::error_of;
using dpf::test::TempDir;

namespace {

const std::string kPath = "configs/test/formula.yaml";

std::string problem(const std::string& yaml) {
  return error_of([&] { parse_experiment(yaml, kPath); });
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("formula table: rows per grid point, values from the library function, run and merge agree") {
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: table-9
formula: {name: smooth-sensitivity, grid: {j: [0, 1, 10], epsilon: [0.1, 1]}}
)",
                                                 kPath);
    CHECK(spec.kind == "table");
    CHECK(spec.formula == "smooth-sensitivity");
    TempDir dir;
    const RunReport rep = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(rep.failed == 0);
    CHECK(rep.computed == 6);
    const auto rows = read_rows(rep.results_csv);
    REQUIRE(rows.size() == 6);
    // j varies slowest (the formula's argument order), epsilon fastest.
    CHECK(rows[0].get("j") == "0");
    CHECK(rows[1].get("epsilon") == "1");
    CHECK(rows[5].get("j") == "10");
    for (const auto& r : rows) {
      const double j = std::stod(r.get("j")), eps = std::stod(r.get("epsilon"));
      CHECK(r.get("formula") == "smooth-sensitivity");
      CHECK(r.get("paper") == "testpaper");
      CHECK(std::stod(r.get("value")) == doctest::Approx(std::exp(-j * eps)).epsilon(1e-12));
    }
    const MergeReport m = merge_experiment(spec, dir.str());
    CHECK(m.rows == 6);
    CHECK(read_rows(m.path).size() == 6);
  }

  TEST_CASE("formula table: the EM exponent formula caps at 50 as the authors' code does") {
    const auto rows = evaluate_formula("p", "e", "smooth-em-exponent", {{"j", {"0", "30"}}, {"epsilon", {"1"}}}, kPath);
    REQUIRE(rows.size() == 2);
    CHECK(std::stod(rows[0].get("value")) == doctest::Approx(0.5));  // eps / (2 e^0)
    CHECK(std::stod(rows[1].get("value")) == doctest::Approx(50.0));
  }

  TEST_CASE("formula table: bad configs name the file and the key") {
    CHECK(contains(problem("paper: p\nexperiment: e\nformula: {name: no-such, grid: {j: 1}}\n"), "formula.name"));
    CHECK(contains(problem("paper: p\nexperiment: e\nformula: {name: no-such, grid: {j: 1}}\n"), "smooth-sensitivity"));
    CHECK(contains(problem("paper: p\nexperiment: e\nformula: {name: smooth-sensitivity, grid: {j: 1}}\n"),
                   "needs a value or list for 'epsilon'"));
    CHECK(contains(problem("paper: p\nexperiment: e\nformula: {name: smooth-sensitivity, grid: {j: 1, epsilon: 1, k: 2}}\n"),
                   "formula.grid.k"));
    CHECK(contains(problem("paper: p\nexperiment: e\nformula: {name: smooth-sensitivity, grid: {j: 1, epsilon: x}}\n"),
                   "formula.grid.epsilon: 'x' is not a number"));
    CHECK(contains(problem("paper: p\nexperiment: e\nformula: {name: smooth-sensitivity, grid: {j: 1.5, epsilon: 1}}\n"),
                   "non-negative integer"));
    CHECK(contains(problem("paper: p\nexperiment: e\ndatasets: [iris]\nformula: {name: smooth-sensitivity, grid: {j: 1, epsilon: 1}}\n"),
                   "a formula table has no datasets"));
    CHECK(problem("paper: p\nexperiment: e\nformula: {name: smooth-sensitivity, grid: {j: 1, epsilon: 1}}\n").empty());
    CHECK(contains(problem("paper: p\nexperiment: e\n"), "algorithms"));
  }
}
