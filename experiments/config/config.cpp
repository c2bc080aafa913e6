#include "experiments/config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

#include "algorithms/registry.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/config/formula.hpp"

namespace dpf {

std::string Preprocess::key() const {
  return "scale=" + target_scaling + ",domains=" + domains + ",bins=" + std::to_string(bins);
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
  if (const auto f = root["formula"]) {
    // A closed-form table: no data, no algorithms (experiments/config/formula.hpp).
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
    s.paper = scalar(c, root["paper"], "paper");
    s.experiment = scalar(c, root["experiment"], "experiment");
    check_id(s.paper, path + ": paper");
    check_id(s.experiment, path + ": experiment");
    if (root["title"]) s.title = scalar(c, root["title"], "title");
    s.kind = root["kind"] ? scalar(c, root["kind"], "kind") : "table";
    evaluate_formula(s.paper, s.experiment, s.formula, s.formula_grid, path);  // validates every grid value
    return s;
  }
  for (const char* k : {"algorithms", "datasets"})
    if (!root[k]) c.error(k, "required key is missing");
  s.paper = scalar(c, root["paper"], "paper");
  s.experiment = scalar(c, root["experiment"], "experiment");
  check_id(s.paper, path + ": paper");
  check_id(s.experiment, path + ": experiment");
  if (root["title"]) s.title = scalar(c, root["title"], "title");
  if (root["kind"]) s.kind = scalar(c, root["kind"], "kind");
  if (const auto r = root["record"]) {
    if (!r.IsSequence()) c.error("record", "expected a list of diagnostics (leaf_occupancy, left_fraction)");
    for (std::size_t i = 0; i < r.size(); ++i) {
      const std::string key = "record[" + std::to_string(i) + "]";
      std::string v = scalar(c, r[i], key);
      if (v != "leaf_occupancy" && v != "left_fraction")
        c.error(key, "'" + clip(v) + "' is not one of leaf_occupancy, left_fraction");
      s.record.push_back(v);
    }
  }
  if (root["seed"]) s.seed = static_cast<uint64_t>(as_int(c, root["seed"], "seed", 0, 2147483647));

  if (const auto p = root["protocol"]) {
    allow_keys(c, p, "protocol", {"type", "repetitions", "test_fraction", "folds", "stratified"});
    if (p["type"]) s.protocol.type = scalar(c, p["type"], "protocol.type");
    if (s.protocol.type != "holdout" && s.protocol.type != "kfold" && s.protocol.type != "resubstitution")
      c.error("protocol.type", "'" + clip(s.protocol.type) + "' is not one of holdout, kfold, resubstitution");
    if (p["repetitions"]) s.protocol.repetitions = as_int(c, p["repetitions"], "protocol.repetitions", 1, 100000);
    if (p["folds"]) s.protocol.folds = as_int(c, p["folds"], "protocol.folds", 2, 1000);
    if (p["test_fraction"]) {
      std::string v = scalar(c, p["test_fraction"], "protocol.test_fraction");
      char* end = nullptr;
      s.protocol.test_fraction = std::strtod(v.c_str(), &end);
      if (end != v.c_str() + v.size() || !(s.protocol.test_fraction > 0 && s.protocol.test_fraction < 1))
        c.error("protocol.test_fraction", "'" + clip(v) + "' is not a number in (0, 1)");
    }
    if (p["stratified"]) {
      std::string v = scalar(c, p["stratified"], "protocol.stratified");
      if (v != "true" && v != "false") c.error("protocol.stratified", "expected true or false");
      s.protocol.stratified = v == "true";
    }
  }

  const YAML::Node ds = root["datasets"];
  if (!ds.IsSequence() || ds.size() == 0) c.error("datasets", "expected a non-empty list");
  for (std::size_t i = 0; i < ds.size(); ++i) {
    std::string where = "datasets[" + std::to_string(i) + "]";
    DatasetRef d;
    if (ds[i].IsScalar()) {
      d.id = ds[i].as<std::string>();
    } else {
      allow_keys(c, ds[i], where, {"id", "target_scaling", "domains", "bins"});
      if (!ds[i]["id"]) c.error(where, "missing 'id'");
      d.id = scalar(c, ds[i]["id"], where + ".id");
      YAML::Node rest = YAML::Clone(ds[i]);
      rest.remove("id");
      d.preprocess = parse_preprocess(c, rest, where, d.preprocess);
    }
    // The registry id (before any ':variant' or ':generator-args') names a file; the rest is a spec.
    check_id(d.id.substr(0, d.id.find(':')), path + ": " + where);
    check_text(d.id, path + ": " + where);
    for (const auto& other : s.datasets)
      if (other.id == d.id && other.preprocess.key() == d.preprocess.key())
        c.error(where, "dataset '" + d.id + "' is listed twice with the same preprocessing");
    s.datasets.push_back(d);
  }

  if (const auto d = root["defaults"]) {
    if (!d.IsMap()) c.error("defaults", "expected a mapping of parameter: value");
    for (const auto& kv : d) {
      std::string k = kv.first.as<std::string>();
      s.defaults[k] = scalar_or_list(c, kv.second, "defaults." + k);
    }
  }

  const YAML::Node algs = root["algorithms"];
  if (!algs.IsSequence() || algs.size() == 0) c.error("algorithms", "expected a non-empty list");
  std::set<std::string> labels;
  for (std::size_t i = 0; i < algs.size(); ++i) {
    std::string where = "algorithms[" + std::to_string(i) + "]";
    const YAML::Node a = algs[i];
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
    check_text(r.label, path + ": " + where + ".label");
    if (!labels.insert(r.label).second) c.error(where + ".label", "label '" + clip(r.label) + "' is used twice");
    if (const auto p = a["params"]) {
      if (!p.IsMap()) c.error(where + ".params", "expected a mapping of parameter: value");
      for (const auto& kv : p) {
        std::string k = kv.first.as<std::string>();
        r.params[k] = scalar_or_list(c, kv.second, where + ".params." + k);
      }
    }
    if (const auto p = a["preprocess"]) {
      parse_preprocess(c, p, where + ".preprocess", Preprocess{});  // validates
      for (const auto& kv : p) r.preprocess_overrides[kv.first.as<std::string>()] = kv.second.as<std::string>();
    }
    if (const auto x = a["exclude_datasets"]) {
      const std::string xw = where + ".exclude_datasets";
      if (!x.IsMap() || x.size() == 0) c.error(xw, "expected a mapping of dataset id: reason");
      for (const auto& kv : x) {
        const std::string id = kv.first.as<std::string>();
        bool listed = false;
        std::string ids;
        for (const auto& d : s.datasets) {
          listed = listed || d.id == id;
          ids += (ids.empty() ? "" : ", ") + d.id;
        }
        if (!listed) c.error(xw + "." + clip(id), "not a dataset of this config (datasets: " + clip(ids) + ")");
        const std::string reason = scalar(c, kv.second, xw + "." + clip(id));
        if (reason.size() < 10 || reason.size() > 300)
          c.error(xw + "." + clip(id), "expected the reason for the exclusion (10-300 characters)");
        check_text(reason, path + ": " + xw + "." + id);
        r.exclude_datasets[id] = reason;
      }
      bool any = false;
      for (const auto& d : s.datasets) any = any || !r.exclude_datasets.count(d.id);
      if (!any) c.error(xw, "excludes every dataset of the config; remove the algorithm instead");
    }
    s.algorithms.push_back(r);
  }
  // A default applies where an algorithm has the parameter (sweep.cpp); one no algorithm of the
  // config has is a typo (n_tress) that would silently run the registry default.
  for (const auto& [k, v] : s.defaults) {
    bool used = false;
    std::string names;
    for (const auto& a : s.algorithms) {
      names += (names.empty() ? "" : ", ") + a.name;
      for (const auto& p : find_algorithm(a.name).params) used = used || p.name == k;
    }
    if (!used) c.error("defaults." + clip(k), "no algorithm of this config (" + names + ") has this parameter");
  }
  return s;
}

ExperimentSpec load_experiment(const std::string& path) {
  return parse_experiment(read_text_limited(path, kMaxConfigBytes, "experiment config"), path);
}

}  // namespace dpf
