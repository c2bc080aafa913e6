// Public bounds on the one data path of every experiment fit (experiments/run/task.cpp): values
// outside a hand-written domain narrower than the data are clamped to it before fitting and before
// predicting, so the task is the one on clamped data, whose sensitivities the algorithms assume.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/privacy/rng.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/exp_fixtures.hpp"
#include "experiments/run/task.hpp"

namespace {

// 60 rows, features a, b in [0, 1] and a target in [0, 1], described by a schema whose public
// domains are narrower: a in [0.2, 0.8], b in [0, 0.5], target in [0.25, 0.75].
dpf::Dataset narrow_regression() {
  dpf::Schema s;
  s.features = {{"a", dpf::FeatureKind::kNumeric, 0.2, 0.8, {}}, {"b", dpf::FeatureKind::kNumeric, 0.0, 0.5, {}}};
  s.target.name = "y";
  s.target.task = dpf::TaskKind::kRegression;
  s.target.lo = 0.25;
  s.target.hi = 0.75;
  dpf::Dataset d("narrow", s);
  dpf::Rng rng(8);
  for (int i = 0; i < 60; ++i) {
    const double x[] = {rng.uniform(), rng.uniform()};
    d.add_row(x, 0.7 * x[0] + 0.3 * rng.uniform());
  }
  return d;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("a task clamps features and target to a narrower hand-written domain before fitting and predicting") {
    const dpf::ExperimentSpec spec = dpf::parse_experiment(R"(
paper: testpaper
experiment: clamp
seed: 3
protocol: {type: kfold, folds: 3, repetitions: 1}
datasets: ["gas-turbine:tey"]
algorithms:
  - {name: dipreme, params: {epsilon: 2, n_trees: 3, max_depth: 3, strict: true}}
)",
                                                           "inline/clamp.yaml");
    const std::vector<dpf::Cell> cells = dpf::expand_cells(spec);
    REQUIRE(cells.size() == 1);
    const dpf::Dataset raw = narrow_regression();
    REQUIRE(dpf::count_outside_bounds(raw) > 30);
    dpf::Dataset clamped = raw;
    dpf::clamp_to_bounds(clamped);
    dpf::Split split;
    for (uint32_t r = 0; r < 60; ++r) (r % 3 == 0 ? split.test : split.train).push_back(r);
    dpf::RunContext ctx;
    const dpf::TaskCoordinates tc{&spec, &cells[0], 0, 0, 777, 1};
    const dpf::ResultRow on_raw = dpf::run_task(raw, split, tc, ctx);
    const dpf::ResultRow on_clamped = dpf::run_task(clamped, split, tc, ctx);
    for (const char* col : {"mse", "n_leaves", "mean_tree_depth", "epsilon_spent"}) {
      CAPTURE(col);
      CHECK(on_raw.get(col) == on_clamped.get(col));
    }
    // The run on raw rows is not the run that ignores the bounds: the clamped values matter here.
    dpf::Dataset wide = raw;
    auto& s = wide.mutable_schema();
    s.features[0].lo = s.features[1].lo = s.target.lo = 0.0;
    s.features[0].hi = s.features[1].hi = s.target.hi = 1.0;
    CHECK(dpf::run_task(wide, split, tc, ctx).get("mse") != on_raw.get("mse"));
  }
}
