#include "datasets/local.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "core/data/loaders.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"

namespace dpf {

namespace fs = std::filesystem;

namespace {

const char* kLeak =
    ": deriving it from the rows would leak the data (not differentially private); give it from public "
    "knowledge, or set `domains: from-data` to accept the leak (the rows are then labelled 'published, not "
    "epsilon-DP')";

void allow_keys(const YAML::Node& n, const std::string& where, const std::set<std::string>& allowed) {
  if (!n.IsMap()) fail(where, ": expected a mapping");
  for (const auto& kv : n) {
    const std::string k = kv.first.as<std::string>();
    if (allowed.count(k)) continue;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(where, ": unknown key '", clip(k), "' (allowed: ", list, ")");
  }
}

std::string text(const YAML::Node& n, const std::string& where) {
  if (!n || !n.IsScalar()) fail(where, ": expected a single value");
  return n.as<std::string>();
}

std::vector<std::string> texts(const YAML::Node& n, const std::string& where) {
  if (!n || !n.IsSequence()) fail(where, ": expected a list");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n.size(); ++i) out.push_back(text(n[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

std::pair<double, double> bounds(const YAML::Node& n, const std::string& where) {
  if (!n.IsSequence() || n.size() != 2) fail(where, ": expected [lo, hi]");
  double lo = 0, hi = 0;
  if (!parse_cell_number(text(n[0], where), lo) || !parse_cell_number(text(n[1], where), hi))
    fail(where, ": expected two finite numbers [lo, hi]");
  if (!(lo <= hi)) fail(where, ": lo > hi in [", lo, ", ", hi, "]");
  return {lo, hi};
}

// One entry of `features:`: {bounds: [lo, hi]}, {categories: [...]}, numeric or categorical.
void parse_feature(const std::string& name, const YAML::Node& n, const std::string& where, LocalDataset& d) {
  VariantSpec& s = d.spec;
  if (n.IsScalar()) {
    const std::string kind = n.as<std::string>();
    if (kind == "categorical") s.categories[name] = {};
    else if (kind != "numeric") fail(where, ": '", clip(kind), "' (expected numeric, categorical, {bounds: [lo, hi]} or {categories: [...]})");
  } else {
    allow_keys(n, where, {"bounds", "categories"});
    if (n["bounds"] && n["categories"]) fail(where, ": give bounds (numeric) or categories (categorical), not both");
    if (n["bounds"]) s.domains[name] = bounds(n["bounds"], where + ".bounds");
    else if (n["categories"]) s.categories[name] = texts(n["categories"], where + ".categories");
    else fail(where, ": expected {bounds: [lo, hi]} or {categories: [...]}");
  }
  if (std::find(d.features.begin(), d.features.end(), name) != d.features.end()) fail(where, ": listed twice");
  d.features.push_back(name);
}

void parse_target(const YAML::Node& node, const std::string& where, VariantSpec& s) {
  s.target = text(node["target"], where + ".target");
  const std::string task = node["task"] ? text(node["task"], where + ".task") : "classification";
  if (task == "classification") s.task = TaskKind::kClassification;
  else if (task == "regression") s.task = TaskKind::kRegression;
  else fail(where, ".task: '", clip(task), "' (expected classification or regression)");
  if (node["classes"]) {
    if (s.task != TaskKind::kClassification) fail(where, ".classes: a regression target has bounds, not classes");
    s.classes = texts(node["classes"], where + ".classes");
    if (s.classes.empty()) fail(where, ".classes: empty");
  }
  if (node["target_bounds"]) {
    if (s.task != TaskKind::kRegression) fail(where, ".target_bounds: a classification target has classes, not bounds");
    s.target_bounds = bounds(node["target_bounds"], where + ".target_bounds");
  }
}

// Without `domains: from-data` every public domain must be given: name the first one missing.
void require_public_domains(const LocalDataset& d, const std::string& where) {
  const VariantSpec& s = d.spec;
  if (s.task == TaskKind::kClassification && s.classes.empty())
    fail(where, ": classification target '", s.target, "' has no class list (classes: [...])", kLeak);
  if (s.task == TaskKind::kRegression && !s.target_bounds)
    fail(where, ": regression target '", s.target, "' has no bounds (target_bounds: [lo, hi])", kLeak);
  for (const auto& f : d.features) {
    auto c = s.categories.find(f);
    if (c != s.categories.end() && c->second.empty())
      fail(where, ".features.", f, ": categorical feature '", f, "' has no category list (categories: [...])", kLeak);
    if (c == s.categories.end() && !s.domains.count(f))
      fail(where, ".features.", f, ": numeric feature '", f, "' has no bounds (bounds: [lo, hi])", kLeak);
  }
}

std::string stem_of(const std::string& path) { return fs::path(path).stem().string(); }

// The header's columns against the schema: the target, every declared feature, nothing undeclared.
void check_header(const LocalDataset& d, const std::vector<std::string>& cols) {
  const VariantSpec& s = d.spec;
  const std::string file = d.csv;
  if (std::find(cols.begin(), cols.end(), s.target) == cols.end())
    fail(file, ": no target column '", s.target, "' (schema ", d.origin, ")");
  for (const auto& f : d.features)
    if (std::find(cols.begin(), cols.end(), f) == cols.end())
      fail(file, ": feature '", f, "' of the schema (", d.origin, ") is not a column of the file");
  for (const auto& c : s.drop)
    if (std::find(cols.begin(), cols.end(), c) == cols.end()) fail(file, ": drop: no column '", c, "'");
  for (const auto& c : cols) {
    const bool known = c == s.target || std::find(d.features.begin(), d.features.end(), c) != d.features.end() ||
                       std::find(s.drop.begin(), s.drop.end(), c) != s.drop.end();
    if (!known)
      fail(file, ": column '", c, "' is not in the schema (", d.origin,
           "): declare it under features (with its public bounds or categories) or list it under drop");
  }
}

RawTable read_local_table(const LocalDataset& d) {
  std::error_code ec;
  if (!fs::is_regular_file(d.csv, ec))
    throw MissingInput("dataset '" + d.id + "': no file " + d.csv + " (schema " + d.origin + ")");
  RawTable t = read_table(d.csv, d.spec.format);
  check_header(d, t.columns);
  return t;
}

}  // namespace

LocalDataset parse_local_schema(const YAML::Node& node, const std::string& where, bool domains_from_data) {
  allow_keys(node, where,
             {"target", "task", "classes", "target_bounds", "features", "drop", "delimiter", "missing", "domains"});
  LocalDataset d;
  d.origin = where;
  VariantSpec& s = d.spec;
  s.name = "default";
  s.format.type = "csv";
  s.format.header = true;
  if (!node["target"]) fail(where, ": missing 'target' (the target column)");
  parse_target(node, where, s);
  if (node["delimiter"]) {
    std::string v = text(node["delimiter"], where + ".delimiter");
    if (v == "tab") v = "\t";
    if (v.size() != 1) fail(where, ".delimiter: expected one character, got '", clip(v), "'");
    s.format.delimiter = v[0];
  }
  if (node["drop"]) s.drop = texts(node["drop"], where + ".drop");
  if (node["missing"]) s.missing_markers = texts(node["missing"], where + ".missing");
  if (node["domains"]) {
    const std::string v = text(node["domains"], where + ".domains");
    if (v != "from-data") fail(where, ".domains: '", clip(v), "' (the only value is from-data; omit it for public domains)");
    domains_from_data = true;
  }
  const YAML::Node f = node["features"];
  if (!f || !f.IsMap() || f.size() == 0) fail(where, ".features: expected a mapping of column: {bounds: [lo, hi]} or {categories: [...]}");
  for (const auto& kv : f) {
    const std::string name = kv.first.as<std::string>();
    if (name == s.target) fail(where, ".features.", name, ": the target is not a feature");
    parse_feature(name, kv.second, where + ".features." + name, d);
  }
  d.domains_from_data = domains_from_data;
  if (!domains_from_data) require_public_domains(d, where);
  return d;
}

LocalDataset local_dataset_from_files(const std::string& csv, const std::string& schema_file, const std::string& id,
                                      bool domains_from_data) {
  const YAML::Node node = load_yaml_strict(read_text_limited(schema_file, kMaxConfigBytes, "schema"), schema_file);
  LocalDataset d = parse_local_schema(node, schema_file + ": schema", domains_from_data);
  d.origin = schema_file;
  d.csv = csv;
  d.id = id.empty() ? stem_of(csv) : id;
  d.spec.files = {fs::path(csv).filename().string()};
  return d;
}

bool is_local_csv_spec(const std::string& spec) {
  return spec.size() > 4 && spec.compare(spec.size() - 4, 4, ".csv") == 0;
}

std::string side_schema_path(const std::string& csv) {
  return (fs::path(csv).parent_path() / (stem_of(csv) + ".schema.yaml")).string();
}

Dataset load_local_dataset(const LocalDataset& d) {
  std::vector<RawTable> tables;
  tables.push_back(read_local_table(d));
  BuildOptions b;
  b.infer_public = d.domains_from_data;
  Dataset data = build_dataset(d.id, d.spec, tables, b);
  require(data.n_rows() > 0, d.csv, ": no data rows");
  if (!d.domains_from_data) data.mutable_schema().domains_source = "schema";
  data.validate();
  return data;
}

}  // namespace dpf
