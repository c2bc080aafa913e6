// dpforest: the command-line front of the harness.
//   dpforest run CONFIG [--threads N] [--shard i/N] [--results DIR] [--quiet]
//   dpforest merge CONFIG [--results DIR] [--allow-partial]
//   dpforest slurm CONFIG... [--tasks N] [--partition P] [--time T] [--cpus-per-task C] [--mem M] [--results DIR]
//                  [--dry-run] [--sbatch-arg ARG]
//   dpforest status CONFIG... [--results DIR]
//   dpforest list [algorithms|datasets|experiments]
//   dpforest datasets fetch|verify [ID...]
//   dpforest dataset check FILE.csv [--schema SCHEMA.yaml]
//   dpforest describe --algorithm NAME --dataset ID [--param k=v ...] [--seed S] [--out FILE]
//   dpforest fit --algorithm NAME --dataset ID [--param k=v ...] [--seed S] [--bins K] --save FILE
//   dpforest predict MODEL DATA.csv [--out FILE] [--clip]
//   dpforest summarize RESULTS_DIR [--config CONFIG] [--metric M] [--no-plot]
//   dpforest check-published FILE [--results DIR] [--out FILE.md] [--json FILE.json]
//   dpforest bench-fit --algorithm NAME --dataset SPEC [--param k=v ...] [--repeats N] [--seed S]
//   dpforest export-dataset SPEC OUT.csv
//   dpforest audit --algorithm NAME [--param k=v ...] [--pairs NAME|FILE] [--samples N] [--alpha A]
#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "algorithms/registry.hpp"
#include "core/util/error.hpp"
#include "datasets/fetcher.hpp"
#include "datasets/registry.hpp"
#include "experiments/cli/audit_cmd.hpp"
#include "experiments/cli/bench.hpp"
#include "experiments/cli/cli.hpp"
#include "experiments/cli/model_cmd.hpp"
#include "experiments/config/config.hpp"
#include "experiments/publish/published.hpp"
#include "experiments/run/privacy_label.hpp"
#include "experiments/run/runner.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/store/cell_claim.hpp"
#include "experiments/cluster/slurm.hpp"
#include "experiments/run/work_plan.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace dpf {
namespace {

const char* kUsage =
    "usage: dpforest <command> [options]\n"
    "commands:\n"
    "  run CONFIG            run an experiment config (skips finished cells)\n"
    "  merge CONFIG          join the finished cells of a config into results.csv\n"
    "  slurm CONFIG...       submit a SLURM array job and a finishing job (merge, check, plots)\n"
    "  status CONFIG...      progress of a (sharded) run: done, failed, claimed, throughput, ETA\n"
    "  list [WHAT]           algorithms, datasets or experiments (default: all)\n"
    "  datasets fetch|verify [ID...]  fetch / verify dataset files (all when no id)\n"
    "  dataset check FILE [--schema S]  check an own CSV file against its public schema\n"
    "  describe              fit one model on a whole dataset and print it as JSON\n"
    "  fit                   fit one model on a whole dataset and save it (--save model.json)\n"
    "  predict MODEL DATA    predict the rows of a CSV with a saved model\n"
    "  check-published FILE  published numbers and claims vs our results\n"
    "  summarize RESULTS_DIR  mean ± sd per series, dataset and swept value, and its figure\n"
    "  bench-fit             time fits of one algorithm on one dataset (one JSON line)\n"
    "  export-dataset SPEC OUT.csv  write a dataset as CSV (header, target last)\n"
    "  audit                 statistical privacy audit of one configuration on a neighbouring pair\n"
    "run 'dpforest <command> --help' for its options\n";

po::options_description run_options() {
  po::options_description o("options");
  o.add_options()("help", "show this help")("config", po::value<std::string>()->required(), "experiment YAML")(
      "threads", po::value<int>()->default_value(default_threads()), "worker threads")(
      "shard", po::value<std::string>()->default_value("0/1"),
      "run shard i of N (i/N; cells and pieces assigned by estimated cost), or slurm[/N]: from the job array")(
      "claim-ttl", po::value<int>()->default_value(300), "seconds until an unrefreshed claim on a unit is stale")(
      "results", po::value<std::string>()->default_value(project_root() + "/results"), "results root")(
      "quiet", "no progress line")("dry-run", "print cells, tasks, cells already done and the estimated CPU and wall time; run nothing")(
      "cells-tsv", po::value<std::string>()->default_value(""), "with --dry-run: write each cell's shape and estimated seconds per task (TSV)")("allow-partial", "merge: write results.csv even with cells missing or invalid");
  return o;
}

int merge_command(const ExperimentSpec& spec, const std::string& results, bool allow_partial) {
  MergeReport m = merge_experiment(spec, results, allow_partial);
  std::printf("%s %zu of %zu cells (%zu rows) %s %s\n", m.written ? "merged" : "NOT merged", m.present, m.cells,
              m.rows, m.written ? "into" : "- kept", m.path.c_str());
  for (const auto& s : m.missing) std::printf("  missing: %s\n", s.c_str());
  for (const auto& s : m.invalid) std::printf("  invalid: %s\n", s.c_str());
  if (m.present == m.cells) return 0;
  std::fprintf(stderr, "dpforest merge: %zu of %zu cells missing or invalid%s\n", m.cells - m.present, m.cells,
               m.written ? " (partial table written: --allow-partial)" : "; results.csv left as it was (--allow-partial writes the rest)");
  return 4;
}

RunOptions run_options_from(const po::variables_map& vm) {
  RunOptions ro;
  ro.threads = vm["threads"].as<int>();
  const std::string shard = vm["shard"].as<std::string>();
  if (shard == "slurm" || shard.rfind("slurm/", 0) == 0) {
    shard_from_slurm(shard, [](const char* v) { const char* e = std::getenv(v); return std::string(e ? e : ""); },
                     ro.shard_index, ro.shard_count);
    std::printf("shard %d/%d (SLURM_ARRAY_TASK_ID=%s)\n", ro.shard_index, ro.shard_count,
                std::getenv("SLURM_ARRAY_TASK_ID"));
  } else {
    parse_shard(shard, ro.shard_index, ro.shard_count);
  }
  ro.claim_ttl = vm["claim-ttl"].as<int>();
  require(ro.claim_ttl >= 2, "--claim-ttl must be at least 2 seconds, got ", ro.claim_ttl);
  ro.results_root = vm["results"].as<std::string>();
  ro.data = DataOptions::from_environment();
  ro.progress = !vm.count("quiet");
  return ro;
}

// The run's summary line; its counts add up to the cells (units of the shard when sharded).
void print_run_report(const ExperimentSpec& spec, const RunOptions& ro, const RunReport& r) {
  const std::string unwritten = r.unwritten ? ", " + std::to_string(r.unwritten) + " computed but not written" : "";
  if (ro.shard_count == 1)
    std::printf("%s/%s: %zu cells: %zu computed, %zu already done, %zu failed%s, %zu skipped for missing data%s; %zu "
                "tasks in %.1f s with %d threads\n",
                spec.paper.c_str(), spec.experiment.c_str(), r.cells, r.computed, r.already_done, r.failed,
                unwritten.c_str(), r.missing_data,
                r.claimed_elsewhere ? (", " + std::to_string(r.claimed_elsewhere) + " claimed by another job").c_str() : "",
                r.tasks, r.seconds, ro.threads);
  else
    std::printf("%s/%s shard %d/%d: %zu cells, %zu units of work in this shard (cells or pieces of %zu cells; plan "
                "balance %.3f): %zu computed, %zu already done, %zu failed%s, %zu skipped for missing data, %zu claimed "
                "by another job; %zu tasks in %.1f s with %d threads\n",
                spec.paper.c_str(), spec.experiment.c_str(), ro.shard_index, ro.shard_count, r.cells, r.in_shard,
                r.cells_in_shard, r.balance, r.computed, r.already_done, r.failed, unwritten.c_str(), r.missing_data,
                r.claimed_elsewhere, r.tasks, r.seconds, ro.threads);
  for (const auto& n : r.notes) std::printf("  %s\n", n.c_str());
  if (!r.results_csv.empty()) std::printf("results: %s\n", r.results_csv.c_str());
  else if (ro.shard_count == 1 && !r.merge_failed) std::printf("results: none (no cell has results)\n");
}

int run_exit_code(const RunReport& r) {
  if (r.failed > 0 || r.unwritten > 0 || r.merge_failed) return 3;
  if (r.in_shard > 0 && r.computed + r.already_done + r.claimed_elsewhere == 0) {
    std::fprintf(stderr, "dpforest run: every cell of this shard was skipped\n");
    return 4;
  }
  return 0;
}

int cmd_run(const std::vector<std::string>& args, bool merge_only) {
  const po::options_description o = run_options();
  po::positional_options_description pos;
  pos.add("config", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).positional(pos).run(), vm);
  if (vm.count("help")) { std::cout << o; return 0; }
  po::notify(vm);
  ExperimentSpec spec = load_experiment(vm["config"].as<std::string>());
  if (merge_only) return merge_command(spec, vm["results"].as<std::string>(), vm.count("allow-partial") > 0);
  RunOptions ro = run_options_from(vm);
  // SIGTERM / SIGINT (scancel, preemption) are taken by the run's claim keeper in one thread:
  // blocked here, before any worker thread exists, so every thread inherits the mask.
  block_termination_signals();
  ro.handle_signals = true;
  if (spec.formula.empty())
    for (const std::string& line : privacy_summary(spec, expand_cells(spec)))
      std::printf("%s%s\n", line.back() == ':' ? "" : "  ", line.c_str());
  if (vm.count("dry-run")) return dry_run(spec, ro, vm["cells-tsv"].as<std::string>());
  const RunReport r = run_experiment(spec, ro);
  print_run_report(spec, ro, r);
  return run_exit_code(r);
}

