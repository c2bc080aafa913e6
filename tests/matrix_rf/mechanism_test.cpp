// Matrix-rf mechanisms: ledger accounting of every method, the noise of the matrix mechanism against
// its closed-form error (Thm. 4, spec §3.1/§4.6), and small reproductions of published numbers.
#include <doctest/doctest.h>

#include <cmath>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/matrix_rf/model.hpp"
#include "core/eval/cv.hpp"
#include "core/eval/metrics.hpp"
#include "datasets/registry.hpp"

using namespace dpf;
using namespace dpf::mrf;
using Eigen::MatrixXd;

namespace {

// Three categorical features (sizes 3, 2, 4), label = (x0 + x2) mod 2 with 10 % flips.
Dataset toy(int n, uint64_t seed) {
  Schema s;
  s.features = {{"a", FeatureKind::kCategorical, 0, 0, {"0", "1", "2"}},
                {"b", FeatureKind::kCategorical, 0, 0, {"0", "1"}},
                {"c", FeatureKind::kCategorical, 0, 0, {"0", "1", "2", "3"}}};
  s.target.classes = {"n", "y"};
  Dataset d("toy", s);
  Rng rng(seed);
  for (int i = 0; i < n; ++i) {
    double x[3] = {static_cast<double>(rng.below(3)), static_cast<double>(rng.below(2)), static_cast<double>(rng.below(4))};
    int y = (static_cast<int>(x[0] + x[2]) % 2) ^ (rng.uniform() < 0.1 ? 1 : 0);
    d.add_row(x, y);
  }
  return d;
}

std::string column(const Model& m, const std::string& name) {
  for (const auto& [k, v] : m.extra_columns())
    if (k == name) return v;
  return "";
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("every private method spends exactly epsilon; prediction releases happen once, in predict()") {
    Dataset d = toy(300, 1);
    std::vector<uint32_t> train(200), test(100);
    for (uint32_t i = 0; i < 300; ++i) (i < 200 ? train[i] : test[i - 200]) = i;
    for (const char* a : {"mrf-train", "mrf-train-lm", "mrf-disjoint-lm"}) {
      for (const char* q : {"1", "2"}) {
        auto f = dpf::test::fit_registry(a, {{"epsilon", "0.7"}, {"n_trees", "8"}, {"n_ensembles", q},
                                              {"ensemble_features", "2"}}, d, train);
        CHECK(f.ledger.spent() == doctest::Approx(0.7));
        CHECK(f.model->predict(d, test).label.size() == 100);
      }
    }
    for (const char* a : {"mrf-predict", "mrf-subsample", "mrf-subsample-lm"}) {
      auto f = dpf::test::fit_registry(a, {{"epsilon", "0.7"}, {"n_trees", "8"}, {"n_ensembles", "2"}}, d, train);
      CHECK(f.ledger.spent() == 0);  // nothing is released at fit time
      CHECK(column(*f.model, "epsilon_spent").empty());
      f.model->predict(d, test);
      CHECK(std::stod(column(*f.model, "epsilon_spent")) == doctest::Approx(0.7));
      CHECK_THROWS_AS(f.model->predict(d, test), Error);
    }
    auto np = dpf::test::fit_registry("mrf-trees", {{"n_trees", "8"}}, d, train);
    CHECK(np.ledger.spent() == 0);
  }

  TEST_CASE("query_batch: ⌈N/b⌉ releases of exactly b queries, each spending ε; every row answered") {
    Dataset d = toy(300, 4);
    std::vector<uint32_t> train(200), test(100);
    for (uint32_t i = 0; i < 300; ++i) (i < 200 ? train[i] : test[i - 200]) = i;
    // Standard subsample-and-aggregate: per-query budget ε/b, so Lap(b/ε) on each of the b × k votes and
    // the expected squared error per release is 2·(b/ε)²·b per class column (spec §4.6).
    for (int b : {10, 30}) {
      auto f = dpf::test::fit_registry("mrf-subsample-lm", {{"epsilon", "0.7"}, {"n_trees", "8"},
                                                            {"query_batch", std::to_string(b)}}, d, train);
      Predictions p = f.model->predict(d, test);
      REQUIRE(p.label.size() == 100);
      CHECK(column(*f.model, "query_releases") == std::to_string((100 + b - 1) / b));
      CHECK(std::stod(column(*f.model, "epsilon_spent")) == doctest::Approx(0.7));
      const double s = b / 0.7;
      CHECK(std::stod(column(*f.model, "expected_error")) == doctest::Approx(2 * s * s * b));
      for (std::size_t r = 0; r < 100; ++r) CHECK(p.value[2 * r] + p.value[2 * r + 1] != 0.0);
    }
    // query_batch 0 (default) is one release of all rows; b larger than the rows is an error.
    auto one = dpf::test::fit_registry("mrf-predict", {{"epsilon", "1"}, {"n_trees", "4"}}, d, train);
    one.model->predict(d, test);
    CHECK(column(*one.model, "query_releases") == "1");
    auto big = dpf::test::fit_registry("mrf-subsample", {{"epsilon", "1"}, {"query_batch", "101"}}, d, train);
    CHECK_THROWS_AS(big.model->predict(d, test), Error);
  }

  TEST_CASE("strategies: rows record templates and losses; identity loss of training is τ·n") {
    Dataset d = toy(300, 2);
    std::vector<uint32_t> rows = all_rows(300);
    auto f = dpf::test::fit_registry("mrf-train", {{"epsilon", "1"}, {"n_trees", "6"}, {"max_depth", "2"},
                                                   {"strategy", "hdmm"}}, d, rows);
    CHECK(std::stod(column(*f.model, "identity_loss")) == doctest::Approx(6 * 24));
    CHECK(std::stod(column(*f.model, "strategy_loss")) <= 6 * 24 * (1 + 1e-9));
    CHECK(column(*f.model, "strategy_templates").size() == 3);
    CHECK_THROWS_AS(dpf::test::fit_registry("mrf-train", {{"epsilon", "1"}, {"per_dataset", "toy{depth=2}"}}, d, rows),
                    Error);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("T·A⁺·Z has the closed-form error 2s²·||TA⁺||_F² for a non-identity Kronecker strategy") {
    // Workload: leaves of 4 random trees over sizes {3, 2, 4} where attribute 1 is never tested, so
    // the optimiser picks Total for it (loss < identity). 4000 noise draws; the mean of the per-draw
    // squared error is compared with its expectation by a CLT bound at z = 4.42 (false-alarm rate
    // α = 1e-5, two-sided), using the sample standard deviation of the per-draw values.
    Rng rng(31);
    Ensemble e = build_ensemble({0, 1}, {3, 4}, 4, 2, rng);  // local attributes: sizes 3 and 4
    e.features = {0, 2, 1};
    e.sizes = {3, 4, 2};
    std::vector<int> codes;
    for (int l = 0; l < e.n_leaves; ++l) {
      codes.push_back(e.leaf_codes[static_cast<std::size_t>(l) * 2]);
      codes.push_back(e.leaf_codes[static_cast<std::size_t>(l) * 2 + 1]);
      codes.push_back(-1);
    }
    e.leaf_codes = codes;
    DomainMap m = map_domain(e, 1000);
    Rng opt(3);
    KronStrategy ks = optimise_kron(e.workload(), 1, opt);
    REQUIRE(ks.templates()[2] == 'T');
    REQUIRE(ks.loss < ks.identity_loss);
    Eigen::Index rows = 1;
    for (const auto& f : ks.factors) rows *= f.rows();
    const double scale = 0.5;
    const int draws = 4000;
    std::vector<double> v(draws);
    Rng noise(77);
    for (int i = 0; i < draws; ++i) {
      MatrixXd y = ks.apply_pinv(laplace_matrix(rows, 1, scale, noise));
      v[static_cast<std::size_t>(i)] = leaf_sums(m, y).squaredNorm();
    }
    double mean = 0, var = 0;
    for (double x : v) mean += x / draws;
    for (double x : v) var += (x - mean) * (x - mean) / (draws - 1);
    const double expected = 2 * scale * scale * ks.loss;
    CHECK(std::abs(mean - expected) <= 4.42 * std::sqrt(var / draws));
  }
}

TEST_SUITE("reproduction") {
  TEST_CASE("Car, h = 4, τ = 128, ε = 2: batch prediction ≈ 0.837 and batch-train LM ≈ 0.462 (Fig. 2)") {
    // Published means (car_id1.csv, spec §5.4) are over 5 noise draws on ONE split and ONE forest, so
    // they carry that forest's own deviation (our split-to-split sd at ε = 2: ≈ 0.03 for batch
    // prediction, ≈ 0.05 for the LM). Here 10 random 80/20 splits, each with new trees and noise
    // (SE ≈ 0.01 / 0.016). Tolerance 0.06 (prediction) and 0.08 (LM): about 1.5 sd of one forest.
    DataOptions o = DataOptions::from_environment();
    o.allow_download = false;
    Dataset d;
    try {
      d = load_dataset("car", o);
    } catch (const MissingInput& e) {
      MESSAGE("car not available; skipped: " << e.what());
      return;
    }
    double pred = 0, lm = 0;
    const int reps = 10;
    for (int r = 0; r < reps; ++r) {
      Rng split_rng(500 + static_cast<uint64_t>(r));
      Split s = holdout_split(d.n_rows(), 0.2, split_rng);
      std::vector<int> truth;
      for (uint32_t i : s.test) truth.push_back(d.label(i));
      std::map<std::string, std::string> p = {{"epsilon", "2"}, {"n_trees", "128"}, {"max_depth", "4"}};
      auto a = dpf::test::fit_registry("mrf-predict", p, d, s.train, 600 + static_cast<uint64_t>(r));
      pred += accuracy(truth, a.model->predict(d, s.test).label) / reps;
      auto b = dpf::test::fit_registry("mrf-train-lm", p, d, s.train, 700 + static_cast<uint64_t>(r));
      lm += accuracy(truth, b.model->predict(d, s.test).label) / reps;
    }
    MESSAGE("Car batch prediction " << pred << ", batch-train LM " << lm);
    CHECK(std::abs(pred - 0.837) <= 0.06);
    CHECK(std::abs(lm - 0.462) <= 0.08);
  }
}
