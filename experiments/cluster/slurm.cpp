// `dpforest slurm`: reads every config, prints the shard plan, fills the array and finishing job
// scripts from experiments/cluster/templates/ and submits both with sbatch.
#include "experiments/cluster/slurm.hpp"

#include <sys/wait.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string_view>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "datasets/registry.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/work_plan.hpp"
#include "experiments/store/results.hpp"

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

// The command line of `dpforest slurm`.
struct SlurmArgs {
  std::vector<std::string> configs;
  int tasks = 4, cpus = 1;
  std::string partition, time, mem, results, job_name, templates;
  std::vector<std::string> sbatch_args;
  bool dry = false, show_plan = false;
};

po::options_description slurm_options() {
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
  return o;
}

// nullopt after printing the help.
std::optional<SlurmArgs> parse_slurm_args(const std::vector<std::string>& args) {
  const po::options_description o = slurm_options();
  po::positional_options_description pos;
  pos.add("config", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: dpforest slurm CONFIG... [options]\n" << o;
    return std::nullopt;
  }
  po::notify(vm);
  SlurmArgs a;
  a.configs = vm["config"].as<std::vector<std::string>>();
  a.tasks = vm["tasks"].as<int>();
  a.cpus = vm["cpus-per-task"].as<int>();
  require(a.tasks >= 1 && a.tasks <= 100000, "--tasks must be between 1 and 100000, got ", a.tasks);
  require(a.cpus >= 1 && a.cpus <= 4096, "--cpus-per-task must be between 1 and 4096, got ", a.cpus);
  for (auto [field, key] : {std::pair{&a.partition, "partition"}, {&a.time, "time"}, {&a.mem, "mem"},
                            {&a.results, "results"}, {&a.job_name, "job-name"}, {&a.templates, "templates"}})
    *field = vm[key].as<std::string>();
  a.sbatch_args = vm["sbatch-arg"].as<std::vector<std::string>>();
  a.dry = vm.count("dry-run") > 0;
  a.show_plan = vm.count("show-plan") > 0;
  return a;
}

// Every config read (and its sweep expanded) before anything is written or submitted.
struct Sweep {
  std::vector<ExperimentSpec> specs;
  std::vector<std::string> config_paths;  // absolute
  std::set<std::string> papers;
};

Sweep read_sweep(const std::vector<std::string>& configs) {
  Sweep s;
  for (const auto& c : configs) {
    s.specs.push_back(load_experiment(c));
    if (s.specs.back().formula.empty()) expand_cells(s.specs.back());
    s.config_paths.push_back(fs::absolute(c).lexically_normal().string());
    s.papers.insert(s.specs.back().paper);
  }
  return s;
}

// The #SBATCH lines of the array job and of the finishing job.
std::pair<std::string, std::string> sbatch_lines(const SlurmArgs& a) {
  std::string options;
  auto add_option = [&](const std::string& name, const std::string& value) {
    if (value.empty()) return;
    check_sbatch_value(name, value);
    options += "#SBATCH --" + name + "=" + value + "\n";
  };
  add_option("partition", a.partition);
  add_option("mem", a.mem);
  std::string array_options = options, finish_options = options;
  array_options += "#SBATCH --cpus-per-task=" + std::to_string(a.cpus) + "\n";
  if (!a.time.empty()) {
    check_sbatch_value("time", a.time);
    array_options += "#SBATCH --time=" + a.time + "\n";
  }
  for (const auto& x : a.sbatch_args) {
    require(x.rfind("--", 0) == 0 && x.size() > 2, "--sbatch-arg '", clip(x), "': expected an sbatch option such as --account=abc");
    check_sbatch_value("sbatch-arg", x.substr(2));
    array_options += "#SBATCH " + x + "\n";
    finish_options += "#SBATCH " + x + "\n";
  }
  if (!array_options.empty()) array_options.pop_back();
  if (!finish_options.empty()) finish_options.pop_back();
  return {array_options, finish_options};
}

// The finishing job's plot steps: one per experiment that has a plot script.
std::string draw_steps(const std::vector<ExperimentSpec>& specs, const std::string& root, const std::string& results) {
  std::string draws;
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
  return draws;
}

