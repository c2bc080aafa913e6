#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/eval/stats.hpp"
#include "core/util/error.hpp"

using dpf::summarize;
using dpf::wilcoxon_signed_rank;

namespace {
// The test takes x and y; feeding y = 0 tests the differences d directly.
dpf::WilcoxonResult wilcoxon_of(const std::vector<double>& d) {
  std::vector<double> zeros(d.size(), 0.0);
  return wilcoxon_signed_rank(d, zeros);
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("summarize: mean, both standard deviations and the t-based half-width") {
    std::vector<double> x{1, 2, 3, 4};
    auto s = summarize(x);
    CHECK(s.n == 4);
    CHECK(s.mean == doctest::Approx(2.5));
    CHECK(s.std == doctest::Approx(std::sqrt(5.0 / 3.0)).epsilon(1e-12));
    CHECK(s.std_pop == doctest::Approx(std::sqrt(1.25)).epsilon(1e-12));
    // t_{0.975, 3} = 3.182446305284263 (standard table value).
    CHECK(s.ci95_half == doctest::Approx(3.182446305284263 * std::sqrt(1.25) / 2.0).epsilon(1e-10));
  }

  TEST_CASE("summarize: a single value has NaN std and zero half-width; empty input is an error") {
    std::vector<double> one{0.7};
    auto s = summarize(one);
    CHECK(s.mean == 0.7);
    CHECK(std::isnan(s.std));
    CHECK(s.std_pop == 0.0);
    CHECK(s.ci95_half == 0.0);
    CHECK_THROWS_AS(summarize(std::vector<double>{}), dpf::Error);
  }

  TEST_CASE("summarize: large-n half-width approaches 1.96 sigma / sqrt(n)") {
    std::vector<double> x;
    for (int i = 0; i < 10000; ++i) x.push_back(i % 2 ? 1.0 : -1.0);
    auto s = summarize(x);
    CHECK(s.std_pop == doctest::Approx(1.0));
    CHECK(s.ci95_half == doctest::Approx(1.96 / 100.0).epsilon(1e-3));
  }

  TEST_CASE("wilcoxon: Gehan's corn data, exact (scipy doc: W = 24, p = 0.041259765625)") {
    auto r = wilcoxon_of({6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75});
    CHECK(r.exact);
    CHECK(r.n_used == 15);
    CHECK(r.statistic == 24.0);
    CHECK(r.p_value == doctest::Approx(0.041259765625).epsilon(1e-14));
  }

  TEST_CASE("wilcoxon: a zero difference forces the normal approximation (scipy approx: 0.04088813291185591)") {
    // Same ranks as the Gehan data once the zero is dropped, so W and n match scipy's approx example.
    auto r = wilcoxon_of({6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75, 0});
    CHECK_FALSE(r.exact);
    CHECK(r.n_used == 15);
    CHECK(r.statistic == 24.0);
    CHECK(r.p_value == doctest::Approx(0.04088813291185591).epsilon(1e-12));
  }

  TEST_CASE("wilcoxon: ties use midranks and the tie-corrected variance") {
    // |d| ranks: 1,1 -> 1.5; 2,2 -> 3.5; 3 -> 5; 4,4,4 -> 7; 5 -> 9; 6 -> 10. W- = 1.5 + 5 + 10 = 16.5.
    // var = 10*11*21/24 - (6 + 6 + 24)/48 = 95.5; z = (16.5 - 27.5)/sqrt(95.5); p = erfc(|z|/sqrt 2).
    auto r = wilcoxon_of({1, -1, 2, 2, -3, 4, 4, 4, 5, -6, 0});
    CHECK_FALSE(r.exact);
    CHECK(r.n_used == 10);
    CHECK(r.statistic == 16.5);
    const double z = (16.5 - 27.5) / std::sqrt(95.5);
    CHECK(r.p_value == doctest::Approx(std::erfc(std::abs(z) / std::sqrt(2.0))).epsilon(1e-12));
    CHECK(r.p_value == doctest::Approx(0.2603272787106182).epsilon(1e-12));  // independent Python calc
  }

  TEST_CASE("wilcoxon: more than 50 pairs uses the normal approximation") {
    std::vector<double> d;
    for (int i = 0; i < 60; ++i) d.push_back((i + 1) * (i % 3 == 0 ? -1.0 : 1.0));  // W- = 1+4+...+58
    auto r = wilcoxon_of(d);
    CHECK_FALSE(r.exact);
    CHECK(r.statistic == 590.0);
    const double z = (590.0 - 60.0 * 61.0 / 4.0) / std::sqrt(60.0 * 61.0 * 121.0 / 24.0);
    CHECK(r.p_value == doctest::Approx(std::erfc(std::abs(z) / std::sqrt(2.0))).epsilon(1e-12));
  }

  TEST_CASE("wilcoxon: exact small cases") {
    // All five differences positive: only 1 of 2^5 sign patterns has W- = 0, two-sided p = 2/32.
    auto r = wilcoxon_of({1, 2, 3, 4, 5});
    CHECK(r.exact);
    CHECK(r.statistic == 0.0);
    CHECK(r.p_value == doctest::Approx(0.0625).epsilon(1e-15));
    // Symmetric outcomes sit at the centre of the null distribution: p = 1.
    CHECK(wilcoxon_of({1, -2, -3, 4}).p_value == 1.0);  // W+ = W- = 5, even total
    CHECK(wilcoxon_of({1, 2, -3}).p_value == 1.0);      // W+ = W- = 3
    CHECK(wilcoxon_of({-1, 2}).p_value == 1.0);         // W = 1 of total 3: the two middle values
    // Ties at the centre under the approximation also give p = 1.
    auto t = wilcoxon_of({1, -1, 2, -2, 3, -3});
    CHECK_FALSE(t.exact);
    CHECK(t.p_value == doctest::Approx(1.0));
  }

  TEST_CASE("wilcoxon: exact p-values agree with brute-force enumeration of sign patterns") {
    std::vector<double> d{3, -1, 7, 2, -5, 4, 6, -8, 9, 10, -11, 12};
    const int n = static_cast<int>(d.size());
    double w_minus = 0;
    for (double v : d) w_minus += v < 0 ? std::abs(v) : 0;  // |d| are exactly the ranks 1..n
    const double w = std::min(w_minus, n * (n + 1) / 2.0 - w_minus);
    int at_most = 0;
    for (int mask = 0; mask < (1 << n); ++mask) {
      int sum = 0;
      for (int i = 0; i < n; ++i)
        if (mask >> i & 1) sum += i + 1;
      at_most += sum <= w;
    }
    auto r = wilcoxon_of(d);
    CHECK(r.exact);
    CHECK(r.statistic == w);
    CHECK(r.p_value == doctest::Approx(std::min(1.0, 2.0 * at_most / (1 << n))).epsilon(1e-15));
  }

  TEST_CASE("wilcoxon: x - y is what is ranked, and the test is symmetric in x and y") {
    std::vector<double> x{10, 12, 9, 15, 20, 7}, y{8, 13, 4, 15.5, 11, 6.5};
    auto a = wilcoxon_signed_rank(x, y), b = wilcoxon_signed_rank(y, x);
    CHECK(a.statistic == b.statistic);
    CHECK(a.p_value == b.p_value);
    // d = 2, -1, 5, -0.5, 9, 0.5: ties at |0.5| -> approximation.
    CHECK_FALSE(a.exact);
    CHECK(a.statistic == 1.5 + 3);
  }

  TEST_CASE("wilcoxon: degenerate and invalid input") {
    auto r = wilcoxon_of({0, 0, 0});
    CHECK(r.n_used == 0);
    CHECK(std::isnan(r.p_value));
    std::vector<double> a{1, 2}, b{1};
    CHECK_THROWS_AS(wilcoxon_signed_rank(a, b), dpf::Error);
    CHECK_THROWS_AS(wilcoxon_signed_rank(std::vector<double>{}, std::vector<double>{}), dpf::Error);
    std::vector<double> c{1, NAN};
    CHECK_THROWS_AS(wilcoxon_signed_rank(c, a), dpf::Error);
  }
}
