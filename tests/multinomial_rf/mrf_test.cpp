// MRF (multinomial-rf.md §1), its dp mode (§1.10), the shared sorted-sweep split search and the
// consistent baselines.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/mrf/mrf.hpp"
#include "core/eval/cv.hpp"
#include "core/eval/metrics.hpp"
#include "core/tree/split_search.hpp"
#include "experiments/config/config.hpp"
#include "experiments/config/sweep.hpp"

using namespace dpf;

namespace {

// Gini decrease of eq. 4 computed from scratch for the partition `left(row)`.
template <class F>
double brute_gain(const std::vector<int>& y, const std::vector<uint32_t>& rows, int C, F left) {
  auto gini = [&](const std::vector<uint32_t>& r) {
    if (r.empty()) return 0.0;
    std::vector<double> n(static_cast<std::size_t>(C), 0.0);
    for (uint32_t i : r) n[static_cast<std::size_t>(y[i])] += 1;
    double s = 1;
    for (double v : n) s -= (v / static_cast<double>(r.size())) * (v / static_cast<double>(r.size()));
    return s;
  };
  std::vector<uint32_t> l, r;
  for (uint32_t i : rows) (left(i) ? l : r).push_back(i);
  const double n = static_cast<double>(rows.size());
  return gini(rows) - static_cast<double>(l.size()) / n * gini(l) - static_cast<double>(r.size()) / n * gini(r);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("sorted-sweep Gini gains equal the from-scratch eq. 4 value at every midpoint") {
    Rng rng(11);
    const int C = 3;
    std::vector<double> x(200);
    std::vector<int> y(200);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<double>(rng.below(25)) * 0.5;  // many ties
      y[i] = static_cast<int>(rng.below(C));
    }
    std::vector<uint32_t> rows;
    for (uint32_t i = 0; i < 200; i += 2) rows.push_back(i);
    GiniSplitSearch s(C);
    std::vector<SplitGain> out;
    const std::size_t distinct = s.numeric(x, y, rows, out);
    REQUIRE(distinct >= 2);
    CHECK(out.size() == distinct - 1);
    for (std::size_t j = 0; j < out.size(); ++j) {
      const double t = out[j].threshold;
      if (j) CHECK(t > out[j - 1].threshold);
      CHECK(s.numeric(x, y, rows, out) == distinct);
      double g = brute_gain(y, rows, C, [&](uint32_t i) { return x[i] < t; });
      CHECK(out[j].gain == doctest::Approx(g).epsilon(1e-12));
      uint32_t nl = 0;
      for (uint32_t i : rows) nl += x[i] < t;
      CHECK(out[j].n_left == nl);
    }
    // A presorted index gives the same candidates as the sorting search.
    std::vector<uint32_t> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) { return x[a] < x[b]; });
    std::vector<SplitGain> again;
    s.numeric(x, y, rows, out);
    CHECK(s.numeric_sorted(x, y, sorted, again) == distinct);
    REQUIRE(again.size() == out.size());
    for (std::size_t j = 0; j < out.size(); ++j) {
      CHECK(again[j].threshold == out[j].threshold);
      CHECK(again[j].gain == out[j].gain);
    }
    // One-vs-rest on codes and fixed thresholds.
    std::vector<double> code(x.size());
    for (auto& c : code) c = static_cast<double>(rng.below(6));
    CHECK(s.one_vs_rest(code, y, rows, out) == 6);
    REQUIRE(out.size() == 6);
    for (const SplitGain& g : out)
      CHECK(g.gain == doctest::Approx(brute_gain(y, rows, C, [&](uint32_t i) { return code[i] == g.threshold; })));
    s.one_vs_rest(code, y, rows, out, 8);  // absent codes 6, 7 give gain 0
    REQUIRE(out.size() == 8);
    CHECK(out[7].gain == 0.0);
    std::vector<double> thr{-1.0, 3.3, 7.0, 20.0};
    s.at_thresholds(x, y, rows, thr, out);
    REQUIRE(out.size() == thr.size());
    for (std::size_t j = 0; j < thr.size(); ++j)
      CHECK(out[j].gain == doctest::Approx(brute_gain(y, rows, C, [&](uint32_t i) { return x[i] < thr[j]; })));
    CHECK(out[0].gain == 0.0);
  }

  TEST_CASE("one-vs-rest and fixed-threshold counts are exact: packed cells, widened codes, bucket edges") {
    // Each output is compared with ==: the gains and proxies from per-row double counts (the
    // searches' definition) must come out bit for bit, whatever the counting path.
    const int C = 3;
    GiniSplitSearch s(C);
    Rng rng(11);
    const std::size_t n = 403;  // not a multiple of 4
    std::vector<int> y(n);
    std::vector<double> code(n);
    std::vector<uint8_t> cell(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<int>(rng.below(C));
      code[i] = static_cast<double>(rng.below(5));  // codes 0..4 of n_values = 7 (5, 6 absent)
      cell[i] = static_cast<uint8_t>(code[i] * C + y[i]);
    }
    std::vector<uint32_t> rows;
    for (uint32_t i = 0; i < n; i += 1 + static_cast<uint32_t>(rng.below(3))) rows.push_back(i);
    auto expect = [&](const std::vector<SplitGain>& out, auto left, std::size_t j) {
      std::vector<double> l(C, 0.0), t(C, 0.0);
      double nl = 0;
      for (uint32_t r : rows) {
        t[static_cast<std::size_t>(y[r])] += 1;
        if (left(r)) l[static_cast<std::size_t>(y[r])] += 1, nl += 1;
      }
      const double dn = static_cast<double>(rows.size());
      CHECK(out[j].n_left == static_cast<uint32_t>(nl));
      CHECK(out[j].gain == GiniSplitSearch::gain(l, t, nl, dn));
      CHECK(out[j].proxy == GiniSplitSearch::proxy_of(l, t, nl, dn));
    };
    std::vector<SplitGain> a, b;
    CHECK(s.one_vs_rest(code, y, rows, a, 7) == 5);
    const double gini_a = s.node_gini();
    CHECK(s.one_vs_rest_cells(cell.data(), rows, 7, b) == 5);
    CHECK(s.node_gini() == gini_a);
    REQUIRE(a.size() == 7);
    REQUIRE(b.size() == 7);
    for (std::size_t j = 0; j < 7; ++j) {
      CHECK(b[j].threshold == static_cast<double>(j));
      expect(a, [&](uint32_t r) { return code[r] == static_cast<double>(j); }, j);
      expect(b, [&](uint32_t r) { return code[r] == static_cast<double>(j); }, j);
    }
    // A code past the declared n_values (and past the first widening) is still listed.
    code[rows[1]] = 9;
    code[rows[rows.size() - 1]] = 20;
    CHECK(s.one_vs_rest(code, y, rows, a, 3) == 7);
    REQUIRE(a.size() == 21);
    for (std::size_t j = 0; j < 21; ++j) expect(a, [&](uint32_t r) { return code[r] == static_cast<double>(j); }, j);
    CHECK(s.one_vs_rest(code, y, rows, a) == 7);  // n_values = 0: present codes only
    CHECK(a.size() == 7);
    CHECK(a.back().threshold == 20.0);

    // Fixed thresholds: uneven, repeated, and values on, between, below and above them, NaN and
    // infinities; a row is left iff x < t (NaN: right of every threshold).
    std::vector<double> x(n);
    const std::vector<double> pool{-INFINITY, -3.0, 0.0, 0.5, 1.0, 1.0000000000000002, 2.5, 2.75, 4.0, 100.0, 1e300,
                                   INFINITY, NAN};
    for (auto& v : x) v = rng.below(4) == 0 ? pool[rng.below(pool.size())] : 5.0 * rng.uniform() - 0.5;
    for (const std::vector<double>& thr : {std::vector<double>{0.0, 1.0, 2.0, 3.0, 4.0},
                                           std::vector<double>{-1.0, 0.5, 0.5, 2.75, 100.0},
                                           std::vector<double>{1.0}, std::vector<double>{2.5, 2.5, 2.5},
                                           std::vector<double>{0.0, 1e-300, 1.0000000000000002, 4.0, 1e300}}) {
      CHECK(s.at_thresholds(x, y, rows, thr, a) == rows.size());
      REQUIRE(a.size() == thr.size());
      for (std::size_t j = 0; j < thr.size(); ++j) {
        CHECK(a[j].threshold == thr[j]);
        expect(a, [&](uint32_t r) { return x[r] < thr[j]; }, j);
      }
    }
  }

  TEST_CASE("structure/estimation sizes follow the code: |S| = ceil(n r/(r+1))") {
    CHECK(structure_size(11, 1.0) == 6);
    CHECK(structure_size(10, 1.0) == 5);
    CHECK(structure_size(10, 3.0) == 8);
  }

  TEST_CASE("§1.10 budget mapping: both composition readings spend exactly ε/M per tree") {
    const MrfDpBudget p = mrf_dp_budget(2.0, 10, 4, true);
    CHECK(p.b1 == doctest::Approx(2.0 / (2 * 10 * 4)));
    CHECK(p.b3 == doctest::Approx(0.2));
    CHECK(std::max(4 * (p.b1 + p.b2), p.b3) == doctest::Approx(0.2));
    const MrfDpBudget s = mrf_dp_budget(2.0, 10, 4, false);
    CHECK(4 * (s.b1 + s.b2) + s.b3 == doctest::Approx(0.2));
    CHECK(mrf_default_depth(1000, 1.0, 5) == 7);  // ceil(log2(500 / 5))
  }

  TEST_CASE("multinomial-rf-dp: the ledger composes to ε in both readings, trees respect the depth cap") {
    Dataset d = dpf::test::synthetic(400, TaskKind::kClassification);
    for (const std::string compose : {"parallel", "sequential"}) {
      auto f = dpf::test::fit_registry("multinomial-rf-dp",
                                       {{"epsilon", "3"}, {"n_trees", "5"}, {"max_depth", "3"}, {"dp_compose", compose}}, d);
      CHECK(f.ledger.spent() == doctest::Approx(3.0));
      CHECK_FALSE(f.ledger.certified());
      for (const Tree& t : f.forest()->trees()) CHECK(t.max_depth() <= 3);
    }
    CHECK_THROWS_AS(dpf::test::fit_registry("multinomial-rf-dp", {{"epsilon", "1"}, {"strict", "true"}}, d), Error);
  }

  TEST_CASE("feature draw: uniform at B1 = 0, odds exp(B1/2) between the best and the worst feature") {
    Dataset d = dpf::test::synthetic(300, TaskKind::kClassification);
    std::vector<int> labels = d.labels();
    std::vector<uint32_t> rows = all_rows(d.n_rows());
    HonestView v{d, labels, rows, {}, 0, -1};
    for (double b1 : {0.0, 4.0}) {
      MrfParams p;
      p.b1 = b1;
      MrfPolicy pol(p, static_cast<int>(d.n_features()), 2);
      std::vector<int> feats;
      std::vector<double> pr = pol.feature_probabilities(v, feats);
      REQUIRE(feats.size() == 5);
      const auto [lo, hi] = std::minmax_element(pr.begin(), pr.end());
      CHECK(*hi / *lo == doctest::Approx(std::exp(b1 / 2)));
      if (b1 > 0) CHECK(feats[static_cast<std::size_t>(hi - pr.begin())] == 0);  // f0 drives the label
    }
  }

  TEST_CASE("stop=paper: every split leaves >= k estimation points per child; categorical splits are one-vs-rest") {
    Dataset d = dpf::test::synthetic(600, TaskKind::kClassification);
    auto f = dpf::test::fit_registry("multinomial-rf", {{"n_trees", "3"}, {"stop", "paper"}, {"min_leaf", "20"}}, d);
    for (const Tree& t : f.forest()->trees())
      for (const Node& n : t.nodes())
        if (n.kind == SplitKind::kSubset) CHECK(std::popcount(n.mask) == 1);
    // Leaves hold S + E points; with k = 20 estimation points per child, no leaf below 20 rows.
    for (const Tree& t : f.forest()->trees())
      for (const Node& n : t.nodes())
        if (n.kind == SplitKind::kLeaf && n.depth > 0) CHECK(n.count >= 20);
  }

  TEST_CASE("same seed, same forest; baselines fit and predict every row") {
    Dataset d = dpf::test::synthetic(300, TaskKind::kClassification);
    for (const std::string a : {"multinomial-rf", "brf", "denil14", "comprf-c", "comprf-i"}) {
      auto f1 = dpf::test::fit_registry(a, {{"n_trees", "4"}}, d, 9);
      auto f2 = dpf::test::fit_registry(a, {{"n_trees", "4"}}, d, 9);
      std::vector<uint32_t> rows = all_rows(d.n_rows());
      Predictions p1 = f1.model->predict(d, rows), p2 = f2.model->predict(d, rows);
      CHECK(p1.label == p2.label);
      CHECK(accuracy(d.labels(), p1.label) > 0.8);
    }
  }
}

