// Exactness of whole releases (docs/exact-sampling.md): no released outcome of positive probability
// under the mechanism is unreachable, and no released threshold carries low-order bits of the data.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "algo_fixtures.hpp"
#include "core/privacy/mechanisms.hpp"

namespace dpf::test {
namespace {

// A scripted stream (Rng::scripted): all-ones words at multiples of `period`, zeros elsewhere, in
// every derived stream; more than a million words in one stream aborts the attempt.
uint64_t periodic_word(const void* ctx, uint64_t /*key*/, uint64_t counter) {
  const uint64_t period = *static_cast<const uint64_t*>(ctx);
  if (counter > 1000000) throw std::runtime_error("scripted stream exhausted");
  return counter % period == 0 ? ~uint64_t{0} : 0;
}

// Every threshold of the forest is a point of the public grid of its node's domain (the public
// domain narrowed by the thresholds above it, themselves released): it carries no data bits.
void check_thresholds_on_grid(const ForestModel& forest, const Schema& schema, int& checked) {
  for (const Tree& tree : forest.trees()) {
    std::vector<std::vector<std::pair<double, double>>> dom(tree.nodes().size());
    for (const Feature& f : schema.features) dom[0].push_back({f.lo, f.hi});
    for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
      const Node& n = tree.nodes()[i];
      for (int k = 0; k < n.n_children; ++k) dom[static_cast<std::size_t>(n.first_child + k)] = dom[i];
      if (n.kind != SplitKind::kThreshold ||
          schema.features[static_cast<std::size_t>(n.feature)].kind != FeatureKind::kNumeric)
        continue;
      const auto f = static_cast<std::size_t>(n.feature);
      const auto [lo, hi] = dom[i][f];
      if (hi > lo) {
        const double r = threshold_grid(lo, hi);
        INFO("node " << i << " domain [" << lo << ", " << hi << "] threshold " << n.threshold);
        CHECK(std::fmod(n.threshold, r) == 0.0);
        ++checked;
      }
      dom[static_cast<std::size_t>(n.first_child)][f].second = std::min(hi, n.threshold);
      dom[static_cast<std::size_t>(n.first_child) + 1][f].first = std::max(lo, n.threshold);
    }
  }
}

}  // namespace

TEST_SUITE("unit") {
  // The example of the exactness defect: strict diffprivlib-rf, 1 tree, depth 1, epsilon = 1, one
  // feature, D = 746 class-0 rows at x = 0. The leaf holding them draws its label by permute-and-flip
  // on the counts (746, 0): label 1 is accepted with probability exp(-746), which exp() in doubles
  // rounds to 0, so label 1 could never be released on D, but can on D' = D + one class-1 row: an
  // infinite privacy loss. With exact sampling some sequence of random words releases label 1 on D.
  TEST_CASE("strict diffprivlib-rf: label 1 at x = 0 has positive probability on 746 class-0 rows") {
    const Dataset d = one_feature(std::vector<std::pair<double, int>>(746, {0.0, 0}));
    const AlgorithmInfo& info = find_algorithm("diffprivlib-rf");
    const Params params =
        resolve_params("diffprivlib-rf", info.params,
                       {{"strict", "true"}, {"n_trees", "1"}, {"max_depth", "1"}, {"epsilon", "1"}}, "test");
    const std::unique_ptr<Learner> learner = info.make(params, d.schema());
    const std::vector<uint32_t> rows = all_rows(d.n_rows()), first = {0};
    bool reached = false;
    for (uint64_t period = 1; period <= 200 && !reached; ++period) {
      FitContext ctx{Rng::scripted(periodic_word, &period, 3), PrivacyLedger(), 1};
      try {
        const std::unique_ptr<Model> m = learner->fit(d, rows, ctx);
        reached = m->predict(d, first).label[0] == 1;
      } catch (const std::runtime_error&) {
      }
    }
    CHECK(reached);
  }

  TEST_CASE("strict dipreme-exp and fs release thresholds on the public grid of each node's domain") {
    const Dataset d = synthetic(600, TaskKind::kClassification, 4);
    int checked = 0;
    for (const char* algo : {"dipreme-exp", "fs", "dipreme"}) {
      for (uint64_t seed : {1, 2, 3}) {
        const Fitted f = fit_registry(algo, {{"strict", "true"}, {"epsilon", "2"}}, d, seed);
        REQUIRE(f.forest() != nullptr);
        check_thresholds_on_grid(*f.forest(), d.schema(), checked);
      }
    }
    CHECK(checked > 100);
  }
}

}  // namespace dpf::test
