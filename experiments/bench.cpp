#include "experiments/bench.hpp"

#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>

#include "algorithms/registry.hpp"
#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "datasets/registry.hpp"

namespace po = boost::program_options;

namespace dpf {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

std::map<std::string, std::string> parse_kv(const std::vector<std::string>& params) {
  std::map<std::string, std::string> given;
  for (const auto& kv : params) {
    auto eq = kv.find('=');
    require(eq != std::string::npos && eq > 0, "--param '", kv, "': expected name=value");
    given[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return given;
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
  if (train_accuracy >= 0) w.field("train_accuracy", train_accuracy);
  else w.key("train_accuracy").null();
  w.end_object();
  return w.str();
}

BenchFitResult bench_fit(const std::string& algorithm, const std::string& dataset,
                         const std::vector<std::string>& params, int repeats, uint64_t seed) {
  require(repeats >= 1, "--repeats must be >= 1, got ", repeats);
  const AlgorithmInfo& info = find_algorithm(algorithm);
  Params p = resolve_params(algorithm, info.params, parse_kv(params), "--param");
  Dataset data = load_dataset(dataset, DataOptions::from_environment());
  impute_with_all_rows(data);  // an impute variant: medians of all rows (the command fits on all)
  require(info.supports(data.task()), "algorithm '", algorithm, "' does not support ", to_string(data.task()),
          " (dataset '", dataset, "')");
  std::unique_ptr<Learner> learner = info.make(p, data.schema());
  const std::vector<uint32_t> rows = all_rows(data.n_rows());

  BenchFitResult r;
  r.algorithm = algorithm;
  r.dataset = dataset;
  r.n_rows = data.n_rows();
  r.n_features = data.n_features();
  for (const auto& [k, v] : p.values()) r.params.emplace_back(k, v);
  r.repeats = repeats;
  r.seed = seed;

  // One fit on one thread (the runner's budget for a task); a warm-up first so that page faults
  // and cold caches of the first touch are not charged to fit 0.
  const Rng base(seed);
  auto fit_once = [&](Rng rng) {
    FitContext ctx{rng, PrivacyLedger(), 1};
    return learner->fit(data, rows, ctx);
  };
  fit_once(base.derive("warm-up"));
  std::vector<double> predict_seconds;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    std::unique_ptr<Model> model = fit_once(base.derive(static_cast<uint64_t>(i)));
    const auto t1 = Clock::now();
    Predictions pred = model->predict(data, rows);
    const auto t2 = Clock::now();
    r.fit_seconds.push_back(seconds_between(t0, t1));
    predict_seconds.push_back(seconds_between(t1, t2));
    if (i + 1 == repeats && data.task() == TaskKind::kClassification) {
      std::size_t right = 0;
      for (std::size_t k = 0; k < rows.size(); ++k) right += pred.label[k] == data.label(rows[k]) ? 1 : 0;
      r.train_accuracy = static_cast<double>(right) / static_cast<double>(rows.size());
    }
  }
  r.predict_seconds = median_of(predict_seconds);
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
      "seed", po::value<uint64_t>()->default_value(1), "seed; fit i uses the stream derived from (seed, i)");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(o).run(), vm);
  if (vm.count("help")) { std::cout << o; return 0; }
  po::notify(vm);
  BenchFitResult r = bench_fit(vm["algorithm"].as<std::string>(), vm["dataset"].as<std::string>(),
                               vm["param"].as<std::vector<std::string>>(), vm["repeats"].as<int>(),
                               vm["seed"].as<uint64_t>());
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
