#include "experiments/cluster/slurm.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "datasets/registry.hpp"
#include "experiments/store/cell_claim.hpp"
#include "experiments/store/cell_store.hpp"
#include "experiments/cost/cost_model.hpp"
#include "experiments/store/results.hpp"
#include "experiments/run/runner.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/work_plan.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace dpf {

namespace {

std::string read_file_text(const std::string& path) { return read_text_limited(path, 1 << 20, "job template"); }

// A value written into an #SBATCH line: no spaces, quotes or newlines (nothing the shell or sbatch
// would read as a second option).
void check_sbatch_value(const std::string& option, const std::string& value) {
  // A character test, not std::regex: GCC 12 under ASan warns maybe-uninitialized inside <regex>.
  const bool ok = !value.empty() && std::all_of(value.begin(), value.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || std::string_view("_.:,=@+/%-").find(ch) != std::string_view::npos;
  });
  if (!ok)
    fail("--", option, " '", clip(value), "': only letters, digits and _ . : , = @ + / % - are allowed");
}

struct Command {
  int status = -1;
  std::string out;
};

Command run_command(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
  cmd += " 2>&1";
  Command c;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) fail("cannot run ", argv[0]);
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) c.out += buf;
  const int st = ::pclose(p);
  c.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  while (!c.out.empty() && (c.out.back() == '\n' || c.out.back() == '\r')) c.out.pop_back();
  return c;
}

// sbatch --parsable prints "<id>" or "<id>;<cluster>".
std::string submit(const std::vector<std::string>& argv) {
  const Command c = run_command(argv);
  std::string id = c.out.substr(0, c.out.find(';'));
  if (c.status != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    fail("'", cmd, "' failed (exit ", c.status, "): ", clip(c.out));
  }
  return id;
}

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("dpforest") : p.string();
}

std::string timestamp() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::gmtime(&t));
  return buf;
}

}  // namespace

