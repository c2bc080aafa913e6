#include "experiments/runner.hpp"

#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>

#include "core/data/preprocess.hpp"
#include "core/eval/cv.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/cell_store.hpp"
#include "experiments/formula.hpp"
#include "experiments/results.hpp"
#include "experiments/sweep.hpp"
#include "experiments/task.hpp"

namespace dpf {

namespace fs = std::filesystem;

std::string experiment_dir(const ExperimentSpec& spec, const std::string& results_root) {
  // Ids are checked when the config is read; this keeps every output inside the root regardless.
  return contained_path(results_root, {spec.paper, spec.experiment});
}

namespace {

std::string cell_path(const std::string& dir, const Cell& c) { return dir + "/cells/" + c.id + ".csv"; }

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

struct Progress {
  explicit Progress(std::size_t n) : total(n) {}
  std::size_t total;
  std::atomic<std::size_t> done{0};
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last = start;
  std::string name;
  bool enabled = true;

  void tick() {
    std::size_t d = ++done;
    if (!enabled) return;
#pragma omp critical(dpf_progress)
    {
      auto now = std::chrono::steady_clock::now();
      if (d == total || now - last > std::chrono::seconds(2)) {
        last = now;
        double el = std::chrono::duration<double>(now - start).count();
        double eta = d ? el * static_cast<double>(total - d) / static_cast<double>(d) : 0.0;
        std::fprintf(stderr, "\r[%s] %zu/%zu tasks (%.0f%%), elapsed %.0f s, ETA %.0f s   ", name.c_str(), d, total,
                     100.0 * static_cast<double>(d) / static_cast<double>(total), el, eta);
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

  // Cells of this shard that are not finished yet.
  std::vector<const Cell*> pending;
  for (const Cell& c : cells) {
    if (c.index % static_cast<std::size_t>(opt.shard_count) != static_cast<std::size_t>(opt.shard_index)) continue;
    ++rep.in_shard;
    const std::string path = cell_path(dir, c);
    const std::string why = cell_problem(path, {c.id, static_cast<std::size_t>(per_cell_tasks(spec))});
    if (why.empty()) {
      ++rep.already_done;
      continue;
    }
    if (fs::exists(path)) rep.notes.push_back("recomputing cell " + c.id + ": " + why);
    pending.push_back(&c);
  }

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
  std::vector<const Cell*> runnable;
  for (const Cell* c : pending) {
    if (missing.count(c->dataset)) { ++rep.missing_data; continue; }
    std::string key = c->dataset + "|" + c->preprocess.key();
    if (!prepared.count(key))
      prepared[key] = is_identity(c->preprocess) ? raw[c->dataset]
                                                 : std::make_shared<const Dataset>(prepare(*raw[c->dataset], c->preprocess));
    runnable.push_back(c);
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

  struct CellState {
    std::vector<ResultRow> rows;
    std::vector<std::string> errors;
    std::atomic<int> remaining{0};
  };
  const int per_cell = pr.repetitions * pr.n_folds();
  std::vector<std::unique_ptr<CellState>> state;
  struct TaskRef { std::size_t cell; int rep, fold; };
  std::vector<TaskRef> tasks;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    auto s = std::make_unique<CellState>();
    s->rows.resize(static_cast<std::size_t>(per_cell));
    s->errors.resize(static_cast<std::size_t>(per_cell));
    s->remaining = per_cell;
    state.push_back(std::move(s));
    for (int r = 0; r < pr.repetitions; ++r)
      for (int f = 0; f < pr.n_folds(); ++f) tasks.push_back({i, r, f});
  }
  rep.tasks = tasks.size();

  // Tasks in parallel; when there are fewer tasks than threads, the tasks run one after another and
  // each fit grows its trees in parallel instead (never nested; results are the same either way).
  const int outer = tasks.size() >= static_cast<std::size_t>(opt.threads) ? opt.threads : 1;
  RunContext ctx = run_context(opt.threads);
  ctx.fit_threads = outer == 1 ? opt.threads : 1;
  Progress progress(tasks.size());
  progress.name = spec.paper + "/" + spec.experiment;
  progress.enabled = opt.progress && !tasks.empty();
  std::atomic<std::size_t> computed{0}, failed{0};
  std::vector<std::string> failures(runnable.size());

#pragma omp parallel for schedule(dynamic, 1) num_threads(outer)
  for (std::size_t ti = 0; ti < tasks.size(); ++ti) {
    const TaskRef& t = tasks[ti];
    const Cell& cell = *runnable[t.cell];
    CellState& cs = *state[t.cell];
    const auto slot = static_cast<std::size_t>(t.rep * pr.n_folds() + t.fold);
    // Exceptions never leave the parallel region: a failing task marks its cell failed.
    try {
      const Dataset& data = *prepared.at(cell.dataset + "|" + cell.preprocess.key());
      Split split;
      if (pr.type == "resubstitution") {
        split.train = all_rows(data.n_rows());
        split.test = split.train;
      } else {
        split = plans.at(cell.dataset)[static_cast<std::size_t>(t.rep)].split(t.fold);
      }
      TaskCoordinates tc{&spec, &cell, t.rep, t.fold, task_seed(spec, cell, t.rep, t.fold),
                         positive.count(cell.dataset) ? positive.at(cell.dataset) : 1};
      cs.rows[slot] = run_task(data, split, tc, ctx);
    } catch (const std::exception& e) {
      cs.errors[slot] = e.what();
    }
    progress.tick();
    if (cs.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // The last task of the cell writes it: the file appears only when the cell is complete.
      std::string first_error;
      for (const auto& e : cs.errors)
        if (!e.empty() && first_error.empty()) first_error = e;
      try {
        if (first_error.empty()) {
          write_cell(cell_path(dir, cell), cs.rows);
          fs::remove(dir + "/cells/" + cell.id + ".error");
          ++computed;
        } else {
          write_text_atomic(dir + "/cells/" + cell.id + ".error", cell.key + "\n" + first_error + "\n");
          failures[t.cell] = "cell '" + cell.label + "' on " + cell.dataset + " (" + cell.params.canonical() +
                             ") failed: " + first_error;
          ++failed;
        }
      } catch (const std::exception& e) {
        failures[t.cell] = "cell '" + cell.label + "' on " + cell.dataset + " (" + cell.id +
                           "): cannot write results: " + clip(e.what());
        ++failed;
      }
      cs.rows.clear();
      cs.rows.shrink_to_fit();
    }
  }
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
  for (const Cell& c : cells) {
    std::string p = cell_path(dir, c);
    const std::string what = c.label + " on " + c.dataset + " (" + c.params.canonical() + ")";
    if (!fs::exists(p)) {
      m.missing.push_back(what);
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
