#include "datasets/registry.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include <yaml-cpp/yaml.h>

#include "core/data/make_classification.hpp"
#include "core/data/synthetic.hpp"
#include "core/util/error.hpp"
#include "core/util/named.hpp"
#include "core/util/input_check.hpp"
#include "datasets/fetcher.hpp"
#include "datasets/local.hpp"

namespace fs = std::filesystem;

namespace dpf {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// A variant may name a `base` variant of the same entry; its keys override the base's (shallow).
YAML::Node merged_variant(const YAML::Node& variants, std::size_t i, const std::string& where, int depth = 0) {
  const YAML::Node& v = variants[i];
  if (!v.IsMap() || !v["name"]) fail(where, ": variant ", i, " has no name");
  if (!v["base"]) return v;
  if (depth > 8) fail(where, ": variant bases form a cycle");
  std::string base = v["base"].as<std::string>();
  for (std::size_t j = 0; j < variants.size(); ++j)
    if (variants[j]["name"] && variants[j]["name"].as<std::string>() == base) {
      YAML::Node out = YAML::Clone(merged_variant(variants, j, where, depth + 1));
      for (const auto& kv : v) out[kv.first.as<std::string>()] = kv.second;
      out.remove("base");
      return out;
    }
  fail(where, ": variant '", v["name"].as<std::string>(), "' has unknown base '", base, "'");
}

}  // namespace

DatasetEntry parse_dataset_entry(const std::string& path) {
  const fs::path file(path);
  std::string where = file.string();
  const YAML::Node root = load_yaml_file_strict(where);  // size limit, UTF-8, duplicate keys
  if (!root.IsMap()) fail(where, ": expected a YAML mapping at the top level");
  static const std::vector<std::string> keys = {"id", "title", "page", "mirrored", "note", "used_by", "files",
                                                "variants"};
  for (const auto& kv : root) {
    std::string k = kv.first.as<std::string>();
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) fail(where, ": unknown key '", k, "'");
  }
  DatasetEntry e;
  try {
    if (!root["id"]) fail(where, ": missing 'id'");
    e.id = root["id"].as<std::string>();
    check_id(e.id, where + ": id");
    if (e.id != file.stem().string()) fail(where, ": id '", e.id, "' differs from the file name");
    e.title = root["title"] ? root["title"].as<std::string>() : e.id;
    e.page = root["page"] ? root["page"].as<std::string>() : "";
    e.mirrored = root["mirrored"] ? root["mirrored"].as<bool>() : true;
    e.note = root["note"] ? root["note"].as<std::string>() : "";
    if (root["used_by"])
      for (const auto& p : root["used_by"]) e.used_by.push_back(p.as<std::string>());
    e.path = where;
    for (const auto& f : root["files"]) {
      DatasetFile df;
      df.name = f["name"].as<std::string>();
      df.url = f["url"] ? f["url"].as<std::string>() : "";
      // A registry file says where its exact bytes come from; a file of one's own needs no entry.
      if (f["url"] && df.url.empty())
        fail(where, ": file '", df.name, "' has an empty url: give the address these exact bytes can be downloaded ",
             "from (a file of your own needs no registry entry: name it in the config, docs/own-data.md)");
      df.sha256 = f["sha256"] ? f["sha256"].as<std::string>() : "";
      df.bytes = f["bytes"] ? f["bytes"].as<uint64_t>() : 0;
      e.files.push_back(df);
    }
    const YAML::Node variants = root["variants"];
    if (!variants || !variants.IsSequence() || variants.size() == 0) fail(where, ": no variants");
    for (std::size_t i = 0; i < variants.size(); ++i) {
      VariantSpec spec = parse_variant(merged_variant(variants, i, where), where);
      for (const auto& f : spec.files) e.file(f);  // every file the variant reads must be listed
      e.variants.push_back(spec.name);
      e.specs.push_back(std::move(spec));
    }
  } catch (const YAML::Exception& ex) {
    fail(where, ": ", ex.what());
  }
  return e;
}

namespace {

struct Registry {
  std::map<std::string, DatasetEntry> entries;
};

const Registry& registry() {
  static std::once_flag once;
  static Registry reg;
  std::call_once(once, [] {
    fs::path dir = fs::path(project_root()) / "datasets";
    if (!fs::is_directory(dir)) fail("dataset registry folder ", dir.string(), " not found (set DPFOREST_ROOT)");
    for (const auto& de : fs::directory_iterator(dir)) {
      if (de.path().extension() != ".yaml") continue;
      DatasetEntry e = parse_dataset_entry(de.path().string());
      std::string id = e.id;
      reg.entries.emplace(id, std::move(e));
    }
  });
  return reg;
}

}  // namespace

const DatasetFile& DatasetEntry::file(const std::string& name) const {
  for (const auto& f : files)
    if (f.name == name) return f;
  fail(path, ": dataset '", id, "' lists no file '", name, "'");
}