// Both job scripts, from the templates: the array job's is filled at once, the finishing job's once
// the array job's id is known.
class JobScripts {
 public:
  JobScripts(const SlurmArgs& a, const Sweep& sweep);
  const std::string& dir() const { return dir_; }
  const std::string& results() const { return results_; }
  const std::string& array_script() const { return array_script_; }
  std::string finish_script(const std::string& array_job) const;

 private:
  std::string templates_, results_, dir_;
  std::vector<std::pair<std::string, std::string>> values_;
  std::string finish_options_, array_script_;
};

JobScripts::JobScripts(const SlurmArgs& a, const Sweep& sweep) : templates_(a.templates) {
  std::string job_name = a.job_name;
  if (job_name.empty()) job_name = "dpf-" + (sweep.papers.size() == 1 ? *sweep.papers.begin() : std::string("sweep"));
  check_sbatch_value("job-name", job_name);
  auto [array_options, finish_options] = sbatch_lines(a);
  finish_options_ = finish_options;
  results_ = fs::absolute(a.results).lexically_normal().string();
  dir_ = contained_path(results_, {"slurm", job_name + "-" + timestamp()});
  const std::string root = fs::absolute(project_root()).lexically_normal().string();
  // These paths go into #SBATCH lines, which sbatch reads without a shell: keep them plain.
  check_sbatch_value("results", results_);
  check_sbatch_value("results (project root)", root);
  std::string configs, paper_list;
  for (const auto& c : sweep.config_paths) configs += (configs.empty() ? "" : " ") + shell_quote(c);
  for (const auto& p : sweep.papers) paper_list += (paper_list.empty() ? "" : " ") + p;
  values_ = {{"JOB_NAME", job_name},
             {"TASKS", std::to_string(a.tasks)},
             {"LAST_TASK", std::to_string(a.tasks - 1)},
             {"SCRIPT_DIR", dir_},
             {"ROOT", shell_quote(root)},
             {"RESULTS", shell_quote(results_)},
             {"DPFOREST", shell_quote(self_executable())},
             {"CONFIGS", configs},
             {"PAPERS", paper_list},
             {"DRAW_STEPS", draw_steps(sweep.specs, root, results_)}};
  auto values = values_;
  values.push_back({"SBATCH_OPTIONS", array_options});
  values.push_back({"ARRAY_JOB", "(its id is in the dependency)"});
  const std::string path = templates_ + "/array.sbatch.in";
  array_script_ = fill_template(read_file_text(path), values, path);
}

std::string JobScripts::finish_script(const std::string& array_job) const {
  auto values = values_;
  values.push_back({"SBATCH_OPTIONS", finish_options_});
  values.push_back({"ARRAY_JOB", array_job});
  const std::string path = templates_ + "/finish.sbatch.in";
  return fill_template(read_file_text(path), values, path);
}

double balance_ratio(const std::vector<double>& v) {
  double sum = 0, mx = 0;
  for (double x : v) sum += x, mx = std::max(mx, x);
  return sum > 0 ? mx / (sum / static_cast<double>(v.size())) : 1.0;
}

void print_load_balance(const std::vector<ExperimentSpec>& specs, int tasks) {
  std::printf("load balance (estimated cost of each shard; work_plan.hpp):\n");
  std::vector<double> total_cost(static_cast<std::size_t>(tasks), 0.0), total_index(static_cast<std::size_t>(tasks), 0.0);
  for (const auto& s : specs) {
    std::printf("  %s\n", plan_summary(s, tasks).c_str());
    if (!s.formula.empty()) continue;
    const std::vector<Cell> cells = expand_cells(s);
    const WorkPlan by_cost = plan_work(s, cells, tasks), by_index = plan_work(s, cells, tasks, Assignment::kByIndex);
    for (std::size_t k = 0; k < static_cast<std::size_t>(tasks); ++k) {
      total_cost[k] += by_cost.shard_cost[k];
      total_index[k] += by_index.shard_cost[k];
    }
  }
  if (specs.size() > 1)
    std::printf("  all %zu configs together (each array task runs its shard of each): %.3f by cost, %.3f by cell index mod %d\n",
                specs.size(), balance_ratio(total_cost), balance_ratio(total_index), tasks);
}

