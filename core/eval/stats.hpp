// Statistics used in reports: summaries and the Wilcoxon signed-rank test (paired, two-sided).
#pragma once
#include <cstddef>
#include <span>

namespace dpf {

struct Summary {
  double mean = 0, std = 0;  // std with ddof = 1 (NaN for n < 2)
  double std_pop = 0;        // ddof = 0 (the DiPriMe notebooks' choice, dipreme.md §3.6)
  double ci95_half = 0;      // t_{0.975, n-1} * std_pop / sqrt(n), as the DiPriMe notebooks report; 0 for n = 1
  std::size_t n = 0;
};
// Requires a non-empty x. NaN values propagate into mean and spreads (they are not dropped).
Summary summarize(std::span<const double> x);

struct WilcoxonResult {
  double statistic = 0;  // W = min(W+, W-) over the non-zero differences
  double p_value = 1;    // two-sided; NaN when every difference is zero (n_used = 0)
  std::size_t n_used = 0;  // pairs with a non-zero difference
  bool exact = false;    // exact null distribution vs normal approximation (see below)
};
// Wilcoxon signed-rank test of x - y (scipy.stats.wilcoxon >= 1.9 defaults: zero differences dropped
// ("wilcox"), midranks of |x - y| for ties, two-sided). The p-value is exact (null distribution of the
// rank sum by dynamic programming) when there are at most 50 pairs, no zero differences and no ties
// in |x - y|; otherwise it is the normal approximation with tie correction and no continuity
// correction, as scipy's method="auto" does. Differences are compared exactly: values that are equal
// in theory but differ by rounding count as distinct (round x - y first if that matters).
// Requires x.size() == y.size() > 0 and no NaN; where scipy raises on all-zero differences we return
// p = NaN so a report comparing two identical methods can go on.
WilcoxonResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y);

}  // namespace dpf
