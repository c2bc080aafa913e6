// Preprocessing (design.md §2: fitted on the training part unless a paper says otherwise).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

// Min-max scaling of a regression target to [0, 1] (dipreme.md §1). fit_* computes lo/hi from the
// given rows; apply rescales every row and sets the schema's target bounds to [0, 1].
struct TargetScaler {
  double lo = 0.0, hi = 1.0;
  void apply(Dataset& data) const;
};
TargetScaler fit_target_minmax(const Dataset& data, std::span<const uint32_t> rows);
// Divide by the maximum only (Parkinson's in the DiPriMe notebooks): lo = 0.
TargetScaler fit_target_max(const Dataset& data, std::span<const uint32_t> rows);

// Equal-width binning of every numeric feature into k bins over its domain [lo, hi] in the schema
// (pandas cut(bins=k) semantics: bin i covers [lo + i w, lo + (i+1) w), the last bin is closed,
// values outside the domain are clamped to the end bins). The features become categorical with
// categories "0".."k-1". Categorical features are kept. A missing value (NaN, schema.missing_numeric)
// stays NaN, to be imputed per training fold.
Dataset bin_equal_width(const Dataset& data, int k);

// Replaces the schema's numeric domains with min/max over the given rows and categorical lists are
// kept (the DiPriMe authors' practice, dipreme.md §1; not private: privacy.md §6 P6). Sets
// schema.domains_source = "from-data". Missing values (NaN) are skipped.
void domains_from_data(Dataset& data, std::span<const uint32_t> rows);

// Training-fold median imputation (registry rule missing.rule impute-train-median, datasets/README.md;
// the harness choice of multinomial-rf.md §1.8). fit_median_imputer looks only at the given rows (a
// task's training rows: no test value can move a median) and, per feature:
// - numeric: the median of its non-missing values (the mean of the two middle ones for an even
//   count, as numpy.median and scikit-learn's SimpleImputer(strategy="median"));
// - categorical (a numeric feature binned by bin_equal_width): the lower median code, which is a
//   valid category and equals the bin of the lower median value since binning is monotone;
// - fallback when none of the rows has a value: the midpoint of the public domain (lo + hi) / 2
//   (categorical: code floor(k / 2), the bin of that midpoint), public and inside the domain; the
//   feature's name is listed in `fallback`.
// Deterministic (sorting only). Not differentially private: the medians are exact statistics of
// the training rows (privacy.md §6 asks for a data-independent cleaning rule on private paths).
struct MedianImputer {
  std::vector<double> value;          // per feature: the value that replaces a NaN
  std::vector<std::string> fallback;  // features whose rows held no value (domain midpoint used)
  // Replaces every NaN feature value (all rows: training and test) by value[f].
  void apply(Dataset& data) const;
};
MedianImputer fit_median_imputer(const Dataset& data, std::span<const uint32_t> rows);
// For commands that fit on every row (describe, bench-fit, export-dataset): when the schema asks for
// median imputation, imputes in place with the medians of all rows, so nothing downstream sees NaN.
// Experiments never call this: their tasks impute per training fold (experiments/run/task.cpp).
void impute_with_all_rows(Dataset& data);

}  // namespace dpf
