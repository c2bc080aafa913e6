// Columnar dataset. Numeric features hold their value; categorical features hold their category
// code (0..k-1) as a double; the target holds the class index (classification) or the value
// (regression). Missing values are resolved by the registry's rule (drop the row, or a declared
// category) before a Dataset exists, except under schema.missing_numeric (a NaN in a numeric
// feature, imputed per training fold before any fit).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/data/schema.hpp"

namespace dpf {

class Dataset {
 public:
  Dataset() = default;
  Dataset(std::string name, Schema schema);

  const std::string& name() const { return name_; }
  const Schema& schema() const { return schema_; }
  Schema& mutable_schema() { return schema_; }
  std::size_t n_rows() const { return y_.size(); }
  std::size_t n_features() const { return schema_.n_features(); }
  TaskKind task() const { return schema_.target.task; }
  std::size_t n_classes() const { return schema_.target.n_classes(); }

  std::span<const double> column(std::size_t f) const { return columns_[f]; }
  std::span<double> mutable_column(std::size_t f) { return columns_[f]; }
  double x(std::size_t row, std::size_t f) const { return columns_[f][row]; }
  std::span<const double> y() const { return y_; }
  std::span<double> mutable_y() { return y_; }
  int label(std::size_t row) const { return static_cast<int>(y_[row]); }

  // Appends one row (values in schema order). Used by loaders and tests.
  void add_row(std::span<const double> x, double y);
  void reserve(std::size_t rows);
  // A new dataset holding the given rows (in that order).
  Dataset subset(std::span<const uint32_t> rows) const;
  // Labels as ints (classification only).
  std::vector<int> labels() const;
  // Checks codes and labels against the schema; throws dpf::Error naming the row and column.
  void validate() const;

 private:
  std::string name_;
  Schema schema_;
  std::vector<std::vector<double>> columns_;
  std::vector<double> y_;
};

// All row indices 0..n-1.
std::vector<uint32_t> all_rows(std::size_t n);

// ---- Public bounds -----------------------------------------------------------------------------
// Every sensitivity is derived from the schema's PUBLIC bounds (design.md §4): numeric feature
// domains [lo, hi] and, for regression, the target bounds. A value outside them (a hand-written
// domain narrower than the data) would break those sensitivities, so every fit and every prediction
// sees the values clamped to the bounds. Clamping is a fixed map of each value that reads nothing
// but public knowledge: an algorithm that is DP for data inside the bounds stays DP for any data.
// NaN (a missing value, imputed later) is left as is.

// How many values lie outside the bounds.
std::size_t count_outside_bounds(const Dataset& data);
// Clamps them in place; returns how many moved.
std::size_t clamp_to_bounds(Dataset& data);
// `data` itself when every value is inside the bounds, else a clamped copy made in `storage`.
const Dataset& clamped_to_bounds(const Dataset& data, Dataset& storage);

}  // namespace dpf
