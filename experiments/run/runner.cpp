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
#include "experiments/run/run_inputs.hpp"
#include "experiments/run/unit_files.hpp"

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

// The progress line. The ETA is the estimated cost left times the wall seconds measured per unit of
// estimated cost so far (EtaEstimator), not elapsed x tasks left / tasks done: tasks of one sweep
// differ in cost by orders of magnitude, and an average over tasks mispredicts by 10x and more.
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

// ---- pending units: this shard's units not finished yet

struct PendingWork {
  std::vector<const WorkUnit*> units;
  std::vector<const Cell*> cells;  // their cells, each once, in plan order
};

// Counts the shard's units into `rep` (in_shard, already_done, cells_in_shard). A cell whose valid
// pieces cover it is joined on the way (finish_cell), so it counts as done.
PendingWork pending_units(const std::vector<Cell>& cells, const WorkPlan& plan, const std::string& dir, int per_cell,
                          int shard, RunReport& rep) {
  const auto pieces = list_pieces(dir + "/cells");
  PendingWork w;
  std::map<std::size_t, bool> finished;  // cell index -> finished
  for (const WorkUnit& u : plan.units) {
    if (u.shard != shard) continue;
    ++rep.in_shard;
    const Cell& c = cells[u.cell];
    auto [it, fresh] = finished.try_emplace(u.cell, false);
    if (fresh) it->second = finish_cell(dir, c, per_cell, pieces, rep.notes);
    if (it->second || piece_done(dir, u, c)) {
      ++rep.already_done;
      continue;
    }
    w.units.push_back(&u);
    if (fresh || w.cells.empty() || w.cells.back() != &c) w.cells.push_back(&c);
  }
  rep.cells_in_shard = finished.size();
  return w;
}

// ---- the parallel phase

// A unit's claim (cell_claim.hpp), decided when its first task starts.
enum class ClaimState {
  kNotTried,           // no task of the unit has started yet
  kHeld,               // this run computes it (claimed, claims off, or the claim file could not be written)
  kHeldElsewhere,      // another job holds the claim: its tasks are skipped
  kFinishedElsewhere,  // another job wrote it after this run listed the finished units: done, not ours
};

struct UnitState {
  std::vector<ResultRow> rows;
  std::vector<std::string> errors;
  std::atomic<int> remaining{0};
  std::mutex claim_mutex;
  ClaimState claim = ClaimState::kNotTried;
  ClaimInfo holder;
};

struct TaskRef {
  std::size_t unit;
  int slot;
};

// Runs the tasks of the runnable units; the last task of a unit writes it, so a unit's file appears
// only when the unit is complete. Tasks run in parallel; when there are fewer tasks than threads they
// run one after another and each fit grows its trees in parallel instead (never nested; results are
// the same either way).
class TaskLoop {
 public:
  TaskLoop(const ExperimentSpec& spec, const std::vector<Cell>& cells, const std::string& dir,
           std::vector<const WorkUnit*> units, const RunInputs& inputs, const RunOptions& opt);
  std::size_t tasks() const { return tasks_.size(); }
  void run();
  void report(RunReport& rep) const;  // counts and one note per unit failed or skipped

 private:
  void start_claims(const RunOptions& opt);
  bool claim(std::size_t unit);  // true: this run computes the unit
  ClaimState try_claim(std::size_t unit);
  void compute(const TaskRef& t);
  void finish_unit(std::size_t unit, bool mine);
  void write_unit(std::size_t unit);
  std::string claim_path(const WorkUnit& u) const { return dir_ + "/cells/" + u.name + ".claim"; }
  const Cell& cell_of(std::size_t unit) const { return cells_[units_[unit]->cell]; }

  const ExperimentSpec& spec_;
  const std::vector<Cell>& cells_;
  const std::string dir_;
  const std::vector<const WorkUnit*> units_;
  const RunInputs& in_;
  std::vector<std::unique_ptr<UnitState>> state_;
  std::vector<TaskRef> tasks_;
  std::vector<double> unit_task_cost_;
  std::unique_ptr<ClaimKeeper> keeper_;
  int outer_ = 1;
  RunContext ctx_;
  std::unique_ptr<Progress> progress_;
  std::atomic<std::size_t> computed_{0}, failed_{0}, unwritten_{0}, elsewhere_{0}, finished_elsewhere_{0};
  std::vector<std::string> failures_;  // per unit
};