int cmd_datasets(const std::vector<std::string>& args) {
  require(!args.empty() && (args[0] == "fetch" || args[0] == "verify"), "usage: dpforest datasets fetch|verify [ID...]");
  std::vector<std::string> ids(args.begin() + 1, args.end());
  auto reports = verify_datasets(ids, DataOptions::from_environment());
  int bad = 0, known_absent = 0;
  for (const auto& r : reports) {
    std::printf("%-28s %s  %s\n", r.id.c_str(), r.ok ? "ok     " : "MISSING", r.message.c_str());
    // Without ids, entries the registry marks `mirrored: false` may be absent without failing.
    const bool expected_absent = !r.ok && ids.empty() && !dataset_entry(r.id).mirrored;
    bad += r.ok || expected_absent ? 0 : 1;
    known_absent += expected_absent ? 1 : 0;
  }
  std::printf("%zu datasets: %zu ok, %d missing or corrupt, %d not mirrored\n", reports.size(),
              reports.size() - static_cast<std::size_t>(bad + known_absent), bad, known_absent);
  return bad > 0 ? 5 : 0;
}

int cmd_check(const std::vector<std::string>& args) {
  po::options_description o("options");
  o.add_options()("help", "show this help")("file", po::value<std::vector<std::string>>()->required(), "published.yaml")(
      "results", po::value<std::string>()->default_value(project_root() + "/results"), "results root")(
      "out", po::value<std::string>()->default_value(""), "also write the Markdown report here")(
      "json", po::value<std::string>()->default_value(""), "also write the report as JSON here (one published.yaml only)");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).positional(pos).run(), vm);
  if (vm.count("help")) { std::cout << o; return 0; }
  po::notify(vm);
  const auto files = vm["file"].as<std::vector<std::string>>();
  require(files.size() == 1 || (vm["out"].as<std::string>().empty() && vm["json"].as<std::string>().empty()),
          "--out and --json take one published.yaml (got ", files.size(), ")");
  for (const auto& f : files) {
    PublishedCheckOptions opt;
    opt.results_root = vm["results"].as<std::string>();
    opt.markdown_out = vm["out"].as<std::string>();
    opt.json_out = vm["json"].as<std::string>();
    opt.default_results_root = project_root() + "/results";
    PublishedCheckReport r = check_published(f, opt);
    std::cout << r.text << "\n";
    if (!r.no_results_warning.empty()) std::fprintf(stderr, "dpforest check-published: warning: %s\n", r.no_results_warning.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace dpf

int main(int argc, char** argv) {
  using namespace dpf;
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "help") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (cmd == "run") return cmd_run(args, false);
    if (cmd == "merge") return cmd_run(args, true);
    if (cmd == "slurm") return cmd_slurm(args);
    if (cmd == "status") return cmd_status(args);
    if (cmd == "list") return cmd_list(args);
    if (cmd == "datasets") return cmd_datasets(args);
    if (cmd == "dataset") return cmd_dataset(args);
    if (cmd == "describe") return cmd_describe(args);
    if (cmd == "fit") return cmd_fit(args);
    if (cmd == "predict") return cmd_predict(args);
    if (cmd == "check-published") return cmd_check(args);
    if (cmd == "summarize") return cmd_summarize(args);
    if (cmd == "bench-fit") return cmd_bench_fit(args);
    if (cmd == "export-dataset") return cmd_export_dataset(args);
    if (cmd == "audit") return cmd_audit(args);
    std::fprintf(stderr, "dpforest: unknown command '%s'\n%s", cmd.c_str(), kUsage);
    return 2;
  } catch (const po::error& e) {
    std::fprintf(stderr, "dpforest %s: %s\n", cmd.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dpforest %s: error: %s\n", cmd.c_str(), e.what());
    return 1;
  }
}
