// Reading a registry variant from YAML (keys documented in datasets/README.md). Unknown keys are
// errors, so that a typo in an entry cannot silently change how a dataset is read.
#include <set>
#include <string>
#include <vector>

#include "core/util/error.hpp"
#include "datasets/variant.hpp"

namespace dpf {

namespace {

void check_keys(const YAML::Node& node, const std::set<std::string>& allowed, const std::string& where) {
  if (!node.IsMap()) fail(where, ": expected a mapping");
  for (const auto& kv : node) {
    std::string key = kv.first.as<std::string>();
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(where, ": unknown key '", key, "' (known: ", list, ")");
    }
  }
}

std::vector<std::string> str_list(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  for (const auto& v : n) out.push_back(v.as<std::string>());
  return out;
}

std::pair<double, double> range(const YAML::Node& n, const std::string& where) {
  if (!n.IsSequence() || n.size() != 2) fail(where, ": expected [lo, hi]");
  double lo = n[0].as<double>(), hi = n[1].as<double>();
  if (!(lo <= hi)) fail(where, ": lo > hi in [", lo, ", ", hi, "]");
  return {lo, hi};
}

TableFormat parse_format(const YAML::Node& f, const std::string& at) {
  check_keys(f, {"type", "delimiter", "header", "skip_lines", "quote", "comment", "libsvm_features", "max_fields"}, at + " format");
  TableFormat format;
  if (f["type"]) format.type = f["type"].as<std::string>();
  auto one_char = [&](const char* key, char& out) {
    if (!f[key]) return;
    std::string v = f[key].as<std::string>();
    if (v == "tab") v = "\t";
    if (v.size() != 1) fail(at, " format.", key, ": expected one character, got '", v, "'");
    out = v[0];
  };
  one_char("delimiter", format.delimiter);
  one_char("quote", format.quote);
  one_char("comment", format.comment);
  if (f["header"]) format.header = f["header"].as<bool>();
  if (f["skip_lines"]) format.skip_lines = f["skip_lines"].as<int>();
  if (f["max_fields"]) format.max_fields = f["max_fields"].as<int>();
  if (f["libsvm_features"]) format.libsvm_features = f["libsvm_features"].as<int>();
  return format;
}

// `shape` (the raw table) and `loaded` (after missing-value handling): the expected counts.
void parse_counts(const YAML::Node& node, const std::string& at, VariantSpec& s) {
  if (auto sh = node["shape"]) {
    check_keys(sh, {"rows", "columns"}, at + " shape");
    if (sh["rows"]) s.raw_rows = sh["rows"].as<long>();
    if (sh["columns"]) s.raw_columns = sh["columns"].as<long>();
  }
  if (auto ld = node["loaded"]) {
    check_keys(ld, {"rows", "features"}, at + " loaded");
    if (ld["rows"]) s.rows = ld["rows"].as<long>();
    if (ld["features"]) s.features = ld["features"].as<long>();
  }
}

void parse_target(const YAML::Node& t, const std::string& at, VariantSpec& s) {
  if (!t) fail(at, ": no target");
  check_keys(t, {"column", "task", "classes", "map", "others", "other_classes", "bounds"}, at + " target");
  s.target = t["column"].as<std::string>();
  std::string task = t["task"] ? t["task"].as<std::string>() : "classification";
  if (task == "classification") s.task = TaskKind::kClassification;
  else if (task == "regression") s.task = TaskKind::kRegression;
  else fail(at, " target.task: '", task, "' (expected classification or regression)");
  s.classes = str_list(t["classes"]);
  if (auto m = t["map"])
    for (const auto& kv : m) s.class_map[kv.first.as<std::string>()] = kv.second.as<std::string>();
  if (t["others"]) s.class_others = t["others"].as<std::string>();
  if (t["other_classes"]) {
    std::string o = t["other_classes"].as<std::string>();
    if (o != "drop" && o != "error") fail(at, " target.other_classes: '", o, "' (expected drop or error)");
    s.drop_other_classes = o == "drop";
  }
  if (t["bounds"]) s.target_bounds = range(t["bounds"], at + " target.bounds");
}

std::vector<Derivation> parse_derive(const YAML::Node& d, const std::string& at) {
  std::vector<Derivation> out;
  if (!d) return out;
  for (const auto& e : d) {
    check_keys(e, {"from", "kind", "name"}, at + " derive");
    Derivation dv{"", e["kind"].as<std::string>(), e["name"].as<std::string>(), str_list(e["from"])};
    if (dv.sources.empty()) fail(at, " derive '", dv.name, "': no `from` column");
    dv.from = dv.sources.front();
    out.push_back(dv);
  }
  return out;
}

void parse_features(const YAML::Node& f, const std::string& at, VariantSpec& s) {
  check_keys(f, {"order", "default", "categorical", "numeric"}, at + " features");
  s.feature_order = str_list(f["order"]);
  if (f["default"]) {
    std::string k = f["default"].as<std::string>();
    if (k == "numeric") s.default_kind = FeatureKind::kNumeric;
    else if (k == "categorical") s.default_kind = FeatureKind::kCategorical;
    else fail(at, " features.default: '", k, "' (expected numeric or categorical)");
  }
  if (auto c = f["categorical"]) {
    if (c.IsSequence()) {
      for (const auto& name : c) s.categories[name.as<std::string>()] = {};
    } else {
      for (const auto& kv : c) s.categories[kv.first.as<std::string>()] = str_list(kv.second);
    }
  }
  s.numeric = str_list(f["numeric"]);
}

// A key whose value is one of two words.
std::string one_of_two(const YAML::Node& node, const char* key, const char* a, const char* b, const std::string& at) {
  std::string r = node[key].as<std::string>();
  if (r != a && r != b) fail(at, " ", key, ": '", r, "' (expected ", a, " or ", b, ")");
  return r;
}

void parse_missing(const YAML::Node& m, const std::string& at, VariantSpec& s) {
  check_keys(m, {"markers", "rule", "as_category"}, at + " missing");
  s.missing_markers = str_list(m["markers"]);
  if (m["rule"]) s.missing_rule = m["rule"].as<std::string>();
  if (s.missing_rule != "drop-rows" && s.missing_rule != "impute-train-median")
    fail(at, " missing.rule: '", s.missing_rule, "' (expected drop-rows or impute-train-median; use ",
         "as_category for columns where the marker is a category)");
  s.missing_as_category = str_list(m["as_category"]);
}

}  // namespace

