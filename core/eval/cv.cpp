#include "core/eval/cv.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/util/error.hpp"

namespace dpf {
namespace {

// Rows grouped by class, classes in ascending label order and rows ascending within a class, so the
// grouping (and hence every later draw) depends only on the labels, never on container internals.
std::vector<std::vector<uint32_t>> rows_by_class(std::size_t n, std::span<const int> labels, const char* who) {
  require(labels.size() == n, who, ": labels has ", labels.size(), " entries but n = ", n);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  for (std::size_t i = 0; i < n; ++i)
    require(labels[i] >= 0, who, ": label of row ", i, " is ", labels[i], ", expected a class index >= 0");
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return labels[a] < labels[b]; });
  std::vector<std::vector<uint32_t>> groups;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == 0 || labels[order[i]] != labels[order[i - 1]]) groups.emplace_back();
    groups.back().push_back(order[i]);
  }
  return groups;
}

void require_row_count_fits(std::size_t n, const char* who) {
  // Row indices are stored as uint32_t.
  require(n <= std::size_t{UINT32_MAX}, who, ": n = ", n, " rows exceeds the 32-bit row index range");
}

}  // namespace

Split FoldPlan::split(int i) const {
  require(i >= 0 && i < n_splits, "FoldPlan::split: split ", i, " of ", n_splits);
  const auto u = static_cast<uint16_t>(i);
  std::size_t n_test = 0;
  for (uint16_t t : test_of) n_test += t == u;
  Split s;
  s.test.reserve(n_test);
  s.train.reserve(test_of.size() - n_test);
  // Walking rows in order makes both index vectors ascending without a sort.
  for (std::size_t r = 0; r < test_of.size(); ++r) (test_of[r] == u ? s.test : s.train).push_back(static_cast<uint32_t>(r));
  return s;
}

std::vector<Split> kfold_splits(std::size_t n, int k, Rng& rng, std::span<const int> labels) {
  FoldPlan plan = kfold_plan(n, k, rng, labels);
  std::vector<Split> splits;
  for (int f = 0; f < plan.n_splits; ++f) splits.push_back(plan.split(f));
  return splits;
}

Split holdout_split(std::size_t n, double test_fraction, Rng& rng, std::span<const int> labels) {
  return holdout_plan(n, test_fraction, rng, labels).split(0);
}

FoldPlan kfold_plan(std::size_t n, int k, Rng& rng, std::span<const int> labels) {
  require_row_count_fits(n, "kfold_splits");
  require(k >= 2, "kfold_splits: k = ", k, ", expected k >= 2");
  require(k < UINT16_MAX, "kfold_splits: k = ", k, ", expected k < ", UINT16_MAX);
  require(static_cast<std::size_t>(k) <= n, "kfold_splits: k = ", k, " exceeds the number of rows n = ", n);
  const auto uk = static_cast<std::size_t>(k);

  FoldPlan plan;
  plan.n_splits = k;
  std::vector<uint16_t>& fold = plan.test_of;
  fold.resize(n);
  if (!labels.empty()) {
    // One fold counter runs across all classes: each class is spread evenly, and because the deal
    // continues where the previous class stopped, total fold sizes also differ by at most 1.
    std::size_t counter = 0;
    for (auto& rows : rows_by_class(n, labels, "kfold_splits")) {
      rng.shuffle(std::span<uint32_t>(rows));
      for (uint32_t r : rows) fold[r] = static_cast<uint16_t>(counter++ % uk);
    }
  } else {
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0u);
    rng.shuffle(std::span<uint32_t>(perm));
    // Cut points floor(f n / k) give sizes floor(n/k) or ceil(n/k).
    for (std::size_t f = 0; f < uk; ++f)
      for (std::size_t i = f * n / uk; i < (f + 1) * n / uk; ++i) fold[perm[i]] = static_cast<uint16_t>(f);
  }
  return plan;
}

FoldPlan holdout_plan(std::size_t n, double test_fraction, Rng& rng, std::span<const int> labels) {
  require_row_count_fits(n, "holdout_split");
  require(n >= 2, "holdout_split: n = ", n, ", expected at least 2 rows (one for training, one for test)");
  require(test_fraction > 0.0 && test_fraction < 1.0, "holdout_split: test_fraction = ", test_fraction,
          ", expected a value in (0, 1)");
  // The small slack keeps products like 0.3 * 10 = 3.0000000000000004 from rounding up to 4.
  auto n_test = static_cast<std::size_t>(std::ceil(test_fraction * static_cast<double>(n) - 1e-9));
  n_test = std::clamp<std::size_t>(n_test, 1, n - 1);

  FoldPlan plan;
  plan.n_splits = 1;
  std::vector<uint16_t>& is_test = plan.test_of;  // 0: test row, 1: training row
  is_test.assign(n, 1);
  if (labels.empty()) {
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0u);
    rng.shuffle(std::span<uint32_t>(perm));
    for (std::size_t i = 0; i < n_test; ++i) is_test[perm[i]] = 0;
  } else {
    auto groups = rows_by_class(n, labels, "holdout_split");
    // Largest-remainder rounding: each class gets floor(q_c) or ceil(q_c) test rows, q_c =
    // test_fraction * n_c, and the total is exactly n_test.
    std::vector<std::size_t> take(groups.size());
    std::vector<double> remainder(groups.size());
    std::size_t assigned = 0;
    for (std::size_t c = 0; c < groups.size(); ++c) {
      double q = test_fraction * static_cast<double>(groups[c].size());
      take[c] = std::min(groups[c].size(), static_cast<std::size_t>(std::floor(q)));
      remainder[c] = q - static_cast<double>(take[c]);
      assigned += take[c];
    }
    std::vector<std::size_t> by_remainder(groups.size());
    std::iota(by_remainder.begin(), by_remainder.end(), std::size_t{0});
    std::stable_sort(by_remainder.begin(), by_remainder.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    // The clamp of n_test to [1, n-1] can call for more (or fewer) rows than rounding gives; keep
    // dealing (or withdrawing) one row per class in remainder order until the total matches.
    while (assigned < n_test)
      for (std::size_t c : by_remainder)
        if (assigned < n_test && take[c] < groups[c].size()) ++take[c], ++assigned;
    while (assigned > n_test)
      for (auto it = by_remainder.rbegin(); it != by_remainder.rend(); ++it)
        if (assigned > n_test && take[*it] > 0) --take[*it], --assigned;
    for (std::size_t c = 0; c < groups.size(); ++c) {
      rng.shuffle(std::span<uint32_t>(groups[c]));
      for (std::size_t i = 0; i < take[c]; ++i) is_test[groups[c][i]] = 0;
    }
  }

  return plan;
}

}  // namespace dpf
