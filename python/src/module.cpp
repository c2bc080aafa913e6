// dpforest._core: the pybind11 layer under the Python package (design.md §10: a thin layer over the
// registry, no algorithm logic). Every fit goes through fit_registry (algorithms/registry_fit.hpp),
// the function `dpforest describe` calls, on a Dataset built by dataset_from_arrays
// (core/data/array_input.hpp) from numpy memory read in place.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/registry_fit.hpp"
#include "core/data/array_input.hpp"
#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "datasets/registry.hpp"
#include "experiments/cli/audit_cmd.hpp"
#include "experiments/audit/pairs.hpp"
#include "experiments/cli/cli.hpp"
#include "experiments/config/config.hpp"
#include "experiments/store/results.hpp"
#include "experiments/run/runner.hpp"

namespace py = pybind11;

namespace dpf {
namespace {

using Array = py::array_t<double, py::array::forcecast>;

// A view of a 2-D float64 array in place (any strides); the caller keeps the array alive.
StridedMatrix view_2d(const Array& x) {
  require(x.ndim() == 2, "X must be 2-dimensional (n_samples, n_features), got ", x.ndim(), " dimension(s)");
  StridedMatrix m;
  m.data = x.data();
  m.rows = static_cast<std::size_t>(x.shape(0));
  m.cols = static_cast<std::size_t>(x.shape(1));
  m.row_stride = x.strides(0) / static_cast<py::ssize_t>(sizeof(double));
  m.col_stride = x.strides(1) / static_cast<py::ssize_t>(sizeof(double));
  return m;
}

py::dict param_spec_dict(const ParamSpec& p) {
  py::dict d;
  d["name"] = p.name;
  d["type"] = to_string(p.type);
  d["default"] = p.default_value;
  d["min"] = p.min;
  d["max"] = p.max;
  d["min_exclusive"] = p.min_exclusive;
  d["choices"] = p.choices;
  d["doc"] = p.doc;
  return d;
}

py::list algorithm_list() {
  py::list out;
  for (const AlgorithmInfo& a : algorithm_table()) {
    py::dict d;
    d["name"] = a.name;
    d["summary"] = a.summary;
    d["papers"] = a.papers;
    std::vector<std::string> tasks;
    for (TaskKind t : a.tasks) tasks.push_back(to_string(t));
    d["tasks"] = tasks;
    py::list params;
    for (const ParamSpec& p : a.params) params.append(param_spec_dict(p));
    d["params"] = params;
    py::list quirks;
    for (const QuirkSpec& q : a.quirks) quirks.append(py::make_tuple(q.name, q.doc));
    d["quirks"] = quirks;
    d["private"] = a.private_algorithm;
    out.append(d);
  }
  return out;
}

// A fitted registry model with the schema it was fitted on (prediction data is checked against it).
class FittedModel {
 public:
  FittedModel(RegistryFit fit, Schema schema, std::string name)
      : fit_(std::move(fit)), schema_(std::move(schema)), name_(std::move(name)) {}

  // Classification: (labels int64 [n], scores float64 [n, n_classes]); regression: (values, None).
  py::tuple predict(const Array& x) const {
    const StridedMatrix m = view_2d(x);
    // Prediction rows are checked against the public domains of the fit. Domains derived from the
    // training data (on_missing_domain='warn') were never declared, so rows outside them are not
    // an input error there.
    Schema s = schema_;
    if (s.domains_source != "from-data") s.domains_source = "registry";
    Predictions p;
    {
      py::gil_scoped_release release;
      const Dataset data = dataset_from_arrays(name_, s, m, nullptr, 0);
      const std::vector<uint32_t> rows = all_rows(data.n_rows());
      p = fit_.model->predict(data, rows);
    }
    if (p.task == TaskKind::kRegression) {
      py::array_t<double> v(static_cast<py::ssize_t>(p.value.size()));
      std::copy(p.value.begin(), p.value.end(), v.mutable_data());
      return py::make_tuple(v, py::none());
    }
    const auto n = static_cast<py::ssize_t>(p.label.size());
    py::array_t<int64_t> labels(n);
    std::copy(p.label.begin(), p.label.end(), labels.mutable_data());
    py::array_t<double> scores({n, static_cast<py::ssize_t>(p.n_classes)});
    std::copy(p.value.begin(), p.value.end(), scores.mutable_data());
    return py::make_tuple(labels, scores);
  }

