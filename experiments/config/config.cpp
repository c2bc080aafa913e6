#include "experiments/config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "algorithms/registry.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "core/util/number_text.hpp"
#include "datasets/registry.hpp"
#include "experiments/config/formula.hpp"

namespace dpf {

namespace fs = std::filesystem;

std::string Preprocess::key() const {
  return "scale=" + target_scaling + ",domains=" + domains + ",bins=" + std::to_string(bins);
}

const LocalDataset* ExperimentSpec::local_dataset(const std::string& id) const {
  for (const DatasetRef& d : datasets)
    if (d.local && d.id == id) return d.local.get();
  return nullptr;
}

DatasetFacts config_dataset_facts(const ExperimentSpec& spec, const std::string& id) {
  const LocalDataset* local = spec.local_dataset(id);
  if (!local) return dataset_facts(id);
  DatasetFacts f;
  f.known = true;
  f.task = local->spec.task;
  f.classes = local->spec.classes.size();
  f.domains_from_data = local->domains_from_data;
  return f;
}

Preprocess with_overrides(Preprocess p, const std::map<std::string, std::string>& overrides) {
  for (const auto& [k, v] : overrides) {
    if (k == "target_scaling") p.target_scaling = v;
    else if (k == "domains") p.domains = v;
    else if (k == "bins") p.bins = std::stoi(v);
  }
  return p;
}

namespace {

struct Ctx {
  const std::string& path;
  [[noreturn]] void error(const std::string& where, const std::string& what) const {
    fail(path, ": ", where.empty() ? "" : where + ": ", what);
  }
};

void allow_keys(const Ctx& c, const YAML::Node& n, const std::string& where, std::set<std::string> allowed) {
  if (!n.IsMap()) c.error(where, "expected a mapping");
  for (const auto& kv : n) {
    std::string k = kv.first.as<std::string>();
    if (!allowed.count(k)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      c.error(where.empty() ? clip(k) : where + "." + clip(k), "unknown key (allowed here: " + list + ")");
    }
  }
}

std::string scalar(const Ctx& c, const YAML::Node& n, const std::string& where) {
  if (!n.IsScalar()) c.error(where, "expected a single value");
  // Values reach messages of other modules (parameter checks) unclipped: keep them short here.
  if (n.Scalar().size() > 1000) c.error(where, "'" + clip(n.Scalar()) + "' is longer than 1000 characters");
  return n.as<std::string>();
}

std::vector<std::string> scalar_or_list(const Ctx& c, const YAML::Node& n, const std::string& where) {
  std::vector<std::string> out;
  if (n.IsScalar()) {
    out.push_back(scalar(c, n, where));
  } else if (n.IsSequence()) {
    if (n.size() == 0) c.error(where, "an empty list sweeps nothing");
    for (std::size_t i = 0; i < n.size(); ++i) {
      if (n[i].IsSequence()) {
        // A list-valued parameter (e.g. reference_quirks) given as one value: join it.
        std::string joined;
        for (const auto& item : n[i]) joined += (joined.empty() ? "" : ",") + scalar(c, item, where);
        out.push_back(joined);
      } else {
        out.push_back(scalar(c, n[i], where + "[" + std::to_string(i) + "]"));
      }
    }
  } else {
    c.error(where, "expected a value or a list of values");
  }
  // A value given twice would run its cells twice and put every row into results.csv twice.
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (out[i] == out[j])
        c.error(where, "value '" + clip(out[i]) + "' is listed twice (items " + std::to_string(j) + " and " +
                           std::to_string(i) + ")");
  return out;
}

int as_int(const Ctx& c, const YAML::Node& n, const std::string& where, int lo, int hi) {
  std::string s = scalar(c, n, where);
  try {
    std::size_t used = 0;
    int v = std::stoi(s, &used);
    if (used != s.size() || v < lo || v > hi) throw std::invalid_argument(s);
    return v;
  } catch (const std::exception&) {
    c.error(where, "'" + clip(s) + "' is not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
}

Preprocess parse_preprocess(const Ctx& c, const YAML::Node& n, const std::string& where, Preprocess p) {
  allow_keys(c, n, where, {"target_scaling", "domains", "bins"});
  if (n["target_scaling"]) {
    p.target_scaling = scalar(c, n["target_scaling"], where + ".target_scaling");
    if (p.target_scaling != "none" && p.target_scaling != "minmax" && p.target_scaling != "max" &&
        p.target_scaling != "public-minmax" && p.target_scaling != "public-max")
      c.error(where + ".target_scaling", "'" + clip(p.target_scaling) +
                                             "' is not one of none, minmax, max, public-minmax, public-max");
  }
  if (n["domains"]) {
    p.domains = scalar(c, n["domains"], where + ".domains");
    if (p.domains != "registry" && p.domains != "from-data")
      c.error(where + ".domains", "'" + clip(p.domains) + "' is not one of registry, from-data");
  }
  if (n["bins"]) p.bins = as_int(c, n["bins"], where + ".bins", 0, 1000);
  return p;
}

void parse_identity(const Ctx& c, const YAML::Node& root, ExperimentSpec& s) {
  s.paper = scalar(c, root["paper"], "paper");
  s.experiment = scalar(c, root["experiment"], "experiment");
  check_id(s.paper, c.path + ": paper");
  check_id(s.experiment, c.path + ": experiment");
  if (root["title"]) s.title = scalar(c, root["title"], "title");
}

// A closed-form table: no data, no algorithms (experiments/config/formula.hpp).
void parse_formula_table(const Ctx& c, const YAML::Node& root, ExperimentSpec& s) {
  const YAML::Node f = root["formula"];
  allow_keys(c, f, "formula", {"name", "grid"});
  for (const char* k : {"datasets", "algorithms", "protocol", "defaults", "record"})
    if (root[k]) c.error(k, "a formula table has no " + std::string(k));
  if (!f["name"]) c.error("formula.name", "required key is missing");
  s.formula = scalar(c, f["name"], "formula.name");
  try {
    find_formula(s.formula);
  } catch (const Error& e) {
    c.error("formula.name", e.what());
  }
  const YAML::Node g = f["grid"];
  if (!g || !g.IsMap()) c.error("formula.grid", "expected a mapping of argument: value or list");
  for (const auto& kv : g) {
    std::string k = kv.first.as<std::string>();
    s.formula_grid[k] = scalar_or_list(c, kv.second, "formula.grid." + k);
  }
  parse_identity(c, root, s);
  s.kind = root["kind"] ? scalar(c, root["kind"], "kind") : "table";
  evaluate_formula(s.paper, s.experiment, s.formula, s.formula_grid, c.path);  // validates every grid value
}

std::vector<std::string> parse_record(const Ctx& c, const YAML::Node& r) {
  if (!r.IsSequence()) c.error("record", "expected a list of diagnostics (leaf_occupancy, left_fraction)");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const std::string key = "record[" + std::to_string(i) + "]";
    std::string v = scalar(c, r[i], key);
    if (v != "leaf_occupancy" && v != "left_fraction")
      c.error(key, "'" + clip(v) + "' is not one of leaf_occupancy, left_fraction");
    out.push_back(v);
  }
  return out;
}

Protocol parse_protocol(const Ctx& c, const YAML::Node& p) {
  Protocol pr;
  allow_keys(c, p, "protocol", {"type", "repetitions", "test_fraction", "folds", "stratified"});
  if (p["type"]) pr.type = scalar(c, p["type"], "protocol.type");
  if (pr.type != "holdout" && pr.type != "kfold" && pr.type != "resubstitution")
    c.error("protocol.type", "'" + clip(pr.type) + "' is not one of holdout, kfold, resubstitution");
  if (p["repetitions"]) pr.repetitions = as_int(c, p["repetitions"], "protocol.repetitions", 1, 100000);
  if (p["folds"]) pr.folds = as_int(c, p["folds"], "protocol.folds", 2, 1000);
  if (p["test_fraction"]) {
    std::string v = scalar(c, p["test_fraction"], "protocol.test_fraction");
    char* end = nullptr;
    pr.test_fraction = std::strtod(v.c_str(), &end);
    if (end != v.c_str() + v.size() || !(pr.test_fraction > 0 && pr.test_fraction < 1))
      c.error("protocol.test_fraction", "'" + clip(v) + "' is not a number in (0, 1)");
  }
  if (p["stratified"]) {
    std::string v = scalar(c, p["stratified"], "protocol.stratified");
    if (v != "true" && v != "false") c.error("protocol.stratified", "expected true or false");
    pr.stratified = v == "true";
  }
  return pr;
}

// An own dataset's id: given, or the file's stem; never a registry id or a generator's prefix, so
// results name it unambiguously.
std::string local_id(const Ctx& c, const YAML::Node& n, const std::string& where, const fs::path& csv) {
  const std::string id = n["id"] ? scalar(c, n["id"], where + ".id") : csv.stem().string();
  check_id(id, c.path + ": " + where + (n["id"] ? ".id" : ".csv (its file stem names the dataset; or give id:)"));
  if (id.find(':') != std::string::npos) c.error(where + ".id", "'" + clip(id) + "': an own dataset's id has no ':'");
  if (id.rfind("synth", 0) == 0) c.error(where + ".id", "'" + clip(id) + "' looks like a generated dataset: give another id:");
  bool registry_id = false;
  try {
    dataset_entry(id);
    registry_id = true;
  } catch (const Error&) {
  }
  if (registry_id) c.error(where, "'" + clip(id) + "' is a registry dataset's id: give the own file another id:");
  return id;
}

// `{csv: FILE, schema: FILE | <schema keys inline>, id, target_scaling, domains, bins}`; paths are
// relative to the config's folder.
DatasetRef parse_local_dataset(const Ctx& c, const YAML::Node& n, const std::string& where) {
  static const std::set<std::string> schema_keys = {"target", "task", "classes", "target_bounds", "features",
                                                    "drop", "delimiter", "missing"};
  std::set<std::string> allowed = {"csv", "schema", "id", "target_scaling", "domains", "bins"};
  allowed.insert(schema_keys.begin(), schema_keys.end());
  allow_keys(c, n, where, allowed);
  const fs::path dir = fs::path(c.path).parent_path();
  const fs::path csv = dir / scalar(c, n["csv"], where + ".csv");
  std::error_code ec;
  if (!fs::is_regular_file(csv, ec)) c.error(where + ".csv", "no file " + csv.string());
  DatasetRef d;
  d.id = local_id(c, n, where, csv);
  YAML::Node rest = YAML::Clone(n);
  for (const char* k : {"csv", "schema", "id"}) rest.remove(k);
  YAML::Node pre(YAML::NodeType::Map), inline_schema(YAML::NodeType::Map);
  for (const auto& kv : rest) (schema_keys.count(kv.first.as<std::string>()) ? inline_schema : pre)[kv.first] = kv.second;
  d.preprocess = parse_preprocess(c, pre, where, d.preprocess);
  const bool from_data = d.preprocess.domains == "from-data";
  LocalDataset local;
  if (n["schema"]) {
    if (inline_schema.size() > 0) c.error(where, "give the schema as a file (schema:) or inline, not both");
    local = local_dataset_from_files(csv.string(), (dir / scalar(c, n["schema"], where + ".schema")).string(), d.id, from_data);
  } else {
    local = parse_local_schema(inline_schema, c.path + ": " + where, from_data);
    local.csv = csv.string();
    local.id = d.id;
    local.spec.files = {csv.filename().string()};
  }
  if (local.domains_from_data) d.preprocess.domains = "from-data";
  d.local = std::make_shared<const LocalDataset>(std::move(local));
  return d;
}

DatasetRef parse_dataset(const Ctx& c, const YAML::Node& n, const std::string& where) {
  if (n.IsMap() && n["csv"]) return parse_local_dataset(c, n, where);
  DatasetRef d;
  if (n.IsScalar()) {
    d.id = n.as<std::string>();
  } else {
    allow_keys(c, n, where, {"id", "target_scaling", "domains", "bins"});
    if (!n["id"]) c.error(where, "missing 'id'");
    d.id = scalar(c, n["id"], where + ".id");
    YAML::Node rest = YAML::Clone(n);
    rest.remove("id");
    d.preprocess = parse_preprocess(c, rest, where, d.preprocess);
  }
  // The registry id (before any ':variant' or ':generator-args') names a file; the rest is a spec.
  check_id(d.id.substr(0, d.id.find(':')), c.path + ": " + where);
  check_text(d.id, c.path + ": " + where);
  return d;
}

std::vector<DatasetRef> parse_datasets(const Ctx& c, const YAML::Node& ds) {
  if (!ds.IsSequence() || ds.size() == 0) c.error("datasets", "expected a non-empty list");
  std::vector<DatasetRef> out;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    std::string where = "datasets[" + std::to_string(i) + "]";
    DatasetRef d = parse_dataset(c, ds[i], where);
    for (const auto& other : out) {
      if (other.id == d.id && other.preprocess.key() == d.preprocess.key())
        c.error(where, "dataset '" + d.id + "' is listed twice with the same preprocessing");
      if (other.id == d.id && (!other.local != !d.local || (d.local && other.local->csv != d.local->csv)))
        c.error(where, "dataset id '" + d.id + "' names two different datasets: give one of them another id:");
    }
    out.push_back(d);
  }
  return out;
}

// parameter: value or list, under `where` (defaults, algorithms[i].params).
std::map<std::string, std::vector<std::string>> parse_params(const Ctx& c, const YAML::Node& p, const std::string& where) {
  if (!p.IsMap()) c.error(where, "expected a mapping of parameter: value");
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& kv : p) {
    std::string k = kv.first.as<std::string>();
    out[k] = scalar_or_list(c, kv.second, where + "." + k);
  }
  return out;
}

std::map<std::string, std::string> parse_exclusions(const Ctx& c, const YAML::Node& x, const std::string& xw,
                                                    const std::vector<DatasetRef>& datasets) {
  if (!x.IsMap() || x.size() == 0) c.error(xw, "expected a mapping of dataset id: reason");
  std::map<std::string, std::string> out;
  for (const auto& kv : x) {
    const std::string id = kv.first.as<std::string>();
    bool listed = false;
    std::string ids;
    for (const auto& d : datasets) {
      listed = listed || d.id == id;
      ids += (ids.empty() ? "" : ", ") + d.id;
    }
    if (!listed) c.error(xw + "." + clip(id), "not a dataset of this config (datasets: " + clip(ids) + ")");
    const std::string reason = scalar(c, kv.second, xw + "." + clip(id));
    if (reason.size() < 10 || reason.size() > 300)
      c.error(xw + "." + clip(id), "expected the reason for the exclusion (10-300 characters)");
    check_text(reason, c.path + ": " + xw + "." + id);
    out[id] = reason;
  }
  bool any = false;
  for (const auto& d : datasets) any = any || !out.count(d.id);
  if (!any) c.error(xw, "excludes every dataset of the config; remove the algorithm instead");
  return out;
}

AlgorithmRef parse_algorithm(const Ctx& c, const YAML::Node& a, const std::string& where,
                             const std::vector<DatasetRef>& datasets, std::set<std::string>& labels) {
  allow_keys(c, a, where, {"name", "label", "params", "preprocess", "exclude_datasets"});
  if (!a["name"]) c.error(where, "missing 'name'");
  AlgorithmRef r;
  r.where = where;
  r.name = scalar(c, a["name"], where + ".name");
  try {
    find_algorithm(r.name);
  } catch (const Error& e) {
    c.error(where + ".name", e.what());
  }
  r.label = a["label"] ? scalar(c, a["label"], where + ".label") : r.name;
  if (r.label.empty() || r.label.size() > 100) c.error(where + ".label", "expected 1-100 characters");
  check_text(r.label, c.path + ": " + where + ".label");
  if (!labels.insert(r.label).second) c.error(where + ".label", "label '" + clip(r.label) + "' is used twice");
  if (const auto p = a["params"]) r.params = parse_params(c, p, where + ".params");
  if (const auto p = a["preprocess"]) {
    parse_preprocess(c, p, where + ".preprocess", Preprocess{});  // validates
    for (const auto& kv : p) r.preprocess_overrides[kv.first.as<std::string>()] = kv.second.as<std::string>();
  }
  if (const auto x = a["exclude_datasets"]) r.exclude_datasets = parse_exclusions(c, x, where + ".exclude_datasets", datasets);
  return r;
}

// A default applies where an algorithm has the parameter (sweep.cpp); one no algorithm of the
// config has is a typo (n_tress) that would silently run the registry default.
void check_defaults_used(const Ctx& c, const ExperimentSpec& s) {
  for (const auto& [k, v] : s.defaults) {
    bool used = false;
    std::string names;
    for (const auto& a : s.algorithms) {
      names += (names.empty() ? "" : ", ") + a.name;
      for (const auto& p : find_algorithm(a.name).params) used = used || p.name == k;
    }
    if (!used) c.error("defaults." + clip(k), "no algorithm of this config (" + names + ") has this parameter");
  }
}

}  // namespace

