#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/eval/metrics.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

using VI = std::vector<int>;
using VD = std::vector<double>;

namespace {
// O(n+ n-) definition: P(score of a random positive > score of a random negative), ties count 1/2.
double brute_force_auc(const VI& truth, const VD& score, int positive) {
  double wins = 0, pairs = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    if (truth[i] != positive) continue;
    for (std::size_t j = 0; j < truth.size(); ++j) {
      if (truth[j] == positive) continue;
      wins += score[i] > score[j] ? 1.0 : score[i] == score[j] ? 0.5 : 0.0;
      pairs += 1;
    }
  }
  return wins / pairs;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("accuracy and error rate") {
    VI t{0, 1, 2, 1, 0}, p{0, 2, 2, 1, 1};
    CHECK(dpf::accuracy(t, p) == doctest::Approx(0.6));
    CHECK(dpf::error_rate(t, p) == doctest::Approx(0.4));
    CHECK(dpf::accuracy(t, t) == 1.0);
    CHECK(dpf::error_rate(t, t) == 0.0);
  }

  TEST_CASE("mean squared error and soft L1 error") {
    VD t{1.0, 2.0, 3.0}, p{1.5, 2.0, 1.0};
    CHECK(dpf::mean_squared_error(t, p) == doctest::Approx((0.25 + 0.0 + 4.0) / 3.0));
    VI y{0, 1, 1, 0};
    VD s{0.2, 0.9, 0.4, 0.0};
    CHECK(dpf::l1_error(y, s) == doctest::Approx((0.2 + 0.1 + 0.6 + 0.0) / 4.0));
    VI bad{0, 2, 1, 0};
    CHECK_THROWS_AS(dpf::l1_error(bad, s), dpf::Error);
  }

  TEST_CASE("roc_auc: hand-computed values, ties and a missing class") {
    // The classic example: 3 of the 4 positive/negative pairs are ordered correctly.
    CHECK(dpf::roc_auc(VI{0, 0, 1, 1}, VD{0.1, 0.4, 0.35, 0.8}, 1) == doctest::Approx(0.75));
    CHECK(dpf::roc_auc(VI{0, 1}, VD{0.5, 0.5}, 1) == doctest::Approx(0.5));
    CHECK(dpf::roc_auc(VI{0, 1, 1}, VD{0.2, 0.2, 0.9}, 1) == doctest::Approx(0.75));
    // Class 0 as the positive class, scored by its own probability.
    CHECK(dpf::roc_auc(VI{0, 0, 1, 1}, VD{0.9, 0.6, 0.65, 0.2}, 0) == doctest::Approx(0.75));
    // Multiclass truth: every label other than `positive` is a negative.
    CHECK(dpf::roc_auc(VI{2, 0, 1, 2}, VD{0.9, 0.1, 0.3, 0.8}, 2) == doctest::Approx(1.0));
    CHECK(std::isnan(dpf::roc_auc(VI{1, 1, 1}, VD{0.1, 0.2, 0.3}, 1)));
    CHECK(std::isnan(dpf::roc_auc(VI{0, 0}, VD{0.1, 0.2}, 1)));
    CHECK_THROWS_AS(dpf::roc_auc(VI{0, 1}, VD{0.1, NAN}, 1), dpf::Error);
  }

  TEST_CASE("roc_auc matches the brute-force pairwise definition on random data with ties") {
    dpf::Rng rng(42);
    for (int rep = 0; rep < 20; ++rep) {
      const auto n = 5 + rng.below(200);
      VI truth(n);
      VD score(n);
      for (std::size_t i = 0; i < n; ++i) {
        truth[i] = static_cast<int>(rng.below(3));
        // Coarse scores force many ties; a label-dependent shift makes the AUC non-trivial.
        score[i] = static_cast<double>(rng.below(10)) / 10.0 + (truth[i] == 1 ? 0.3 : 0.0);
      }
      const double expected = brute_force_auc(truth, score, 1);
      if (std::isnan(expected)) continue;  // class 1 or its complement absent: covered above
      CHECK(dpf::roc_auc(truth, score, 1) == doctest::Approx(expected).epsilon(1e-12));
    }
  }

  TEST_CASE("f1_score") {
    // tp = 2, fp = 1, fn = 1 -> 2*2 / (4 + 1 + 1).
    VI t{1, 1, 1, 0, 0}, p{1, 1, 0, 1, 0};
    CHECK(dpf::f1_score(t, p, 1) == doctest::Approx(4.0 / 6.0));
    // Class 0 of the same data: tp = 1, fp = 1, fn = 1.
    CHECK(dpf::f1_score(t, p, 0) == doctest::Approx(0.5));
    CHECK(dpf::f1_score(t, p, 7) == 0.0);               // never present, never predicted
    CHECK(dpf::f1_score(VI{0, 0}, VI{1, 1}, 1) == 0.0);  // predicted, never present
    CHECK(dpf::f1_score(t, t, 1) == 1.0);
  }

  TEST_CASE("metrics reject empty and mismatched input") {
    CHECK_THROWS_AS(dpf::accuracy(VI{}, VI{}), dpf::Error);
    CHECK_THROWS_AS(dpf::accuracy(VI{1, 2}, VI{1}), dpf::Error);
    CHECK_THROWS_AS(dpf::error_rate(VI{1}, VI{1, 2}), dpf::Error);
    CHECK_THROWS_AS(dpf::mean_squared_error(VD{}, VD{}), dpf::Error);
    CHECK_THROWS_AS(dpf::mean_squared_error(VD{1.0}, VD{1.0, 2.0}), dpf::Error);
    CHECK_THROWS_AS(dpf::l1_error(VI{0}, VD{}), dpf::Error);
    CHECK_THROWS_AS(dpf::roc_auc(VI{0, 1}, VD{0.5}, 1), dpf::Error);
    CHECK_THROWS_AS(dpf::f1_score(VI{0, 1}, VI{0}, 1), dpf::Error);
  }
}
