#include "experiments/run/runner.hpp"

#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <csignal>
#include <ctime>
#include <numeric>

#include "core/data/preprocess.hpp"
#include "core/eval/cv.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/store/cell_claim.hpp"
#include "experiments/store/cell_store.hpp"
#include "experiments/cost/cost_model.hpp"
#include "experiments/config/formula.hpp"
#include "experiments/store/results.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/task.hpp"
#include "experiments/run/work_plan.hpp"

namespace dpf {

namespace fs = std::filesystem;

std::string experiment_dir(const ExperimentSpec& spec, const std::string& results_root) {
  // Ids are checked when the config is read; this keeps every output inside the root regardless.
  return contained_path(results_root, {spec.paper, spec.experiment});
}

namespace {

// CPU seconds of the calling thread (tasks in parallel, one thread each) or of the whole process
// (one task at a time whose fit grows trees on every thread): unlike wall time, not inflated when
// other work shares the cores, so the cost model is calibrated on it (cost_model.hpp).
double cpu_now(bool whole_process) {
  timespec ts{};
  ::clock_gettime(whole_process ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

std::string cell_path(const std::string& dir, const Cell& c) { return dir + "/cells/" + c.id + ".csv"; }

std::string unit_path(const std::string& dir, const WorkUnit& u) { return dir + "/cells/" + u.name + ".csv"; }

// Cell writes and the exit on a signal exclude each other: the process never ends halfway through one.
std::mutex& write_mutex() {
  static std::mutex m;
  return m;
}

// True when the cell's file is valid, or valid pieces cover it (then joined into the cell's file).
bool finish_cell(const std::string& dir, const Cell& c, int tasks, const std::map<std::string, std::vector<PieceFile>>& pieces,
                 std::vector<std::string>& notes) {
  const std::string path = cell_path(dir, c);
  const std::string why = cell_problem(path, {c.id, static_cast<std::size_t>(tasks)});
  if (why.empty()) return true;
  if (auto it = pieces.find(c.id); it != pieces.end())
    if (auto rows = rows_from_pieces(it->second, c.id, tasks)) {
      write_cell(path, *rows);
      std::error_code ignored;
      fs::remove(dir + "/cells/" + c.id + ".error", ignored);  // from an earlier failed whole-cell run
      return true;
    }
  if (fs::exists(path)) notes.push_back("recomputing cell " + c.id + ": " + why);
  return false;
}

int per_cell_tasks(const ExperimentSpec& spec) { return spec.protocol.repetitions * spec.protocol.n_folds(); }

std::string shell_line(const char* cmd) {
  std::string out;
  if (FILE* p = ::popen(cmd, "r")) {
    char buf[256];
    if (std::fgets(buf, sizeof buf, p)) out = buf;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

RunContext run_context(int threads) {
  RunContext c;
  c.threads = threads;
  std::string cmd = "git -C '" + project_root() + "' rev-parse --short HEAD 2>/dev/null";
  c.git_commit = shell_line(cmd.c_str());
  if (c.git_commit.empty()) c.git_commit = "unknown";
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  c.host = host;
  return c;
}

// True when prepare() would return an unchanged copy.
bool is_identity(const Preprocess& p) { return p.target_scaling == "none" && p.domains != "from-data" && p.bins <= 0; }

// A dataset prepared as a cell asks (dipreme.md §1, §6.1: over the whole dataset, before splitting).
Dataset prepare(const Dataset& raw, const Preprocess& p) {
  // Binning alone reads `raw` directly: no intermediate copy (peak 2 datasets, not 3).
  if (p.target_scaling == "none" && p.domains != "from-data" && p.bins > 0) return bin_equal_width(raw, p.bins);
  Dataset d = raw;
  std::vector<uint32_t> all = all_rows(d.n_rows());
  if (p.target_scaling != "none") {
    require(d.task() == TaskKind::kRegression, d.name(), ": target_scaling '", p.target_scaling,
            "' needs a regression target");
    // minmax / max read the target's range from the rows (the papers' notebooks; not private);
    // public-minmax / public-max use the registry's public target bounds instead.
    const Target& t = d.schema().target;
    TargetScaler s = p.target_scaling == "max"             ? fit_target_max(d, all)
                     : p.target_scaling == "minmax"        ? fit_target_minmax(d, all)
                     : p.target_scaling == "public-max"    ? TargetScaler{0.0, t.hi}
                                                           : TargetScaler{t.lo, t.hi};
    s.apply(d);
  }
  if (p.domains == "from-data") domains_from_data(d, all);
  if (p.bins > 0) d = bin_equal_width(d, p.bins);
  return d;
}

// The progress line. The ETA is the estimated cost left times the wall seconds measured per unit of
// estimated cost so far (EtaEstimator), not elapsed x tasks left / tasks done: tasks of one sweep
// differ in cost by orders of magnitude (issue 18: 1,014 s predicted, 82 s taken).
struct Progress {
  Progress(std::size_t n, double total_cost, int threads) : total(n), eta(total_cost, threads) {}
  std::size_t total;
  EtaEstimator eta;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last = start;
  std::string name;
  bool enabled = true;

  void tick(double task_cost) {
#pragma omp critical(dpf_progress)
    {
      eta.finished(task_cost);
      const std::size_t d = eta.tasks_done();
      auto now = std::chrono::steady_clock::now();
      if (enabled && (d == total || now - last > std::chrono::seconds(2))) {
        last = now;
        double el = std::chrono::duration<double>(now - start).count();
        std::fprintf(stderr, "\r[%s] %zu/%zu tasks (%.0f%%, %.0f%% of estimated cost), elapsed %.0f s, ETA %.0f s   ",
                     name.c_str(), d, total, 100.0 * static_cast<double>(d) / static_cast<double>(total),
                     100.0 * eta.fraction_done(), el, eta.seconds_left(el));
        if (d == total) std::fputc('\n', stderr);
        std::fflush(stderr);
      }
    }
  }
};

}  // namespace

RunReport run_experiment(const ExperimentSpec& spec, const RunOptions& opt) {
  require(opt.threads >= 1, "--threads must be >= 1");
  require(opt.shard_count >= 1 && opt.shard_index >= 0 && opt.shard_index < opt.shard_count,
          "--shard i/N needs 0 <= i < N");
  const auto t_start = std::chrono::steady_clock::now();
  if (!spec.formula.empty()) {
    // A closed-form table: evaluated in full by every shard (microseconds), written like a merge.
    MergeReport m = merge_experiment(spec, opt.results_root, true);
    RunReport rep;
    rep.cells = rep.in_shard = rep.computed = m.cells;
    rep.results_csv = m.path;
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    return rep;
  }
  const std::vector<Cell> cells = expand_cells(spec);  // validates every parameter before any work
  const std::string dir = experiment_dir(spec, opt.results_root);
  RunReport rep;
  rep.cells = cells.size();

  // Units of this shard (cells, or pieces of expensive cells: work_plan.hpp) not finished yet.
  const WorkPlan plan = plan_work(spec, cells, opt.shard_count);
  const int per_cell = per_cell_tasks(spec);
  const auto pieces = list_pieces(dir + "/cells");
  rep.balance = plan.balance();
  std::vector<const WorkUnit*> pending_units;
  std::vector<const Cell*> pending;  // their cells, each once
  std::map<std::size_t, bool> shard_cells;  // cell index -> finished
  for (const WorkUnit& u : plan.units) {
    if (u.shard != opt.shard_index) continue;
    ++rep.in_shard;
    const Cell& c = cells[u.cell];
    auto [it, fresh] = shard_cells.try_emplace(u.cell, false);
    if (fresh) it->second = finish_cell(dir, c, per_cell, pieces, rep.notes);
    if (it->second || (!u.whole && cell_problem(unit_path(dir, u), {c.id, static_cast<std::size_t>(u.end - u.first)}).empty())) {
      ++rep.already_done;
      continue;
    }
    pending_units.push_back(&u);
    if (fresh || pending.empty() || pending.back() != &c) pending.push_back(&c);
  }
  rep.cells_in_shard = shard_cells.size();

  // Load each dataset once; a missing one skips its cells with a message and the rest run.
  std::map<std::string, std::shared_ptr<const Dataset>> raw;
  std::map<std::string, std::string> missing;
  for (const Cell* c : pending) {
    if (raw.count(c->dataset) || missing.count(c->dataset)) continue;
    try {
      raw[c->dataset] = std::make_shared<const Dataset>(load_dataset(c->dataset, opt.data));
    } catch (const MissingInput& e) {
      missing[c->dataset] = e.what();
      rep.notes.push_back("skipped cells of dataset " + c->dataset + ": " + e.what());
    }
  }
  // k-fold needs at least one row per fold: such a dataset's cells are skipped, the others run.
  if (spec.protocol.type == "kfold")
    for (auto it = raw.begin(); it != raw.end();) {
      const std::size_t n = it->second->n_rows();
      if (n < static_cast<std::size_t>(spec.protocol.folds)) {
        const std::string why = spec.path + ": protocol.folds = " + std::to_string(spec.protocol.folds) +
                                " exceeds the " + std::to_string(n) + " rows of dataset " + it->first;
        missing[it->first] = why;
        rep.notes.push_back("skipped cells of dataset " + it->first + ": " + why);
        it = raw.erase(it);
      } else {
        ++it;
      }
    }
  // By dataset + preprocessing. A cell that asks for no preprocessing shares the loaded dataset
  // instead of a copy (an 11M-row HIGGS-shaped table is 2.5 GB: issue 14 "scale").
  std::map<std::string, std::shared_ptr<const Dataset>> prepared;
  std::vector<const WorkUnit*> runnable;
  for (const Cell* c : pending) {
    if (missing.count(c->dataset)) continue;
    std::string key = c->dataset + "|" + c->preprocess.key();
    if (!prepared.count(key))
      prepared[key] = is_identity(c->preprocess) ? raw[c->dataset]
                                                 : std::make_shared<const Dataset>(prepare(*raw[c->dataset], c->preprocess));
  }
  for (const WorkUnit* u : pending_units) {
    if (missing.count(cells[u->cell].dataset)) { ++rep.missing_data; continue; }
    runnable.push_back(u);
  }

  // Folds depend only on (master seed, dataset, repetition): every algorithm sees the same splits.
  // They are kept as fold plans (2 bytes per row and repetition); each task builds its own Split
  // when it runs, so memory holds only the splits of the tasks running now, not of all 100 tasks of
  // a 10x10 CV (which at 11M rows would be 4.4 GB of row indices).
  const Protocol& pr = spec.protocol;
  std::map<std::string, std::vector<FoldPlan>> plans;  // dataset -> repetition
  std::map<std::string, int> positive;                             // least frequent class
  for (const auto& [id, data] : raw) {
    std::vector<int> labels;
    if (data->task() == TaskKind::kClassification) {
      labels = data->labels();
      std::vector<std::size_t> count(data->n_classes(), 0);
      for (int l : labels) ++count[static_cast<std::size_t>(l)];
      int pos = 0;
      for (std::size_t k = 1; k < count.size(); ++k)
        if (count[k] < count[static_cast<std::size_t>(pos)]) pos = static_cast<int>(k);
      positive[id] = pos;
    }
    std::span<const int> strat = pr.stratified ? std::span<const int>(labels) : std::span<const int>();
    auto& per_rep = plans[id];
    // resubstitution: every row is fitted and evaluated (repetitions differ only by seed); no plan.
    if (pr.type == "resubstitution") continue;
    for (int r = 0; r < pr.repetitions; ++r) {
      Rng rng = Rng(mix64(spec.seed)).derive(hash_string(id)).derive(static_cast<uint64_t>(r));
      per_rep.push_back(pr.type == "kfold" ? kfold_plan(data->n_rows(), pr.folds, rng, strat)
                                           : holdout_plan(data->n_rows(), pr.test_fraction, rng, strat));
    }
  }
  raw.clear();  // datasets no cell shares stay alive only through `prepared`

  struct UnitState {
    std::vector<ResultRow> rows;
    std::vector<std::string> errors;
    std::atomic<int> remaining{0};
    std::mutex claim_mutex;
    int claim = 0;  // 0 not tried, 1 held (or claims off), 2 held by another job, 3 finished by another job
    ClaimInfo holder;
  };
  std::vector<std::unique_ptr<UnitState>> state;
  struct TaskRef { std::size_t unit; int slot; };
  std::vector<TaskRef> tasks;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    const int n = runnable[i]->end - runnable[i]->first;
    auto s = std::make_unique<UnitState>();
    s->rows.resize(static_cast<std::size_t>(n));
    s->errors.resize(static_cast<std::size_t>(n));
    s->remaining = n;
    s->claim = opt.claims ? 0 : 1;
    state.push_back(std::move(s));
    for (int slot = runnable[i]->first; slot < runnable[i]->end; ++slot) tasks.push_back({i, slot});
  }
  rep.tasks = tasks.size();

  // Claims (cell_claim.hpp): a unit is claimed when its first task starts and released when it is
  // written, so a second job on the same shard skips what this one is computing. On SIGTERM/SIGINT
  // (scancel, preemption) the keeper waits for a write in progress, removes this job's claims and
  // ends the process: finished units are on disk, the tasks in flight are lost, no file is partial.
  std::unique_ptr<ClaimKeeper> keeper;
  if (opt.claims && !tasks.empty())
    keeper = std::make_unique<ClaimKeeper>(opt.claim_ttl, opt.handle_signals, [](ClaimKeeper& k, int sig) {
      std::lock_guard<std::mutex> lock(write_mutex());
      k.close();
      std::fprintf(stderr, "\ndpforest run: %s: claims released, finished units kept, tasks in flight dropped\n",
                   sig == SIGTERM ? "SIGTERM" : "SIGINT");
      std::fflush(stderr);
      ::_exit(128 + sig);
    });

  // Tasks in parallel; when there are fewer tasks than threads, the tasks run one after another and
  // each fit grows its trees in parallel instead (never nested; results are the same either way).
  const int outer = tasks.size() >= static_cast<std::size_t>(opt.threads) ? opt.threads : 1;
  RunContext ctx = run_context(opt.threads);
  ctx.fit_threads = outer == 1 ? opt.threads : 1;
  std::vector<double> unit_task_cost(runnable.size());
  double total_cost = 0;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    unit_task_cost[i] = estimated_task_seconds(spec, cells[runnable[i]->cell]);
    total_cost += unit_task_cost[i] * (runnable[i]->end - runnable[i]->first);
  }
  Progress progress(tasks.size(), total_cost, opt.threads);
  progress.name = spec.paper + "/" + spec.experiment;
  progress.enabled = opt.progress && !tasks.empty();
  std::atomic<std::size_t> computed{0}, failed{0}, elsewhere{0}, finished_elsewhere{0};
  std::vector<std::string> failures(runnable.size());

#pragma omp parallel for schedule(dynamic, 1) num_threads(outer)
  for (std::size_t ti = 0; ti < tasks.size(); ++ti) {
    const TaskRef& t = tasks[ti];
    const WorkUnit& unit = *runnable[t.unit];
    const Cell& cell = cells[unit.cell];
    UnitState& us = *state[t.unit];
    const std::string claim = dir + "/cells/" + unit.name + ".claim";
    bool mine = true;
    if (keeper) {
      std::lock_guard<std::mutex> lock(us.claim_mutex);
      if (us.claim == 0) {
        try {
          us.claim = keeper->acquire(claim, &us.holder) ? 1 : 2;
          // Another job may have finished the unit and released its claim after this run listed the
          // finished cells: then it is done, not ours to compute again.
          if (us.claim == 1 &&
              cell_problem(unit_path(dir, unit), {cell.id, static_cast<std::size_t>(unit.end - unit.first)}).empty()) {
            keeper->release(claim);
            us.claim = 3;
          }
        } catch (const std::exception& e) {
          us.claim = 1;  // an unwritable claim must not stop the run: the unit runs unclaimed
#pragma omp critical(dpf_progress)
          std::fprintf(stderr, "\ndpforest run: %s (running it unclaimed)\n", clip(e.what()).c_str());
        }
      }
      mine = us.claim == 1;
    }
    const auto slot = static_cast<std::size_t>(t.slot - unit.first);
    const int rep_i = t.slot / pr.n_folds(), fold = t.slot % pr.n_folds();
    // Exceptions never leave the parallel region: a failing task marks its unit failed.
    if (mine) try {
      const Dataset& data = *prepared.at(cell.dataset + "|" + cell.preprocess.key());
      Split split;
      if (pr.type == "resubstitution") {
        split.train = all_rows(data.n_rows());
        split.test = split.train;
      } else {
        split = plans.at(cell.dataset)[static_cast<std::size_t>(rep_i)].split(fold);
      }
      TaskCoordinates tc{&spec, &cell, rep_i, fold, task_seed(spec, cell, rep_i, fold),
                         positive.count(cell.dataset) ? positive.at(cell.dataset) : 1};
      const double cpu0 = cpu_now(outer == 1);
      us.rows[slot] = run_task(data, split, tc, ctx);
      us.rows[slot].set("cpu_seconds", cpu_now(outer == 1) - cpu0);
    } catch (const std::exception& e) {
      us.errors[slot] = e.what();
    }
    progress.tick(unit_task_cost[t.unit]);
    if (us.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // The last task of the unit writes it: the file appears only when the unit is complete.
      if (us.claim == 3) {
        ++finished_elsewhere;
      } else if (!mine) {
        ++elsewhere;
        failures[t.unit] = "skipped " + unit.name + " ('" + cell.label + "' on " + cell.dataset + "): claimed by " +
                           us.holder.host + " job " + us.holder.job + " pid " + std::to_string(us.holder.pid);
      } else {
        std::string first_error;
        for (const auto& e : us.errors)
          if (!e.empty() && first_error.empty()) first_error = e;
        const std::string where = "cell '" + cell.label + "' on " + cell.dataset + " (" +
                                  (unit.whole ? cell.params.canonical() : unit.name) + ")";
        try {
          std::lock_guard<std::mutex> lock(write_mutex());
          if (first_error.empty()) {
            write_cell(unit_path(dir, unit), us.rows);
            fs::remove(dir + "/cells/" + unit.name + ".error");
            if (!unit.whole) {
              std::vector<std::string> ignored;
              finish_cell(dir, cell, per_cell, list_pieces(dir + "/cells"), ignored);
            }
            ++computed;
          } else {
            write_text_atomic(dir + "/cells/" + unit.name + ".error", cell.key + "\n" + first_error + "\n");
            failures[t.unit] = where + " failed: " + first_error;
            ++failed;
          }
        } catch (const std::exception& e) {
          failures[t.unit] = where + ": cannot write results: " + clip(e.what());
          ++failed;
        }
      }
      if (keeper && mine) keeper->release(claim);
      us.rows.clear();
      us.rows.shrink_to_fit();
    }
  }
  keeper.reset();
  rep.claimed_elsewhere = elsewhere;
  rep.already_done += finished_elsewhere;  // finished by another job while this run went
  rep.computed = computed;
  rep.failed = failed;
  for (const auto& f : failures)
    if (!f.empty()) rep.notes.push_back(f);
  if (opt.shard_count == 1) {
    // run merges what it has (its report already names failed and skipped cells).
    try {
      MergeReport m = merge_experiment(spec, opt.results_root, true);
      rep.results_csv = m.path;
      for (const auto& bad : m.invalid) rep.notes.push_back("not merged: " + bad);
    } catch (const std::exception& e) {
      rep.notes.push_back("cannot write the merged table: " + clip(e.what()));
      ++rep.failed;
    }
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  return rep;
}

RunPreview preview_run(const ExperimentSpec& spec, const RunOptions& opt) {
  require(opt.threads >= 1, "--threads must be >= 1");
  require(opt.shard_count >= 1 && opt.shard_index >= 0 && opt.shard_index < opt.shard_count,
          "--shard i/N needs 0 <= i < N");
  RunPreview p;
  p.threads = opt.threads;
  if (!spec.formula.empty()) return p;  // a closed-form table: no tasks
  const std::vector<Cell> cells = expand_cells(spec);
  const std::string dir = experiment_dir(spec, opt.results_root);
  const int per_cell = per_cell_tasks(spec);
  const WorkPlan plan = plan_work(spec, cells, opt.shard_count);
  const auto pieces = list_pieces(dir + "/cells");
  p.cells = cells.size();
  p.tasks = cells.size() * static_cast<std::size_t>(per_cell);
  std::map<std::size_t, std::size_t> row_of;  // cell index -> per_cell row
  for (const WorkUnit& u : plan.units) {
    if (u.shard != opt.shard_index) continue;
    const Cell& c = cells[u.cell];
    auto [it, fresh] = row_of.try_emplace(u.cell, p.per_cell.size());
    if (fresh) {
      RunPreview::CellCost cc;
      const TaskShape shape = task_shape(spec, c);
      cc.id = c.id, cc.label = c.label, cc.algorithm = c.algorithm, cc.dataset = c.dataset, cc.task = shape.task;
      cc.cost_key = cost_key(c);
      cc.train_rows = shape.train_rows, cc.features = shape.features, cc.trees = shape.trees, cc.depth = shape.depth;
      cc.classes = shape.classes;
      cc.task_seconds = estimated_task_seconds(spec, c);
      if (!shape.mirrored) ++p.cells_not_mirrored;
      // Done: a valid cell file, or valid pieces that cover it (joined by the next run or merge).
      cc.done = cell_problem(cell_path(dir, c), {c.id, static_cast<std::size_t>(per_cell)}).empty();
      if (!cc.done)
        if (auto pc = pieces.find(c.id); pc != pieces.end()) cc.done = rows_from_pieces(pc->second, c.id, per_cell).has_value();
      p.per_cell.push_back(cc);
    }
    RunPreview::CellCost& cc = p.per_cell[it->second];
    const int n = u.end - u.first;
    cc.tasks += n;
    p.shard_tasks += static_cast<std::size_t>(n);
    p.cpu_seconds += cc.task_seconds * n;
    const bool unit_done =
        cc.done || (!u.whole && cell_problem(unit_path(dir, u), {c.id, static_cast<std::size_t>(n)}).empty());
    if (unit_done) continue;
    p.tasks_left += static_cast<std::size_t>(n);
    p.cpu_seconds_left += cc.task_seconds * n;
    p.largest_task_seconds = std::max(p.largest_task_seconds, cc.task_seconds);
  }
  p.shard_cells = p.per_cell.size();
  for (const auto& cc : p.per_cell) p.cells_done += cc.done ? 1 : 0;
  p.wall_seconds_left = estimated_wall_seconds(p.cpu_seconds_left, p.largest_task_seconds, p.tasks_left, opt.threads);
  return p;
}

std::string format_preview(const ExperimentSpec& spec, const RunOptions& opt, const RunPreview& p) {
  std::string out;
  char buf[512];
  const std::string name = spec.paper + "/" + spec.experiment;
  if (!spec.formula.empty())
    return name + ": a closed-form table (formula): no tasks, evaluated in microseconds\n";
  std::snprintf(buf, sizeof buf, "%s: %zu cells, %zu tasks (%d per cell)\n", name.c_str(), p.cells, p.tasks,
                per_cell_tasks(spec));
  out += buf;
  if (opt.shard_count > 1) {
    std::snprintf(buf, sizeof buf, "  shard %d/%d: %zu cells (or pieces of them), %zu tasks\n", opt.shard_index,
                  opt.shard_count, p.shard_cells, p.shard_tasks);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "  already done in %s: %zu of %zu cells; %zu tasks left\n",
                experiment_dir(spec, opt.results_root).c_str(), p.cells_done, p.shard_cells, p.tasks_left);
  out += buf;
  if (p.cells_not_mirrored > 0) {
    std::snprintf(buf, sizeof buf, "  %zu cells on datasets not mirrored here (the run skips them; estimated at 0 s)\n",
                  p.cells_not_mirrored);
    out += buf;
  }
  for (const std::string& note : excluded_cell_notes(spec)) out += "  excluded by the config: " + note + "\n";
  std::snprintf(buf, sizeof buf,
                "  estimated CPU time%s: %s in all, %s left (largest task %s); wall time left at %d thread%s: %s\n",
                opt.shard_count > 1 ? " of this shard" : "", human_seconds(p.cpu_seconds).c_str(), human_seconds(p.cpu_seconds_left).c_str(),
                human_seconds(p.largest_task_seconds).c_str(), p.threads, p.threads == 1 ? "" : "s",
                human_seconds(p.wall_seconds_left).c_str());
  out += buf;
  out += "  (calibrated cost model, experiments/cost/cost_table.inc: CPU seconds of the calibrating machine)\n";
  return out;
}

MergeReport merge_experiment(const ExperimentSpec& spec, const std::string& results_root, bool allow_partial) {
  const std::string dir = experiment_dir(spec, results_root);
  MergeReport m;
  if (!spec.formula.empty()) {
    const std::vector<ResultRow> rows = evaluate_formula(spec.paper, spec.experiment, spec.formula, spec.formula_grid,
                                                         spec.path);
    m.cells = m.present = m.rows = rows.size();
    m.path = dir + "/results.csv";
    write_rows_atomic(m.path, rows);
    m.written = true;
    return m;
  }
  const std::vector<Cell> cells = expand_cells(spec);
  m.cells = cells.size();
  std::vector<ResultRow> rows;
  const auto pieces = list_pieces(dir + "/cells");
  const int tasks = per_cell_tasks(spec);
  for (const Cell& c : cells) {
    std::string p = cell_path(dir, c);
    const std::string what = c.label + " on " + c.dataset + " (" + c.params.canonical() + ")";
    if (!fs::exists(p)) {
      // A cell computed in pieces by several shards: joined here when they cover it.
      auto it = pieces.find(c.id);
      int covered = 0;
      if (it != pieces.end())
        if (auto joined = rows_from_pieces(it->second, c.id, tasks, &covered)) {
          write_cell(p, *joined);
          ++m.present;
          for (auto& r : *joined) rows.push_back(std::move(r));
          continue;
        }
      m.missing.push_back(what + (covered > 0 ? " (" + std::to_string(covered) + " of " + std::to_string(tasks) +
                                                    " tasks in pieces)" : ""));
      continue;
    }
    try {
      std::vector<ResultRow> cell_rows = read_cell(p, {c.id, static_cast<std::size_t>(per_cell_tasks(spec))});
      ++m.present;
      for (auto& r : cell_rows) rows.push_back(std::move(r));
    } catch (const Error& e) {
      m.invalid.push_back(what + ": " + clip(e.what()));
    }
  }
  m.rows = rows.size();
  m.path = dir + "/results.csv";
  // A partial table would silently replace a complete one: written only when asked for.
  if (m.present < m.cells && !allow_partial) return m;
  write_rows_atomic(m.path, rows);
  m.written = true;
  return m;
}

}  // namespace dpf