// --show-plan: every unit of work under both assignment rules (TSV).
void print_units(const std::vector<ExperimentSpec>& specs, int tasks) {
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

void print_dry_run(const JobScripts& js) {
  std::printf("\n# ---- %s/array.sbatch (sbatch --parsable)\n%s\n# ---- %s/finish.sbatch (sbatch --parsable "
              "--dependency=afterany:<array job id>)\n%s",
              js.dir().c_str(), js.array_script().c_str(), js.dir().c_str(), js.finish_script("<array job id>").c_str());
  std::printf("\ndry run: nothing written or submitted\n");
}

struct JobIds {
  std::string array, finish;
};

// Writes both scripts and submits them; the finishing job depends on the array job.
JobIds submit_jobs(const JobScripts& js, const Sweep& sweep, int tasks) {
  const std::string& dir = js.dir();
  fs::create_directories(dir + "/logs");
  write_text_atomic(dir + "/array.sbatch", js.array_script());
  JobIds ids;
  ids.array = submit({"sbatch", "--parsable", dir + "/array.sbatch"});
  write_text_atomic(dir + "/finish.sbatch", js.finish_script(ids.array));
  try {
    ids.finish = submit({"sbatch", "--parsable", "--dependency=afterany:" + ids.array, dir + "/finish.sbatch"});
  } catch (const Error& e) {
    fail(e.what(), "\nthe array job ", ids.array, " is queued; submit the finishing job yourself: sbatch --dependency=afterany:",
         ids.array, " ", dir, "/finish.sbatch");
  }
  std::string summary = "array_job=" + ids.array + "\nfinish_job=" + ids.finish + "\ntasks=" + std::to_string(tasks) + "\n";
  for (const auto& c : sweep.config_paths) summary += "config=" + c + "\n";
  write_text_atomic(dir + "/submitted.txt", summary);
  return ids;
}

void print_submitted(const JobIds& ids, const JobScripts& js, const SlurmArgs& a, const Sweep& sweep) {
  const std::string& dir = js.dir();
  const std::size_t n = sweep.specs.size();
  std::printf("\nsubmitted array job %s (%d tasks, %zu config%s) and finishing job %s (after %s ends: merge, "
              "check-published, plots)\nscripts and logs: %s\n\nnext:\n",
              ids.array.c_str(), a.tasks, n, n == 1 ? "" : "s", ids.finish.c_str(), ids.array.c_str(), dir.c_str());
  std::string all;
  for (const auto& c : a.configs) all += " " + c;
  std::printf("  %s status%s --results %s   progress\n", self_executable().c_str(), all.c_str(), js.results().c_str());
  std::printf("  squeue -j %s,%s                 the queue\n", ids.array.c_str(), ids.finish.c_str());
  std::printf("  sbatch --array=K %s/array.sbatch   rerun array task K (finished work is skipped)\n", dir.c_str());
  std::printf("  cat %s/finish.status            after the finishing job\n", dir.c_str());
  for (const auto& s : sweep.specs)
    std::printf("  results: %s/%s/%s/results.csv\n", js.results().c_str(), s.paper.c_str(), s.experiment.c_str());
}

}  // namespace

int cmd_slurm(const std::vector<std::string>& args) {
  const std::optional<SlurmArgs> a = parse_slurm_args(args);
  if (!a) return 0;
  const Sweep sweep = read_sweep(a->configs);
  const JobScripts scripts(*a, sweep);
  print_load_balance(sweep.specs, a->tasks);
  if (a->dry && a->show_plan) print_units(sweep.specs, a->tasks);
  if (a->dry) {
    print_dry_run(scripts);
    return 0;
  }
  const JobIds ids = submit_jobs(scripts, sweep, a->tasks);
  print_submitted(ids, scripts, *a, sweep);
  return 0;
}

}  // namespace dpf
