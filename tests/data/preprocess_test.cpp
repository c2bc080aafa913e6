#include <doctest/doctest.h>

#include "core/data/preprocess.hpp"
#include "core/util/error.hpp"

namespace {

dpf::Dataset toy(dpf::TaskKind task) {
  dpf::Schema s;
  s.features = {{"a", dpf::FeatureKind::kNumeric, 0.0, 10.0, {}}, {"b", dpf::FeatureKind::kCategorical, 0, 0, {"u", "v"}}};
  s.target.name = "y";
  s.target.task = task;
  if (task == dpf::TaskKind::kClassification) s.target.classes = {"0", "1"};
  dpf::Dataset d("toy", s);
  const double a[] = {0.0, 1.9, 2.0, 5.0, 9.99, 10.0, -3.0, 12.0};
  for (int i = 0; i < 8; ++i) {
    double x[] = {a[i], static_cast<double>(i % 2)};
    d.add_row(x, task == dpf::TaskKind::kRegression ? 2.0 * i + 4.0 : i % 2);
  }
  return d;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("target min-max scaling is fitted on the given rows") {
    auto d = toy(dpf::TaskKind::kRegression);
    std::vector<uint32_t> train = {1, 2, 3};  // y = 6, 8, 10
    auto s = dpf::fit_target_minmax(d, train);
    CHECK(s.lo == 6.0);
    CHECK(s.hi == 10.0);
    s.apply(d);
    CHECK(d.y()[2] == doctest::Approx(0.5));
    CHECK(d.y()[0] == doctest::Approx(-0.5));  // rows outside the fit range are not clipped
    CHECK(d.schema().target.lo == 0.0);
    CHECK(d.schema().target.hi == 1.0);
    auto m = dpf::fit_target_max(toy(dpf::TaskKind::kRegression), dpf::all_rows(8));
    CHECK(m.lo == 0.0);
    CHECK(m.hi == 18.0);
    CHECK_THROWS_AS(dpf::fit_target_minmax(toy(dpf::TaskKind::kClassification), train), dpf::Error);
  }
  TEST_CASE("equal-width binning over the schema domain") {
    auto d = toy(dpf::TaskKind::kClassification);
    auto b = dpf::bin_equal_width(d, 5);  // width 2: [0,2) [2,4) [4,6) [6,8) [8,10]
    REQUIRE(b.schema().features[0].kind == dpf::FeatureKind::kCategorical);
    CHECK(b.schema().features[0].categories == std::vector<std::string>{"0", "1", "2", "3", "4"});
    std::vector<double> want = {0, 0, 1, 2, 4, 4, 0, 4};
    for (std::size_t r = 0; r < want.size(); ++r) CHECK(b.x(r, 0) == want[r]);
    CHECK(b.x(3, 1) == d.x(3, 1));  // categorical kept
    CHECK(b.schema().features[1].categories == std::vector<std::string>{"u", "v"});
    CHECK_NOTHROW(b.validate());
  }
  TEST_CASE("domains from data are recorded as such") {
    auto d = toy(dpf::TaskKind::kClassification);
    std::vector<uint32_t> rows = {1, 2, 3};
    dpf::domains_from_data(d, rows);
    CHECK(d.schema().features[0].lo == 1.9);
    CHECK(d.schema().features[0].hi == 5.0);
    CHECK(d.schema().domains_source == "from-data");
  }
}
