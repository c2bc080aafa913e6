#include "experiments/cli/audit_cmd.hpp"

#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "algorithms/registry.hpp"
#include "core/util/error.hpp"
#include "datasets/registry.hpp"
#include "experiments/audit/matrix.hpp"
#include "experiments/audit/pairs.hpp"
#include "experiments/audit/search.hpp"
#include "experiments/cli/cli.hpp"

namespace po = boost::program_options;

namespace dpf {

AuditOutcome audit_configuration(const std::string& algorithm, const std::map<std::string, std::string>& params,
                                 const AuditPair& pair, AuditOptions opt) {
  const AlgorithmInfo& info = find_algorithm(algorithm);
  const Params p = resolve_params(algorithm, info.params, params, "--param");
  const TaskKind task = pair.d0.task();
  // The claim is the configuration's a-priori (epsilon, delta) (what its result rows say); a delta > 0
  // selects the (epsilon, delta) mode.
  const PrivacyBound bound = info.private_algorithm ? info.privacy_bound(p, task) : PrivacyBound{0.0, 0.0, 0.0};
  opt.claimed_epsilon = bound.epsilon;
  opt.claimed_delta = bound.delta;
  AuditOutcome out;
  out.result = run_audit(algorithm, params, pair, opt);
  out.canonical_params = p.canonical();
  out.privacy_status = info.privacy_status(p, task);
  out.pair_name = pair.name;
  out.pair_description = pair.description;
  return out;
}

namespace {

void print_outcome(const std::string& algorithm, const AuditOutcome& out, const AuditPair& pair, const AuditOptions& opt) {
  const AuditResult& r = out.result;
  std::printf("algorithm:        %s %s\n", algorithm.c_str(), out.canonical_params.c_str());
  std::printf("privacy status:   %s\n", out.privacy_status.c_str());
  std::printf("pair:             %s%s%s\n", pair.name.c_str(), pair.description.empty() ? "" : ": ", pair.description.c_str());
  std::printf("samples:          %lld fits per dataset (%lld distinct releases), %.1f s, %.0f fits/s on %d threads\n",
              static_cast<long long>(opt.samples), static_cast<long long>(r.distinct_outputs), r.seconds,
              r.fits_per_second, opt.threads);
  if (r.delta_mode) {
    std::printf("delta bound:      %.4g at epsilon %.4f (alpha %g, %s)\n", r.delta_lb, r.epsilon_claimed, opt.alpha,
                r.direction.c_str());
    std::printf("claimed delta:    %.4g (delta_apriori)\n", r.delta_claimed);
    std::printf("epsilon bound:    %.4f (pure epsilon, for information: delta-mass events may exceed the claim)\n",
                r.epsilon_lb);
    std::printf("verdict:          %s\n", r.flagged ? "FLAGGED: the release spends more than the claimed delta at the claimed epsilon"
                                                    : "passes (no evidence of a delta above the claim)");
  } else {
    std::printf("lower bound:      %.4f (alpha %g, %s)\n", r.epsilon_lb, opt.alpha, r.direction.c_str());
    std::printf("claimed epsilon:  %.4f (epsilon_apriori)\n", r.epsilon_claimed);
    std::printf("verdict:          %s\n", r.flagged ? "FLAGGED: the release leaks more than the claimed epsilon"
                                                    : "passes (no evidence of a loss above the claim)");
  }
  std::printf("event:            %s\n", r.event.c_str());
}

}  // namespace

int cmd_audit(const std::vector<std::string>& args) {
  po::options_description o(
      "dpforest audit --algorithm NAME [--param k=v ...] [--epsilon E] [--samples N] [--alpha A] [--pairs NAME|FILE] "
      "[--threads T] [--seed S] [--resolution R]\n"
      "Fits the configuration N times on each dataset of a neighbouring pair, reads every fit's whole release and "
      "bounds the privacy loss from below (exact Clopper-Pearson; false-alarm probability <= alpha). An (epsilon, "
      "delta) configuration (e.g. lumberjack) is judged on a lower bound on delta at its claimed epsilon. Exit code 0: "
      "passes, 6: flagged.\noptions");
  o.add_options()("help", "show this help")("algorithm", po::value<std::string>(), "registry name")(
      "matrix", po::value<std::string>(), "run every entry of an audit matrix file (configs/audit/matrix.yaml) instead")(
      "out", po::value<std::string>()->default_value(project_root() + "/results/audit"), "with --matrix: output folder")(
      "param", po::value<std::vector<std::string>>()->default_value({}, ""), "name=value (repeatable)")(
      "epsilon", po::value<double>(), "shorthand for --param epsilon=E")(
      "samples", po::value<int64_t>()->default_value(100000), "fits per dataset")(
      "alpha", po::value<double>()->default_value(1e-5), "false-alarm probability of the audit")(
      "pairs", po::value<std::string>()->default_value("median-move"), "a built-in pair name or a pair YAML file")(
      "threads", po::value<int>()->default_value(default_threads()), "worker threads")(
      "seed", po::value<uint64_t>()->default_value(1), "audit seed")(
      "resolution", po::value<double>()->default_value(0.0),
      "discretise continuous release values into bins of this width (post-processing); 0 keeps them exact")(
      "search", po::value<int>()->default_value(0),
      "instead of --pairs: screen this many random tiny pairs (4,000 fits each) and audit the worst afresh")(
      "keep-continuous", po::value<int>()->default_value(-1),
      "read only the first k continuous values (1: a single tree's root threshold); -1: all");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).run(), vm);
  if (vm.count("help")) {
    std::cout << o << "built-in pairs:\n" << builtin_pair_help();
    return 0;
  }
  po::notify(vm);
  if (vm.count("matrix")) {
    const MatrixReport m = run_audit_matrix(vm["matrix"].as<std::string>(), vm["out"].as<std::string>(), vm["threads"].as<int>());
    std::printf("%d audits in %.0f s: %d alarms (labelled epsilon-DP or (epsilon, delta)-DP and flagged), %d published configurations flagged, "
                "%d not auditable at the model level\n%s\n%s\n",
                m.audits, m.seconds, m.alarms, m.flagged_published, m.not_auditable, m.md_path.c_str(), m.csv_path.c_str());
    return m.alarms > 0 ? 6 : 0;
  }
  require(vm.count("algorithm"), "audit: --algorithm NAME (or --matrix FILE) is required");
  std::map<std::string, std::string> params = parse_param_options(vm["param"].as<std::vector<std::string>>());
  if (vm.count("epsilon")) params["epsilon"] = std::to_string(vm["epsilon"].as<double>());
  const std::string algorithm = vm["algorithm"].as<std::string>();
  const std::string which = vm["pairs"].as<std::string>();
  AuditPair pair;
  if (vm["search"].as<int>() > 0) {
    SearchOptions so;
    so.candidates = vm["search"].as<int>();
    so.seed = vm["seed"].as<uint64_t>();
    so.threads = vm["threads"].as<int>();
    so.resolution = vm["resolution"].as<double>();
    so.keep_continuous = vm["keep-continuous"].as<int>();
    SearchResult s = search_pair(vm["algorithm"].as<std::string>(), params, so);
    std::printf("search:           %d random pairs screened; worst screened bound %.3f\n", s.screened, s.screened_lb);
    pair = std::move(s.pair);
  } else {
    pair = std::filesystem::exists(which) ? load_audit_pair(which) : builtin_pair(which);
  }

  AuditOptions opt;
  opt.samples = vm["samples"].as<int64_t>();
  opt.alpha = vm["alpha"].as<double>();
  opt.threads = vm["threads"].as<int>();
  // A searched pair is audited with seeds its screening never used.
  opt.seed = vm["search"].as<int>() > 0 ? hash_combine(vm["seed"].as<uint64_t>(), 0xa0d17) : vm["seed"].as<uint64_t>();
  opt.resolution = vm["resolution"].as<double>();
  opt.keep_continuous = vm["keep-continuous"].as<int>();
  const AuditOutcome out = audit_configuration(algorithm, params, pair, opt);
  print_outcome(algorithm, out, pair, opt);
  const AuditResult& r = out.result;
  return r.flagged ? 6 : 0;
}

}  // namespace dpf