VariantSpec parse_variant(const YAML::Node& node, const std::string& where) {
  check_keys(node,
             {"name", "base", "description", "files", "format", "columns", "shape", "loaded", "target", "drop",
              "derive", "features", "domains", "categories", "missing", "ragged", "public"},
             where);
  VariantSpec s;
  s.name = node["name"].as<std::string>();
  std::string at = where + " variant '" + s.name + "'";
  s.files = str_list(node["files"]);
  if (s.files.empty()) fail(at, ": no files");
  if (auto f = node["format"]) s.format = parse_format(f, at);
  s.columns = str_list(node["columns"]);
  parse_counts(node, at, s);
  parse_target(node["target"], at, s);
  s.drop = str_list(node["drop"]);
  s.derive = parse_derive(node["derive"], at);
  if (auto f = node["features"]) parse_features(f, at, s);
  if (auto c = node["categories"])
    for (const auto& kv : c) s.categories[kv.first.as<std::string>()] = str_list(kv.second);
  if (auto d = node["domains"])
    for (const auto& kv : d) {
      std::string name = kv.first.as<std::string>();
      s.domains[name] = range(kv.second, at + " domains." + name);
    }
  if (node["ragged"]) s.drop_ragged = one_of_two(node, "ragged", "drop", "error", at) == "drop";
  if (node["public"]) s.public_from_data = one_of_two(node, "public", "registry", "from-data", at) == "from-data";
  if (auto m = node["missing"]) parse_missing(m, at, s);
  return s;
}

}  // namespace dpf
