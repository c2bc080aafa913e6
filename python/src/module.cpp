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
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/registry_fit.hpp"
#include "algorithms/saved_model.hpp"
#include "core/data/array_input.hpp"
#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
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

// The privacy status of `algorithm` with `params` (resolved against its schema) for `task`, without
// data: the Python layer derives from it which configuration is its epsilon-DP default.
std::string privacy_status_of(const std::string& algorithm, const std::map<std::string, std::string>& params,
                              const std::string& task) {
  const AlgorithmInfo& info = find_algorithm(algorithm);
  const Params p = resolve_params(algorithm, info.params, params, "parameters of " + algorithm);
  return info.privacy_status(p, task == "regression" ? TaskKind::kRegression : TaskKind::kClassification);
}

// A fitted model: a fresh fit (with its ledger) or a saved one read back (its release only).
// Prediction data is checked against the input schema and binned as at fit.
class FittedModel {
 public:
  FittedModel(RegistryFit fit, Schema input, int bins)
      : fit_(std::move(fit)), schema_(std::move(input)), bins_(bins) {}
  FittedModel(SavedModel saved, std::string text)
      : saved_(std::move(saved)), text_(std::move(text)), schema_(saved_->schema), bins_(saved_->bins) {}

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
      Dataset data = dataset_from_arrays("python", s, m, nullptr, 0);
      if (bins_ > 0) data = bin_equal_width(data, bins_);
      p = model().predict(data, all_rows(data.n_rows()));
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

  // A fresh fit: the JSON of `dpforest describe`. A saved model: its algorithm, parameters, status and
  // the model's describe() (no occupancies: a saved model holds no counts).
  std::string describe(const std::string& dataset) const {
    if (fit_) return describe_json(*fit_, dataset);
    JsonWriter w;
    w.begin_object().field("algorithm", saved_->algorithm).field("dataset", dataset);
    w.key("params").begin_object();
    for (const auto& [k, v] : saved_->params) w.field(k, v);
    w.end_object();
    w.field("privacy_status", saved_->privacy_status).field("saved", true);
    w.key("model").raw(saved_->model->describe());
    w.end_object();
    return w.str();
  }
  // The saved-model file of this model (algorithms/saved_model.hpp): the same text for a loaded one.
  std::string save() const {
    if (!fit_) return text_;
    py::gil_scoped_release release;
    return saved_model_json(*fit_, schema_, bins_);
  }
  std::string algorithm() const { return fit_ ? fit_->info->name : saved_->algorithm; }
  py::dict params() const {
    py::dict d;
    if (fit_)
      for (const auto& [k, v] : fit_->params.values()) d[py::str(k)] = v;
    else
      for (const auto& [k, v] : saved_->params) d[py::str(k)] = v;
    return d;
  }
  std::string privacy_status() const { return fit_ ? fit_->privacy_status : saved_->privacy_status; }
  bool is_private() const { return find_algorithm(algorithm()).private_algorithm; }
  bool has_ledger() const { return fit_.has_value(); }
  // The fit's totals as a result row records them (spent_totals), and each mechanism's share of them.
  // A saved model has neither (its file holds the a-priori bound only).
  py::object spent() const {
    if (!fit_) return py::none();
    const SpentTotals t = spent_totals(*fit_->info, fit_->bound, fit_->ledger);
    py::dict d;
    d["epsilon"] = t.epsilon;
    d["epsilon_conservative"] = t.epsilon_conservative;
    d["delta"] = t.delta;
    d["certified"] = fit_->ledger.certified();
    return d;
  }
  // The model's extra result columns (Model::extra_columns): for a model whose private release
  // happens in predict() (matrix-rf's prediction methods), the epsilon that release spent.
  py::dict extra_columns() const {
    py::dict d;
    for (const auto& [k, v] : model().extra_columns()) d[py::str(k)] = v;
    return d;
  }
  double epsilon_apriori() const { return fit_ ? fit_->bound.epsilon : saved_->bound.epsilon; }
  double delta_apriori() const { return fit_ ? fit_->bound.delta : saved_->bound.delta; }
  py::object ledger() const {
    if (!fit_) return py::none();
    return shares(fit_->info->private_algorithm ? &fit_->ledger : nullptr, fit_->bound.delta);
  }
  // The ledger of the last private release made by predict() (matrix-rf's prediction methods), or None.
  py::object release_ledger() const {
    const PrivacyLedger* l = model().release_ledger();
    if (!l) return py::none();
    return shares(l, 0.0);
  }
  py::dict schema() const {
    py::dict d;
    py::list names, kinds, lo, hi, cats;
    for (const Feature& f : schema_.features) {
      names.append(f.name);
      kinds.append(std::string(to_string(f.kind)));
      lo.append(f.lo);
      hi.append(f.hi);
      cats.append(f.categories);
    }
    d["feature_names"] = names;
    d["kinds"] = kinds;
    d["lo"] = lo;
    d["hi"] = hi;
    d["categories"] = cats;
    d["domains_source"] = schema_.domains_source;
    d["task"] = std::string(to_string(schema_.target.task));
    d["classes"] = schema_.target.classes;
    d["target_lo"] = schema_.target.lo;
    d["target_hi"] = schema_.target.hi;
    d["bins"] = bins_;
    return d;
  }