TEST_SUITE("reproduction") {
  TEST_CASE("Car: MRF 10-fold CV accuracy ≈ 96.30 % (Table 2, v4 of Car's row)") {
    // Table 2 prints 96.30 for MRF on Car (multinomial-rf.md §3.3; the spec's rerun of the authors'
    // code gives 95.8-96.3 per 10-fold repeat, §4). One 10-fold repeat here (B1 = B2 = 5, 100 trees,
    // k = 5); tolerance 1.5 points: a repeat moves by about ±0.3 and our tie and RNG rules differ.
    DataOptions o = DataOptions::from_environment();
    o.allow_download = false;
    Dataset d;
    try {
      d = load_dataset("car", o);
    } catch (const MissingInput& e) {
      MESSAGE("car not available; skipped: " << e.what());
      return;
    }
    Rng rng(2024);
    double sum = 0;
    auto splits = kfold_splits(d.n_rows(), 10, rng);
    for (std::size_t k = 0; k < splits.size(); ++k) {
      auto f = dpf::test::fit_registry("multinomial-rf", {}, d, splits[k].train, 100 + k);
      Predictions p = f.model->predict(d, splits[k].test);
      std::vector<int> truth;
      for (uint32_t r : splits[k].test) truth.push_back(d.label(r));
      sum += accuracy(truth, p.label);
    }
    const double acc = 100 * sum / 10;
    MESSAGE("MRF on Car, one 10-fold repeat: " << acc);
    CHECK(std::abs(acc - 96.30) <= 1.5);
  }
}

