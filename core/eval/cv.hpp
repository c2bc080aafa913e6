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

// k-fold cross-validation of n rows. With labels given (class index per row), folds are stratified:
// each class's rows are shuffled and dealt round-robin so every fold holds ⌊n_c/k⌋ or ⌈n_c/k⌉ rows
// of class c. Without labels, rows are shuffled and cut into k folds whose sizes differ by at most 1.
// Returns k splits (fold f is the test part of split f). Requires 2 <= k <= n.
std::vector<Split> kfold_splits(std::size_t n, int k, Rng& rng, std::span<const int> labels = {});

// One random holdout split: ⌈test_fraction * n⌉ rows for test (at least 1, at most n - 1), the rest
// for training; stratified when labels are given (per-class rounding, total kept exact).
Split holdout_split(std::size_t n, double test_fraction, Rng& rng, std::span<const int> labels = {});

}  // namespace dpf
