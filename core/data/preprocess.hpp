// Preprocessing (design.md §2: fitted on the training part unless a paper says otherwise).
#pragma once
#include <cstdint>
#include <span>

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
// categories "0".."k-1". Categorical features are kept.
Dataset bin_equal_width(const Dataset& data, int k);

// Replaces the schema's numeric domains with min/max over the given rows and categorical lists are
// kept (the DiPriMe authors' practice, dipreme.md §1; not private: privacy.md §6 P6). Sets
// schema.domains_source = "from-data".
void domains_from_data(Dataset& data, std::span<const uint32_t> rows);

}  // namespace dpf
