// A tiny dataset with missing numeric values, shared by the imputation tests (tests/data/impute_test.cpp,
// tests/experiments/impute_task_test.cpp).
#pragma once
#include <cstddef>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf::test {

// Numeric a in [0, 20], numeric b in [2, 8], categorical c = row % 2; NaN marks a missing value;
// the schema asks for training-fold median imputation.
inline Dataset toy_with_missing(const std::vector<double>& a, const std::vector<double>& b) {
  Schema s;
  s.features = {{"a", FeatureKind::kNumeric, 0.0, 20.0, {}},
                {"b", FeatureKind::kNumeric, 2.0, 8.0, {}},
                {"c", FeatureKind::kCategorical, 0, 0, {"u", "v"}}};
  s.target.name = "y";
  s.target.classes = {"0", "1"};
  s.missing_numeric = "train-median";
  Dataset d("toy", s);
  for (std::size_t i = 0; i < a.size(); ++i) {
    double x[] = {a[i], b[i], static_cast<double>(i % 2)};
    d.add_row(x, static_cast<double>(i % 2));
  }
  return d;
}

}  // namespace dpf::test
