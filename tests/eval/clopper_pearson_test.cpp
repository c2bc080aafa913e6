// Exact one-sided Clopper-Pearson bounds (core/eval/clopper_pearson.hpp) against closed forms and the
// binomial tail they invert.
#include <doctest/doctest.h>

#include <cmath>

#include "core/eval/clopper_pearson.hpp"
#include "core/util/error.hpp"

namespace dpf {
namespace {

// P(X >= k) for X ~ Binomial(n, p), summed in log space.
double binom_sf(int64_t n, int64_t k, double p) {
  double s = 0;
  for (int64_t i = k; i <= n; ++i)
    s += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + i * std::log(p) +
                  (n - i) * std::log1p(-p));
  return s;
}

}  // namespace

TEST_CASE("clopper-pearson: closed forms at the ends") {
  // k = 0: upper = 1 - alpha^(1/n); k = n: lower = alpha^(1/n).
  for (int64_t n : {1, 10, 1000, 100000})
    for (double a : {0.05, 1e-5}) {
      CHECK(cp_upper(0, n, a) == doctest::Approx(1 - std::pow(a, 1.0 / n)).epsilon(1e-9));
      CHECK(cp_lower(n, n, a) == doctest::Approx(std::pow(a, 1.0 / n)).epsilon(1e-9));
      CHECK(cp_lower(0, n, a) == 0.0);
      CHECK(cp_upper(n, n, a) == 1.0);
    }
}

TEST_CASE("clopper-pearson: the lower bound inverts the binomial tail") {
  // At p = cp_lower(k, n, a), P(X >= k) = a exactly; the bound is symmetric: lower(k) = 1 - upper(n - k).
  for (int64_t n : {20, 500, 5000})
    for (int64_t k : {int64_t{1}, n / 3, n - 1})
      for (double a : {0.05, 1e-5}) {
        const double lo = cp_lower(k, n, a);
        CHECK(binom_sf(n, k, lo) == doctest::Approx(a).epsilon(1e-6));
        CHECK(lo == doctest::Approx(1 - cp_upper(n - k, n, a)).epsilon(1e-9));
        CHECK(lo < static_cast<double>(k) / n);
        CHECK(cp_upper(k, n, a) > static_cast<double>(k) / n);
      }
}

TEST_CASE("clopper-pearson: bad arguments name the function") {
  CHECK_THROWS_WITH_AS(cp_lower(5, 4, 0.05), doctest::Contains("cp_lower"), Error);
  CHECK_THROWS_WITH_AS(cp_upper(1, 4, 0.0), doctest::Contains("alpha"), Error);
}

}  // namespace dpf
