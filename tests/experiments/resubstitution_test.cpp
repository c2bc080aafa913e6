// The resubstitution protocol (experiments/config/config.hpp Protocol): every row is fitted and evaluated,
// one split per repetition, repetitions differing only by their seeds (matrix-rf Fig. 3b: train on
// all rows, query rows of the same data). The other protocols are unchanged by it.
#include <doctest/doctest.h>

#include "experiments/exp_fixtures.hpp"

using namespace dpf;
using dpf::test::TempDir;

TEST_SUITE("unit") {
  TEST_CASE("resubstitution: n_train = n_test = all rows, seeds differ per cell and repetition, a misspelt type names the choices") {
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: resub
seed: 4
protocol: {type: resubstitution, repetitions: 2}
datasets: [iris]
algorithms:
  - {name: rf, label: RF, params: {n_trees: 5, max_depth: 6}}
  - {name: mrf-predict, label: pred, params: {epsilon: 1, n_trees: 4, max_depth: 2, query_batch: 7,
     cutoffs: "sepal_length=5/6/7 sepal_width=3/4 petal_length=2/3/4/5/6 petal_width=0.5/1.0/1.5/2.0"}}
)",
                                                 "inline/resub.yaml");
    CHECK(spec.protocol.type == "resubstitution");
    CHECK(spec.protocol.n_folds() == 1);
    if (!dpf::test::have_dataset("iris")) return;
    TempDir dir;
    const RunReport rep = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(rep.failed == 0);
    const auto rows = read_rows(rep.results_csv);
    REQUIRE(rows.size() == 4);
    std::set<std::string> seeds;
    for (const auto& r : rows) {
      CHECK(r.get("n_train") == "150");
      CHECK(r.get("n_test") == "150");
      seeds.insert(r.get("seed"));
      if (r.get("algorithm") == "rf") CHECK(std::stod(r.get("accuracy")) > 0.9);  // training rows: nearly all right
      if (r.get("algorithm") == "mrf-predict") {
        CHECK(r.get("query_releases") == "22");  // ⌈150 / 7⌉ releases of 7 queries
        CHECK(std::stod(r.get("epsilon_spent")) == doctest::Approx(1.0));  // each release spends ε
      }
    }
    CHECK(seeds.size() == 4);
    // A holdout config keeps its test fraction (the new type changes nothing else).
    const ExperimentSpec h = parse_experiment(R"(
paper: testpaper
experiment: h
protocol: {type: holdout, test_fraction: 0.2, repetitions: 1}
datasets: [iris]
algorithms: [{name: rf}]
)",
                                              "inline/h.yaml");
    CHECK(h.protocol.type == "holdout");
    CHECK(dpf::test::error_of([] {
            parse_experiment("paper: t\nexperiment: x\nprotocol: {type: resubstitute}\ndatasets: [iris]\nalgorithms: [{name: rf}]\n",
                             "inline/bad.yaml");
          }).find("resubstitution") != std::string::npos);
  }
}
