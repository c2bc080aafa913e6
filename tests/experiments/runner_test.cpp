// The runner (experiments/run/runner.hpp): same seed => same results whatever the thread count or shard
// layout; a rerun skips finished cells; a failing cell does not stop the others; a corrupt data file
// skips its dataset's cells with a message naming it (design.md §2, §5; privacy.md §7.2 item 5).
#include <doctest/doctest.h>

#include <algorithm>

#include "experiments/exp_fixtures.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/work_plan.hpp"

#include <set>

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::TempDir;

namespace {

const char* kSmall = R"(
paper: testpaper
experiment: small
seed: 5
protocol: {type: holdout, test_fraction: 0.2, repetitions: 3}
datasets: [banknote]
defaults: {n_trees: 3, max_depth: 3, epsilon: [1, 10]}
algorithms:
  - {name: dipreme, label: DiPriMe}
  - {name: dipreme-exp, label: Exp, params: {k: 2}}
  - {name: dp-ert, label: DP-ERT}
  - {name: rf, label: RF, params: {n_trees: 5, max_features: 2}}
)";

std::vector<ResultRow> results_of(const RunReport& r) {
  REQUIRE(!r.results_csv.empty());
  return read_rows(r.results_csv);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("same seed: identical rows with 1 and 2 threads (tasks in parallel and trees in parallel)") {
    if (!dpf::test::have_dataset("banknote")) return;
    const ExperimentSpec spec = parse_experiment(kSmall, "inline/small.yaml");
    TempDir a, b;
    RunReport ra = run_experiment(spec, dpf::test::quiet_options(a, 1));
    RunReport rb = run_experiment(spec, dpf::test::quiet_options(b, 2));
    CHECK(ra.cells == 7);
    CHECK(ra.computed == 7);
    CHECK(rb.computed == 7);
    CHECK(ra.failed == 0);
    CHECK(ra.tasks == 21);
    const auto rows_a = results_of(ra), rows_b = results_of(rb);
    CHECK(rows_a.size() == 21);
    CHECK(dpf::test::stable(rows_a) == dpf::test::stable(rows_b));
    CHECK(rows_a[0].get("threads") == "1");
    CHECK(rows_b[0].get("threads") == "2");
    // The metric columns are really there (and differ between cells).
    std::set<std::string> accuracies;
    for (const auto& r : rows_a) {
      CHECK(!r.get("accuracy").empty());
      CHECK(!r.get("epsilon_spent").empty());
      accuracies.insert(r.get("accuracy"));
    }
    CHECK(accuracies.size() > 3);

    // One task, two threads: the fit grows its trees in parallel; the rows must not change.
    const ExperimentSpec one = parse_experiment(R"(
paper: testpaper
experiment: one-task
seed: 9
protocol: {type: holdout, test_fraction: 0.1, repetitions: 1}
datasets: [banknote]
algorithms:
  - {name: dipreme-exp, params: {epsilon: 3, n_trees: 6, max_depth: 4, k: 3}}
  - {name: rf, params: {n_trees: 6, max_depth: 5}}
)",
                                                "inline/one.yaml");
    TempDir c, d;
    const auto rc = results_of(run_experiment(one, dpf::test::quiet_options(c, 1)));
    const auto rd = results_of(run_experiment(one, dpf::test::quiet_options(d, 2)));
    CHECK(dpf::test::stable(rc) == dpf::test::stable(rd));
  }

  TEST_CASE("shards 0/2 and 1/2 then merge give the rows of an unsharded run") {
    if (!dpf::test::have_dataset("banknote")) return;
    const ExperimentSpec spec = parse_experiment(kSmall, "inline/small.yaml");
    TempDir whole, sharded;
    const auto rows_whole = results_of(run_experiment(spec, dpf::test::quiet_options(whole)));
    RunOptions o = dpf::test::quiet_options(sharded);
    o.shard_count = 2;
    o.shard_index = 0;
    RunReport r0 = run_experiment(spec, o);
    o.shard_index = 1;
    RunReport r1 = run_experiment(spec, o);
    // Each shard computes the units the cost plan gives it (work_plan.hpp): whole cells or pieces.
    const WorkPlan plan = plan_work(spec, expand_cells(spec), 2);
    const auto in0 = static_cast<std::size_t>(std::count_if(plan.units.begin(), plan.units.end(),
                                                            [](const WorkUnit& u) { return u.shard == 0; }));
    CHECK(r0.in_shard == in0);
    CHECK(r1.in_shard == plan.units.size() - in0);
    CHECK(r0.computed + r1.computed == plan.units.size());
    CHECK(r0.results_csv.empty());  // a shard does not merge
    MergeReport m = merge_experiment(spec, sharded.str());
    CHECK(m.cells == 7);
    CHECK(m.present == 7);
    CHECK(m.missing.empty());
    CHECK(m.rows == 21);
    CHECK(dpf::test::stable(read_rows(m.path)) == dpf::test::stable(rows_whole));
    // Merging with a shard missing lists the absent cells by label.
    TempDir half;
    o.results_root = half.str();
    o.shard_index = 0;
    run_experiment(spec, o);
    MergeReport mh = merge_experiment(spec, half.str());
    std::set<std::size_t> complete;  // cells whose every unit is in shard 0
    for (const WorkUnit& u : plan.units) complete.insert(u.cell);
    for (const WorkUnit& u : plan.units)
      if (u.shard != 0) complete.erase(u.cell);
    CHECK(mh.present == complete.size());
    CHECK(mh.missing.size() == 7 - complete.size());
    CHECK(mh.missing.size() > 0);
  }

  TEST_CASE("resume: only a deleted cell is recomputed, with identical results") {
    if (!dpf::test::have_dataset("banknote")) return;
    const ExperimentSpec spec = parse_experiment(kSmall, "inline/small.yaml");
    TempDir dir;
    const RunReport first = run_experiment(spec, dpf::test::quiet_options(dir));
    const auto before = results_of(first);
    const std::vector<Cell> cells = expand_cells(spec);
    const fs::path cell_file = fs::path(experiment_dir(spec, dir.str())) / "cells" / (cells[3].id + ".csv");
    REQUIRE(fs::exists(cell_file));
    fs::remove(cell_file);
    const RunReport again = run_experiment(spec, dpf::test::quiet_options(dir, 2));
    CHECK(again.computed == 1);
    CHECK(again.already_done == 6);
    CHECK(again.tasks == 3);
    CHECK(fs::exists(cell_file));
    CHECK(dpf::test::stable(results_of(again)) == dpf::test::stable(before));
    // A third run has nothing to do.
    const RunReport idle = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(idle.computed == 0);
    CHECK(idle.already_done == 7);
    CHECK(idle.tasks == 0);
  }

  TEST_CASE("a failing cell is reported and written as .error while the others finish; a fixed rerun completes") {
    if (!dpf::test::have_dataset("banknote")) return;
    // rho = 1 leaves DiPriMe no leaf budget: that cell fails when it is fitted.
    const std::string base = R"(
paper: testpaper
experiment: interrupted
seed: 2
protocol: {type: holdout, test_fraction: 0.2, repetitions: 2}
datasets: [banknote]
defaults: {n_trees: 3, max_depth: 3, epsilon: 2}
algorithms:
  - {name: rf, params: {n_trees: 4}}
  - {name: dp-ert}
)";
    const ExperimentSpec broken =
        parse_experiment(base + "  - {name: dipreme, params: {rho: [0.5, 1]}}\n", "inline/interrupted.yaml");
    TempDir dir;
    const RunReport r = run_experiment(broken, dpf::test::quiet_options(dir, 2));
    CHECK(r.cells == 4);
    CHECK(r.computed == 3);
    CHECK(r.failed == 1);
    const std::vector<Cell> cells = expand_cells(broken);
    const fs::path cdir = fs::path(experiment_dir(broken, dir.str())) / "cells";
    for (const Cell& c : cells) {
      CAPTURE(c.key);
      const bool bad = c.params.has("rho") && c.params.text("rho") == "1";
      CHECK(fs::exists(cdir / (c.id + ".csv")) != bad);
      CHECK(fs::exists(cdir / (c.id + ".error")) == bad);
    }
    REQUIRE(!r.notes.empty());
    std::string notes;
    for (const auto& n : r.notes) notes += n + "\n";
    CAPTURE(notes);
    CHECK(notes.find("dipreme") != std::string::npos);
    CHECK(notes.find("rho=1") != std::string::npos);
    CHECK(notes.find("rho must be in (0, 1)") != std::string::npos);
    // The fix: rho 0.8 instead of 1. The three finished cells are kept, the new one is computed.
    const ExperimentSpec fixed =
        parse_experiment(base + "  - {name: dipreme, params: {rho: [0.5, 0.8]}}\n", "inline/interrupted.yaml");
    const RunReport r2 = run_experiment(fixed, dpf::test::quiet_options(dir));
    CHECK(r2.already_done == 3);
    CHECK(r2.computed == 1);
    CHECK(r2.failed == 0);
    MergeReport m = merge_experiment(fixed, dir.str());
    CHECK(m.present == 4);
    CHECK(m.rows == 8);
  }

  TEST_CASE("a corrupt data file skips that dataset's cells with its name and URL; other datasets run") {
    if (!dpf::test::have_dataset("banknote") || !dpf::test::have_dataset("iris")) return;
    const DataOptions real = dpf::test::offline_data();
    TempDir mirror, results;
    // A private mirror: iris intact, banknote with one byte changed.
    for (const char* id : {"banknote", "iris"}) {
      fs::create_directories(mirror.path() / id);
      for (const auto& f : fs::directory_iterator(fs::path(real.mirror) / id))
        fs::copy_file(f.path(), mirror.path() / id / f.path().filename());
    }
    const fs::path bad = mirror.path() / "banknote" / "data_banknote_authentication.txt";
    fs::permissions(bad, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
    {
      std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(100);
      f.put('7');
    }
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: corrupt
seed: 1
protocol: {type: holdout, test_fraction: 0.2, repetitions: 2}
datasets: [banknote, iris]
algorithms:
  - {name: rf, params: {n_trees: 3, max_depth: 3}}
  - {name: ert, params: {n_trees: 3, max_depth: 3}}
)",
                                                 "inline/corrupt.yaml");
    RunOptions o = dpf::test::quiet_options(results);
    o.data.mirror = mirror.str();
    o.data.cache = (mirror.path() / "cache").string();
    o.data.allow_download = false;
    const RunReport r = run_experiment(spec, o);
    CHECK(r.cells == 4);
    CHECK(r.missing_data == 2);
    CHECK(r.computed == 2);
    CHECK(r.failed == 0);
    std::string notes;
    for (const auto& n : r.notes) notes += n + "\n";
    CAPTURE(notes);
    CHECK(notes.find("banknote") != std::string::npos);
    CHECK(notes.find("https://archive.ics.uci.edu/ml/machine-learning-databases/00267/data_banknote_authentication.txt") !=
          std::string::npos);
    CHECK(notes.find("iris") == std::string::npos);
    const auto rows = results_of(r);
    CHECK(rows.size() == 4);
    for (const auto& row : rows) CHECK(row.get("dataset") == "iris");
  }

  TEST_CASE("run options are checked") {
    const ExperimentSpec spec = parse_experiment(kSmall, "inline/small.yaml");
    TempDir dir;
    RunOptions o = dpf::test::quiet_options(dir);
    o.threads = 0;
    CHECK(dpf::test::error_of([&] { run_experiment(spec, o); }).find("--threads") != std::string::npos);
    o.threads = 1;
    o.shard_index = 2;
    o.shard_count = 2;
    CHECK(dpf::test::error_of([&] { run_experiment(spec, o); }).find("--shard") != std::string::npos);
  }
}
