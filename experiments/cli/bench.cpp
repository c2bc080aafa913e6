#include "experiments/cli/bench.hpp"

#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <sys/resource.h>
#include <unistd.h>

#include "algorithms/registry.hpp"
#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "datasets/registry.hpp"
#include "experiments/cli/cli.hpp"

namespace po = boost::program_options;

namespace dpf {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }
// CPU seconds of all the process's threads so far (user + system).
double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A CSV cell: quoted only when it holds a delimiter, quote or line break.
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number17(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Resident set size now (/proc/self/statm) and the high-water mark (getrusage), in bytes.
std::size_t rss_now_bytes() {
  std::ifstream f("/proc/self/statm");
  std::size_t pages_total = 0, pages_resident = 0;
  f >> pages_total >> pages_resident;
  return pages_resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}
// VmHWM of /proc/self/status, not getrusage's ru_maxrss: Linux keeps ru_maxrss across execve, so a
// process started by a large parent (the bench driver holding the peers' data) would report the
// parent's high-water mark; VmHWM belongs to this process's own address space.
std::size_t rss_peak_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return static_cast<std::size_t>(std::stoull(line.substr(6))) * 1024;  // kB
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<std::size_t>(u.ru_maxrss) * 1024;
}

}  // namespace

double median_of(std::vector<double> v) {
  require(!v.empty(), "median of an empty sample");
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string BenchFitResult::to_json() const {
  JsonWriter w;
  w.begin_object();
  w.field("algorithm", algorithm).field("dataset", dataset);
  w.field("n_rows", static_cast<uint64_t>(n_rows)).field("n_features", static_cast<uint64_t>(n_features));
  w.key("params").begin_object();
  for (const auto& [k, v] : params) w.field(k, v);
  w.end_object();
  w.field("repeats", repeats).field("seed", seed).field("threads", 1);
  const double med = median_of(fit_seconds);
  w.key("fit_seconds").begin_object();
  w.field("min", *std::min_element(fit_seconds.begin(), fit_seconds.end()));
  w.field("median", med);
  w.field("mean", std::accumulate(fit_seconds.begin(), fit_seconds.end(), 0.0) / static_cast<double>(fit_seconds.size()));
  w.end_object();
  w.field("fits_per_second", med > 0 ? 1.0 / med : 0.0);
  w.field("predict_seconds", predict_seconds);
  w.field("fit_cpu_seconds", fit_cpu_seconds).field("predict_cpu_seconds", predict_cpu_seconds);
  if (train_accuracy >= 0) w.field("train_accuracy", train_accuracy);
  else w.key("train_accuracy").null();
  if (test_accuracy >= 0) w.field("test_accuracy", test_accuracy);
  else w.key("test_accuracy").null();
  w.field("n_train", static_cast<uint64_t>(n_train)).field("n_test", static_cast<uint64_t>(n_test));
  w.field("dataset_bytes", static_cast<uint64_t>(dataset_bytes));
  w.field("rss_after_load_bytes", static_cast<uint64_t>(rss_after_load_bytes));
  w.field("peak_rss_bytes", static_cast<uint64_t>(peak_rss_bytes));
  w.end_object();
  return w.str();
}

BenchFitResult bench_fit(const std::string& algorithm, const std::string& dataset,
                         const std::vector<std::string>& params, const BenchFitOptions& opt) {
  require(opt.repeats >= 1, "--repeats must be >= 1, got ", opt.repeats);
  require(opt.test_fraction >= 0.0 && opt.test_fraction < 1.0, "--test-fraction must be in [0, 1), got ",
          opt.test_fraction);
  const AlgorithmInfo& info = find_algorithm(algorithm);
  Params p = resolve_params(algorithm, info.params, parse_param_options(params), "--param");
  Dataset data = load_dataset(dataset, DataOptions::from_environment());
  impute_with_all_rows(data);  // an impute variant: medians of all rows (the command fits on all)
  require(info.supports(data.task()), "algorithm '", algorithm, "' does not support ", to_string(data.task()),
          " (dataset '", dataset, "')");
  std::unique_ptr<Learner> learner = info.make(p, data.schema());
  const std::size_t n = data.n_rows();
  const auto n_test = static_cast<std::size_t>(std::llround(opt.test_fraction * static_cast<double>(n)));
  require(n_test < n, "--test-fraction ", opt.test_fraction, " leaves no training row of ", n);
  std::vector<uint32_t> rows = all_rows(n), test_rows;
  test_rows.assign(rows.end() - static_cast<std::ptrdiff_t>(n_test), rows.end());
  rows.resize(n - n_test);

  BenchFitResult r;
  r.algorithm = algorithm;
  r.dataset = dataset;
  r.n_rows = n;
  r.n_features = data.n_features();
  r.n_train = rows.size();
  r.n_test = test_rows.size();
  r.dataset_bytes = n * (data.n_features() + 1) * sizeof(double);
  for (const auto& [k, v] : p.values()) r.params.emplace_back(k, v);
  r.repeats = opt.repeats;
  r.seed = opt.seed;
  r.rss_after_load_bytes = rss_now_bytes();

  // One fit on one thread (the runner's budget for a task); a warm-up first so that page faults
  // and cold caches of the first touch are not charged to fit 0.
  const Rng base(opt.seed);
  auto fit_once = [&](Rng rng) {
    FitContext ctx{rng, PrivacyLedger(), 1};
    return learner->fit(data, rows, ctx);
  };
  if (opt.warmup) fit_once(base.derive("warm-up"));
  auto accuracy_on = [&](const Model& model, const std::vector<uint32_t>& on) {
    Predictions pred = model.predict(data, on);
    std::size_t right = 0;
    for (std::size_t k = 0; k < on.size(); ++k) right += pred.label[k] == data.label(on[k]) ? 1 : 0;
    return static_cast<double>(right) / static_cast<double>(on.size());
  };
  std::vector<double> predict_seconds, fit_cpu, predict_cpu;
  for (int i = 0; i < opt.repeats; ++i) {
    const auto t0 = Clock::now();
    const double c0 = process_cpu_seconds();
    std::unique_ptr<Model> model = fit_once(base.derive(static_cast<uint64_t>(i)));
    const auto t1 = Clock::now();
    const double c1 = process_cpu_seconds();
    Predictions pred = model->predict(data, rows);
    const auto t2 = Clock::now();
    const double c2 = process_cpu_seconds();
    r.fit_seconds.push_back(seconds_between(t0, t1));
    predict_seconds.push_back(seconds_between(t1, t2));
    fit_cpu.push_back(c1 - c0);
    predict_cpu.push_back(c2 - c1);
    if (i + 1 == opt.repeats && data.task() == TaskKind::kClassification) {
      std::size_t right = 0;
      for (std::size_t k = 0; k < rows.size(); ++k) right += pred.label[k] == data.label(rows[k]) ? 1 : 0;
      r.train_accuracy = static_cast<double>(right) / static_cast<double>(rows.size());
      if (!test_rows.empty()) r.test_accuracy = accuracy_on(*model, test_rows);
    }
  }
  r.predict_seconds = median_of(predict_seconds);
  r.fit_cpu_seconds = median_of(fit_cpu);
  r.predict_cpu_seconds = median_of(predict_cpu);
  r.peak_rss_bytes = rss_peak_bytes();
  return r;
}

void write_dataset_csv(const Dataset& data, const std::string& path) {
  std::ofstream f(path, std::ios::binary);
  require(static_cast<bool>(f), "cannot write '", path, "'");
  const Schema& s = data.schema();
  for (const auto& feat : s.features) f << csv_cell(feat.name) << ',';
  f << csv_cell(s.target.name.empty() ? std::string("target") : s.target.name) << '\n';
  const bool clf = data.task() == TaskKind::kClassification;
  std::string line;
  for (std::size_t r = 0; r < data.n_rows(); ++r) {
    line.clear();
    for (std::size_t j = 0; j < data.n_features(); ++j) {
      line += number17(data.x(r, j));
      line += ',';
    }
    line += clf ? csv_cell(s.target.classes[static_cast<std::size_t>(data.label(r))]) : number17(data.y()[r]);
    line += '\n';
    f << line;
  }
  f.close();
  require(!f.fail(), "error writing '", path, "'");
}

int cmd_bench_fit(const std::vector<std::string>& args) {
  po::options_description o("options");
  o.add_options()("help", "show this help")("algorithm", po::value<std::string>()->required(), "registry name")(
      "dataset", po::value<std::string>()->required(), "dataset id, id:variant or synthetic:... spec")(
      "param", po::value<std::vector<std::string>>()->default_value({}, ""), "name=value (repeatable)")(
      "repeats", po::value<int>()->default_value(5), "timed fits (after one warm-up fit)")(
      "seed", po::value<uint64_t>()->default_value(1), "seed; fit i uses the stream derived from (seed, i)")(
      "test-fraction", po::value<double>()->default_value(0.0),
      "fit on the first rows, report test_accuracy on the last round(F n) rows")(
      "no-warmup", "skip the untimed warm-up fit (large data)");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).run(), vm);
  if (vm.count("help")) { std::cout << o; return 0; }
  po::notify(vm);
  BenchFitOptions bo;
  bo.repeats = vm["repeats"].as<int>();
  bo.seed = vm["seed"].as<uint64_t>();
  bo.test_fraction = vm["test-fraction"].as<double>();
  bo.warmup = !vm.count("no-warmup");
  BenchFitResult r = bench_fit(vm["algorithm"].as<std::string>(), vm["dataset"].as<std::string>(),
                               vm["param"].as<std::vector<std::string>>(), bo);
  std::cout << r.to_json() << std::endl;
  return 0;
}

int cmd_export_dataset(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << "usage: dpforest export-dataset SPEC OUT.csv\n";
    return 0;
  }
  require(args.size() == 2, "usage: dpforest export-dataset SPEC OUT.csv");
  Dataset data = load_dataset(args[0], DataOptions::from_environment());
  impute_with_all_rows(data);  // an impute variant: medians of all rows (the command fits on all)
  write_dataset_csv(data, args[1]);
  std::printf("%s: %zu rows, %zu features -> %s\n", args[0].c_str(), data.n_rows(), data.n_features(), args[1].c_str());
  return 0;
}

}  // namespace dpf