int cmd_slurm(const std::vector<std::string>& args) {
  po::options_description o("options");
  o.add_options()("help", "show this help")("config", po::value<std::vector<std::string>>()->required(),
                                              "experiment YAML (several: one submission)")(
      "tasks", po::value<int>()->default_value(4), "array tasks (shards)")(
      "partition", po::value<std::string>()->default_value(""), "sbatch --partition")(
      "time", po::value<std::string>()->default_value(""), "sbatch --time of each array task (e.g. 2:00:00)")(
      "cpus-per-task", po::value<int>()->default_value(1), "sbatch --cpus-per-task (= threads per shard)")(
      "mem", po::value<std::string>()->default_value(""), "sbatch --mem (e.g. 4G)")(
      "results", po::value<std::string>()->default_value(project_root() + "/results"), "results root (shared)")(
      "job-name", po::value<std::string>()->default_value(""), "job name (default dpf-<paper>)")(
      "sbatch-arg", po::value<std::vector<std::string>>()->default_value({}, ""),
      "extra #SBATCH option for both jobs (repeatable), e.g. --sbatch-arg=--account=abc")(
      "templates", po::value<std::string>()->default_value(project_root() + "/experiments/cluster/templates"),
      "folder of array.sbatch.in and finish.sbatch.in")(
      "dry-run", "print the plan and both scripts; write and submit nothing")(
      "show-plan", "with --dry-run: also list every unit of work (TSV: rule, config, unit, cell, first, end, "
                   "estimated cost, shard) for the cost plan and for cell index mod N");
  po::positional_options_description pos;
  pos.add("config", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: dpforest slurm CONFIG... [options]\n" << o;
    return 0;
  }
  po::notify(vm);
  const int tasks = vm["tasks"].as<int>(), cpus = vm["cpus-per-task"].as<int>();
  require(tasks >= 1 && tasks <= 100000, "--tasks must be between 1 and 100000, got ", tasks);
  require(cpus >= 1 && cpus <= 4096, "--cpus-per-task must be between 1 and 4096, got ", cpus);
  const bool dry = vm.count("dry-run") > 0;

  // Every config is read (and its sweep expanded) before anything is written or submitted.
  std::vector<ExperimentSpec> specs;
  std::vector<std::string> config_paths;
  std::set<std::string> papers;
  for (const auto& c : vm["config"].as<std::vector<std::string>>()) {
    specs.push_back(load_experiment(c));
    if (specs.back().formula.empty()) expand_cells(specs.back());
    config_paths.push_back(fs::absolute(c).lexically_normal().string());
    papers.insert(specs.back().paper);
  }
  std::string job_name = vm["job-name"].as<std::string>();
  if (job_name.empty()) job_name = "dpf-" + (papers.size() == 1 ? *papers.begin() : std::string("sweep"));
  check_sbatch_value("job-name", job_name);
  std::string options;
  auto add_option = [&](const std::string& name, const std::string& value) {
    if (value.empty()) return;
    check_sbatch_value(name, value);
    options += "#SBATCH --" + name + "=" + value + "\n";
  };
  add_option("partition", vm["partition"].as<std::string>());
  add_option("mem", vm["mem"].as<std::string>());
  std::string array_options = options, finish_options = options;
  array_options += "#SBATCH --cpus-per-task=" + std::to_string(cpus) + "\n";
  if (!vm["time"].as<std::string>().empty()) {
    check_sbatch_value("time", vm["time"].as<std::string>());
    array_options += "#SBATCH --time=" + vm["time"].as<std::string>() + "\n";
  }
  for (const auto& a : vm["sbatch-arg"].as<std::vector<std::string>>()) {
    require(a.rfind("--", 0) == 0 && a.size() > 2, "--sbatch-arg '", clip(a), "': expected an sbatch option such as --account=abc");
    check_sbatch_value("sbatch-arg", a.substr(2));
    array_options += "#SBATCH " + a + "\n";
    finish_options += "#SBATCH " + a + "\n";
  }
  if (!array_options.empty()) array_options.pop_back();
  if (!finish_options.empty()) finish_options.pop_back();

  const std::string results = fs::absolute(vm["results"].as<std::string>()).lexically_normal().string();
  const std::string dir = contained_path(results, {"slurm", job_name + "-" + timestamp()});
  const std::string root = fs::absolute(project_root()).lexically_normal().string();
  // These paths go into #SBATCH lines, which sbatch reads without a shell: keep them plain.
  check_sbatch_value("results", results);
  check_sbatch_value("results (project root)", root);
  std::string configs, paper_list, draws;
  for (const auto& c : config_paths) configs += (configs.empty() ? "" : " ") + shell_quote(c);
  for (const auto& p : papers) paper_list += (paper_list.empty() ? "" : " ") + p;
  for (const auto& s : specs) {
    // The experiment's plot module, plots/<paper>/<experiment>.py with '-' as '_' (docs/plots.md), run as
    // `python3 -m plots PAPER EXPERIMENT DIR` from the project root under the template's $PLOT_PY.
    std::string rel = "plots/" + s.paper + "/" + s.experiment + ".py";
    for (char& ch : rel)
      if (ch == '-') ch = '_';
    if (fs::exists(root + "/" + rel))
      draws += "step \"$PLOT_PY\" -m plots " + shell_quote(s.paper) + " " + shell_quote(s.experiment) + " " +
               shell_quote(results + "/" + s.paper + "/" + s.experiment) + "\n";
    else
      draws += "# no " + rel + ": nothing to draw for " + s.paper + "/" + s.experiment + "\n";
  }
  if (!draws.empty()) draws.pop_back();
  const std::string templates = vm["templates"].as<std::string>();
  std::vector<std::pair<std::string, std::string>> values{
      {"JOB_NAME", job_name},          {"TASKS", std::to_string(tasks)},  {"LAST_TASK", std::to_string(tasks - 1)},
      {"SCRIPT_DIR", dir}, {"ROOT", shell_quote(root)},       {"RESULTS", shell_quote(results)},
      {"DPFOREST", shell_quote(self_executable())}, {"CONFIGS", configs}, {"PAPERS", paper_list},
      {"DRAW_STEPS", draws}};
  values.push_back({"SBATCH_OPTIONS", array_options});
  values.push_back({"ARRAY_JOB", "(its id is in the dependency)"});
  const std::string array_script = fill_template(read_file_text(templates + "/array.sbatch.in"), values,
                                                 templates + "/array.sbatch.in");
  values.pop_back();
  values.pop_back();
  values.push_back({"SBATCH_OPTIONS", finish_options});

  std::printf("load balance (estimated cost of each shard; work_plan.hpp):\n");
  std::vector<double> total_cost(static_cast<std::size_t>(tasks), 0.0), total_index(static_cast<std::size_t>(tasks), 0.0);
  for (const auto& s : specs) {
    std::printf("  %s\n", plan_summary(s, tasks).c_str());
    if (!s.formula.empty()) continue;
    const std::vector<Cell> cells = expand_cells(s);
    const WorkPlan by_cost = plan_work(s, cells, tasks), by_index = plan_work(s, cells, tasks, Assignment::kByIndex);
    for (int k = 0; k < tasks; ++k) {
      total_cost[static_cast<std::size_t>(k)] += by_cost.shard_cost[static_cast<std::size_t>(k)];
      total_index[static_cast<std::size_t>(k)] += by_index.shard_cost[static_cast<std::size_t>(k)];
    }
  }
  if (specs.size() > 1) {
    auto ratio = [](const std::vector<double>& v) {
      double sum = 0, mx = 0;
      for (double x : v) sum += x, mx = std::max(mx, x);
      return sum > 0 ? mx / (sum / static_cast<double>(v.size())) : 1.0;
    };
    std::printf("  all %zu configs together (each array task runs its shard of each): %.3f by cost, %.3f by cell index mod %d\n",
                specs.size(), ratio(total_cost), ratio(total_index), tasks);
  }

  if (dry && vm.count("show-plan")) {
    std::printf("\nrule\tconfig\tunit\tcell_id\tfirst\tend\testimated_cost\tshard\n");
    for (const auto& s : specs) {
      if (!s.formula.empty()) continue;
      const std::vector<Cell> cells = expand_cells(s);
      for (Assignment how : {Assignment::kByCost, Assignment::kByIndex})
        for (const WorkUnit& u : plan_work(s, cells, tasks, how).units)
          std::printf("%s\t%s/%s\t%s\t%s\t%d\t%d\t%.6g\t%d\n", how == Assignment::kByCost ? "cost" : "index",
                      s.paper.c_str(), s.experiment.c_str(), u.name.c_str(), cells[u.cell].id.c_str(), u.first, u.end,
                      u.cost, u.shard);
    }
  }
  if (dry) {
    values.push_back({"ARRAY_JOB", "<array job id>"});
    const std::string finish_script = fill_template(read_file_text(templates + "/finish.sbatch.in"), values,
                                                    templates + "/finish.sbatch.in");
    std::printf("\n# ---- %s/array.sbatch (sbatch --parsable)\n%s\n# ---- %s/finish.sbatch (sbatch --parsable "
                "--dependency=afterany:<array job id>)\n%s",
                dir.c_str(), array_script.c_str(), dir.c_str(), finish_script.c_str());
    std::printf("\ndry run: nothing written or submitted\n");
    return 0;
  }

  fs::create_directories(dir + "/logs");
  write_text_atomic(dir + "/array.sbatch", array_script);
  const std::string array_id = submit({"sbatch", "--parsable", dir + "/array.sbatch"});
  values.push_back({"ARRAY_JOB", array_id});
  const std::string finish_script = fill_template(read_file_text(templates + "/finish.sbatch.in"), values,
                                                  templates + "/finish.sbatch.in");
  write_text_atomic(dir + "/finish.sbatch", finish_script);
  std::string finish_id;
  try {
    finish_id = submit({"sbatch", "--parsable", "--dependency=afterany:" + array_id, dir + "/finish.sbatch"});
  } catch (const Error& e) {
    fail(e.what(), "\nthe array job ", array_id, " is queued; submit the finishing job yourself: sbatch --dependency=afterany:",
         array_id, " ", dir, "/finish.sbatch");
  }
  std::string summary = "array_job=" + array_id + "\nfinish_job=" + finish_id + "\ntasks=" + std::to_string(tasks) + "\n";
  for (const auto& c : config_paths) summary += "config=" + c + "\n";
  write_text_atomic(dir + "/submitted.txt", summary);

  std::printf("\nsubmitted array job %s (%d tasks, %zu config%s) and finishing job %s (after %s ends: merge, "
              "check-published, plots)\nscripts and logs: %s\n\nnext:\n",
              array_id.c_str(), tasks, specs.size(), specs.size() == 1 ? "" : "s", finish_id.c_str(), array_id.c_str(),
              dir.c_str());
  std::string all;
  for (const auto& c : vm["config"].as<std::vector<std::string>>()) all += " " + c;
  std::printf("  %s status%s --results %s   progress\n", self_executable().c_str(), all.c_str(), results.c_str());
  std::printf("  squeue -j %s,%s                 the queue\n", array_id.c_str(), finish_id.c_str());
  std::printf("  sbatch --array=K %s/array.sbatch   rerun array task K (finished work is skipped)\n", dir.c_str());
  std::printf("  cat %s/finish.status            after the finishing job\n", dir.c_str());
  for (const auto& s : specs)
    std::printf("  results: %s/%s/%s/results.csv\n", results.c_str(), s.paper.c_str(), s.experiment.c_str());
  return 0;
}

}  // namespace dpf

