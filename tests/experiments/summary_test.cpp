// `dpforest summarize` (experiments/publish/summary.hpp): mean ± sd per series x dataset x swept
// value for any results table, the swept parameter found from the rows, axis labels from the
// protocol; `run` records the protocol in experiment.yaml beside its results.
#include <doctest/doctest.h>

#include <cmath>

#include "experiments/exp_fixtures.hpp"
#include "experiments/publish/summary.hpp"

using namespace dpf;
using dpf::test::TempDir;

namespace {

ResultRow row(const std::string& label, const std::string& algorithm, const std::string& dataset,
              const std::string& epsilon, const std::string& depth, double accuracy) {
  ResultRow r;
  r.set("label", label);
  r.set("algorithm", algorithm);
  r.set("dataset", dataset);
  r.set("task", "classification");
  if (!epsilon.empty()) r.set("epsilon", epsilon);
  r.set("max_depth", depth);
  r.set("accuracy", accuracy);
  return r;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("summarize: protocols in words") {
    Protocol p;
    p.type = "kfold", p.folds = 5, p.repetitions = 2;
    CHECK(protocol_text(p) == "5-fold CV × 2 repetitions");
    p.repetitions = 1;
    CHECK(protocol_text(p) == "5-fold CV");
    p.type = "holdout", p.repetitions = 10, p.test_fraction = 0.1;
    CHECK(protocol_text(p) == "10 random 90/10 splits");
    p.type = "resubstitution", p.repetitions = 3;
    CHECK(protocol_text(p) == "3 fits evaluated on their training rows");
  }

  TEST_CASE("summarize: epsilon is the swept parameter; other varying ones name the series; mean and sd per group") {
    std::vector<ResultRow> rows;
    for (const char* ds : {"a", "b"})
      for (int fold = 0; fold < 2; ++fold) {
        rows.push_back(row("RF", "rf", ds, "", "4", 0.9 + 0.02 * fold));
        for (const char* eps : {"0.5", "2"})
          for (const char* depth : {"3", "5"})
            rows.push_back(row("DP", "dp-ert", ds, eps, depth, std::stod(eps) / 10 + 0.01 * fold));
      }
    Protocol p;
    p.type = "kfold", p.folds = 2, p.repetitions = 1;
    const ResultsSummary s = summarize_results(rows, p);
    CHECK(s.swept == "epsilon");
    CHECK(s.also_varied == std::vector<std::string>{"max_depth"});
    CHECK(s.x_label == "epsilon");
    CHECK(s.y_label == "accuracy (mean ± sd over 2-fold CV)");
    // RF (max_depth=4) with no epsilon, and DP at two depths x two epsilons, on two datasets.
    REQUIRE(s.rows.size() == 2 * (1 + 2 * 2));
    CHECK(s.rows[0].series == "RF (max_depth=4)");
    CHECK(s.rows[0].dataset == "a");
    CHECK(s.rows[0].value.empty());
    CHECK(s.rows[0].mean == doctest::Approx(0.91));
    CHECK(s.rows[0].sd == doctest::Approx(std::sqrt(2e-4)));
    CHECK(s.rows[0].n == 2);
    const SummaryRow& dp = s.rows[2];  // series order: RF, DP (max_depth=3), DP (max_depth=5)
    CHECK(dp.series == "DP (max_depth=3)");
    CHECK(dp.dataset == "a");
    CHECK(dp.value == "0.5");
    CHECK(dp.mean == doctest::Approx(0.055));
    CHECK(s.rows[3].value == "2");  // numeric order
    const std::string text = summary_text(s);
    CHECK(text.find("DP (max_depth=3)") != std::string::npos);
    CHECK(summary_tsv(s).rfind("series\tdataset\tmetric\tepsilon\tmean\tsd\tn\n", 0) == 0);
  }

  TEST_CASE("summarize: without epsilon the parameter with the most values is swept; regression uses mse") {
    std::vector<ResultRow> rows;
    for (const char* depth : {"2", "4", "8"}) {
      ResultRow r = row("RF", "rf", "d", "", depth, 0.5);
      r.set("task", "regression");
      r.set("mse", std::stod(depth));
      rows.push_back(r);
    }
    const ResultsSummary s = summarize_results(rows, Protocol{});
    CHECK(s.swept == "max_depth");
    REQUIRE(s.rows.size() == 3);
    CHECK(s.rows[2].metric == "mse");
    CHECK(s.rows[2].mean == 8);
    CHECK(s.y_label == "mse (mean ± sd over 10 random 90/10 splits)");
  }

  TEST_CASE("summarize: a run writes experiment.yaml, whose protocol labels the summary") {
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: summary
title: "a title"
protocol: {type: kfold, folds: 3, repetitions: 2}
datasets: ["synthetic:classification:n=90,d=2,seed=1"]
algorithms:
  - {name: rf, params: {n_trees: 2, max_depth: [2, 3]}}
)",
                                                 "inline/summary.yaml");
    TempDir dir;
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(dir));
    const ExperimentHeader h = read_experiment_header(experiment_dir(spec, dir.str()) + "/experiment.yaml");
    CHECK(h.paper == "testpaper");
    CHECK(h.title == "a title");
    CHECK(h.protocol.type == "kfold");
    CHECK(h.protocol.folds == 3);
    CHECK(h.protocol.repetitions == 2);
    const ResultsSummary s = summarize_results(read_rows(r.results_csv), h.protocol);
    CHECK(s.swept == "max_depth");
    CHECK(s.y_label == "accuracy (mean ± sd over 3-fold CV × 2 repetitions)");
    REQUIRE(s.rows.size() == 2);
    CHECK(s.rows[0].n == 6);
  }
}
