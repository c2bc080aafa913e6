#include "core/eval/stats.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "core/util/error.hpp"

namespace dpf {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// scipy's 'auto' rule: above this many pairs the normal approximation is used.
constexpr std::size_t kExactMaxPairs = 50;

// P(W+ <= t) under H0 for n untied ranks 1..n: each rank joins W+ with probability 1/2, so count the
// subsets of {1..n} by sum (dynamic programming). Counts stay below C(50,25) < 2^53, so both the
// uint64 sums and their conversion to double are exact.
double exact_lower_tail(std::size_t n, std::size_t t) {
  const std::size_t max_sum = n * (n + 1) / 2;
  std::vector<uint64_t> count(max_sum + 1, 0);
  count[0] = 1;
  for (std::size_t r = 1; r <= n; ++r)
    for (std::size_t s = r * (r + 1) / 2; s >= r; --s) count[s] += count[s - r];
  uint64_t below = 0;
  for (std::size_t s = 0; s <= std::min(t, max_sum); ++s) below += count[s];
  return std::ldexp(static_cast<double>(below), -static_cast<int>(n));
}

}  // namespace

Summary summarize(std::span<const double> x) {
  require(!x.empty(), "summarize: no values to summarize");
  Summary s;
  s.n = x.size();
  const double n = static_cast<double>(s.n);
  s.mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
  // Two-pass sum of squared deviations: no cancellation when the spread is small next to the mean.
  double ss = 0;
  for (double v : x) ss += (v - s.mean) * (v - s.mean);
  s.std_pop = std::sqrt(ss / n);
  if (s.n < 2) {
    s.std = kNaN;
    s.ci95_half = 0;  // a single value has no spread; the notebooks' formula gives 0 * t, not NaN
    return s;
  }
  s.std = std::sqrt(ss / (n - 1));
  const boost::math::students_t t_dist(n - 1);
  s.ci95_half = boost::math::quantile(t_dist, 0.975) * s.std_pop / std::sqrt(n);
  return s;
}

WilcoxonResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y) {
  require(x.size() == y.size(), "wilcoxon_signed_rank: x has ", x.size(), " values but y has ", y.size(),
          "; the test needs paired samples");
  require(!x.empty(), "wilcoxon_signed_rank: no pairs to test");
  std::vector<double> d;
  d.reserve(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    require(!std::isnan(x[i]) && !std::isnan(y[i]), "wilcoxon_signed_rank: pair ", i, " contains NaN");
    if (x[i] - y[i] != 0) d.push_back(x[i] - y[i]);  // zero_method "wilcox": zeros carry no sign
  }
  WilcoxonResult res;
  res.n_used = d.size();
  const bool had_zeros = d.size() < x.size();
  if (d.empty()) {
    // Every pair is tied: there is no signed rank to test. scipy raises here; a report comparing two
    // identical methods should show "no test" rather than abort, hence NaN.
    res.p_value = kNaN;
    return res;
  }

  // Midranks of |d|.
  const std::size_t n = d.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return std::abs(d[a]) < std::abs(d[b]); });
  double w_plus = 0, w_minus = 0;
  double tie_term = 0;  // sum over tie groups of t^3 - t
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && std::abs(d[order[j]]) == std::abs(d[order[i]])) ++j;
    const double midrank = 0.5 * static_cast<double>(i + 1 + j);
    for (std::size_t k = i; k < j; ++k) (d[order[k]] > 0 ? w_plus : w_minus) += midrank;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  res.statistic = std::min(w_plus, w_minus);

  const double nd = static_cast<double>(n);
  res.exact = n <= kExactMaxPairs && tie_term == 0 && !had_zeros;
  if (res.exact) {
    // The null distribution of W+ is symmetric about n(n+1)/4, so the two-sided p-value is twice the
    // lower tail at min(W+, W-), capped at 1 (the cap covers a statistic at the centre).
    const auto t = static_cast<std::size_t>(res.statistic);  // integral: no ties
    res.p_value = std::min(1.0, 2.0 * exact_lower_tail(n, t));
  } else {
    const double mean = nd * (nd + 1) / 4;
    const double var = nd * (nd + 1) * (2 * nd + 1) / 24 - tie_term / 48;
    // var > 0 for n >= 1 even when all |d| tie: n(n+1)(2n+1)/24 > (n^3 - n)/48.
    const double z = (res.statistic - mean) / std::sqrt(var);
    res.p_value = std::min(1.0, std::erfc(std::abs(z) / std::sqrt(2.0)));  // 2 * (1 - Phi(|z|))
  }
  return res;
}

}  // namespace dpf