TEST_SUITE("unit") {
  TEST_CASE("CompRF one-vs-one: a three-class problem separated by distance is learned") {
    // Three well-separated clusters on f0 (class = which third); the pivot splits must isolate them.
    Schema s;
    s.features.push_back(Feature{"f0", FeatureKind::kNumeric, 0.0, 3.0, {}});
    s.features.push_back(Feature{"f1", FeatureKind::kNumeric, 0.0, 1.0, {}});
    s.target.classes = {"a", "b", "c"};
    Dataset d("clusters", s);
    Rng rng(3);
    for (int i = 0; i < 240; ++i) {
      const int c = i % 3;
      const double x[2] = {c + 0.3 * rng.uniform(), rng.uniform() * 0.1};
      d.add_row(x, c);
    }
    for (const std::string a : {"comprf-c", "comprf-i"}) {
      auto f = dpf::test::fit_registry(a, {{"n_trees", "10"}}, d);
      std::vector<uint32_t> rows = all_rows(d.n_rows());
      CHECK(accuracy(d.labels(), f.model->predict(d, rows).label) > 0.95);
      CHECK(f.model->stats().n_trees == 30);  // 3 class pairs x 10 trees
    }
  }
}

TEST_SUITE("unit") {
  TEST_CASE("the multinomial-rf configs validate: Table 2 has the 22 datasets x 7 methods") {
    const ExperimentSpec t2 = load_experiment("configs/multinomial-rf/table-2.yaml");
    CHECK(t2.datasets.size() == 22);
    CHECK(expand_cells(t2).size() == 22 * 7);
    for (const char* f : {"figure-4", "figure-5", "figure-appendix", "table-2b"})
      CHECK_FALSE(expand_cells(load_experiment(std::string("configs/multinomial-rf/") + f + ".yaml")).empty());
  }
}
