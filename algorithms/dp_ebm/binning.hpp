// DP-EBM private binning (../shared/specs/dp-ebm.md §5; InterpretML _privacy.py
// private_numeric_binning / private_categorical_binning, _preprocessor.py). Each feature is binned once
// with one Gaussian query (a histogram of l2 sensitivity w_max = 1 under add/remove-one, §5.3); the
// noisy bin weights are released and reused as the boosting denominators (§6.3 step 5) and for
// centering (§7).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/privacy/rng.hpp"

namespace dpf::dp_ebm {

// How the noisy counts are turned into bins.
struct BinningRule {
  int n_bins = 31;             // B: the library passes max_bins - 1 (§5.1); paper-era code max_bins (§10.2)
  double mu = 1.0;             // GDP parameter of this feature's histogram query (sigma = 1 / mu)
  bool strict = false;         // target = sum of the noisy counts / B (free), not n / B (§9 fix 1);
                               // nominal: every category of the public schema is counted (§9 fix 2)
  bool paper_counts = false;   // v0.2.6: noisy counts rounded and clipped at >= 1, not >= 0 (§10.3)
};

// One feature's bins. Value -> bin: continuous, the number of cuts <= x (a value on a cut goes up,
// §2); nominal, category_bin[code]. Bins 0..n_bins()-1 are the boosting bins, in order.
struct FeatureBins {
  bool nominal = false;
  std::vector<double> cuts;           // continuous: cut values, on the public 2B-point grid
  std::vector<int> cut_grid;          // continuous: each cut's index on that grid (released)
  std::vector<int> category_bin;      // nominal: bin of every schema category (-1: the unseen bin)
  std::vector<double> weight;         // noisy weight of every boosting bin (> 0)
  bool has_other = false;             // nominal: the last boosting bin is DPOther (§5.2)
  double unseen_weight = 0.0;         // nominal: weight of the unseen bin when there is no DPOther
  std::size_t n_bins() const { return weight.size(); }
  // The bin of a value; nominal categories outside the kept ones go to DPOther or, without one, to the
  // unseen bin n_bins() (score 0 after centering, §7).
  int bin_of(double x) const;
};

// The noisy histogram of a continuous feature on [lo, hi] merged greedily into bins (§5.1).
// `values` are the training rows' values; n the training-set size (unused when strict).
FeatureBins bin_continuous(std::span<const double> values, double lo, double hi, const BinningRule& rule, Rng& rng);
// The noisy category counts of a nominal feature with `n_categories` public codes merged into kept
// categories and DPOther (§5.2). Library mode counts only the observed codes (§9 item 3).
FeatureBins bin_nominal(std::span<const double> codes, std::size_t n_categories, const BinningRule& rule, Rng& rng);

}  // namespace dpf::dp_ebm
