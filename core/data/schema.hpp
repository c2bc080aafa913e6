// What is public about a dataset (design.md §4): feature kinds, numeric domains [lo, hi], category
// lists, and the class list or the regression target bounds. Domains come from the dataset registry
// (public knowledge) unless a run asks for `domains: from-data`, which is recorded because it is not
// private (dipreme.md §1, privacy.md §6 P6).
#pragma once
#include <string>
#include <vector>

namespace dpf {

enum class FeatureKind { kNumeric, kCategorical };
enum class TaskKind { kClassification, kRegression };

const char* to_string(FeatureKind k);
const char* to_string(TaskKind k);

struct Feature {
  std::string name;
  FeatureKind kind = FeatureKind::kNumeric;
  double lo = 0.0, hi = 0.0;            // numeric domain
  std::vector<std::string> categories;  // categorical: code c is categories[c]
  std::size_t n_categories() const { return categories.size(); }
};

struct Target {
  std::string name;
  TaskKind task = TaskKind::kClassification;
  std::vector<std::string> classes;  // classification: label c is classes[c]
  double lo = 0.0, hi = 1.0;         // regression bounds [B_L, B_U]
  std::size_t n_classes() const { return classes.size(); }
};

struct Schema {
  std::vector<Feature> features;
  Target target;
  // Where the public domains come from: "registry" (a registry entry or a generator), "schema" (an own
  // dataset's schema, datasets/local.hpp) or "from-data" (read from the rows: not private).
  std::string domains_source = "registry";
  // "" (default): no missing values. "train-median": a NaN in a numeric feature is a missing value
  // that every task replaces by the median of its training rows before fitting (registry rule
  // missing.rule impute-train-median, datasets/README.md; core/data/preprocess.hpp).
  std::string missing_numeric;
  std::size_t n_features() const { return features.size(); }
  int find_feature(const std::string& name) const;  // -1 if absent
};

}  // namespace dpf
