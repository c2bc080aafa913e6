// Statistics for the sampler conformance tests (privacy.md §7.3): DKW bound, Kolmogorov distance,
// Pearson chi-square with merged small bins and an exact chi-square critical value.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace dpf::test {

// Per-test false-alarm rate used by every statistical test (privacy.md §7.1).
inline constexpr double kAlpha = 1e-5;

// DKW with Massart's constant: P(sup|F_n - F| > t) <= 2 exp(-2 n t^2), so t = sqrt(ln(2/α) / (2n)).
inline double dkw_threshold(std::size_t n, double alpha = kAlpha) {
  return std::sqrt(std::log(2.0 / alpha) / (2.0 * static_cast<double>(n)));
}

// sup_x |F_n(x) - F(x)| for the samples (sorted in place) against the CDF F.
inline double kolmogorov_distance(std::vector<double>& xs, const std::function<double(double)>& cdf) {
  std::sort(xs.begin(), xs.end());
  const double n = static_cast<double>(xs.size());
  double d = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double f = cdf(xs[i]);
    d = std::max(d, std::max(f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f));
  }
  return d;
}

// Regularised upper incomplete gamma Q(a, x) (series for x < a + 1, Lentz continued fraction else).
inline double gamma_q(double a, double x) {
  if (x <= 0.0) return 1.0;
  const double log_prefix = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1.0) {
    double term = 1.0 / a, sum = term;
    for (int k = 1; k < 10000; ++k) {
      term *= x / (a + k);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1.0 - sum * std::exp(log_prefix);
  }
  const double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < 1e-16) break;
  }
  return std::exp(log_prefix) * h;
}

// Upper-α quantile of chi-square(df): the x with P(X > x) = α, by bisection.
inline double chi_square_critical(std::size_t df, double alpha = kAlpha) {
  const double a = 0.5 * static_cast<double>(df);
  double lo = 0.0, hi = 10.0 * static_cast<double>(df) + 200.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (gamma_q(a, 0.5 * mid) > alpha) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

struct ChiSquare {
  double statistic = 0.0;
  std::size_t df = 0;
  double critical = 0.0;
  bool reject = false;
};

// Pearson X² of counts against probabilities. Bins with expectation < 5 are pooled into one bin
// (itself merged into the smallest large bin if its expectation is still < 5). A count in a bin of
// probability 0 is an immediate rejection.
inline ChiSquare chi_square_test(const std::vector<uint64_t>& counts, const std::vector<double>& probs,
                                 double alpha = kAlpha) {
  ChiSquare r;
  uint64_t n = 0;
  for (uint64_t c : counts) n += c;
  const double nd = static_cast<double>(n);
  std::vector<double> exp_big, obs_big;
  double exp_small = 0.0, obs_small = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double e = probs[i] * nd;
    if (probs[i] <= 0.0 && counts[i] > 0) {
      r.statistic = std::numeric_limits<double>::infinity();
      r.reject = true;
      return r;
    }
    if (e >= 5.0) {
      exp_big.push_back(e);
      obs_big.push_back(static_cast<double>(counts[i]));
    } else {
      exp_small += e;
      obs_small += static_cast<double>(counts[i]);
    }
  }
  if (exp_small >= 5.0) {
    exp_big.push_back(exp_small);
    obs_big.push_back(obs_small);
  } else if ((exp_small > 0.0 || obs_small > 0.0) && !exp_big.empty()) {
    const auto it = std::min_element(exp_big.begin(), exp_big.end());
    const std::size_t j = static_cast<std::size_t>(it - exp_big.begin());
    exp_big[j] += exp_small;
    obs_big[j] += obs_small;
  }
  if (exp_big.size() < 2) return r;  // nothing to test: one bin holds all the mass
  for (std::size_t i = 0; i < exp_big.size(); ++i) {
    const double d = obs_big[i] - exp_big[i];
    r.statistic += d * d / exp_big[i];
  }
  r.df = exp_big.size() - 1;
  r.critical = chi_square_critical(r.df, alpha);
  r.reject = r.statistic > r.critical;
  return r;
}

}  // namespace dpf::test
