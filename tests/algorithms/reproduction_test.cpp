// Small end-to-end reproductions on Banknote (dipreme.md §6.3) with stated tolerances. The protocol
// is the papers': 10 runs, each a fresh random 90/10 split, mean over runs. Skipped (with a message)
// when the dataset mirror is absent.
#include <doctest/doctest.h>

#include "algorithms/algo_fixtures.hpp"
#include "core/eval/cv.hpp"
#include "core/eval/metrics.hpp"

using namespace dpf;

namespace {

// Mean test accuracy of `algorithm` over 10 holdout splits (test fraction 0.1).
double mean_accuracy(const Dataset& d, const std::string& algorithm, const std::map<std::string, std::string>& params,
                     uint64_t seed) {
  double sum = 0;
  for (int rep = 0; rep < 10; ++rep) {
    Rng split_rng = Rng(seed).derive(static_cast<uint64_t>(rep));
    Split s = holdout_split(d.n_rows(), 0.1, split_rng);
    auto f = dpf::test::fit_registry(algorithm, params, d, s.train, seed * 100 + static_cast<uint64_t>(rep));
    Predictions p = f.model->predict(d, s.test);
    std::vector<int> truth;
    for (uint32_t r : s.test) truth.push_back(d.label(r));
    sum += accuracy(truth, p.label);
  }
  return sum / 10;
}

}  // namespace

TEST_SUITE("reproduction") {
  TEST_CASE("Banknote, [ICML] Fig. 2: DiPriMe at ε = 10 (d_max 5, N_T 10) reaches the plateau ≈ 0.95") {
    // The figure's DiPriMe* curves sit at ≈ 0.95 for ε >= 3 (read off the authors' image, dipreme.md
    // §6.3). Tolerance 0.05: the reading is approximate and a 10-run mean over 137-row test sets has a
    // standard error of about 0.01.
    auto d = dpf::test::banknote();
    if (!d) return;
    for (const std::string algo : {"dipreme", "dipreme-exp", "dipreme-flip"}) {
      std::map<std::string, std::string> p{{"epsilon", "10"}, {"max_depth", "5"}, {"n_trees", "10"}};
      if (algo != "dipreme") p["k"] = "4";
      const double acc = mean_accuracy(*d, algo, p, 31);
      MESSAGE(algo, " accuracy at ε = 10: ", acc);
      CAPTURE(algo);
      CHECK(std::fabs(acc - 0.95) <= 0.05);
    }
  }

  TEST_CASE("Banknote, [ICML] Table 2: RF (depth 6, 10 trees, K = 4, min_samples_leaf 5) error ≈ 0.0109") {
    // Table 2 as run (dipreme.md §6.3): 0.0109 ± 0.0067 (95% half-width over 10 runs). Tolerance
    // 0.012 around the published mean: the half-width plus our own run-to-run spread (different
    // random splits than the authors').
    auto d = dpf::test::banknote();
    if (!d) return;
    const double err = 1.0 - mean_accuracy(*d, "rf",
                                           {{"n_trees", "10"}, {"max_depth", "6"}, {"max_features", "4"},
                                            {"min_samples_leaf", "5"}},
                                           41);
    MESSAGE("RF error: ", err);
    CHECK(std::fabs(err - 0.0109) <= 0.012);
  }

  TEST_CASE("Banknote: the non-private median forest is near RF, DP-ERT's soft vote is far below") {
    // Table 2: Median 0.0152 ± 0.0085 (tolerance 0.015); DP-ERT at ε = 2 (its 0/1 error 0.080 in the
    // authors' code run, dipreme.md §3.6) is clearly worse than the median forest.
    auto d = dpf::test::banknote();
    if (!d) return;
    const double med = 1.0 - mean_accuracy(*d, "median-forest", {{"k", "4"}, {"max_depth", "6"}, {"n_trees", "10"}}, 51);
    const double ert = 1.0 - mean_accuracy(*d, "dp-ert", {{"epsilon", "2"}, {"max_depth", "6"}, {"n_trees", "10"}}, 51);
    MESSAGE("median forest error ", med, ", DP-ERT error ", ert);
    CHECK(std::fabs(med - 0.0152) <= 0.015);
    CHECK(ert > med + 0.02);
  }
}