ExperimentSpec parse_experiment(const std::string& text, const std::string& path) {
  Ctx c{path};
  YAML::Node root = load_yaml_strict(text, path);  // UTF-8, duplicate keys
  if (!root || !root.IsMap()) fail(path, ": expected a YAML mapping at the top level");
  allow_keys(c, root, "", {"paper", "experiment", "title", "kind", "seed", "protocol", "datasets", "defaults",
                           "algorithms", "record", "formula"});
  ExperimentSpec s;
  s.path = path;
  for (const char* k : {"paper", "experiment"})
    if (!root[k]) c.error(k, "required key is missing");
  if (root["formula"]) {
    parse_formula_table(c, root, s);
    return s;
  }
  for (const char* k : {"algorithms", "datasets"})
    if (!root[k]) c.error(k, "required key is missing");
  parse_identity(c, root, s);
  if (root["kind"]) s.kind = scalar(c, root["kind"], "kind");
  if (const auto r = root["record"]) s.record = parse_record(c, r);
  if (root["seed"]) s.seed = static_cast<uint64_t>(as_int(c, root["seed"], "seed", 0, 2147483647));
  if (const auto p = root["protocol"]) s.protocol = parse_protocol(c, p);
  s.datasets = parse_datasets(c, root["datasets"]);
  if (const auto d = root["defaults"]) s.defaults = parse_params(c, d, "defaults");

  const YAML::Node algs = root["algorithms"];
  if (!algs.IsSequence() || algs.size() == 0) c.error("algorithms", "expected a non-empty list");
  std::set<std::string> labels;
  for (std::size_t i = 0; i < algs.size(); ++i)
    s.algorithms.push_back(parse_algorithm(c, algs[i], "algorithms[" + std::to_string(i) + "]", s.datasets, labels));
  check_defaults_used(c, s);
  return s;
}