  std::string describe(const std::string& dataset) const { return describe_json(fit_, dataset); }
  py::dict params() const {
    py::dict d;
    for (const auto& [k, v] : fit_.params.values()) d[py::str(k)] = v;
    return d;
  }
  const std::string& privacy_status() const { return fit_.privacy_status; }
  bool is_private() const { return fit_.info->private_algorithm; }
  // As a result row (experiments/run/task.cpp): an (epsilon, delta) algorithm's epsilon at its delta.
  double epsilon_spent() const {
    return fit_.bound.delta > 0 ? fit_.ledger.epsilon_for(fit_.bound.delta) : fit_.ledger.spent();
  }
  double epsilon_spent_conservative() const {
    return fit_.bound.delta > 0 ? fit_.ledger.epsilon_for(fit_.bound.delta, true) : fit_.ledger.spent_conservative();
  }
  double epsilon_apriori() const { return fit_.bound.epsilon; }
  double delta_apriori() const { return fit_.bound.delta; }
  bool certified() const { return fit_.ledger.certified(); }
  py::list ledger() const {
    py::list out;
    for (const PrivacyLedger::Entry& e : fit_.ledger.entries()) {
      py::dict d;
      d["mechanism"] = e.mechanism;
      d["calls"] = e.calls;
      d["epsilon"] = e.epsilon;
      d["rho"] = e.rho;
      d["mu"] = e.mu;
      d["certified"] = e.certified;
      out.append(d);
    }
    return out;
  }
  std::string ledger_summary() const { return fit_.ledger.summary(); }
  py::dict schema() const {
    py::dict d;
    py::list lo, hi, cats;
    for (const Feature& f : schema_.features) {
      lo.append(f.lo);
      hi.append(f.hi);
      cats.append(f.categories);
    }
    d["lo"] = lo;
    d["hi"] = hi;
    d["categories"] = cats;
    d["domains_source"] = schema_.domains_source;
    d["target_lo"] = schema_.target.lo;
    d["target_hi"] = schema_.target.hi;
    return d;
  }

