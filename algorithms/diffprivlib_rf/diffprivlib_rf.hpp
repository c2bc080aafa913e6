// IBM diffprivlib v0.6 RandomForestClassifier (diffprivlib-rf.md; GitHub IBM/differential-privacy-library
// at 5d9c9d8 = v0.6.6, diffprivlib/models/forest.py and mechanisms/exponential.py).
//
// The forest (diffprivlib-rf.md §3):
//   - the rows are cut into N_T disjoint blocks, row at position i going to tree floor(i / (n / N_T))
//     (positions of a random permutation when shuffle = true); each tree fits its block with the whole ε;
//   - each tree's structure is drawn before the data is read: every node above max_depth picks a
//     feature uniformly among all features and a threshold uniform on the node's current box
//     [lower_f, upper_f) (the public bounds narrowed by the thresholds above it); rows with x_f <= t go
//     left; the tree is complete (2^max_depth leaves);
//   - every leaf releases one label by permute-and-flip on its class counts (ε, sensitivity 1,
//     monotonic: diffprivlib-rf.md §4, exponential.py PermuteAndFlip with scale ε / Δ); the leaf value
//     is the one-hot of that label;
//   - prediction: the trees' one-hot outputs averaged, first argmax (sklearn ForestClassifier).
// Accounting (§3 "Why the full ε per leaf is valid"): leaves of a tree are disjoint, trees see disjoint
// blocks, the structure is data-independent, so the forest costs ε by parallel composition.
//
// Privacy under add/remove-one (README "Privacy labels"): a block boundary floor(i / (n / N_T)) moves
// when one row is added, so rows change trees and parallel composition over trees fails (the
// "chunked partitions" finding; diffprivlib-rf.md §3 notes the library ignores it). As published
// (strict = false, N_T > 1) the label says so. strict = true sends each row to a uniformly random tree,
// independently, which restores parallel composition. One tree (N_T = 1) is ε-DP either way.
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> diffprivlib_rf_algorithms();  // diffprivlib-rf

}  // namespace dpf
