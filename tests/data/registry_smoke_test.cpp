#include <doctest/doctest.h>

#include "datasets/registry.hpp"

TEST_SUITE("unit") {
  TEST_CASE("banknote loads end to end") {
    dpf::DataOptions o = dpf::DataOptions::from_environment();
    if (o.mirror.empty()) {
      MESSAGE("no dataset mirror; skipped");
      return;
    }
    dpf::Dataset d = dpf::load_dataset("banknote", o);
    CHECK(d.n_rows() == 1372);
    CHECK(d.n_features() == 4);
    CHECK(d.n_classes() == 2);
    CHECK(d.schema().features[0].name == "variance");
  }
}