 private:
  RegistryFit fit_;
  Schema schema_;
  std::string name_;
};

// Fits `algorithm` with `params` (canonical text) on X, y. categories[f] non-empty marks feature f
// categorical; lo/hi are numeric domains (ignored with bounds_from_data). classification: y holds
// class indices into `classes`; regression: values within [target_lo, target_hi] unless
// target_from_data.
std::unique_ptr<FittedModel> fit(const std::string& algorithm, const std::map<std::string, std::string>& params,
                                 const Array& x, const Array& y, const std::vector<std::string>& names,
                                 const std::vector<std::vector<double>>& categories, const std::vector<double>& lo,
                                 const std::vector<double>& hi, bool bounds_from_data, const std::string& task,
                                 const std::vector<std::string>& classes, double target_lo, double target_hi,
                                 bool target_from_data, uint64_t seed, int threads, const std::string& name) {
  const StridedMatrix m = view_2d(x);
  require(y.ndim() == 1, "y must be 1-dimensional (n_samples,), got ", y.ndim(), " dimension(s)");
  require(static_cast<std::size_t>(y.shape(0)) == m.rows, "X has ", m.rows, " rows but y has ", y.shape(0));
  require(task == "classification" || task == "regression", "task must be classification or regression");
  Target t;
  t.name = "target";
  t.task = task == "classification" ? TaskKind::kClassification : TaskKind::kRegression;
  t.classes = classes;
  t.lo = target_lo;
  t.hi = target_hi;
  if (t.task == TaskKind::kRegression && target_from_data) t.lo = t.hi = 0.0;
  ArrayFeatures spec{names, categories, lo, hi, bounds_from_data};
  Schema schema = array_schema(spec, t);
  py::gil_scoped_release release;
  Dataset data = dataset_from_arrays(name, schema, m, y.data(), y.strides(0) / static_cast<py::ssize_t>(sizeof(double)),
                                     target_from_data);
  RegistryFit r = fit_registry(algorithm, params, data, seed, threads, "parameters of " + algorithm);
  return std::make_unique<FittedModel>(std::move(r), data.schema(), name);
}

// A registry dataset as arrays (categorical features as codes 0..k-1) and its public schema.
py::dict load(const std::string& spec) {
  Dataset data = load_dataset(spec, DataOptions::from_environment());
  impute_with_all_rows(data);  // as `dpforest describe` does
  const auto n = static_cast<py::ssize_t>(data.n_rows()), d = static_cast<py::ssize_t>(data.n_features());
  py::array_t<double> x({n, d});
  auto xm = x.mutable_unchecked<2>();
  for (py::ssize_t f = 0; f < d; ++f) {
    auto col = data.column(static_cast<std::size_t>(f));
    for (py::ssize_t r = 0; r < n; ++r) xm(r, f) = col[static_cast<std::size_t>(r)];
  }
  py::array_t<double> y(n);
  std::copy(data.y().begin(), data.y().end(), y.mutable_data());
  py::dict out;
  const Schema& s = data.schema();
  std::vector<std::string> names, kinds;
  std::vector<double> lo, hi;
  std::vector<std::vector<std::string>> cats;
  for (const Feature& f : s.features) {
    names.push_back(f.name);
    kinds.push_back(to_string(f.kind));
    lo.push_back(f.lo);
    hi.push_back(f.hi);
    cats.push_back(f.categories);
  }
  out["X"] = x;
  out["y"] = y;
  out["feature_names"] = names;
  out["kinds"] = kinds;
  out["lo"] = lo;
  out["hi"] = hi;
  out["categories"] = cats;
  out["task"] = std::string(to_string(s.target.task));
  out["classes"] = s.target.classes;
  out["target_lo"] = s.target.lo;
  out["target_hi"] = s.target.hi;
  out["domains_source"] = s.domains_source;
  out["name"] = data.name();
  return out;
}

py::dict run(const std::string& config, const std::string& results, int threads, bool progress) {
  const ExperimentSpec spec = load_experiment(config);
  RunOptions ro;
  ro.threads = threads;
  ro.results_root = results;
  ro.data = DataOptions::from_environment();
  ro.progress = progress;
  RunReport r;
  {
    py::gil_scoped_release release;
    r = run_experiment(spec, ro);
  }
  py::dict out;
  out["cells"] = r.cells;
  out["computed"] = r.computed;
  out["already_done"] = r.already_done;
  out["failed"] = r.failed;
  out["missing_data"] = r.missing_data;
  out["tasks"] = r.tasks;
  out["seconds"] = r.seconds;
  out["notes"] = r.notes;
  out["results_csv"] = r.results_csv;
  // The merged table as columns of text, in the CSV's column order (the Python side types them).
  py::list columns;
  std::map<std::string, std::vector<std::string>> table;
  if (!r.results_csv.empty()) {
    const std::vector<ResultRow> rows = read_rows(r.results_csv);
    std::vector<std::string> order;
    for (const ResultRow& row : rows)
      for (const auto& [c, v] : row.cells())
        if (!table.count(c)) {
          order.push_back(c);
          table[c];
        }
    for (const std::string& c : order) {
      std::vector<std::string>& col = table[c];
      col.reserve(rows.size());
      for (const ResultRow& row : rows) col.push_back(row.get(c));
      columns.append(py::make_tuple(c, col));
    }
  }
  out["columns"] = columns;
  return out;
}

py::dict audit(const std::string& algorithm, const std::map<std::string, std::string>& params, const std::string& pairs,
               int64_t samples, double alpha, uint64_t seed, int threads, double resolution) {
  const AuditPair pair = std::filesystem::exists(pairs) ? load_audit_pair(pairs) : builtin_pair(pairs);
  AuditOptions opt;
  opt.samples = samples;
  opt.alpha = alpha;
  opt.seed = seed;
  opt.threads = threads;
  opt.resolution = resolution;
  AuditOutcome o;
  {
    py::gil_scoped_release release;
    o = audit_configuration(algorithm, params, pair, opt);
  }
  py::dict out;
  out["algorithm"] = algorithm;
  out["params"] = o.canonical_params;
  out["privacy_status"] = o.privacy_status;
  out["pair"] = o.pair_name;
  out["pair_description"] = o.pair_description;
  out["samples"] = samples;
  out["alpha"] = alpha;
  out["epsilon_lb"] = o.result.epsilon_lb;
  out["epsilon_claimed"] = o.result.epsilon_claimed;
  // (epsilon, delta) configurations are judged on delta at the claimed epsilon; None for pure ones.
  out["delta_lb"] = o.result.delta_mode ? py::object(py::float_(o.result.delta_lb)) : py::object(py::none());
  out["delta_claimed"] = o.result.delta_mode ? py::object(py::float_(o.result.delta_claimed)) : py::object(py::none());
  out["flagged"] = o.result.flagged;
  out["verdict"] = std::string(o.result.flagged ? "flagged" : "passes");
  out["direction"] = o.result.direction;
  out["event"] = o.result.event;
  out["distinct_outputs"] = o.result.distinct_outputs;
  out["seconds"] = o.result.seconds;
  return out;
}

}  // namespace
}  // namespace dpf