// ---- status


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
  const double now = static_cast<double>(std::time(nullptr));
  const double window = 60.0 * std::max(1, vm["window"].as<int>());
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  for (const auto& config : vm["config"].as<std::vector<std::string>>()) {
    const ExperimentSpec spec = load_experiment(config);
    const std::string dir = experiment_dir(spec, vm["results"].as<std::string>());
    std::printf("%s/%s (%s)\n", spec.paper.c_str(), spec.experiment.c_str(), dir.c_str());
    if (!spec.formula.empty()) {
      std::printf("  a formula table: computed by run or merge in well under a second\n");
      continue;
    }
    const std::vector<Cell> cells = expand_cells(spec);
    const int tasks = spec.protocol.repetitions * spec.protocol.n_folds();
    const std::string cdir = dir + "/cells";
    const auto pieces = list_pieces(cdir);
    std::size_t cells_done = 0, tasks_done = 0, cells_unavailable = 0;
    std::set<std::string> unavailable_datasets;
    double cost_total = 0, cost_done = 0;
    struct Finished { double when; int tasks; double cost; };
    std::vector<Finished> finished;
    std::map<std::string, const Cell*> by_id;
    for (const Cell& c : cells) {
      by_id[c.id] = &c;
      const double task_cost = estimated_task_cost(spec, c);
      cost_total += task_cost * tasks;
      const std::string csv = cdir + "/" + c.id + ".csv";
      auto it = pieces.find(c.id);
      int covered = 0;
      if (it != pieces.end()) {
        for (const PieceFile& p : it->second)
          if (cell_problem(p.path, {c.id, static_cast<std::size_t>(p.end - p.first)}).empty()) {
            covered += p.end - p.first;
            finished.push_back({mtime_seconds(p.path), p.end - p.first, task_cost * (p.end - p.first)});
          }
        covered = std::min(covered, tasks);
      }
      if (cell_problem(csv, {c.id, static_cast<std::size_t>(tasks)}).empty()) {
        ++cells_done;
        if (it == pieces.end()) finished.push_back({mtime_seconds(csv), tasks, task_cost * tasks});
        covered = tasks;
      }
      tasks_done += static_cast<std::size_t>(covered);
      cost_done += task_cost * covered;
      // A cell left to do on a dataset the offline mirror does not hold (INDEX.md "NOT here") cannot
      // run from the mirror: counted apart, so a reference snapshot can be complete for what can run.
      if (covered < tasks && !task_shape(spec, c).mirrored) {
        ++cells_unavailable;
        unavailable_datasets.insert(split_dataset_spec(c.dataset).first);
      }
    }
    const std::size_t total_tasks = cells.size() * static_cast<std::size_t>(tasks);
    std::printf("  cells: %zu/%zu done (%.0f%%); tasks: %zu/%zu done (%.0f%%); estimated cost %.0f%% done\n", cells_done,
                cells.size(), cells.empty() ? 100.0 : 100.0 * static_cast<double>(cells_done) / static_cast<double>(cells.size()),
                tasks_done, total_tasks, total_tasks ? 100.0 * static_cast<double>(tasks_done) / static_cast<double>(total_tasks) : 100.0,
                cost_total > 0 ? 100.0 * cost_done / cost_total : 100.0);

    if (cells_unavailable > 0) {
      std::string names;
      for (const auto& d : unavailable_datasets) names += (names.empty() ? "" : ", ") + d;
      std::printf("  not runnable here: %zu cells (datasets the offline mirror does not hold: %s)\n", cells_unavailable,
                  names.c_str());
    }
    for (const std::string& note : excluded_cell_notes(spec)) std::printf("  excluded by the config: %s\n", note.c_str());

    // Failed units (.error) and live or stale claims (.claim).
    std::vector<std::string> errors, claims;
    double earliest_claim = now;
    std::size_t live = 0;
    std::error_code ec;
    if (fs::is_directory(cdir, ec))
      for (const auto& e : fs::directory_iterator(cdir, ec)) {
        const std::string name = e.path().filename().string();
        const std::string unit = e.path().stem().string();
        const std::string id = unit.substr(0, unit.find('.'));
        const Cell* c = by_id.count(id) ? by_id.at(id) : nullptr;
        const std::string what = c ? unit + " ('" + c->label + "' on " + c->dataset + ", " + clip(c->params.canonical()) + ")"
                                   : unit + " (not a cell of this config)";
        if (e.path().extension() == ".error") {
          if (c && cell_problem(cdir + "/" + id + ".csv", {id, static_cast<std::size_t>(tasks)}).empty()) continue;
          std::string text;
          try {
            text = read_text_limited(e.path().string(), 1 << 16, "error file");
          } catch (const std::exception&) {
          }
          const auto nl = text.find('\n');
          std::string msg = nl == std::string::npos ? text : text.substr(nl + 1);
          while (!msg.empty() && msg.back() == '\n') msg.pop_back();
          errors.push_back(what + ": " + clip(msg));
        } else if (e.path().extension() == ".claim") {
          const std::optional<ClaimInfo> ci = read_claim(e.path().string());
          if (!ci) {
            claims.push_back(what + ": unreadable claim " + name);
            continue;
          }
          const bool stale = claim_is_stale(*ci, static_cast<int64_t>(now), host);
          if (!stale) {
            ++live;
            earliest_claim = std::min(earliest_claim, static_cast<double>(ci->started));
          }
          claims.push_back(what + ": host " + ci->host + ", job " + ci->job + ", pid " + std::to_string(ci->pid) +
                           ", claimed " + duration_text(now - static_cast<double>(ci->started)) + " ago, heartbeat " +
                           duration_text(now - static_cast<double>(ci->heartbeat)) + " ago" +
                           (stale ? " [STALE: expired or its process is gone; the next run takes it over]" : ""));
        }
      }
    std::sort(errors.begin(), errors.end());
    std::sort(claims.begin(), claims.end());
    std::printf("  failed: %zu\n", errors.size());
    for (const auto& s : errors) std::printf("    %s\n", s.c_str());
    std::printf("  in progress: %zu claimed (%zu live)\n", claims.size(), live);
    for (const auto& s : claims) std::printf("    %s\n", s.c_str());

    // Throughput over the work finished within the window; the ETA divides the estimated cost left
    // by the cost finished per second.
    double first = now, cost_win = 0;
    int tasks_win = 0;
    for (const auto& f : finished)
      if (f.when >= now - window) {
        first = std::min(first, f.when);
        cost_win += f.cost;
        tasks_win += f.tasks;
      }
    const double span = now - std::min(first, live ? earliest_claim : first);
    if (tasks_done == total_tasks) {
      std::printf("  complete: run `dpforest merge %s` (the finishing job does it)\n", config.c_str());
    } else if (tasks_win == 0 || span < 1) {
      std::printf("  throughput: nothing finished in the last %s; ETA unknown\n", duration_text(window).c_str());
    } else {
      const double rate = cost_win / span;
      std::printf("  throughput: %.1f tasks/min over the last %s; ETA %s (estimated cost left / cost per second)\n",
                  60.0 * tasks_win / span, duration_text(span).c_str(),
                  rate > 0 ? duration_text((cost_total - cost_done) / rate).c_str() : "?");
    }
  }
  return 0;
}

}  // namespace dpf
