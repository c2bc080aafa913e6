// Clamping to the public bounds (core/data/dataset.hpp): numeric features and a regression target,
// NaN kept, categorical codes and class labels untouched.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/data/dataset.hpp"

TEST_SUITE("unit") {
  TEST_CASE("clamp_to_bounds moves exactly the values outside the public bounds") {
    dpf::Schema s;
    s.features = {{"a", dpf::FeatureKind::kNumeric, -1.0, 1.0, {}},
                  {"c", dpf::FeatureKind::kCategorical, 0, 0, {"u", "v", "w"}}};
    s.target.name = "y";
    s.target.task = dpf::TaskKind::kRegression;
    s.target.lo = 0.0;
    s.target.hi = 10.0;
    dpf::Dataset d("t", s);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double rows[][3] = {{-3.0, 2, 11.0}, {0.5, 1, 5.0}, {1.0, 0, -0.5}, {nan, 2, 10.0}, {7.0, 1, 0.0}};
    for (const auto& r : rows) d.add_row(std::span<const double>(r, 2), r[2]);
    CHECK(dpf::count_outside_bounds(d) == 4);
    dpf::Dataset storage;
    const dpf::Dataset& c = dpf::clamped_to_bounds(d, storage);
    CHECK(&c == &storage);
    CHECK(dpf::count_outside_bounds(c) == 0);
    CHECK(c.column(0)[0] == -1.0);
    CHECK(c.column(0)[1] == 0.5);
    CHECK(std::isnan(c.column(0)[3]));
    CHECK(c.column(0)[4] == 1.0);
    CHECK(c.column(1)[0] == 2.0);  // a category code is not a value on a scale
    CHECK(c.y()[0] == 10.0);
    CHECK(c.y()[2] == 0.0);
    CHECK(c.y()[3] == 10.0);
    // Inside the bounds: the dataset itself, no copy.
    dpf::Dataset again;
    CHECK(&dpf::clamped_to_bounds(c, again) == &c);
    dpf::Dataset e = d;
    CHECK(dpf::clamp_to_bounds(e) == 4);
    CHECK(dpf::clamp_to_bounds(e) == 0);
  }

  TEST_CASE("class labels are not clamped as a target range") {
    dpf::Schema s;
    s.features = {{"a", dpf::FeatureKind::kNumeric, 0.0, 1.0, {}}};
    s.target.name = "y";
    s.target.classes = {"0", "1", "2"};  // classification: lo/hi are not bounds of the labels
    s.target.lo = 0.0;
    s.target.hi = 1.0;
    dpf::Dataset d("t", s);
    const double x = 0.5;
    d.add_row(std::span<const double>(&x, 1), 2.0);
    CHECK(dpf::count_outside_bounds(d) == 0);
  }
}
