// The registry fit (algorithms/registry_fit.hpp: `dpforest describe`, the Python binding) clamps values
// outside a hand-written domain narrower than the data to the public bounds before fitting.
#include <doctest/doctest.h>

#include "algo_fixtures.hpp"
#include "algorithms/registry_fit.hpp"

namespace dpf::test {

TEST_SUITE("unit") {
  TEST_CASE("fit_registry on rows outside a narrower hand-written domain is the fit on the clamped rows") {
    for (const TaskKind task : {TaskKind::kClassification, TaskKind::kRegression}) {
      Dataset raw = synthetic(300, task, 6);
      // f0 really spans [0, 1]; declare [0.3, 0.6] (and a regression target in [0.2, 0.5]).
      raw.mutable_schema().features[0].lo = 0.3;
      raw.mutable_schema().features[0].hi = 0.6;
      if (task == TaskKind::kRegression) {
        raw.mutable_schema().target.lo = 0.2;
        raw.mutable_schema().target.hi = 0.5;
      }
      REQUIRE(count_outside_bounds(raw) > 100);
      Dataset clamped = raw;
      clamp_to_bounds(clamped);
      for (const char* algo : {"dipreme", "dipreme-exp"}) {
        CAPTURE(algo);
        const std::map<std::string, std::string> p{{"strict", "true"}, {"epsilon", "2"}, {"n_trees", "3"}};
        const RegistryFit a = dpf::fit_registry(algo, p, raw, 9, 1, "test");
        const RegistryFit b = dpf::fit_registry(algo, p, clamped, 9, 1, "test");
        CHECK(describe_json(a, "d") == describe_json(b, "d"));
      }
    }
  }
}

}  // namespace dpf::test