PYBIND11_MODULE(_core, m) {
  using namespace dpf;
  m.doc() = "dpforest C++ core (registry, fit, predict, run, audit); use the dpforest package, not this module";
  // dpf::Error (and any std::exception) arrives in Python as ValueError: every such error is about
  // the caller's input (shapes, domains, parameters, files).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("source_root", [] { return std::string(DPF_SOURCE_ROOT); });
  m.def("algorithms", &algorithm_list);
  m.def("datasets", [] {
    std::vector<std::pair<std::string, bool>> out;
    for (const std::string& id : dataset_ids()) out.emplace_back(id, dataset_entry(id).mirrored);
    return out;
  });
  m.def("default_threads", &default_threads);
  // Where the core reads an array's first element (tests check float64 input arrives without a copy).
  m.def("buffer_address", [](const Array& x) { return reinterpret_cast<std::uintptr_t>(x.data()); });
  m.def("load_dataset", &load, py::arg("spec"));
  m.def("describe", &describe_model, py::arg("algorithm"), py::arg("dataset"), py::arg("params"), py::arg("seed"),
        "the JSON of `dpforest describe`");
  m.def("fit", &fit);
  m.def("run_experiment", &run, py::arg("config"), py::arg("results"), py::arg("threads"), py::arg("progress"));
  m.def("audit", &audit);
  py::class_<FittedModel>(m, "FittedModel")
      .def("predict", &FittedModel::predict)
      .def("describe", &FittedModel::describe, py::arg("dataset") = "python")
      .def("params", &FittedModel::params)
      .def("schema", &FittedModel::schema)
      .def_property_readonly("privacy_status", &FittedModel::privacy_status)
      .def_property_readonly("is_private", &FittedModel::is_private)
      .def_property_readonly("epsilon_spent", &FittedModel::epsilon_spent)
      .def_property_readonly("epsilon_spent_conservative", &FittedModel::epsilon_spent_conservative)
      .def_property_readonly("epsilon_apriori", &FittedModel::epsilon_apriori)
      .def_property_readonly("delta_apriori", &FittedModel::delta_apriori)
      .def_property_readonly("certified", &FittedModel::certified)
      .def("ledger", &FittedModel::ledger)
      .def_property_readonly("ledger_summary", &FittedModel::ledger_summary);
}