std::string project_root() {
  std::string r = env("DPFOREST_ROOT");
  if (!r.empty()) return r;
  const auto root_at_or_above = [](fs::path p) -> std::string {
    for (; !p.empty(); p = p.parent_path()) {
      std::error_code ec;
      if (fs::is_directory(p / "datasets", ec) && fs::exists(p / "CMakeLists.txt", ec)) return p.string();
      if (p == p.parent_path()) break;
    }
    return "";
  };
  std::error_code ec;
  std::string r2 = root_at_or_above(fs::current_path(ec));
  if (!r2.empty()) return r2;
  // Run from elsewhere (a user's own study folder): the checkout the executable was built in.
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) r2 = root_at_or_above(exe.parent_path());
  return r2.empty() ? "." : r2;
}

DataOptions DataOptions::from_environment() {
  DataOptions o;
  fs::path root = project_root();
  o.mirror = env("DPFOREST_MIRROR");
  if (o.mirror.empty()) {
    fs::path m = root / ".." / "shared" / "datasets";
    std::error_code ec;
    if (fs::is_directory(m, ec)) o.mirror = fs::weakly_canonical(m, ec).string();
  }
  o.cache = env("DPFOREST_CACHE");
  if (o.cache.empty()) o.cache = (root / "datasets" / "cache").string();
  std::string off = env("DPFOREST_OFFLINE");
  o.allow_download = off.empty() || off == "0";
  return o;
}

std::vector<std::string> dataset_ids() {
  std::vector<std::string> ids;
  for (const auto& [id, e] : registry().entries) ids.push_back(id);
  return ids;
}

const DatasetEntry& dataset_entry(const std::string& id) {
  const auto& entries = registry().entries;
  auto it = entries.find(id);
  if (it != entries.end()) return it->second;
  fail("unknown dataset '", id, "' (known: ", join_names(entries, [](const auto& kv) { return kv.first; }), ")");
}

std::pair<std::string, std::string> split_dataset_spec(const std::string& spec) {
  auto colon = spec.find(':');
  if (colon == std::string::npos) return {spec, ""};
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

const VariantSpec& variant_spec(const std::string& spec) {
  auto [id, variant] = split_dataset_spec(spec);
  const DatasetEntry& e = dataset_entry(id);
  if (variant.empty()) return e.specs.front();
  for (const auto& s : e.specs)
    if (s.name == variant) return s;
  fail("dataset '", id, "' has no variant '", variant, "' (variants: ",
       join_names(e.variants, [](const std::string& v) { return v; }), ")");
}

DatasetFacts dataset_facts(const std::string& spec) {
  DatasetFacts f;
  if (is_synthetic_dataset(spec)) {
    f.known = true;  // synthetic:classification, two classes (a bad spec is named when it loads)
    f.classes = 2;
    return f;
  }
  if (is_synthetic_spec(spec)) {
    f.known = true;
    f.classes = static_cast<std::size_t>(synthetic_params(spec[6]).n_classes);
    return f;
  }
  try {
    const VariantSpec& v = variant_spec(spec);
    f.known = true;
    f.task = v.task;
    f.classes = v.task == TaskKind::kClassification ? v.classes.size() : 0;
    f.imputes_train_median = v.missing_rule == "impute-train-median";
    f.domains_from_data = v.public_from_data;
  } catch (const Error&) {
    // Not in the registry: loading it names the problem.
  }
  return f;
}

Dataset load_dataset(const std::string& spec, const DataOptions& options) {
  return load_dataset(spec, options, BuildOptions{});
}

Dataset load_dataset(const std::string& spec, const DataOptions& options, const BuildOptions& build) {
  // A user's own CSV file, typed by its side schema <stem>.schema.yaml (datasets/local.hpp).
  if (is_local_csv_spec(spec)) return load_local_dataset(local_dataset_from_files(spec, side_schema_path(spec)));
  // Generated benchmark data ("synthetic:classification:n=N,d=D,seed=S"): core/data/synthetic.hpp.
  if (is_synthetic_dataset(spec)) return make_synthetic_dataset(spec);
  // smooth-rdf SynthA-G ("synth-a" .. "synth-g[:n=N,seed=S]"): generated, not read (smooth-rdf.md §4).
  if (is_synthetic_spec(spec)) return make_synthetic(spec);
  auto [id, variant] = split_dataset_spec(spec);
  const DatasetEntry& e = dataset_entry(id);
  const VariantSpec& v = variant_spec(spec);
  std::string name = v.name == e.specs.front().name ? id : id + ":" + v.name;
  std::vector<RawTable> tables;
  for (const auto& f : v.files) {
    std::string path = fetch_file(e, e.file(f), options);
    tables.push_back(read_table(path, v.format));
  }
  BuildOptions b = build;
  b.infer_public = b.infer_public || v.public_from_data;
  Dataset d = build_dataset(name, v, tables, b);
  d.validate();
  return d;
}

}  // namespace dpf
