// Threshold splits on categorical codes (GrowOptions::categorical_threshold_masks, cart parameter
// categorical_reuse): sklearn on integer codes may split one feature again below a split on it. The
// default keeps the earlier behaviour (one threshold split per categorical feature and path), under
// which ExtraTrees on Car stopped at depth 6 with 32 leaves per tree (matrix-rf Fig. 3a: 0.85 vs the
// published 0.97).
#include <doctest/doctest.h>

#include "algorithms/algo_fixtures.hpp"
#include "core/eval/metrics.hpp"

using namespace dpf;

namespace {

// One categorical feature with 4 codes; the label is the code (every code must be separated).
Dataset four_codes(int per_code) {
  Schema s;
  s.features = {{"a", FeatureKind::kCategorical, 0, 0, {"0", "1", "2", "3"}}};
  s.target.classes = {"c0", "c1", "c2", "c3"};
  Dataset d("four", s);
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < per_code; ++i) {
      double x[1] = {static_cast<double>(c)};
      d.add_row(x, c);
    }
  return d;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("categorical_reuse: a 4-code feature is split until every code is its own leaf") {
    Dataset d = four_codes(10);
    std::vector<uint32_t> rows = all_rows(d.n_rows());
    std::vector<int> truth;
    for (uint32_t r : rows) truth.push_back(d.label(r));
    for (const char* algo : {"ert", "rf"}) {
      for (uint64_t seed : {1, 2, 3, 4, 5}) {
        CAPTURE(algo);
        CAPTURE(seed);
        // The default is sklearn's behaviour on integer codes.
        auto reuse = dpf::test::fit_registry(algo, {{"n_trees", "1"}, {"bootstrap", "false"}}, d, rows, seed);
        CHECK(reuse.model->stats().n_leaves == 4);
        CHECK(accuracy(truth, reuse.model->predict(d, rows).label) == 1.0);
        // categorical_reuse: false: the feature leaves the path after its first split, so two leaves only.
        auto once = dpf::test::fit_registry(algo, {{"n_trees", "1"}, {"bootstrap", "false"}, {"categorical_reuse", "false"}},
                                            d, rows, seed);
        CHECK(once.model->stats().n_leaves == 2);
        CHECK(accuracy(truth, once.model->predict(d, rows).label) == 0.5);
      }
    }
  }
}
