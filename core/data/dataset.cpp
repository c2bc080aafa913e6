#include "core/data/dataset.hpp"

#include <cmath>
#include <numeric>

#include "core/util/error.hpp"

namespace dpf {

Dataset::Dataset(std::string name, Schema schema)
    : name_(std::move(name)), schema_(std::move(schema)), columns_(schema_.n_features()) {}

void Dataset::add_row(std::span<const double> x, double y) {
  require(x.size() == columns_.size(), "dataset ", name_, ": row has ", x.size(), " features, schema has ",
          columns_.size());
  for (std::size_t f = 0; f < x.size(); ++f) columns_[f].push_back(x[f]);
  y_.push_back(y);
}

void Dataset::reserve(std::size_t rows) {
  for (auto& c : columns_) c.reserve(rows);
  y_.reserve(rows);
}

Dataset Dataset::subset(std::span<const uint32_t> rows) const {
  Dataset out(name_, schema_);
  out.reserve(rows.size());
  for (std::size_t f = 0; f < columns_.size(); ++f)
    for (uint32_t r : rows) out.columns_[f].push_back(columns_[f][r]);
  for (uint32_t r : rows) out.y_.push_back(y_[r]);
  return out;
}

std::vector<int> Dataset::labels() const {
  std::vector<int> out(y_.size());
  for (std::size_t i = 0; i < y_.size(); ++i) out[i] = static_cast<int>(y_[i]);
  return out;
}

void Dataset::validate() const {
  for (std::size_t f = 0; f < columns_.size(); ++f) {
    const Feature& feat = schema_.features[f];
    for (std::size_t r = 0; r < columns_[f].size(); ++r) {
      double v = columns_[f][r];
      if (std::isnan(v) && feat.kind == FeatureKind::kNumeric && !schema_.missing_numeric.empty()) continue;
      if (!std::isfinite(v)) fail("dataset ", name_, ": row ", r, ", column '", feat.name, "' is not finite");
      if (feat.kind == FeatureKind::kCategorical &&
          (v < 0 || v >= static_cast<double>(feat.n_categories()) || v != std::floor(v)))
        fail("dataset ", name_, ": row ", r, ", column '", feat.name, "' has category code ", v, " outside 0..",
             feat.n_categories() - 1);
    }
  }
  for (std::size_t r = 0; r < y_.size(); ++r) {
    double v = y_[r];
    if (!std::isfinite(v)) fail("dataset ", name_, ": row ", r, ", target is not finite");
    if (task() == TaskKind::kClassification &&
        (v < 0 || v >= static_cast<double>(n_classes()) || v != std::floor(v)))
      fail("dataset ", name_, ": row ", r, ", class index ", v, " outside 0..", n_classes() - 1);
  }
}

std::size_t count_outside_bounds(const Dataset& data) {
  const Schema& s = data.schema();
  std::size_t n = 0;
  auto count = [&](std::span<const double> values, double lo, double hi) {
    for (double v : values) n += (v < lo || v > hi) ? 1 : 0;  // NaN is neither
  };
  for (std::size_t f = 0; f < s.features.size(); ++f)
    if (s.features[f].kind == FeatureKind::kNumeric) count(data.column(f), s.features[f].lo, s.features[f].hi);
  if (s.target.task == TaskKind::kRegression) count(data.y(), s.target.lo, s.target.hi);
  return n;
}

std::size_t clamp_to_bounds(Dataset& data) {
  const Schema& s = data.schema();
  std::size_t n = 0;
  auto clamp = [&](std::span<double> values, double lo, double hi) {
    for (double& v : values) {
      if (v < lo || v > hi) {  // NaN is neither: a missing value stays missing
        v = v < lo ? lo : hi;
        ++n;
      }
    }
  };
  for (std::size_t f = 0; f < s.features.size(); ++f)
    if (s.features[f].kind == FeatureKind::kNumeric) clamp(data.mutable_column(f), s.features[f].lo, s.features[f].hi);
  if (s.target.task == TaskKind::kRegression) clamp(data.mutable_y(), s.target.lo, s.target.hi);
  return n;
}

const Dataset& clamped_to_bounds(const Dataset& data, Dataset& storage) {
  if (count_outside_bounds(data) == 0) return data;
  storage = data;
  clamp_to_bounds(storage);
  return storage;
}

std::vector<uint32_t> all_rows(std::size_t n) {
  std::vector<uint32_t> r(n);
  std::iota(r.begin(), r.end(), 0u);
  return r;
}

}  // namespace dpf
