// CompRF's integer path (algorithms/comprf/comprf.cpp, small_int_max): on small-integer data the fit
// and predict run in int8 / integer arithmetic and must give exactly what the double path gives.
#include <doctest/doctest.h>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/model_io.hpp"
#include "core/eval/metrics.hpp"
#include "core/util/json.hpp"
#include "core/util/json_read.hpp"

using namespace dpf;

namespace {

// n rows of 5 features with codes 0..2 (many duplicate rows and distance ties, as on Connect-4) and 3
// classes from a noisy rule; every value times `scale`.
Dataset coded(std::size_t n, double scale) {
  Schema s;
  for (int f = 0; f < 5; ++f) s.features.push_back(Feature{"f" + std::to_string(f), FeatureKind::kNumeric, 0.0, 2.0, {}});
  s.target.classes = {"a", "b", "c"};
  Dataset d("coded", s);
  Rng rng(17);
  for (std::size_t i = 0; i < n; ++i) {
    double x[5];
    for (double& v : x) v = static_cast<double>(rng.below(3));
    const int y = rng.uniform() < 0.2 ? static_cast<int>(rng.below(3)) : (x[0] + x[1] > x[2] + 1 ? 0 : x[3] > 0 ? 1 : 2);
    for (double& v : x) v *= scale;
    d.add_row(x, y);
  }
  d.validate();
  return d;
}

std::string saved(const Model& m) {
  JsonWriter w;
  m.save(w);
  return w.str();
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("CompRF: the integer path gives the double path's trees and predictions exactly") {
    // Halving every value keeps every distance comparison and collapse test of the double path exact
    // and unchanged (a power of two scales each rounded operation exactly), but the values are no longer
    // integers: the halved data take the double path, the codes the integer one. Same trees (W halved,
    // b quartered), same leaves, bit-identical predictions; ties (x as close to p as to q) go to p on both.
    const Dataset ints = coded(900, 1.0), halves = coded(900, 0.5);
    const std::vector<uint32_t> rows = all_rows(ints.n_rows());
    for (const std::string a : {"comprf-c", "comprf-i"}) {
      CAPTURE(a);
      auto fi = dpf::test::fit_registry(a, {{"n_trees", "12"}}, ints, 4);
      auto fh = dpf::test::fit_registry(a, {{"n_trees", "12"}}, halves, 4);
      CHECK(fi.model->describe() == fh.model->describe());
      const Predictions pi = fi.model->predict(ints, rows), ph = fh.model->predict(halves, rows);
      CHECK(pi.label == ph.label);
      CHECK(pi.value == ph.value);
      CHECK(accuracy(ints.labels(), pi.label) > 0.6);

      const std::string text_i = saved(*fi.model), text_h = saved(*fh.model);
      const JsonValue vi = parse_json(text_i, "int.json"), vh = parse_json(text_h, "half.json");
      const JsonIn ji(vi, "int.json"), jh(vh, "half.json");
      std::size_t splits = 0;
      for (std::size_t k = 0; k < ji["pairs"].size(); ++k)
        for (std::size_t t = 0; t < ji["pairs"].at(k)["trees"].size(); ++t) {
          const JsonIn ti = ji["pairs"].at(k)["trees"].at(t), th = jh["pairs"].at(k)["trees"].at(t);
          for (const char* key : {"left", "w", "nnz", "F", "label_sum", "count"})
            CHECK(ti[key].numbers() == th[key].numbers());
          std::vector<double> W = ti["W"].numbers(), b = ti["b"].numbers();
          for (double& v : W) v *= 0.5;
          for (double& v : b) v *= 0.25;
          CHECK(W == th["W"].numbers());
          CHECK(b == th["b"].numbers());
          splits += b.size();
        }
      CHECK(splits > 100);

      // A loaded model takes the integer predict path again (its W are integers): same predictions.
      const JsonValue back = parse_json(text_i, "int.json");
      const Predictions pl = load_model(JsonIn(back, "int.json"), ints.schema())->predict(ints, rows);
      CHECK(pl.label == pi.label);
      CHECK(pl.value == pi.value);
    }
  }
}