TaskLoop::TaskLoop(const ExperimentSpec& spec, const std::vector<Cell>& cells, const std::string& dir,
                   std::vector<const WorkUnit*> units, const RunInputs& inputs, const RunOptions& opt)
    : spec_(spec), cells_(cells), dir_(dir), units_(std::move(units)), in_(inputs), failures_(units_.size()) {
  double total_cost = 0;
  for (std::size_t i = 0; i < units_.size(); ++i) {
    const int n = units_[i]->end - units_[i]->first;
    auto s = std::make_unique<UnitState>();
    s->rows.resize(static_cast<std::size_t>(n));
    s->errors.resize(static_cast<std::size_t>(n));
    s->remaining = n;
    s->claim = opt.claims ? ClaimState::kNotTried : ClaimState::kHeld;
    state_.push_back(std::move(s));
    for (int slot = units_[i]->first; slot < units_[i]->end; ++slot) tasks_.push_back({i, slot});
    unit_task_cost_.push_back(estimated_task_seconds(spec, cell_of(i)));
    total_cost += unit_task_cost_.back() * n;
  }
  if (opt.claims && !tasks_.empty()) start_claims(opt);
  outer_ = tasks_.size() >= static_cast<std::size_t>(opt.threads) ? opt.threads : 1;
  ctx_ = run_context(opt.threads);
  ctx_.fit_threads = outer_ == 1 ? opt.threads : 1;
  progress_ = std::make_unique<Progress>(tasks_.size(), total_cost, opt.threads);
  progress_->name = spec.paper + "/" + spec.experiment;
  progress_->enabled = opt.progress && !tasks_.empty();
}

// A unit is claimed when its first task starts and released when it is written, so a second job on
// the same shard skips what this one is computing. On SIGTERM/SIGINT (scancel, preemption) the keeper
// waits for a write in progress, removes this job's claims and ends the process: finished units are
// on disk, the tasks in flight are lost, no file is partial.
void TaskLoop::start_claims(const RunOptions& opt) {
  keeper_ = std::make_unique<ClaimKeeper>(opt.claim_ttl, opt.handle_signals, [](ClaimKeeper& k, int sig) {
    std::lock_guard<std::mutex> lock(write_mutex());
    k.close();
    std::fprintf(stderr, "\ndpforest run: %s: claims released, finished units kept, tasks in flight dropped\n",
                 sig == SIGTERM ? "SIGTERM" : "SIGINT");
    std::fflush(stderr);
    ::_exit(128 + sig);
  });
}

void TaskLoop::run() {
#pragma omp parallel for schedule(dynamic, 1) num_threads(outer_)
  for (std::size_t ti = 0; ti < tasks_.size(); ++ti) {
    const TaskRef& t = tasks_[ti];
    const bool mine = claim(t.unit);
    if (mine) compute(t);
    progress_->tick(unit_task_cost_[t.unit]);
    if (state_[t.unit]->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) finish_unit(t.unit, mine);
  }
  keeper_.reset();
}

bool TaskLoop::claim(std::size_t unit) {
  if (!keeper_) return true;
  UnitState& us = *state_[unit];
  std::lock_guard<std::mutex> lock(us.claim_mutex);
  if (us.claim == ClaimState::kNotTried) us.claim = try_claim(unit);
  return us.claim == ClaimState::kHeld;
}

ClaimState TaskLoop::try_claim(std::size_t unit) {
  const WorkUnit& u = *units_[unit];
  try {
    if (!keeper_->acquire(claim_path(u), &state_[unit]->holder)) return ClaimState::kHeldElsewhere;
    if (!unit_file_done(dir_, u, cell_of(unit))) return ClaimState::kHeld;
    keeper_->release(claim_path(u));
    return ClaimState::kFinishedElsewhere;
  } catch (const std::exception& e) {
    // An unwritable claim must not stop the run: the unit runs unclaimed.
#pragma omp critical(dpf_progress)
    std::fprintf(stderr, "\ndpforest run: %s (running it unclaimed)\n", clip(e.what()).c_str());
    return ClaimState::kHeld;
  }
}

// Exceptions never leave the parallel region: a failing task marks its unit failed.
void TaskLoop::compute(const TaskRef& t) {
  const WorkUnit& unit = *units_[t.unit];
  const Cell& cell = cells_[unit.cell];
  UnitState& us = *state_[t.unit];
  const Protocol& pr = spec_.protocol;
  const auto slot = static_cast<std::size_t>(t.slot - unit.first);
  const int rep_i = t.slot / pr.n_folds(), fold = t.slot % pr.n_folds();
  try {
    const Dataset& data = in_.data(cell);
    const Split split = in_.split(pr, cell, rep_i, fold);
    TaskCoordinates tc{&spec_, &cell, rep_i, fold, task_seed(spec_, cell, rep_i, fold), in_.positive_class(cell)};
    const double cpu0 = cpu_now(outer_ == 1);
    us.rows[slot] = run_task(data, split, tc, ctx_);
    us.rows[slot].set("cpu_seconds", cpu_now(outer_ == 1) - cpu0);
  } catch (const std::exception& e) {
    us.errors[slot] = e.what();
  }
}

void TaskLoop::finish_unit(std::size_t unit, bool mine) {
  const WorkUnit& u = *units_[unit];
  const Cell& cell = cells_[u.cell];
  UnitState& us = *state_[unit];
  if (us.claim == ClaimState::kFinishedElsewhere) {
    ++finished_elsewhere_;
  } else if (!mine) {
    ++elsewhere_;
    failures_[unit] = "skipped " + u.name + " ('" + cell.label + "' on " + cell.dataset + "): claimed by " +
                      us.holder.host + " job " + us.holder.job + " pid " + std::to_string(us.holder.pid);
  } else {
    write_unit(unit);
  }
  if (keeper_ && mine) keeper_->release(claim_path(u));
  us.rows.clear();
  us.rows.shrink_to_fit();
}

