// `dpforest summarize RESULTS_DIR`: the generic table and figure of any experiment's results.
#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "core/util/error.hpp"
#include "datasets/registry.hpp"
#include "experiments/cli/cli.hpp"
#include "experiments/cluster/slurm.hpp"
#include "experiments/publish/summary.hpp"
#include "experiments/store/results.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace dpf {

namespace {

po::options_description summarize_options() {
  po::options_description o("options");
  o.add_options()("help", "show this help")("dir", po::value<std::string>()->required(),
                                              "an experiment's results folder (RESULTS/<paper>/<experiment>)")(
      "config", po::value<std::string>()->default_value(""),
      "the experiment's config (default: the experiment.yaml its run wrote into the folder)")(
      "metric", po::value<std::string>()->default_value(""),
      "result column (or 1-<column>); default accuracy for classification, mse for regression")(
      "no-plot", "print and write the table only");
  return o;
}

// Where the protocol comes from: --config, else the experiment.yaml the run wrote.
ExperimentHeader header_for(const std::string& dir, const std::string& config) {
  if (!config.empty()) return read_experiment_header(config);
  const std::string written = (fs::path(dir) / "experiment.yaml").string();
  std::error_code ec;
  require(fs::is_regular_file(written, ec), dir, ": no experiment.yaml (written by `dpforest run` since it records ",
          "the protocol); give the experiment's config with --config CONFIG");
  return read_experiment_header(written);
}

// plots/summarize.py draws the figure from the table (one panel per dataset).
int draw(const std::string& tsv, const std::string& dir, const ResultsSummary& s, const std::string& title) {
  const std::string script = project_root() + "/plots/summarize.py";
  const std::string cmd = "/usr/bin/python3 " + shell_quote(script) + " " + shell_quote(tsv) + " --out " +
                          shell_quote((fs::path(dir) / "summary").string()) + " --xlabel " + shell_quote(s.x_label) +
                          " --ylabel " + shell_quote(s.y_label) + " --title " + shell_quote(title);
  const int rc = std::system(cmd.c_str());
  if (rc != 0) std::fprintf(stderr, "dpforest summarize: the figure was not drawn (%s exited with %d)\n", script.c_str(), rc);
  return rc == 0 ? 0 : 3;
}

}  // namespace

int cmd_summarize(const std::vector<std::string>& args) {
  const po::options_description o = summarize_options();
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: dpforest summarize RESULTS_DIR [options]\n" << o;
    return 0;
  }
  po::notify(vm);
  const std::string dir = vm["dir"].as<std::string>();
  const std::string csv = (fs::path(dir) / "results.csv").string();
  std::error_code ec;
  require(fs::is_regular_file(csv, ec), dir, ": no results.csv (run `dpforest run CONFIG`, or `dpforest merge CONFIG` ",
          "after a sharded run)");
  const ExperimentHeader h = header_for(dir, vm["config"].as<std::string>());
  const ResultsSummary s = summarize_results(read_rows(csv), h.protocol, vm["metric"].as<std::string>());
  require(!s.rows.empty(), csv, ": no row has the metric '", vm["metric"].as<std::string>(), "'");
  const std::string title = h.paper + "/" + h.experiment + (h.title.empty() ? "" : ": " + h.title);
  std::printf("%s\n%s\n%s", title.c_str(), s.y_label.c_str(), summary_text(s).c_str());
  const std::string tsv = (fs::path(dir) / "summary.tsv").string();
  write_text_atomic(tsv, summary_tsv(s));
  std::printf("table: %s\n", tsv.c_str());
  if (vm.count("no-plot")) return 0;
  const int rc = draw(tsv, dir, s, title);
  if (rc == 0) std::printf("figure: %s/summary.png (and .pdf)\n", dir.c_str());
  return rc;
}

}  // namespace dpf
