// Leaf-label release rules of the smooth-sensitivity forest and its variants (smooth-rdf.md §1.6,
// §1.8, §3): given a non-empty leaf's class counts, draw one label.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "core/privacy/rng.hpp"

namespace dpf {

enum class LeafMechanism {
  kSmooth,   // the paper: EM, 0/1 is-majority score, smooth sensitivity e^(-j eps) (not epsilon-DP)
  kGlobal,   // Fig. 4 baseline: same EM with the global sensitivity 1 (epsilon-DP)
  kPermuteAndFlip,  // diffprivlib's rule: permute-and-flip on raw counts, sensitivity 1, monotone
  kEmCounts,        // EM on raw counts, sensitivity 1, monotone (epsilon-DP)
  kMajority,        // non-private: the true majority, ties to the first class
};
LeafMechanism parse_leaf_mechanism(const std::string& s);  // smooth|global|pf|em-counts
const char* to_string(LeafMechanism m);

// The exponent a given to score-1 labels by the smooth-sensitivity EM with the authors' guards:
// S = e^(-j eps); a = 50 if S < 1e-10, else min(50, eps / (2 S)) (smooth-rdf.md §1.6). Log domain.
double smooth_em_exponent(int64_t gap, double epsilon);
// Smooth sensitivity e^(-j eps) (Theorem 1, Table 2).
double smooth_sensitivity(int64_t gap, double epsilon);
// j = n_(1) - n_(2) (0 on a tie; n_(1) with one class).
int64_t majority_gap(std::span<const int32_t> counts);

// Returns the index into counts of the released label.
int release_leaf_label(LeafMechanism m, std::span<const int32_t> counts, double epsilon, Rng& rng);

}  // namespace dpf
