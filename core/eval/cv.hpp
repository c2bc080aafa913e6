// Evaluation protocols (design.md §2, §5). Fold assignments depend only on the RNG passed in, which
// the runner derives from (master seed, dataset, repetition): every algorithm and every epsilon sees
// the same folds, so comparisons are paired.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/privacy/rng.hpp"

namespace dpf {

struct Split {
  std::vector<uint32_t> train;  // row indices into the dataset, ascending
  std::vector<uint32_t> test;   // ascending
};

// k-fold cross-validation of n rows. With labels given (class index >= 0 per row, labels.size() == n),
// folds are stratified: classes are taken in ascending label order, each class's rows are shuffled
// and dealt round-robin with one fold counter continuing across classes, so every fold holds
// ⌊n_c/k⌋ or ⌈n_c/k⌉ rows of class c and total fold sizes differ by at most 1. Without labels, rows
// are shuffled and cut into k folds whose sizes differ by at most 1.
// Returns k splits (fold f is the test part of split f). Requires 2 <= k <= n. The folds are a pure
// function of (n, k, labels, rng key): draws come only from rng.
std::vector<Split> kfold_splits(std::size_t n, int k, Rng& rng, std::span<const int> labels = {});

// The compact form of the same folds (the runner keeps one per dataset and repetition, so
// that an 11M-row dataset's folds fit in memory): 2 bytes per row instead of 4 bytes per row per fold, and a task builds its own Split
// when it runs. kfold_plan(...).split(f) equals kfold_splits(...)[f] for the same rng key, and
// holdout_plan(...).split(0) equals holdout_split(...): the splits functions are built on the plans.
struct FoldPlan {
  int n_splits = 0;               // k for k-fold, 1 for holdout
  std::vector<uint16_t> test_of;  // per row: the split whose test part holds it; n_splits: none (train only)
  // Split i: test = rows with test_of == i, train = every other row, both ascending.
  Split split(int i) const;
};
FoldPlan kfold_plan(std::size_t n, int k, Rng& rng, std::span<const int> labels = {});
FoldPlan holdout_plan(std::size_t n, double test_fraction, Rng& rng, std::span<const int> labels = {});

// One random holdout split: ⌈test_fraction * n⌉ rows for test (at least 1, at most n - 1; the ceiling
// ignores a 1e-9 rounding excess so 0.3 * 10 gives 3), the rest for training. Stratified when labels
// are given: class c gets ⌊q_c⌋ or ⌈q_c⌉ test rows, q_c = test_fraction * n_c, by largest remainder so
// the total stays exact (only the [1, n-1] clamp can push a class outside that range).
// Requires n >= 2 and 0 < test_fraction < 1.
Split holdout_split(std::size_t n, double test_fraction, Rng& rng, std::span<const int> labels = {});

}  // namespace dpf
