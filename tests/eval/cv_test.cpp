#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/eval/cv.hpp"
#include "core/util/error.hpp"

using dpf::Rng;
using dpf::Split;

namespace {

std::vector<int> make_labels(std::size_t n, std::initializer_list<std::size_t> class_sizes) {
  // Classes interleaved with a stride so that stratification, not row order, has to balance them.
  std::vector<int> labels;
  int c = 0;
  for (std::size_t size : class_sizes) {
    labels.insert(labels.end(), size, c);
    ++c;
  }
  REQUIRE(labels.size() == n);
  std::vector<int> mixed(n);
  for (std::size_t i = 0; i < n; ++i) mixed[(i * 7) % n] = labels[i];  // n coprime with 7 in the tests
  return mixed;
}

// Train and test are disjoint, ascending, and together cover 0..n-1.
void check_split_shape(const Split& s, std::size_t n) {
  CHECK(std::is_sorted(s.train.begin(), s.train.end()));
  CHECK(std::is_sorted(s.test.begin(), s.test.end()));
  CHECK(std::adjacent_find(s.train.begin(), s.train.end()) == s.train.end());
  CHECK(std::adjacent_find(s.test.begin(), s.test.end()) == s.test.end());
  std::vector<uint32_t> all = s.train;
  all.insert(all.end(), s.test.begin(), s.test.end());
  std::sort(all.begin(), all.end());
  REQUIRE(all.size() == n);
  for (std::size_t i = 0; i < n; ++i) CHECK(all[i] == i);
}

void check_partition(const std::vector<Split>& folds, std::size_t n) {
  std::vector<int> times_in_test(n, 0);
  std::size_t min_size = n, max_size = 0;
  for (const auto& s : folds) {
    check_split_shape(s, n);
    for (uint32_t r : s.test) ++times_in_test[r];
    min_size = std::min(min_size, s.test.size());
    max_size = std::max(max_size, s.test.size());
  }
  for (std::size_t r = 0; r < n; ++r) CHECK(times_in_test[r] == 1);
  CHECK(max_size - min_size <= 1);
  CHECK(min_size >= 1);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("kfold without labels: every row in exactly one test fold, sizes within 1") {
    for (std::size_t n : {2u, 5u, 10u, 101u}) {
      for (int k : {2, 3, 5}) {
        if (static_cast<std::size_t>(k) > n) continue;
        Rng rng(7);
        auto folds = dpf::kfold_splits(n, k, rng);
        REQUIRE(folds.size() == static_cast<std::size_t>(k));
        check_partition(folds, n);
      }
    }
  }

  TEST_CASE("kfold with labels: stratified per class and balanced overall") {
    const std::size_t n = 103;
    auto labels = make_labels(n, {60, 31, 12});
    for (int k : {2, 5, 10}) {
      Rng rng(11);
      auto folds = dpf::kfold_splits(n, k, rng, labels);
      check_partition(folds, n);
      for (int c = 0; c < 3; ++c) {
        const auto n_c = static_cast<std::size_t>(std::count(labels.begin(), labels.end(), c));
        for (const auto& s : folds) {
          const auto in_fold = static_cast<std::size_t>(
              std::count_if(s.test.begin(), s.test.end(), [&](uint32_t r) { return labels[r] == c; }));
          CHECK(in_fold >= n_c / k);
          CHECK(in_fold <= (n_c + k - 1) / k);
        }
      }
    }
  }

  TEST_CASE("kfold: the same key gives the same folds, another key different ones") {
    auto labels = make_labels(50, {30, 20});
    for (bool stratified : {false, true}) {
      std::span<const int> l = stratified ? std::span<const int>(labels) : std::span<const int>();
      Rng a(123), b(123), c(124);
      auto fa = dpf::kfold_splits(50, 5, a, l);
      auto fb = dpf::kfold_splits(50, 5, b, l);
      auto fc = dpf::kfold_splits(50, 5, c, l);
      bool all_same = true, any_differs = false;
      for (std::size_t f = 0; f < 5; ++f) {
        all_same = all_same && fa[f].test == fb[f].test && fa[f].train == fb[f].train;
        any_differs = any_differs || fa[f].test != fc[f].test;
      }
      CHECK(all_same);
      CHECK(any_differs);
    }
  }

  TEST_CASE("kfold: k = n gives leave-one-out") {
    Rng rng(3);
    auto folds = dpf::kfold_splits(4, 4, rng);
    check_partition(folds, 4);
    for (const auto& s : folds) CHECK(s.test.size() == 1);
  }

  TEST_CASE("fold plans: 2 bytes per row, and a plan's splits are the kfold / holdout splits") {
    // The runner keeps plans and builds a task's Split when it runs, so memory holds only the running tasks' splits.
    std::vector<int> labels(40);
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<int>(i % 3 == 0);
    Rng a(11), b(11);
    dpf::FoldPlan plan = dpf::kfold_plan(40, 4, a, labels);
    CHECK(plan.n_splits == 4);
    CHECK(plan.test_of.size() == 40);
    CHECK(sizeof(plan.test_of[0]) == 2);
    auto folds = dpf::kfold_splits(40, 4, b, labels);
    for (int f = 0; f < 4; ++f) {
      CHECK(plan.split(f).test == folds[static_cast<std::size_t>(f)].test);
      CHECK(plan.split(f).train == folds[static_cast<std::size_t>(f)].train);
    }
    Rng h1(12), h2(12);
    dpf::FoldPlan hold = dpf::holdout_plan(40, 0.25, h1, labels);
    CHECK(hold.n_splits == 1);
    CHECK(hold.split(0).test == dpf::holdout_split(40, 0.25, h2, labels).test);
    CHECK(hold.split(0).test.size() == 10);
    CHECK_THROWS_AS(hold.split(1), dpf::Error);
  }

  TEST_CASE("kfold rejects bad arguments") {
    Rng rng(1);
    std::vector<int> labels{0, 1, 0};
    CHECK_THROWS_AS(dpf::kfold_splits(10, 1, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::kfold_splits(10, 0, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::kfold_splits(3, 4, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::kfold_splits(0, 2, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::kfold_splits(4, 2, rng, labels), dpf::Error);  // size mismatch
    std::vector<int> negative{0, -1, 0};
    CHECK_THROWS_AS(dpf::kfold_splits(3, 2, rng, negative), dpf::Error);
  }

  TEST_CASE("holdout: size is ceil(test_fraction * n), clamped to [1, n - 1]") {
    Rng rng(5);
    auto s = dpf::holdout_split(10, 0.3, rng);  // 0.3 * 10 must give 3, not 4
    check_split_shape(s, 10);
    CHECK(s.test.size() == 3);
    CHECK(dpf::holdout_split(10, 0.25, rng).test.size() == 3);
    CHECK(dpf::holdout_split(10, 0.01, rng).test.size() == 1);
    CHECK(dpf::holdout_split(10, 0.99, rng).test.size() == 9);
    CHECK(dpf::holdout_split(2, 0.5, rng).test.size() == 1);
  }

  TEST_CASE("holdout with labels: per-class rounding, exact total") {
    const std::size_t n = 103;
    auto labels = make_labels(n, {60, 31, 12});
    for (double frac : {0.1, 0.2, 0.25, 0.5, 0.9}) {
      Rng rng(9);
      auto s = dpf::holdout_split(n, frac, rng, labels);
      check_split_shape(s, n);
      const auto expected = static_cast<std::size_t>(std::ceil(frac * n - 1e-9));
      CHECK(s.test.size() == expected);
      std::map<int, std::size_t> per_class;
      for (uint32_t r : s.test) ++per_class[labels[r]];
      for (int c = 0; c < 3; ++c) {
        const double q = frac * static_cast<double>(std::count(labels.begin(), labels.end(), c));
        CHECK(static_cast<double>(per_class[c]) >= std::floor(q));
        CHECK(static_cast<double>(per_class[c]) <= std::ceil(q));
      }
    }
    // The clamp can ask for more than rounding gives: 2 classes of 1 row, fraction 0.1 -> 1 test row.
    Rng rng(2);
    auto tiny = dpf::holdout_split(2, 0.1, rng, std::vector<int>{0, 1});
    CHECK(tiny.test.size() == 1);
    CHECK(tiny.train.size() == 1);
  }

  TEST_CASE("holdout: deterministic per key") {
    auto labels = make_labels(50, {30, 20});
    Rng a(77), b(77);
    auto sa = dpf::holdout_split(50, 0.2, a, labels);
    auto sb = dpf::holdout_split(50, 0.2, b, labels);
    CHECK(sa.test == sb.test);
    CHECK(sa.train == sb.train);
  }

  TEST_CASE("holdout rejects bad arguments") {
    Rng rng(1);
    CHECK_THROWS_AS(dpf::holdout_split(10, 0.0, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::holdout_split(10, 1.0, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::holdout_split(10, -0.5, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::holdout_split(10, NAN, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::holdout_split(1, 0.5, rng), dpf::Error);
    CHECK_THROWS_AS(dpf::holdout_split(3, 0.5, rng, std::vector<int>{0, 1}), dpf::Error);
  }
}
