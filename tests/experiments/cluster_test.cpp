// Cluster support: the SLURM array index convention, the cost-based work plan (every task
// in exactly one unit, better balance than cell index mod N), claim files (atomic, expiring, stale
// ones taken over, only the holder releases) and a run that skips a unit another job has claimed.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <thread>

#include "experiments/store/cell_claim.hpp"
#include "experiments/store/cell_store.hpp"
#include "experiments/exp_fixtures.hpp"
#include "experiments/cluster/slurm.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/work_plan.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::TempDir;

namespace {

std::function<std::string(const char*)> env_of(std::map<std::string, std::string> vars) {
  return [vars](const char* k) {
    auto it = vars.find(k);
    return it == vars.end() ? std::string() : it->second;
  };
}

std::pair<int, int> slurm_shard(const std::string& arg, const std::map<std::string, std::string>& vars) {
  int i = -1, n = -1;
  shard_from_slurm(arg, env_of(vars), i, n);
  return {i, n};
}

std::map<std::string, std::string> array_task(long id, long lo, long hi, long step = 1) {
  return {{"SLURM_ARRAY_TASK_ID", std::to_string(id)},
          {"SLURM_ARRAY_TASK_MIN", std::to_string(lo)},
          {"SLURM_ARRAY_TASK_MAX", std::to_string(hi)},
          {"SLURM_ARRAY_TASK_STEP", std::to_string(step)},
          {"SLURM_ARRAY_TASK_COUNT", std::to_string((hi - lo) / step + 1)}};
}

// A skewed sweep: one large dataset next to small ones (costs from the registry's shapes only).
const char* kSkewed = R"(
paper: testpaper
experiment: skewed
seed: 3
protocol: {type: kfold, folds: 5, repetitions: 2}
datasets: [iris, banknote, connect-4, wdbc, zoo]
defaults: {n_trees: 10}
algorithms:
  - {name: rf, label: RF}
  - {name: dp-rf, label: DP-RF, params: {epsilon: [1, 2]}}
)";

