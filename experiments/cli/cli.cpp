#include "experiments/cli/cli.hpp"

#include <omp.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "algorithms/registry.hpp"
#include "algorithms/registry_fit.hpp"
#include "core/data/loaders.hpp"
#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "datasets/registry.hpp"
#include "experiments/config/config.hpp"
#include "experiments/cost/cost_model.hpp"
#include "experiments/config/sweep.hpp"
#include "core/util/number_text.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace dpf {

int default_threads() {
  if (const char* e = std::getenv("OMP_NUM_THREADS")) {
    int v = std::atoi(e);
    if (v > 0) return v;
  }
  return std::max(1, omp_get_num_procs());
}

void parse_shard(const std::string& s, int& index, int& count) {
  auto slash = s.find('/');
  try {
    require(slash != std::string::npos, "");
    std::size_t a = 0, b = 0;
    index = std::stoi(s.substr(0, slash), &a);
    count = std::stoi(s.substr(slash + 1), &b);
    require(a == slash && b == s.size() - slash - 1 && count >= 1 && index >= 0 && index < count, "");
  } catch (const std::exception&) {
    fail("--shard '", s, "': expected i/N with 0 <= i < N (e.g. 0/4); in a SLURM job array give --shard slurm, "
         "which takes the shard from the array whatever its index range (--array=1-4 numbers tasks 1..4)");
  }
}

namespace {

// The last `make audit` verdicts per algorithm (results/audit/audit.csv, committed with the repository).
std::map<std::string, std::string> audit_verdicts() {
  std::map<std::string, std::string> out;
  const std::string path = project_root() + "/results/audit/audit.csv";
  if (!fs::exists(path)) return out;
  TableFormat f;
  f.header = true;
  RawTable t;
  try {
    t = read_table(path, f);
  } catch (const std::exception&) {
    return out;
  }
  auto col = [&](const char* name) {
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      if (t.columns[i] == name) return static_cast<int>(i);
    return -1;
  };
  const int a = col("algorithm"), v = col("variant"), e = col("epsilon"), pr = col("pair"), lb = col("epsilon_lb"),
            cl = col("epsilon_claimed"), vd = col("verdict"), dlb = col("delta_lb"), dcl = col("delta_claimed");
  if (a < 0 || v < 0 || e < 0 || pr < 0 || lb < 0 || cl < 0 || vd < 0) return out;
  for (const auto& r : t.rows) {
    auto at = [&](int c) { return c < 0 ? std::string() : r[static_cast<std::size_t>(c)]; };
    std::string& s = out[at(a)];
    // An (epsilon, delta) row is judged on its delta bound (delta_lb), a pure one on epsilon_lb.
    const bool delta = !at(dlb).empty();
    const std::string bound = delta ? " (delta lb " + at(dlb) + " vs " + at(dcl) + ")"
                                    : (at(lb).empty() ? "" : " (lb " + at(lb) + " vs " + at(cl) + ")");
    s += std::string(s.empty() ? "" : "; ") + at(v) + " eps=" + at(e) + " " + at(pr) + ": " + at(vd) + bound;
  }
  return out;
}

void list_algorithms() {
  std::printf("algorithms:\n");
  const std::map<std::string, std::string> audits = audit_verdicts();
  for (const auto& a : algorithm_table()) {
    std::string tasks;
    for (auto t : a.tasks) tasks += (tasks.empty() ? "" : ",") + std::string(to_string(t));
    Params defaults;
    std::printf("  %-16s %s\n", a.name.c_str(), a.summary.c_str());
    std::printf("  %-16s tasks: %s; papers: %s\n", "", tasks.c_str(), a.papers.c_str());
    bool approx = false;  // an (epsilon, delta) algorithm declares `delta`
    for (const auto& p : a.params) approx = approx || p.name == "delta";
    // A private entry that is not DP even in its strict configuration (oracle-tuning) says so.
    bool strict_dp = true;
    if (a.private_algorithm) {
      try {
        strict_dp = is_dp_label(a.privacy_status(resolve_params(a.name, a.params, {{"strict", "true"}}, "list"), a.tasks[0]));
      } catch (const std::exception&) {
      }
    }
    std::printf("  %-16s privacy: %s\n", "",
                !a.private_algorithm ? "non-private"
                : !strict_dp         ? "not DP in any configuration (see privacy_status)"
                : approx             ? "see privacy_status per configuration ((epsilon, delta)-DP)"
                                     : "see privacy_status per configuration (strict: epsilon-DP)");
    for (const auto& p : a.params) {
      const std::string d = p.default_value.empty() ? "(none)" : p.default_value;
      // at least two spaces before the doc, which experiments/tools/algorithms_doc.py splits on
      std::printf("  %-16s   %-18s %-7s default %-8s %s%s\n", "", p.name.c_str(), to_string(p.type), d.c_str(),
                  d.size() >= 8 ? " " : "", p.doc.c_str());
    }
    for (const auto& q : a.quirks) std::printf("  %-16s   quirk %s: %s\n", "", q.name.c_str(), q.doc.c_str());
    if (auto it = audits.find(a.name); it != audits.end())
      std::printf("  %-16s last audit (results/audit/audit.md): %s\n", "", it->second.c_str());
  }
}

void list_datasets() {
  std::printf("datasets:\n");
  for (const auto& id : dataset_ids()) {
    const DatasetEntry& e = dataset_entry(id);
    std::string variants;
    for (const auto& v : e.variants) variants += (variants.empty() ? "" : ", ") + v;
    std::printf("  %-28s %-9s %s [variants: %s]\n", id.c_str(), e.mirrored ? "mirrored" : "NOT here", e.title.c_str(),
                variants.c_str());
  }
}

void list_experiments() {
  std::printf("experiments (configs/<paper>/<experiment>.yaml; cells, tasks, estimated CPU time from the calibrated\n"
              "cost model, experiments/cost/cost_table.inc):\n");
  fs::path root = fs::path(project_root()) / "configs";
  std::vector<std::string> files;
  if (fs::exists(root))
    for (const auto& e : fs::recursive_directory_iterator(root))
      // configs/audit holds the audit's pair and matrix files (dpforest audit), not experiments.
      if (e.path().extension() == ".yaml" && e.path().filename() != "published.yaml" &&
          e.path().parent_path().filename() != "audit")
        files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    try {
      ExperimentSpec s = load_experiment(f);
      const ExperimentEstimate e = estimate_experiment(s);
      char cost[64];
      if (s.formula.empty())
        std::snprintf(cost, sizeof cost, "%5zu cells %7zu tasks %9s", e.cells, e.tasks,
                      human_seconds(e.cpu_seconds).c_str());
      else
        std::snprintf(cost, sizeof cost, "%-31s", "closed form (no tasks)");
      const std::size_t excluded = excluded_cell_notes(s).size();
      const std::string note = excluded ? " (" + std::to_string(excluded) + " algorithm-dataset pair" +
                                              (excluded == 1 ? "" : "s") + " excluded: see --dry-run)"
                                        : "";
      std::printf("  %-14s %-16s %s  %s%s\n", s.paper.c_str(), s.experiment.c_str(), cost, s.title.c_str(),
                  note.c_str());
    } catch (const std::exception& e) {
      std::printf("  %s: INVALID: %s\n", f.c_str(), e.what());
    }
  }
}

}  // namespace

