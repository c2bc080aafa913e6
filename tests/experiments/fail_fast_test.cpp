// Fail fast, lose nothing: a results folder that cannot be written stops `run` before any work; a
// unit or a merged table that cannot be written is counted apart from failed cells, so the summary's
// counts add up to the cells; a run whose cells were all skipped writes no results.csv.
#include <doctest/doctest.h>

#include "experiments/config/sweep.hpp"
#include "experiments/exp_fixtures.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::TempDir;

namespace {

const char* kSynthetic = R"(
paper: testpaper
experiment: failfast
seed: 3
protocol: {type: kfold, folds: 2, repetitions: 1}
datasets: ["synthetic:classification:n=120,d=3,seed=2"]
algorithms:
  - {name: rf, params: {n_trees: 2, max_depth: [2, 3]}}
)";

std::size_t counted(const RunReport& r) {
  return r.computed + r.already_done + r.failed + r.unwritten + r.missing_data + r.claimed_elsewhere;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("run: a results folder that cannot be written stops the run before any task, naming the folder") {
    const ExperimentSpec spec = parse_experiment(kSynthetic, "inline/failfast.yaml");
    TempDir dir;
    const fs::path not_a_folder = dir.path() / "results-file";
    std::ofstream(not_a_folder) << "a file where the results root should be\n";
    RunOptions opt = dpf::test::quiet_options(dir);
    opt.results_root = not_a_folder.string();
    std::string message;
    try {
      run_experiment(spec, opt);
    } catch (const Error& e) {
      message = e.what();
    }
    CAPTURE(message);
    CHECK(message.find("results folder") != std::string::npos);
    CHECK(message.find((not_a_folder / "testpaper" / "failfast").string()) != std::string::npos);
  }

  TEST_CASE("run: the claim folder is checked too, and a writable root leaves no probe file behind") {
    const ExperimentSpec spec = parse_experiment(kSynthetic, "inline/failfast.yaml");
    TempDir dir;
    const fs::path exp = fs::path(experiment_dir(spec, dir.str()));
    fs::create_directories(exp);
    std::ofstream(exp / "cells") << "a file where cells/ should be\n";
    std::string message;
    try {
      run_experiment(spec, dpf::test::quiet_options(dir));
    } catch (const Error& e) {
      message = e.what();
    }
    CAPTURE(message);
    CHECK(message.find("claim and cell folder") != std::string::npos);
    fs::remove(exp / "cells");
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(r.computed == 2);
    for (const auto& e : fs::recursive_directory_iterator(exp))
      CHECK(e.path().filename().string().find("probe") == std::string::npos);
  }

  TEST_CASE("run: a unit whose file cannot be written is not a failed cell; the counts add up to the cells") {
    const ExperimentSpec spec = parse_experiment(kSynthetic, "inline/failfast.yaml");
    TempDir dir;
    const std::vector<Cell> cells = expand_cells(spec);
    const fs::path cdir = fs::path(experiment_dir(spec, dir.str())) / "cells";
    fs::create_directories(cdir / (cells[0].id + ".csv"));  // a folder where the cell's file goes
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(r.cells == 2);
    CHECK(r.computed == 1);
    CHECK(r.unwritten == 1);
    CHECK(r.failed == 0);
    CHECK(counted(r) == r.cells);
  }

  TEST_CASE("run: a merged table that cannot be written is reported, not counted as a failed cell") {
    const ExperimentSpec spec = parse_experiment(kSynthetic, "inline/failfast.yaml");
    TempDir dir;
    fs::create_directories(fs::path(experiment_dir(spec, dir.str())) / "results.csv");
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(r.computed == 2);
    CHECK(r.failed == 0);
    CHECK(r.merge_failed);
    CHECK(counted(r) == r.cells);
    CHECK(r.results_csv.empty());
  }

  TEST_CASE("run: a run whose cells were all skipped writes no results.csv") {
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: allskipped
protocol: {type: kfold, folds: 2, repetitions: 1}
datasets: [banknote]
algorithms:
  - {name: rf, params: {n_trees: 2}}
)",
                                                 "inline/allskipped.yaml");
    TempDir dir, empty_mirror, empty_cache;
    RunOptions opt = dpf::test::quiet_options(dir);
    opt.data.mirror = empty_mirror.str();
    opt.data.cache = empty_cache.str();
    opt.data.allow_download = false;
    const RunReport r = run_experiment(spec, opt);
    CHECK(r.missing_data == 1);
    CHECK(counted(r) == r.cells);
    CHECK(r.results_csv.empty());
    CHECK(!fs::exists(fs::path(experiment_dir(spec, dir.str())) / "results.csv"));
  }
}
