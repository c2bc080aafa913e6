// The continuous Gaussian sampler (core/privacy/normal.hpp) against its exact CDF (privacy.md §7.3):
// a DKW test on 200,000 draws at the suite's false-alarm rate, moments, determinism.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/privacy/normal.hpp"
#include "core/util/error.hpp"
#include "privacy/stat_util.hpp"

TEST_SUITE("statistical") {
  TEST_CASE("sample_normal matches the normal CDF (DKW, false-alarm rate 1e-5)") {
    for (double sd : {1.0, 0.37, 114.0}) {
      CAPTURE(sd);
      dpf::Rng rng(dpf::hash_string("normal") + static_cast<uint64_t>(sd * 1000));
      std::vector<double> xs(200000);
      double sum = 0.0, sq = 0.0;
      for (double& x : xs) {
        x = dpf::sample_normal(rng, sd);
        sum += x;
        sq += x * x;
      }
      const double n = static_cast<double>(xs.size());
      CHECK(std::abs(sum / n) < 5 * sd / std::sqrt(n));
      CHECK(sq / n == doctest::Approx(sd * sd).epsilon(0.02));
      const double d = dpf::test::kolmogorov_distance(xs, [sd](double x) { return 0.5 * std::erfc(-x / (sd * std::sqrt(2.0))); });
      CHECK(d < dpf::test::dkw_threshold(xs.size()));
    }
  }
}

TEST_SUITE("unit") {
  TEST_CASE("sample_normal: same key, same draws; bad scales rejected") {
    dpf::Rng a(7), b(7);
    for (int i = 0; i < 10; ++i) CHECK(dpf::sample_normal(a, 2.0) == dpf::sample_normal(b, 2.0));
    CHECK(dpf::sample_normal(a, 0.0) == 0.0);
    CHECK_THROWS_AS(dpf::sample_normal(a, -1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::sample_normal(a, INFINITY), dpf::Error);
  }
}
