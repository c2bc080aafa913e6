// Dataset registry: one YAML entry per dataset in datasets/<id>.yaml (source page, files with URL
// and sha256, format, target, column kinds, public domains, missing-value markers, expected shape).
// See datasets/README.md for the entry format and how to add a dataset.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/data/loaders.hpp"
#include "datasets/variant.hpp"

namespace dpf {

struct DatasetFile {
  std::string name;    // file name inside the mirror folder datasets/<id>/ and the cache
  std::string url;     // where to download it from when no mirror has it
  std::string sha256;  // lower-case hex
  uint64_t bytes = 0;
};

struct DatasetEntry {
  std::string id;
  std::string title;
  std::string page;       // canonical UCI page
  bool mirrored = true;   // false: the offline mirror does not hold it (INDEX.md "NOT here")
  std::string note;       // shown with errors (e.g. why it is not mirrored, how to get it)
  std::vector<DatasetFile> files;
  std::vector<std::string> variants;  // names accepted after "id:" (first is the default)
  std::string path;       // the registry file this came from
  std::vector<std::string> used_by;   // paper ids
  std::vector<VariantSpec> specs;     // parsed tables, same order as `variants`
  const DatasetFile& file(const std::string& name) const;  // throws naming the entry
};

// Where data comes from. mirror: DPFOREST_MIRROR, else <root>/../shared/datasets when it exists.
// cache: DPFOREST_CACHE, else <root>/datasets/cache (git-ignored; downloads land there).
struct DataOptions {
  std::string mirror;
  std::string cache;
  bool allow_download = true;  // false when DPFOREST_OFFLINE is set (to anything but 0)
  static DataOptions from_environment();
};

// The project root (for datasets/, configs/, plots/): DPFOREST_ROOT, else the nearest directory at or
// above the working directory that holds both datasets/ and CMakeLists.txt, else the same above the
// running executable (build/dpforest run from a user's own folder), else ".".
std::string project_root();

std::vector<std::string> dataset_ids();             // every registry entry, sorted
// One registry file, parsed and checked (unknown keys, files without a url, variants' files listed).
DatasetEntry parse_dataset_entry(const std::string& path);
const DatasetEntry& dataset_entry(const std::string& id);  // throws naming the id and the known ids

// Loads "id" or "id:variant" as a typed Dataset with its public schema. Files are taken from the
// mirror or cache (verified by sha256) or downloaded; a missing or corrupt file throws
// dpf::MissingInput naming the dataset, the file, its URL and what to do.
// The dataset name is "id" for the default variant and "id:variant" otherwise. A spec ending in
// ".csv" names a user's own file, typed by its side schema <stem>.schema.yaml (datasets/local.hpp).
Dataset load_dataset(const std::string& spec, const DataOptions& options);
Dataset load_dataset(const std::string& spec, const DataOptions& options, const BuildOptions& build);

// What is public about a dataset before any row is read: from the registry entry, or the generator
// spec of a synthetic dataset. known = false for a spec neither knows (then nothing is checked).
struct DatasetFacts {
  bool known = false;
  TaskKind task = TaskKind::kClassification;
  std::size_t classes = 0;           // the public class list's size (0: not listed, e.g. public: from-data)
  bool imputes_train_median = false;  // missing.rule impute-train-median (not differentially private)
  bool domains_from_data = false;     // `public: from-data`: the domains are read from the rows
};
DatasetFacts dataset_facts(const std::string& spec);

// The registry's description of "id" or "id:variant" (expected shapes, column kinds, ...).
const VariantSpec& variant_spec(const std::string& spec);
// Splits "id:variant" (variant empty when absent).
std::pair<std::string, std::string> split_dataset_spec(const std::string& spec);

}  // namespace dpf
