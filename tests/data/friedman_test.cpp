// Friedman's regression benchmarks as synthetic specs (core/data/friedman.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "core/data/synthetic.hpp"
#include "core/util/error.hpp"

using namespace dpf;

TEST_SUITE("unit") {
  TEST_CASE("friedman: regression rows inside their public bounds, the formula's value without noise, prefixes stable") {
    for (const std::string kind : {"friedman1", "friedman2", "friedman3"}) {
      CAPTURE(kind);
      const Dataset d = make_synthetic_dataset("synthetic:" + kind + ":n=500,d=6,seed=3,noise=1");
      REQUIRE(d.n_rows() == 500);
      CHECK(d.task() == TaskKind::kRegression);
      const Schema& s = d.schema();
      for (std::size_t r = 0; r < d.n_rows(); ++r) {
        CHECK(d.y()[r] >= s.target.lo);
        CHECK(d.y()[r] <= s.target.hi);
        for (std::size_t j = 0; j < s.n_features(); ++j) {
          CHECK(d.column(j)[r] >= s.features[j].lo);
          CHECK(d.column(j)[r] <= s.features[j].hi);
        }
      }
      const Dataset prefix = make_synthetic_dataset("synthetic:" + kind + ":n=50,d=6,seed=3,noise=1");
      for (std::size_t r = 0; r < 50; ++r) CHECK(prefix.y()[r] == d.y()[r]);
    }
    const Dataset clean = make_synthetic_dataset("synthetic:friedman1:n=20,d=5,seed=1,noise=0");
    for (std::size_t r = 0; r < 20; ++r) {
      auto x = [&](int j) { return clean.column(static_cast<std::size_t>(j))[r]; };
      const double y = 10 * std::sin(std::numbers::pi * x(0) * x(1)) + 20 * (x(2) - 0.5) * (x(2) - 0.5) + 10 * x(3) + 5 * x(4);
      CHECK(clean.y()[r] == doctest::Approx(y));
    }
    CHECK_THROWS_WITH_AS(make_synthetic_dataset("synthetic:friedman1:n=20,d=3"), doctest::Contains("d >= 5"), Error);
    CHECK_THROWS_WITH_AS(make_synthetic_dataset("synthetic:friedman4:n=20"), doctest::Contains("friedman3"), Error);
  }
}
