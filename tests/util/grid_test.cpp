// add_grid_axis (core/util/grid.hpp): the cartesian grids of sweeps and tuning, one axis at a time.
#include <doctest/doctest.h>

#include "core/util/grid.hpp"

using namespace dpf;

TEST_SUITE("unit") {
  TEST_CASE("a grid grows point-major by one axis, and an empty axis empties it") {
    std::vector<GridPoint> g{{}};
    g = add_grid_axis(g, "a", {"1", "2"});
    g = add_grid_axis(g, "b", {"x", "y", "z"});
    REQUIRE(g.size() == 6);
    CHECK(g[0] == GridPoint{{"a", "1"}, {"b", "x"}});
    CHECK(g[2] == GridPoint{{"a", "1"}, {"b", "z"}});
    CHECK(g[3] == GridPoint{{"a", "2"}, {"b", "x"}});
    CHECK(add_grid_axis(g, "a", {"9"})[5] == GridPoint{{"a", "9"}, {"b", "z"}});  // a key again: overwritten
    CHECK(add_grid_axis(g, "c", {}).empty());
  }
}
