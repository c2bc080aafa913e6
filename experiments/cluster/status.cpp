// `dpforest status`: a sweep's progress from its (shared) results folder: finished and failed units,
// live or stale claims with their host and job, throughput and ETA.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "datasets/registry.hpp"
#include "experiments/cluster/slurm.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/cost/cost_model.hpp"
#include "experiments/run/privacy_label.hpp"
#include "experiments/run/runner.hpp"
#include "experiments/run/work_plan.hpp"
#include "experiments/store/cell_claim.hpp"
#include "experiments/store/cell_store.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace dpf {

namespace {

std::string duration_text(double s) {
  if (!(s >= 0) || s > 1e9) return "?";
  char buf[64];
  const long t = static_cast<long>(s + 0.5);
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

double mtime_seconds(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<double>(st.st_mtim.tv_sec) + 1e-9 * static_cast<double>(st.st_mtim.tv_nsec);
}

double percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 100.0; }

// What is asked of every config: the results root, the clock and the throughput window.
struct StatusContext {
  std::string results;
  double now = 0, window = 0;
  std::string host;
};

// ---- finished work, from the cell and piece files

struct Finished {
  double when;
  int tasks;
  double cost;
};

struct Progress {
  std::size_t cells_done = 0, tasks_done = 0, cells_unavailable = 0;
  std::set<std::string> unavailable_datasets;
  double cost_total = 0, cost_done = 0;
  std::vector<Finished> finished;  // each valid cell or piece file, for the throughput
};

// Tasks of the cell covered by valid files (the cell's own, or its pieces).
int scan_cell(const ExperimentSpec& spec, const Cell& c, const std::string& cdir, int tasks,
              const std::map<std::string, std::vector<PieceFile>>& pieces, Progress& p) {
  const double task_cost = estimated_task_cost(spec, c);
  p.cost_total += task_cost * tasks;
  auto it = pieces.find(c.id);
  int covered = 0;
  if (it != pieces.end()) {
    for (const PieceFile& pf : it->second)
      if (cell_problem(pf.path, {c.id, static_cast<std::size_t>(pf.end - pf.first)}).empty()) {
        covered += pf.end - pf.first;
        p.finished.push_back({mtime_seconds(pf.path), pf.end - pf.first, task_cost * (pf.end - pf.first)});
      }
    covered = std::min(covered, tasks);
  }
  const std::string csv = cdir + "/" + c.id + ".csv";
  if (cell_problem(csv, {c.id, static_cast<std::size_t>(tasks)}).empty()) {
    ++p.cells_done;
    if (it == pieces.end()) p.finished.push_back({mtime_seconds(csv), tasks, task_cost * tasks});
    covered = tasks;
  }
  p.cost_done += task_cost * covered;
  return covered;
}

Progress scan_progress(const ExperimentSpec& spec, const std::vector<Cell>& cells, const std::string& cdir, int tasks) {
  const auto pieces = list_pieces(cdir);
  Progress p;
  for (const Cell& c : cells) {
    const int covered = scan_cell(spec, c, cdir, tasks, pieces, p);
    p.tasks_done += static_cast<std::size_t>(covered);
    // A cell left to do on a dataset the offline mirror does not hold (INDEX.md "NOT here") cannot
    // run from the mirror: counted apart, so a reference snapshot can be complete for what can run.
    if (covered < tasks && !task_shape(spec, c).mirrored) {
      ++p.cells_unavailable;
      p.unavailable_datasets.insert(split_dataset_spec(c.dataset).first);
    }
  }
  return p;
}

void print_progress(const ExperimentSpec& spec, const Progress& p, std::size_t cells, std::size_t total_tasks) {
  std::printf("  cells: %zu/%zu done (%.0f%%); tasks: %zu/%zu done (%.0f%%); estimated cost %.0f%% done\n",
              p.cells_done, cells, percent(static_cast<double>(p.cells_done), static_cast<double>(cells)), p.tasks_done,
              total_tasks, percent(static_cast<double>(p.tasks_done), static_cast<double>(total_tasks)),
              percent(p.cost_done, p.cost_total));
  if (p.cells_unavailable > 0) {
    std::string names;
    for (const auto& d : p.unavailable_datasets) names += (names.empty() ? "" : ", ") + d;
    std::printf("  not runnable here: %zu cells (datasets the offline mirror does not hold: %s)\n", p.cells_unavailable,
                names.c_str());
  }
  for (const std::string& note : excluded_cell_notes(spec)) std::printf("  excluded by the config: %s\n", note.c_str());
}

// ---- failed units (.error) and claims (.claim)

struct UnitFiles {
  std::vector<std::string> errors, claims;
  std::size_t live = 0;
  double earliest_claim = 0;  // start of the earliest live claim (now when none)
};

// The message of an .error file (its second line on).
std::string error_message(const fs::path& path) {
  std::string text;
  try {
    text = read_text_limited(path.string(), 1 << 16, "error file");
  } catch (const std::exception&) {
  }
  const auto nl = text.find('\n');
  std::string msg = nl == std::string::npos ? text : text.substr(nl + 1);
  while (!msg.empty() && msg.back() == '\n') msg.pop_back();
  return msg;
}

void add_claim(const fs::path& path, const std::string& what, const StatusContext& ctx, UnitFiles& u) {
  const std::optional<ClaimInfo> ci = read_claim(path.string());
  if (!ci) {
    u.claims.push_back(what + ": unreadable claim " + path.filename().string());
    return;
  }
  const bool stale = claim_is_stale(*ci, static_cast<int64_t>(ctx.now), ctx.host);
  if (!stale) {
    ++u.live;
    u.earliest_claim = std::min(u.earliest_claim, static_cast<double>(ci->started));
  }
  u.claims.push_back(what + ": host " + ci->host + ", job " + ci->job + ", pid " + std::to_string(ci->pid) + ", claimed " +
                     duration_text(ctx.now - static_cast<double>(ci->started)) + " ago, heartbeat " +
                     duration_text(ctx.now - static_cast<double>(ci->heartbeat)) + " ago" +
                     (stale ? " [STALE: expired or its process is gone; the next run takes it over]" : ""));
}

UnitFiles scan_unit_files(const std::vector<Cell>& cells, const std::string& cdir, int tasks, const StatusContext& ctx) {
  std::map<std::string, const Cell*> by_id;
  for (const Cell& c : cells) by_id[c.id] = &c;
  UnitFiles u;
  u.earliest_claim = ctx.now;
  std::error_code ec;
  if (!fs::is_directory(cdir, ec)) return u;
  for (const auto& e : fs::directory_iterator(cdir, ec)) {
    const std::string unit = e.path().stem().string();
    const std::string id = unit.substr(0, unit.find('.'));
    const Cell* c = by_id.count(id) ? by_id.at(id) : nullptr;
    const std::string what = c ? unit + " ('" + c->label + "' on " + c->dataset + ", " + clip(c->params.canonical()) + ")"
                               : unit + " (not a cell of this config)";
    if (e.path().extension() == ".error") {
      // An error file beside a valid cell is from an earlier attempt.
      if (c && cell_problem(cdir + "/" + id + ".csv", {id, static_cast<std::size_t>(tasks)}).empty()) continue;
      u.errors.push_back(what + ": " + clip(error_message(e.path())));
    } else if (e.path().extension() == ".claim") {
      add_claim(e.path(), what, ctx, u);
    }
  }
  std::sort(u.errors.begin(), u.errors.end());
  std::sort(u.claims.begin(), u.claims.end());
  return u;
}

void print_unit_files(const UnitFiles& u) {
  std::printf("  failed: %zu\n", u.errors.size());
  for (const auto& s : u.errors) std::printf("    %s\n", s.c_str());
  std::printf("  in progress: %zu claimed (%zu live)\n", u.claims.size(), u.live);
  for (const auto& s : u.claims) std::printf("    %s\n", s.c_str());
}

// Throughput over the work finished within the window; the ETA divides the estimated cost left by
// the cost finished per second.
void print_throughput(const std::string& config, const Progress& p, const UnitFiles& u, std::size_t total_tasks,
                      const StatusContext& ctx) {
  double first = ctx.now, cost_win = 0;
  int tasks_win = 0;
  for (const auto& f : p.finished)
    if (f.when >= ctx.now - ctx.window) {
      first = std::min(first, f.when);
      cost_win += f.cost;
      tasks_win += f.tasks;
    }
  const double span = ctx.now - std::min(first, u.live ? u.earliest_claim : first);
  if (p.tasks_done == total_tasks) {
    std::printf("  complete: run `dpforest merge %s` (the finishing job does it)\n", config.c_str());
  } else if (tasks_win == 0 || span < 1) {
    std::printf("  throughput: nothing finished in the last %s; ETA unknown\n", duration_text(ctx.window).c_str());
  } else {
    const double rate = cost_win / span;
    std::printf("  throughput: %.1f tasks/min over the last %s; ETA %s (estimated cost left / cost per second)\n",
                60.0 * tasks_win / span, duration_text(span).c_str(),
                rate > 0 ? duration_text((p.cost_total - p.cost_done) / rate).c_str() : "?");
  }
}

void print_status(const std::string& config, const StatusContext& ctx) {
  const ExperimentSpec spec = load_experiment(config);
  const std::string dir = experiment_dir(spec, ctx.results);
  std::printf("%s/%s (%s)\n", spec.paper.c_str(), spec.experiment.c_str(), dir.c_str());
  if (!spec.formula.empty()) {
    std::printf("  a formula table: computed by run or merge in well under a second\n");
    return;
  }
  const std::vector<Cell> cells = expand_cells(spec);
  for (const std::string& line : privacy_summary(spec, cells))
    std::printf("  %s%s\n", line.back() == ':' ? "" : "  ", line.c_str());
  const int tasks = spec.protocol.repetitions * spec.protocol.n_folds();
  const std::string cdir = dir + "/cells";
  const std::size_t total_tasks = cells.size() * static_cast<std::size_t>(tasks);
  const Progress progress = scan_progress(spec, cells, cdir, tasks);
  print_progress(spec, progress, cells.size(), total_tasks);
  const UnitFiles units = scan_unit_files(cells, cdir, tasks, ctx);
  print_unit_files(units);
  print_throughput(config, progress, units, total_tasks, ctx);
}

}  // namespace

int cmd_status(const std::vector<std::string>& args) {
  po::options_description o("options");
  o.add_options()("help", "show this help")("config", po::value<std::vector<std::string>>()->required(), "experiment YAML")(
      "results", po::value<std::string>()->default_value(project_root() + "/results"), "results root")(
      "window", po::value<int>()->default_value(30), "minutes of finished work that the throughput is measured over");
  po::positional_options_description pos;
  pos.add("config", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: dpforest status CONFIG... [--results DIR]\n" << o;
    return 0;
  }
  po::notify(vm);
  StatusContext ctx;
  ctx.results = vm["results"].as<std::string>();
  ctx.now = static_cast<double>(std::time(nullptr));
  ctx.window = 60.0 * std::max(1, vm["window"].as<int>());
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  ctx.host = host;
  for (const auto& config : vm["config"].as<std::vector<std::string>>()) print_status(config, ctx);
  return 0;
}

}  // namespace dpf
