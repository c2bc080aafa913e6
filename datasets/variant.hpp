// One table of a registry entry ("id:variant"): how to read its file(s) and how to type the raw
// cells into a Dataset with its public schema. The YAML keys are documented in datasets/README.md.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/data/dataset.hpp"
#include "core/data/loaders.hpp"

namespace dpf {

// A column computed from another before typing (e.g. Appliances' Month and Day from `date`).
// kinds: year, month, day (of month), weekday (Monday = 0, as pandas), hour; the source cell must
// start with "YYYY-MM-DD" (and " HH" or "THH" for hour).
// kind concat joins the cells of several columns (`from: [a, b, ...]`), e.g. a one-hot class.
struct Derivation {
  std::string from, kind, name;
  std::vector<std::string> sources;  // concat: the columns joined
};

struct VariantSpec {
  std::string name;
  std::vector<std::string> files;    // concatenated in order (each parsed with `format`)
  TableFormat format;
  std::vector<std::string> columns;  // column names to use (files without a header)
  // Expected shape: of the raw table(s) as SOURCE.md states it, and after missing-value handling.
  long raw_rows = -1, raw_columns = -1, rows = -1, features = -1;

  std::string target;
  TaskKind task = TaskKind::kClassification;
  std::vector<std::string> classes;              // classification: class list (label order)
  std::map<std::string, std::string> class_map;  // raw value -> class (e.g. binarisation)
  std::string class_others;                      // class for raw values not in class_map ("" = none)
  bool drop_other_classes = false;  // rows whose class is not in `classes` are dropped (else an error)
  std::optional<std::pair<double, double>> target_bounds;  // regression (else domains[target])

  std::vector<std::string> drop;
  std::vector<Derivation> derive;
  std::vector<std::string> feature_order;  // optional explicit order of the features
  FeatureKind default_kind = FeatureKind::kNumeric;
  // Categorical features: listed in `categories:` (with their list) or `features.categorical`.
  std::map<std::string, std::vector<std::string>> categories;
  std::vector<std::string> numeric;                            // numeric when default is categorical
  std::map<std::string, std::pair<double, double>> domains;  // public domains (features, regression target)

  std::vector<std::string> missing_markers;  // cells equal to one of these are missing
  std::vector<std::string> missing_as_category;  // columns where a marker is an ordinary category
  // Rule for a marker in any other column: "drop-rows" (the row is dropped) or
  // "impute-train-median" (in a numeric feature the cell becomes NaN, imputed per task with the
  // median of the training rows, schema.missing_numeric = "train-median"; in a categorical feature
  // or the target the row is still dropped).
  std::string missing_rule = "drop-rows";
  bool drop_ragged = false;  // rows with the wrong number of fields are dropped (else an error)
  bool public_from_data = false;  // `public: from-data`: domains/categories computed from the file
};

// Parses one variant node (already merged with its `base`). `where` names the registry file.
VariantSpec parse_variant(const YAML::Node& node, const std::string& where);

// Options for typing. infer_public: fill missing domains, categories, classes and target bounds
// from the data (only for the one-off tool that writes them into the YAML; never for experiments).
struct BuildOptions {
  bool infer_public = false;
};

// A cell as a finite number (blanks around it and a leading '+' allowed), as build_dataset reads it.
bool parse_cell_number(const std::string& s, double& out);

// Types the raw tables (one per file of the variant) into a Dataset named `name`. Errors name the
// dataset, the file, the line and the column.
Dataset build_dataset(const std::string& name, const VariantSpec& spec, std::vector<RawTable>& tables,
                      const BuildOptions& options = {});

}  // namespace dpf