// The unit's rows, or its first task error in cells/<name>.error.
void TaskLoop::write_unit(std::size_t unit) {
  const WorkUnit& u = *units_[unit];
  const Cell& cell = cells_[u.cell];
  UnitState& us = *state_[unit];
  std::string first_error;
  for (const auto& e : us.errors)
    if (!e.empty() && first_error.empty()) first_error = e;
  const std::string where =
      "cell '" + cell.label + "' on " + cell.dataset + " (" + (u.whole ? cell.params.canonical() : u.name) + ")";
  try {
    std::lock_guard<std::mutex> lock(write_mutex());
    if (first_error.empty()) {
      write_cell(unit_path(dir_, u), us.rows);
      fs::remove(dir_ + "/cells/" + u.name + ".error");
      if (!u.whole) {
        std::vector<std::string> ignored;
        finish_cell(dir_, cell, per_cell_tasks(spec_), list_pieces(dir_ + "/cells"), ignored);
      }
      ++computed_;
    } else {
      write_text_atomic(dir_ + "/cells/" + u.name + ".error", cell.key + "\n" + first_error + "\n");
      failures_[unit] = where + " failed: " + first_error;
      ++failed_;
    }
  } catch (const std::exception& e) {
    failures_[unit] = where + ": cannot write results: " + clip(e.what());
    ++unwritten_;
  }
}

void TaskLoop::report(RunReport& rep) const {
  rep.claimed_elsewhere = elsewhere_;
  rep.already_done += finished_elsewhere_;
  rep.computed = computed_;
  rep.failed = failed_;
  rep.unwritten = unwritten_;
  for (const auto& f : failures_)
    if (!f.empty()) rep.notes.push_back(f);
}

// ---- the whole run

void check_run_options(const RunOptions& opt) {
  require(opt.threads >= 1, "--threads must be >= 1");
  require(opt.shard_count >= 1 && opt.shard_index >= 0 && opt.shard_index < opt.shard_count,
          "--shard i/N needs 0 <= i < N");
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A closed-form table: evaluated in full by every shard (microseconds), written like a merge.
RunReport run_formula(const ExperimentSpec& spec, const RunOptions& opt) {
  MergeReport m = merge_experiment(spec, opt.results_root, true);
  RunReport rep;
  rep.cells = rep.in_shard = rep.computed = m.cells;
  rep.results_csv = m.path;
  return rep;
}

// An unsharded run merges what it has (its report already names failed and skipped cells).
void merge_after_run(const ExperimentSpec& spec, const RunOptions& opt, RunReport& rep) {
  try {
    MergeReport m = merge_experiment(spec, opt.results_root, true, false);
    if (m.written) rep.results_csv = m.path;
    for (const auto& bad : m.invalid) rep.notes.push_back("not merged: " + bad);
  } catch (const std::exception& e) {
    rep.notes.push_back("cannot write the merged table: " + clip(e.what()));
    rep.merge_failed = true;
  }
}

}  // namespace

RunReport run_experiment(const ExperimentSpec& spec, const RunOptions& opt) {
  check_run_options(opt);
  const auto t_start = std::chrono::steady_clock::now();
  const std::string dir = experiment_dir(spec, opt.results_root);
  require_writable_folder(dir, "results folder");
  if (spec.formula.empty()) require_writable_folder(dir + "/cells", "claim and cell folder");
  write_text_atomic(dir + "/experiment.yaml", experiment_header_yaml(spec));  // what `dpforest summarize` labels
  if (!spec.formula.empty()) {
    RunReport rep = run_formula(spec, opt);
    rep.seconds = seconds_since(t_start);
    return rep;
  }
  const std::vector<Cell> cells = expand_cells(spec);  // validates every parameter before any work
  RunReport rep;
  rep.cells = cells.size();
  const WorkPlan plan = plan_work(spec, cells, opt.shard_count);
  rep.balance = plan.balance();
  const PendingWork pending = pending_units(cells, plan, dir, per_cell_tasks(spec), opt.shard_index, rep);
  const RunInputs inputs = load_run_inputs(spec, pending.cells, opt.data, rep.notes);
  std::vector<const WorkUnit*> runnable;
  for (const WorkUnit* u : pending.units) {
    if (inputs.runs(cells[u->cell])) runnable.push_back(u);
    else ++rep.missing_data;
  }
  TaskLoop loop(spec, cells, dir, std::move(runnable), inputs, opt);
  rep.tasks = loop.tasks();
  loop.run();
  loop.report(rep);
  if (opt.shard_count == 1) merge_after_run(spec, opt, rep);
  rep.seconds = seconds_since(t_start);
  return rep;
}

}  // namespace dpf
