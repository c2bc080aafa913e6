// bench-fit reports the fit's and the prediction's CPU time next to their wall times, so that a
// benchmark on a shared, loaded machine has a measure the other processes do not inflate.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "experiments/cli/bench.hpp"

using namespace dpf;

TEST_SUITE("unit") {
  TEST_CASE("bench_fit: CPU seconds of the fit and of the prediction, in the result and its JSON") {
    BenchFitOptions opt;
    opt.repeats = 3;
    opt.test_fraction = 0.2;
    opt.warmup = false;
    const BenchFitResult r = bench_fit("rf", "synthetic:classification:n=3000,d=5,seed=1", {"n_trees=20"}, opt);
    REQUIRE(r.fit_seconds.size() == 3);
    CHECK(r.fit_cpu_seconds > 0.0);
    CHECK(r.predict_cpu_seconds > 0.0);
    // One thread: the process's CPU time cannot exceed the wall time by more than clock granularity.
    CHECK(r.fit_cpu_seconds <= *std::max_element(r.fit_seconds.begin(), r.fit_seconds.end()) + 0.01);
    const std::string json = r.to_json();
    CHECK(json.find("\"fit_cpu_seconds\":") != std::string::npos);
    CHECK(json.find("\"predict_cpu_seconds\":") != std::string::npos);
  }
}
