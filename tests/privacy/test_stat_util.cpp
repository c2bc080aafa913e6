// The statistics used by the conformance tests are themselves checked against known values.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "privacy/stat_util.hpp"

TEST_SUITE("unit") {
  TEST_CASE("chi-square critical values at alpha = 1e-5") {
    CHECK(dpf::test::chi_square_critical(1) == doctest::Approx(19.5114).epsilon(1e-5));
    CHECK(dpf::test::chi_square_critical(2) == doctest::Approx(-2.0 * std::log(1e-5)).epsilon(1e-9));  // exact
    CHECK(dpf::test::chi_square_critical(10) == doctest::Approx(41.2962).epsilon(1e-5));
    // Regularised gamma: Q(1, x) = e^-x.
    CHECK(dpf::test::gamma_q(1.0, 3.0) == doctest::Approx(std::exp(-3.0)).epsilon(1e-12));
    CHECK(dpf::test::gamma_q(1.0, 0.5) == doctest::Approx(std::exp(-0.5)).epsilon(1e-12));
  }

  TEST_CASE("DKW threshold for n = 100000 is 0.0078") {
    CHECK(dpf::test::dkw_threshold(100000) == doctest::Approx(0.00781).epsilon(1e-3));
  }

  TEST_CASE("chi-square pools small bins and rejects mass on impossible bins") {
    // Two big bins and three tiny ones pooled into one (expectation 3 < 5 -> merged into a big bin).
    const std::vector<double> p{0.5, 0.47, 0.01, 0.01, 0.01};
    auto t = dpf::test::chi_square_test({50, 47, 1, 1, 1}, p);
    CHECK(t.df == 1);
    CHECK_FALSE(t.reject);
    t = dpf::test::chi_square_test({50, 49, 1}, {0.5, 0.5, 0.0});
    CHECK(t.reject);
  }
}
