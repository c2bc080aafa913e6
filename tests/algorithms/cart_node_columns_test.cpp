// CART forests grown with node-ordered feature copies (GrowOptions::node_columns, used while the
// copy fits in GrowOptions::kNodeColumnsBytes) and without them (larger data sets gather the
// values from the columns) are the same forests, node for node and prediction for prediction; so
// are Breiman RF forests grown on the grower's presorted lists (GrowOptions::presort), which no
// node sorts, against the per-node sort.
#include <doctest/doctest.h>

#include <cstring>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/cart/cart.hpp"
#include "core/tree/forest.hpp"

using namespace dpf;

namespace {

std::unique_ptr<Model> fit_all_rows(const Dataset& d, const CartParams& p, CartLayout layout) {
  std::vector<uint32_t> rows = all_rows(d.n_rows());
  FitContext ctx{Rng(17), PrivacyLedger(), 1};
  return fit_cart(d, rows, ctx, p, layout);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("CART: node-ordered feature copies and presorted lists change no tree and no prediction") {
    for (const TaskKind task : {TaskKind::kClassification, TaskKind::kRegression}) {
      const Dataset d = test::synthetic(1500, task, 8);
      for (const bool ert : {false, true}) {
        CAPTURE(ert);
        CartParams p;
        p.name = ert ? "ert" : "rf";
        p.n_trees = 6;
        p.max_features = 2;
        p.bootstrap = !ert;
        p.random_thresholds = ert;
        p.categorical_reuse = true;
        for (const CartLayout layout : {CartLayout::kNodeColumns, CartLayout::kPresorted}) {
          if (layout == CartLayout::kPresorted && ert) continue;  // ERT does not sort
          CAPTURE(static_cast<int>(layout));
          const auto a = fit_all_rows(d, p, CartLayout::kGathered), b = fit_all_rows(d, p, layout);
          const auto* fa = dynamic_cast<const ForestModel*>(a.get());
          const auto* fb = dynamic_cast<const ForestModel*>(b.get());
          REQUIRE(fa != nullptr);
          REQUIRE(fb != nullptr);
          REQUIRE(fa->trees().size() == fb->trees().size());
          std::size_t internal = 0;
          for (std::size_t t = 0; t < fa->trees().size(); ++t) {
            const auto& na = fa->trees()[t].nodes();
            const auto& nb = fb->trees()[t].nodes();
            REQUIRE(na.size() == nb.size());
            for (std::size_t k = 0; k < na.size(); ++k) {
              CHECK(na[k].kind == nb[k].kind);
              CHECK(na[k].feature == nb[k].feature);
              CHECK(std::memcmp(&na[k].threshold, &nb[k].threshold, sizeof(double)) == 0);
              CHECK(na[k].mask == nb[k].mask);
              internal += na[k].kind != SplitKind::kLeaf ? 1 : 0;
            }
          }
          CHECK(internal > 100);  // fully grown trees: the comparison covers many splits
          std::vector<uint32_t> rows = all_rows(d.n_rows());
          const Predictions pa = a->predict(d, rows), pb = b->predict(d, rows);
          REQUIRE(pa.value.size() == pb.value.size());
          CHECK(std::memcmp(pa.value.data(), pb.value.data(), pa.value.size() * sizeof(double)) == 0);
        }
      }
    }
  }
}
