// `run`, `--dry-run` and `status` say which series are not epsilon-DP before any work: a config line
// `{name: privatree}` builds a published variant, and the summary names it with its status, computed
// as the result rows will record it.
#include <doctest/doctest.h>

#include "experiments/config/sweep.hpp"
#include "experiments/exp_fixtures.hpp"
#include "experiments/run/privacy_label.hpp"

using namespace dpf;
using dpf::test::TempDir;

namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("privacy summary: a published variant is named with its status; strict and non-private series are not") {
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: privacy
protocol: {type: kfold, folds: 2, repetitions: 1}
datasets: [banknote]
algorithms:
  - {name: rf, label: RF}
  - {name: privatree, label: PrivaTree, params: {epsilon: 1}}
  - {name: dp-ert, label: DP-ERT (strict), params: {epsilon: 1, strict: true}}
  - {name: dipreme, label: DiPriMe, params: {epsilon: [1, 2], strict: [true, false]}}
)",
                                                 "inline/privacy.yaml");
    const std::vector<Cell> cells = expand_cells(spec);
    const std::vector<std::string> lines = privacy_summary(spec, cells);
    CAPTURE(joined(lines));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "2 of 3 series are not epsilon-DP (published variants):");
    CHECK(lines[1].rfind("PrivaTree: published, not epsilon-DP: ", 0) == 0);
    // Half of DiPriMe's cells are strict: the line says how many are not epsilon-DP.
    CHECK(lines[2].rfind("DiPriMe: published, not epsilon-DP: ", 0) == 0);
    CHECK(lines[2].find("[2 of its 4 cells]") != std::string::npos);
    CHECK(joined(lines).find("RF") == std::string::npos);
  }

  TEST_CASE("privacy summary: preprocessing that reads the rows makes a strict series not epsilon-DP") {
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: privacy2
protocol: {type: kfold, folds: 2, repetitions: 1}
datasets: [{id: banknote, domains: from-data}]
algorithms:
  - {name: dp-ert, label: DP-ERT (strict), params: {epsilon: 1, strict: true}}
)",
                                                 "inline/privacy2.yaml");
    const std::vector<std::string> lines = privacy_summary(spec, expand_cells(spec));
    REQUIRE(lines.size() == 2);
    CHECK(lines[1] == "DP-ERT (strict): published, not epsilon-DP: domains: from-data reads the feature domains from the rows");
  }

  TEST_CASE("privacy summary: every private series epsilon-DP gives no lines, and rows record the same status") {
    if (!dpf::test::have_dataset("banknote")) return;
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: privacy3
protocol: {type: kfold, folds: 2, repetitions: 1}
datasets: [banknote]
algorithms:
  - {name: dp-ert, label: strict, params: {epsilon: 1, strict: true, n_trees: 2, max_depth: 2}}
  - {name: dp-ert, label: published, params: {epsilon: 1, n_trees: 2, max_depth: 2}}
)",
                                                 "inline/privacy3.yaml");
    const std::vector<Cell> cells = expand_cells(spec);
    const std::vector<std::string> lines = privacy_summary(spec, cells);
    REQUIRE(lines.size() == 2);
    CHECK(privacy_summary(spec, {cells[0]}).empty());
    TempDir dir;
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(dir));
    REQUIRE(!r.results_csv.empty());
    for (const ResultRow& row : read_rows(r.results_csv)) {
      CAPTURE(row.get("label"));
      if (row.get("label") == "strict") CHECK(row.get("privacy_status") == "epsilon-DP");
      else CHECK(lines[1] == "published: " + row.get("privacy_status"));
    }
  }
}
