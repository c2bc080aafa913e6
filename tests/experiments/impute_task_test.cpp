// Per-fold median imputation inside a task (experiments/run/task.cpp, registry rule impute-train-median):
// the fit equals one on data imputed by hand with the training medians, test rows cannot move it, and
// private algorithms refuse the rule.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/data/preprocess.hpp"
#include "core/eval/cv.hpp"
#include "data/impute_fixtures.hpp"
#include "experiments/exp_fixtures.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/task.hpp"

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using dpf::test::error_of;
using dpf::test::toy_with_missing;

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("a task imputes with its training fold's medians; private algorithms refuse the rule") {
    const dpf::ExperimentSpec spec = dpf::parse_experiment(R"(
paper: testpaper
experiment: impute
seed: 3
protocol: {type: kfold, folds: 2, repetitions: 1}
datasets: ["hepatitis:impute"]
algorithms:
  - {name: rf, params: {n_trees: 5, min_samples_leaf: 1}}
)",
                                                           "inline/impute.yaml");
    std::vector<dpf::Cell> cells = dpf::expand_cells(spec);
    REQUIRE(cells.size() == 1);
    // A config refuses a private algorithm on the rule (compat_test.cpp); run_task refuses it as well,
    // for a cell built without the config's check.
    dpf::Cell private_cell = cells[0];
    private_cell.algorithm = "dipreme";
    private_cell.params = dpf::resolve_params("dipreme", dpf::find_algorithm("dipreme").params,
                                              {{"epsilon", "1"}, {"n_trees", "2"}, {"max_depth", "2"}}, "inline");
    cells.push_back(private_cell);
    std::vector<double> a, b;
    for (int i = 0; i < 40; ++i) {
      a.push_back(i % 7 == 0 ? kNaN : static_cast<double>((i * 7) % 20));
      b.push_back(i % 5 == 0 ? kNaN : 2.0 + (i % 6));
    }
    dpf::Dataset data = toy_with_missing(a, b);
    dpf::Split split;
    for (uint32_t r = 0; r < 40; ++r) (r % 4 == 0 ? split.test : split.train).push_back(r);
    dpf::RunContext ctx;
    dpf::TaskCoordinates tc{&spec, &cells[0], 0, 0, 12345, 1};
    const dpf::ResultRow row = dpf::run_task(data, split, tc, ctx);
    CHECK(row.get("imputation") == "train-median");
    CHECK(row.get("imputation_fallback").empty());

    // The same fit on a dataset imputed by hand with the training medians.
    dpf::Dataset manual = data;
    dpf::fit_median_imputer(data, split.train).apply(manual);
    manual.mutable_schema().missing_numeric.clear();
    const dpf::ResultRow same = dpf::run_task(manual, split, tc, ctx);
    CHECK(same.get("imputation").empty());
    for (const char* col : {"accuracy", "n_leaves", "mean_tree_depth", "auc"}) {
      CAPTURE(col);
      CHECK(row.get(col) == same.get(col));
    }

    // Test rows' values (present or missing) cannot change the fitted forest.
    auto a2 = a, b2 = b;
    for (uint32_t r : split.test) a2[r] = b2[r] = (r % 8 == 0 ? kNaN : 19.0);
    const dpf::ResultRow moved = dpf::run_task(toy_with_missing(a2, b2), split, tc, ctx);
    CHECK(moved.get("n_leaves") == row.get("n_leaves"));
    CHECK(moved.get("mean_tree_depth") == row.get("mean_tree_depth"));

    dpf::TaskCoordinates priv{&spec, &cells[1], 0, 0, 12345, 1};
    CHECK(error_of([&] { dpf::run_task(data, split, priv, ctx); }).find("not differentially private") !=
          std::string::npos);
  }

}
