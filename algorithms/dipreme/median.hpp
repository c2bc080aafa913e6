// Private median splits of the DiPriMe family (dipreme.md §2.5, §2.6).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/privacy/rng.hpp"

namespace dpf {

enum class NumericMedian {
  kExponential,       // §2.5a: EM over the M+1 data intervals, Lebesgue base measure ([ICML], final code)
  kUniformPositions,  // §2.5b: EM over positions, then uniform in the data interval ([v1]); not DP (P7)
  kFlipCode,          // §2.5c: PFM over the intervals with score 2 ln(len) - |2j - M| ([code]); not DP (P3)
  kFlipGrid,          // §2.5c "grid": PFM over 256 public thresholds, score -|N_L - N_R|, Δ = 1 (strict)
  kExact,             // non-private median forest: the sample median (numpy.median semantics)
};

// Threshold r in [lo, hi] for a node whose values of the attribute are `sorted` (ascending; values
// outside [lo, hi] are clamped to it, a data-independent repair). Rows with x >= r go to the upper
// child. Score of r: -|#{x < r} - #{x >= r}|, add/remove sensitivity 1. `epsilon` is ε_s. A
// threshold drawn between two data points (kExponential, kUniformPositions, kFlipCode) is a point
// of the public threshold grid of [lo, hi] (mechanisms.hpp threshold_grid).
double numeric_median_split(Rng& rng, std::span<const double> sorted, double lo, double hi, double epsilon,
                            NumericMedian mechanism);

// The same split for the node's values in any order; `values` is scratch and is reordered. The
// output has the same distribution as numeric_median_split on the sorted values (the Lebesgue EM
// may order its random draws differently for large nodes, see numeric_median_em).
double numeric_median_split_unsorted(Rng& rng, std::span<double> values, double lo, double hi, double epsilon,
                                     NumericMedian mechanism);

// §2.5a, the EM over the M+1 data intervals with a Lebesgue base measure, for values in any order
// (reordered in place; values outside [lo, hi] are clamped), on the public threshold grid of
// [lo, hi]: the law of interval_exponential_mechanism (mechanisms.hpp), sampled exactly
// (core/privacy/exact.hpp). Interval j (dist(j) positions from the median position(s)) has weight
// n_j exp(-c 2 dist(j)), n_j its grid points. Intervals with dist(j) <= window (default
// ceil(20/ε) + 8) are found by selection and sorted; the two tails beyond stay unsorted. The
// rejection sampler's envelope has one entry per run of window intervals sharing an envelope
// exponent (found by bisection, O(log window) each; at most 61 runs a side) and one
// per tail. A proposal is a uniform grid point of an entry; its interval is found by binary search
// (a tail is sorted the first time it is hit) and the point kept with that interval's own exact
// weight ratio. So the output has exactly the EM's law while the usual draw costs O(M) selection,
// O(window log window) sorting and O(runs log window) weights. ε = ∞ goes to
// interval_exponential_mechanism on the sorted values.
double numeric_median_em(Rng& rng, std::span<double> values, double lo, double hi, double epsilon,
                         std::size_t window = 0);

enum class CategoricalMedian { kExponential, kPermuteAndFlip, kExact };

// Bipartition of the categories still allowed at the node (bitmask `allowed`, k = popcount). The
// candidates are the 2^(k-1) - 1 proper bipartitions with the first allowed category always in the
// complement (the code's bitmask order, §2.6); score -|2 n_C - M|, sensitivity 1, uniform base
// measure. `counts[c]` is the node's row count of category c. Returns the mask of C (child 0).
// For k > 22 the 2^(k-1) enumeration is too large: the candidates become the k - 1 prefix splits of
// the categories in code order (a public order), and the caller is told through `used_prefix`.
uint64_t categorical_median_split(Rng& rng, std::span<const int> counts, uint64_t allowed, double epsilon,
                                  CategoricalMedian mechanism, bool* used_prefix = nullptr);

}  // namespace dpf
