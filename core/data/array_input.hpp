// Datasets built from in-memory arrays (the Python binding, python/): a strided matrix of doubles
// (numpy's layout, read in place: no intermediate copy) plus a schema whose PUBLIC domains the caller
// gives explicitly (design.md §4). Every value is checked against the schema before a Dataset
// exists; an error names the column, the row and the value.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

// A row-major or column-major (or any strided) view; strides in elements, not bytes.
struct StridedMatrix {
  const double* data = nullptr;
  std::size_t rows = 0, cols = 0;
  std::ptrdiff_t row_stride = 0, col_stride = 0;
  double at(std::size_t r, std::size_t c) const {
    return data[static_cast<std::ptrdiff_t>(r) * row_stride + static_cast<std::ptrdiff_t>(c) * col_stride];
  }
};

// What the caller declares about the features. Per feature: categorical features list their
// category names (X then holds codes: code c is categories[f][c]); numeric features have
// [lo[f], hi[f]]. bounds_from_data replaces every numeric domain by the training min/max (not
// private: schema.domains_source becomes "from-data").
struct ArrayFeatures {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> categories;  // empty for a numeric feature
  std::vector<double> lo, hi;                        // numeric domains (ignored for categorical features)
  bool bounds_from_data = false;
};

// The schema of n features declared by `spec` and a target (classes or regression bounds).
// Throws dpf::Error when a name list has the wrong length, a domain is empty or not finite, or a
// category list is empty or repeats a value.
Schema array_schema(const ArrayFeatures& spec, const Target& target);

// Builds a Dataset with `schema` from X (categorical features as codes 0..k-1) and y (class indices
// or regression values; nullptr: zeros, for prediction). Unless `schema.domains_source` is
// "from-data", every numeric value must lie inside its public domain; NaN, infinities, codes outside
// 0..k-1, class indices outside the class list and regression targets outside [lo, hi] are errors
// naming the column and the row. With domains_source "from-data" the numeric domains (and, for regression,
// target_from_data, the target bounds) are set to the min/max of the rows.
Dataset dataset_from_arrays(const std::string& name, Schema schema, const StridedMatrix& x, const double* y,
                            std::ptrdiff_t y_stride, bool target_from_data = false);

}  // namespace dpf