ExperimentHeader read_experiment_header(const std::string& path) {
  Ctx c{path};
  const YAML::Node root = load_yaml_strict(read_text_limited(path, kMaxConfigBytes, "experiment config"), path);
  if (!root || !root.IsMap()) fail(path, ": expected a YAML mapping at the top level");
  for (const char* k : {"paper", "experiment"})
    if (!root[k]) c.error(k, "required key is missing");
  ExperimentSpec s;
  parse_identity(c, root, s);
  if (const auto p = root["protocol"]) s.protocol = parse_protocol(c, p);
  return {s.paper, s.experiment, s.title, s.protocol};
}

std::string experiment_header_yaml(const ExperimentSpec& spec) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "source" << YAML::Value << spec.path;
  out << YAML::Key << "paper" << YAML::Value << spec.paper;
  out << YAML::Key << "experiment" << YAML::Value << spec.experiment;
  if (!spec.title.empty()) out << YAML::Key << "title" << YAML::Value << spec.title;
  const Protocol& p = spec.protocol;
  out << YAML::Key << "protocol" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << p.type << YAML::Key << "repetitions" << YAML::Value << p.repetitions;
  if (p.type == "kfold") out << YAML::Key << "folds" << YAML::Value << p.folds;
  if (p.type == "holdout") out << YAML::Key << "test_fraction" << YAML::Value << format_double(p.test_fraction);
  out << YAML::Key << "stratified" << YAML::Value << (p.stratified ? "true" : "false");
  out << YAML::EndMap << YAML::EndMap;
  return "# Written by dpforest run: the experiment these results come from (dpforest summarize reads it).\n" +
         std::string(out.c_str()) + "\n";
}

ExperimentSpec load_experiment(const std::string& path) {
  return parse_experiment(read_text_limited(path, kMaxConfigBytes, "experiment config"), path);
}

}  // namespace dpf