const char* kTiny = R"(
paper: testpaper
experiment: tiny
seed: 5
protocol: {type: holdout, test_fraction: 0.2, repetitions: 4}
datasets: ["synthetic:classification:n=60,d=3,seed=1"]
defaults: {n_trees: 2, max_depth: 2}
algorithms:
  - {name: rf, label: RF}
  - {name: dipreme, label: DiPriMe, params: {epsilon: 1}}
)";

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("slurm index convention: any array range maps onto every shard once") {
    // --shard slurm: the position in the range, whatever it starts at.
    for (long id = 1; id <= 4; ++id) CHECK(slurm_shard("slurm", array_task(id, 1, 4)) == std::pair<int, int>(id - 1, 4));
    CHECK(slurm_shard("slurm", array_task(10, 0, 10, 5)) == std::pair<int, int>(2, 3));
    // --shard slurm/N: id mod N; --array=1-4 covers 1, 2, 3, 0; a task resubmitted alone keeps its shard.
    std::set<int> seen;
    for (long id = 1; id <= 4; ++id) seen.insert(slurm_shard("slurm/4", array_task(id, 1, 4)).first);
    CHECK(seen == std::set<int>{0, 1, 2, 3});
    CHECK(slurm_shard("slurm/4", array_task(3, 3, 3)) == std::pair<int, int>(3, 4));
    CHECK(slurm_shard("slurm/4", array_task(3, 1, 4)) == slurm_shard("slurm/4", array_task(3, 3, 3)));
    // Errors say what to do.
    CHECK(dpf::test::error_of([] { slurm_shard("slurm", {}); }).find("SLURM_ARRAY_TASK_ID is not set") != std::string::npos);
    CHECK(dpf::test::error_of([] { slurm_shard("slurm/4", array_task(7, 0, 7)); }).find("8 tasks for 4 shards") != std::string::npos);
    CHECK(dpf::test::error_of([] { slurm_shard("slurm/4", array_task(2, 0, 6, 2)); }).find("step 2") != std::string::npos);
    CHECK(dpf::test::error_of([] { slurm_shard("slurm/x", array_task(1, 0, 3)); }).find("slurm/N") != std::string::npos);
    auto uneven = array_task(5, 1, 5);
    uneven["SLURM_ARRAY_TASK_COUNT"] = "3";  // --array=1,2,5
    uneven.erase("SLURM_ARRAY_TASK_STEP");
    CHECK(dpf::test::error_of([&] { slurm_shard("slurm", uneven); }).find("evenly spaced") != std::string::npos);
    auto bad = array_task(1, 0, 3);
    bad["SLURM_ARRAY_TASK_ID"] = "one";
    CHECK(dpf::test::error_of([&] { slurm_shard("slurm", bad); }).find("SLURM_ARRAY_TASK_ID='one'") != std::string::npos);
  }

  TEST_CASE("work plan: every task in exactly one unit; by cost beats cell index mod N; deterministic") {
    const ExperimentSpec spec = parse_experiment(kSkewed, "inline/skewed.yaml");
    const std::vector<Cell> cells = expand_cells(spec);
    for (int n : {1, 2, 3, 8, 40}) {
      const WorkPlan plan = plan_work(spec, cells, n);
      std::vector<std::vector<int>> hits(cells.size(), std::vector<int>(static_cast<std::size_t>(plan.tasks_per_cell), 0));
      std::set<std::string> names;
      for (const WorkUnit& u : plan.units) {
        CHECK(u.shard >= 0);
        CHECK(u.shard < n);
        CHECK(names.insert(u.name).second);
        CHECK(u.whole == (u.first == 0 && u.end == plan.tasks_per_cell));
        for (int t = u.first; t < u.end; ++t) ++hits[u.cell][static_cast<std::size_t>(t)];
      }
      for (const auto& h : hits) CHECK(std::all_of(h.begin(), h.end(), [](int x) { return x == 1; }));
      if (n == 1) CHECK(plan.units.size() == cells.size());  // unsharded: whole cells only
      const WorkPlan again = plan_work(spec, cells, n);
      for (std::size_t k = 0; k < plan.units.size(); ++k) CHECK(again.units[k].shard == plan.units[k].shard);
      const WorkPlan by_index = plan_work(spec, cells, n, Assignment::kByIndex);
      CHECK(plan.balance() <= by_index.balance() + 1e-12);
      if (n >= 2 && n <= 8) {
        // Pieces of the connect-4 cells spread out. A piece holds at least one task, so the slowest
        // shard can exceed the mean by up to the largest unit (longest-first onto the least loaded
        // shard: at most mean + largest); with the calibrated model RF's connect-4 tasks are each
        // ~9% of the sweep, more than 1/8 of the mean shard at n = 8.
        double largest = 0;
        for (const WorkUnit& u : plan.units) largest = std::max(largest, u.cost);
        const double mean = plan.total_cost / n;
        CHECK(plan.balance() <= 1 + largest / mean + 1e-12);
        if (largest / mean < 0.2) CHECK(plan.balance() < 1.2);
      }
      if (n == 8) CHECK(by_index.balance() > 2);            // three whole connect-4 cells on three of 8 shards
    }
    // Connect-4 (67,557 x 42) costs far more per task than Iris (150 x 4).
    const Cell* iris = nullptr;
    const Cell* c4 = nullptr;
    for (const Cell& c : cells) {
      if (c.dataset == "iris" && c.label == "RF") iris = &c;
      if (c.dataset == "connect-4" && c.label == "RF") c4 = &c;
    }
    REQUIRE(iris);
    REQUIRE(c4);
    CHECK(estimated_task_cost(spec, *c4) > 100 * estimated_task_cost(spec, *iris));
  }

  TEST_CASE("claims: atomic, only one of many concurrent claimants wins, the holder is named") {
    TempDir dir;
    const std::string path = dir.str() + "/cells/abc.claim";
    std::vector<ClaimInfo> who(8);
    std::vector<int> won(8, 0);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < who.size(); ++i) {
      who[i] = this_process_claimant();
      who[i].job = "job" + std::to_string(i);
      threads.emplace_back([&, i] { won[i] = try_claim(path, who[i], 60) ? 1 : 0; });
    }
    for (auto& t : threads) t.join();
    CHECK(std::count(won.begin(), won.end(), 1) == 1);
    const std::size_t winner = static_cast<std::size_t>(std::find(won.begin(), won.end(), 1) - won.begin());
    const auto held = read_claim(path);
    REQUIRE(held);
    CHECK(held->job == who[winner].job);
    CHECK(held->pid == static_cast<long>(::getpid()));
    CHECK(held->expires >= held->heartbeat + 59);
    ClaimInfo holder;
    CHECK_FALSE(try_claim(path, who[(winner + 1) % 8], 60, &holder));
    CHECK(holder.job == who[winner].job);
    // Only the holder releases; no temporary files are left behind.
    release_claim(path, who[(winner + 1) % 8]);
    CHECK(fs::exists(path));
    CHECK(refresh_claim(path, who[winner], 120));
    CHECK(read_claim(path)->expires >= read_claim(path)->heartbeat + 119);
    CHECK_FALSE(refresh_claim(path, who[(winner + 1) % 8], 120));
    release_claim(path, who[winner]);
    CHECK_FALSE(fs::exists(path));
    for (const auto& e : fs::directory_iterator(dir.str() + "/cells")) FAIL("left behind: " << e.path());
  }

  TEST_CASE("claims: an expired claim and one whose process is gone are taken over") {
    TempDir dir;
    const std::string path = dir.str() + "/u.claim";
    ClaimInfo me = this_process_claimant();
    // Another host's claim that expired a minute ago.
    ClaimInfo old = me;
    old.host = "elsewhere";
    old.token = "0000";
    old.started = old.heartbeat = std::time(nullptr) - 400;
    old.expires = std::time(nullptr) - 60;
    dpf::test::write_file(path, format_claim(old));
    CHECK(claim_is_stale(old, std::time(nullptr), me.host));
    CHECK(try_claim(path, me, 60));
    CHECK(read_claim(path)->token == me.token);
    // A live claim from another host is respected until it expires.
    ClaimInfo live = old;
    live.expires = std::time(nullptr) + 100;
    dpf::test::write_file(path, format_claim(live));
    ClaimInfo holder;
    CHECK_FALSE(try_claim(path, me, 60, &holder));
    CHECK(holder.host == "elsewhere");
    // On this host, a claim whose pid no longer exists is stale at once.
    pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int st = 0;
    ::waitpid(child, &st, 0);
    ClaimInfo dead = me;
    dead.pid = child;
    dead.token = "1111";
    dead.expires = std::time(nullptr) + 1000;
    dpf::test::write_file(path, format_claim(dead));
    CHECK(claim_is_stale(dead, std::time(nullptr), me.host));
    CHECK(try_claim(path, me, 60));
    // Garbage in a claim file is not a claim.
    dpf::test::write_file(path, "hello\n");
    CHECK_FALSE(read_claim(path));
  }

  TEST_CASE("claim keeper: heartbeat refreshes, destruction releases") {
    TempDir dir;
    const std::string path = dir.str() + "/k.claim";
    {
      ClaimKeeper k(2, false);
      REQUIRE(k.acquire(path));
      const int64_t first = read_claim(path)->expires;
      std::this_thread::sleep_for(std::chrono::milliseconds(2200));
      CHECK(read_claim(path)->expires > first);  // refreshed every ttl / 4 (min 0.5 s)
      k.close();
      CHECK_FALSE(fs::exists(path));
      CHECK_FALSE(k.acquire(path));  // closed: the process is ending
      CHECK_FALSE(fs::exists(path));
    }
    {
      ClaimKeeper k(60, false);
      REQUIRE(k.acquire(path));
    }
    CHECK_FALSE(fs::exists(path));
  }

  TEST_CASE("a run skips a unit another live job has claimed, and computes it once the claim expires") {
    const ExperimentSpec spec = parse_experiment(kTiny, "inline/tiny.yaml");
    TempDir dir, whole;
    const auto rows_whole = read_rows(run_experiment(spec, dpf::test::quiet_options(whole)).results_csv);
    const std::vector<Cell> cells = expand_cells(spec);
    const std::string cdir = experiment_dir(spec, dir.str()) + "/cells";
    ClaimInfo other = this_process_claimant();
    other.host = "node-17";
    other.job = "4242_3";
    other.token = "feed";
    other.expires = std::time(nullptr) + 100;
    dpf::test::write_file(cdir + "/" + cells[1].id + ".claim", format_claim(other));
    RunReport r = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(r.computed == 1);
    CHECK(r.claimed_elsewhere == 1);
    CHECK(std::any_of(r.notes.begin(), r.notes.end(),
                      [](const std::string& n) { return n.find("claimed by node-17 job 4242_3") != std::string::npos; }));
    CHECK_FALSE(fs::exists(cdir + "/" + cells[1].id + ".csv"));
    other.expires = std::time(nullptr) - 1;
    dpf::test::write_file(cdir + "/" + cells[1].id + ".claim", format_claim(other));
    RunReport r2 = run_experiment(spec, dpf::test::quiet_options(dir));
    CHECK(r2.computed == 1);
    CHECK(r2.already_done == 1);
    CHECK(dpf::test::stable(read_rows(r2.results_csv)) == dpf::test::stable(rows_whole));
    for (const auto& e : fs::directory_iterator(cdir)) {
      const std::string ext = e.path().extension().string();
      CHECK_MESSAGE((ext == ".csv" || ext == ".ok"), "unexpected file " << e.path());
    }
  }

  TEST_CASE("a unit another job finishes while this run works on an earlier one is not computed again") {
    // Two cells, one thread: the second cell's file appears (as another job would write it, then
    // release its claim) while the first cell runs, after this run listed both as unfinished.
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: race
seed: 5
protocol: {type: holdout, test_fraction: 0.2, repetitions: 20}
datasets: ["synthetic:classification:n=2000,d=5,seed=1"]
algorithms:
  - {name: rf, label: RF, params: {n_trees: 100}}
  - {name: dipreme, label: DiPriMe, params: {epsilon: 1, n_trees: 2, max_depth: 2}}
)", "inline/race.yaml");
    TempDir dir, whole;
    run_experiment(spec, dpf::test::quiet_options(whole));
    const std::vector<Cell> cells = expand_cells(spec);
    REQUIRE(cells.size() == 2);
    const std::string cdir = experiment_dir(spec, dir.str()) + "/cells";
    const std::string other_csv = experiment_dir(spec, whole.str()) + "/cells/" + cells[1].id + ".csv";
    const std::string first_claim = cdir + "/" + cells[0].id + ".claim";
    const std::string second_csv = cdir + "/" + cells[1].id + ".csv";
    std::atomic<bool> copied{false};
    std::thread other_job([&] {
      // The first cell's claim exists only while this run computes it.
      for (int i = 0; i < 600000 && !fs::exists(first_claim); ++i) std::this_thread::sleep_for(std::chrono::microseconds(50));
      if (!fs::exists(first_claim)) return;
      fs::copy_file(other_csv, second_csv + ".tmp");
      fs::rename(second_csv + ".tmp", second_csv);
      copied = true;
    });
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(dir, 1));
    other_job.join();
    REQUIRE(copied);
    CHECK(r.computed == 1);
    CHECK(r.already_done == 1);
    CHECK(r.failed == 0);
    auto bytes = [](const std::string& p) {
      std::ifstream f(p, std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(f), {});
    };
    CHECK(bytes(second_csv) == bytes(other_csv));  // not computed and rewritten
    CHECK_FALSE(fs::exists(cdir + "/" + cells[1].id + ".claim"));
  }

  TEST_CASE("pieces: many shards cut the cells; merge joins the pieces into the unsharded rows") {
    const ExperimentSpec spec = parse_experiment(kTiny, "inline/tiny.yaml");
    TempDir whole, sharded;
    const auto rows_whole = read_rows(run_experiment(spec, dpf::test::quiet_options(whole)).results_csv);
    RunOptions o = dpf::test::quiet_options(sharded);
    o.shard_count = 4;
    const WorkPlan plan = plan_work(spec, expand_cells(spec), 4);
    CHECK(plan.units.size() > 2);  // at least one cell is cut
    for (int i = 0; i < 4; ++i) {
      o.shard_index = i;
      run_experiment(spec, o);
    }
    MergeReport m = merge_experiment(spec, sharded.str());
    CHECK(m.present == 2);
    CHECK(dpf::test::stable(read_rows(m.path)) == dpf::test::stable(rows_whole));
    // A rerun with another shard count finds every cell finished.
    o.shard_count = 3;
    o.shard_index = 1;
    RunReport again = run_experiment(spec, o);
    CHECK(again.computed == 0);
  }

  TEST_CASE("job templates: every placeholder filled, shell quoting") {
    CHECK(fill_template("a @X@ b @Y@", {{"X", "1"}, {"Y", "@"}}, "t") == "a 1 b @");
    CHECK(dpf::test::error_of([] { fill_template("@X@ @MISSING@", {{"X", "1"}}, "array.sbatch.in"); })
              .find("array.sbatch.in: placeholder @MISSING@") != std::string::npos);
    CHECK(shell_quote("it's") == "'it'\\''s'");
    const std::string dir = project_root() + "/experiments/cluster/templates";
    for (const char* t : {"array.sbatch.in", "finish.sbatch.in"}) CHECK(fs::exists(dir + "/" + t));
  }
}
