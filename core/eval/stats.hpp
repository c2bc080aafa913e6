// Statistics used in reports: summaries and the Wilcoxon signed-rank test (paired, two-sided).
#pragma once
#include <span>

namespace dpf {

struct Summary {
  double mean = 0, std = 0;  // std with ddof = 1 (NaN for n < 2)
  double std_pop = 0;        // ddof = 0 (the DiPriMe notebooks' choice, dipreme.md §3.6)
  double ci95_half = 0;      // t_{0.975, n-1} * std_pop / sqrt(n), as the DiPriMe notebooks report
  std::size_t n = 0;
};
Summary summarize(std::span<const double> x);

struct WilcoxonResult {
  double statistic = 0;  // W = min(W+, W-) over the non-zero differences
  double p_value = 1;    // two-sided
  std::size_t n_used = 0;  // pairs with a non-zero difference
  bool exact = false;    // exact null distribution (n_used <= 50, no ties) vs normal approximation
};
// Wilcoxon signed-rank test of x - y (scipy.stats.wilcoxon defaults: zero differences dropped
// ("wilcox"), midranks for ties, exact distribution when n <= 50 without ties, otherwise the normal
// approximation with tie correction and no continuity correction). Requires x.size() == y.size().
WilcoxonResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y);

}  // namespace dpf