int cmd_list(const std::vector<std::string>& args) {
  std::string what = args.empty() ? "all" : args[0];
  require(what == "all" || what == "algorithms" || what == "datasets" || what == "experiments",
          "list: expected algorithms, datasets or experiments, got '", what, "'");
  if (what == "all" || what == "algorithms") list_algorithms();
  if (what == "all" || what == "datasets") list_datasets();
  if (what == "all" || what == "experiments") list_experiments();
  return 0;
}

int dry_run(const ExperimentSpec& spec, const RunOptions& options, const std::string& cells_tsv) {
  const RunPreview p = preview_run(spec, options);
  std::fputs(format_preview(spec, options, p).c_str(), stdout);
  if (cells_tsv.empty()) return 0;
  std::string out =
      "cell_id\talgorithm\tlabel\tdataset\ttask\ttrain_rows\tfeatures\ttrees\tdepth\tclasses\ttasks\tdone\test_task_seconds"
      "\tcost_key\tnumeric_features\n";
  for (const auto& c : p.per_cell)
    out += c.id + "\t" + c.algorithm + "\t" + c.label + "\t" + c.dataset + "\t" + c.task + "\t" +
           format_double(c.train_rows) + "\t" + format_double(c.features) + "\t" + format_double(c.trees) + "\t" +
           format_double(c.depth) + "\t" + format_double(c.classes) + "\t" + std::to_string(c.tasks) + "\t" + (c.done ? "1" : "0") + "\t" +
           format_double(c.task_seconds) + "\t" + c.cost_key + "\t" + format_double(c.numeric_features) + "\n";
  std::ofstream f(cells_tsv);
  require(static_cast<bool>(f << out), "--cells-tsv: cannot write '", cells_tsv, "'");
  std::printf("  cells: %s (%zu lines)\n", cells_tsv.c_str(), p.per_cell.size());
  return 0;
}

std::map<std::string, std::string> parse_param_options(const std::vector<std::string>& params) {
  std::map<std::string, std::string> given;
  for (const auto& kv : params) {
    const auto eq = kv.find('=');
    require(eq != std::string::npos && eq > 0, "--param '", kv, "': expected name=value");
    given[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return given;
}

std::string describe_model(const std::string& algorithm, const std::string& dataset,
                           const std::vector<std::string>& params, uint64_t seed) {
  find_algorithm(algorithm);  // an unknown name fails before the dataset loads
  const std::map<std::string, std::string> given = parse_param_options(params);
  Dataset data = load_dataset(dataset, DataOptions::from_environment());
  impute_with_all_rows(data);  // an impute variant: medians of all rows (the command fits on all)
  // The same function the Python binding calls (python/), so both fits are one computation.
  const RegistryFit fit = fit_registry(algorithm, given, data, seed, default_threads(), "--param");
  return describe_json(fit, dataset);
}

int cmd_describe(const std::vector<std::string>& args) {
  po::options_description o("options");
  o.add_options()("help", "show this help")("algorithm", po::value<std::string>()->required(), "registry name")(
      "dataset", po::value<std::string>()->required(), "dataset id or id:variant")(
      "param", po::value<std::vector<std::string>>()->default_value({}, ""), "name=value (repeatable)")(
      "seed", po::value<uint64_t>()->default_value(1), "RNG seed")(
      "out", po::value<std::string>()->default_value(""), "write the JSON here instead of stdout");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).run(), vm);
  if (vm.count("help")) { std::cout << o; return 0; }
  po::notify(vm);
  std::string json = describe_model(vm["algorithm"].as<std::string>(), vm["dataset"].as<std::string>(),
                                    vm["param"].as<std::vector<std::string>>(), vm["seed"].as<uint64_t>());
  const std::string out = vm["out"].as<std::string>();
  if (out.empty()) {
    std::cout << json << "\n";
  } else {
    std::ofstream f(out);
    require(static_cast<bool>(f), "cannot write '", out, "'");
    f << json << "\n";
  }
  return 0;
}

}  // namespace dpf