 private:
  static py::list shares(const PrivacyLedger* ledger, double delta) {
    py::list out;
    if (!ledger) return out;
    for (const PrivacyLedger::Share& e : ledger->breakdown(delta)) {
      py::dict d;
      d["mechanism"] = e.mechanism;
      d["calls"] = e.calls;
      d["epsilon"] = e.epsilon;
      d["delta"] = e.delta;
      d["rho"] = e.rho;
      d["mu"] = e.mu;
      d["certified"] = e.certified;
      out.append(d);
    }
    return out;
  }
  const Model& model() const { return fit_ ? *fit_->model : *saved_->model; }
  std::optional<RegistryFit> fit_;
  std::optional<SavedModel> saved_;
  std::string text_;
  Schema schema_;
  int bins_ = 0;
};

// Fits `algorithm` with `params` (canonical text) on X, y. categories[f] non-empty marks feature f
// categorical (X holds its codes; the names are the schema's category list); lo/hi are numeric
// domains (ignored with bounds_from_data). classification: y holds class indices into `classes`;
// regression: values within [target_lo, target_hi] unless target_from_data. bins > 0: every numeric
// feature is binned into `bins` equal-width bins of its domain before the fit (and before predict).
std::unique_ptr<FittedModel> fit(const std::string& algorithm, const std::map<std::string, std::string>& params,
                                 const Array& x, const Array& y, const std::vector<std::string>& names,
                                 const std::vector<std::vector<std::string>>& categories, const std::vector<double>& lo,
                                 const std::vector<double>& hi, bool bounds_from_data, const std::string& task,
                                 const std::vector<std::string>& classes, double target_lo, double target_hi,
                                 bool target_from_data, uint64_t seed, int threads, int bins) {
  const StridedMatrix m = view_2d(x);
  require(y.ndim() == 1, "y must be 1-dimensional (n_samples,), got ", y.ndim(), " dimension(s)");
  require(static_cast<std::size_t>(y.shape(0)) == m.rows, "X has ", m.rows, " rows but y has ", y.shape(0));
  require(task == "classification" || task == "regression", "task must be classification or regression");
  require(bins >= 0 && bins <= 1000, "bins must be in [0, 1000], got ", bins);
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
  Dataset data = dataset_from_arrays("python", schema, m, y.data(), y.strides(0) / static_cast<py::ssize_t>(sizeof(double)),
                                     target_from_data);
  Schema input = data.schema();  // with any domains read from the data
  if (bins > 0) data = bin_equal_width(data, bins);
  RegistryFit r = fit_registry(algorithm, params, data, seed, threads, "parameters of " + algorithm);
  return std::make_unique<FittedModel>(std::move(r), std::move(input), bins);
}

// A saved model (dpforest fit --save, dpforest.save) from its text.
std::unique_ptr<FittedModel> load_model_text(const std::string& text, const std::string& source) {
  SavedModel m = parse_saved_model(text, source);
  return std::make_unique<FittedModel>(std::move(m), text);
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
  m.def("load_model", &load_model_text, py::arg("text"), py::arg("source"));
  m.def("privacy_status", &privacy_status_of, py::arg("algorithm"), py::arg("params"), py::arg("task"));
  m.def("run_experiment", &run, py::arg("config"), py::arg("results"), py::arg("threads"), py::arg("progress"));
  m.def("audit", &audit);
  py::class_<FittedModel>(m, "FittedModel")
      .def("predict", &FittedModel::predict)
      .def("describe", &FittedModel::describe, py::arg("dataset") = "python")
      .def("save", &FittedModel::save)
      .def("params", &FittedModel::params)
      .def("schema", &FittedModel::schema)
      .def("spent", &FittedModel::spent)
      .def("ledger", &FittedModel::ledger)
      .def("extra_columns", &FittedModel::extra_columns)
      .def("release_ledger", &FittedModel::release_ledger)
      .def_property_readonly("algorithm", &FittedModel::algorithm)
      .def_property_readonly("privacy_status", &FittedModel::privacy_status)
      .def_property_readonly("is_private", &FittedModel::is_private)
      .def_property_readonly("has_ledger", &FittedModel::has_ledger)
      .def_property_readonly("epsilon_apriori", &FittedModel::epsilon_apriori)
      .def_property_readonly("delta_apriori", &FittedModel::delta_apriori);
}
