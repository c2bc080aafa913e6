// PrivaTree (Vos, Vos, Li, Erkin, Verwer, arXiv 2305.15394), the "fixed" variant (B) of the authors'
// code at HEAD f2922ff "Fix privacy leaks" (privatree.md §4; GitHub tudelft-cda-lab/PrivaTree,
// privatree/privatree.py). One greedy tree, complete to max_depth:
//   - public equal-width bins: edges = linspace(lo, hi, B + 1)[1:], bin(x) = #edges < clip(x) (numpy
//     digitize right = True, §2); categorical features: the code is the bin;
//   - candidates: every (feature f, bin b) with left = bins <= b (bin order = identity at HEAD, also
//     for categorical features), degenerate last bins included;
//   - at each node: exact weighted Gini of every candidate, utility 0.5 − Gini;
//     ñ = clamp(|node| + Geom(ε_node / 2), 1, ∞) (diffprivlib GeometricTruncated, sensitivity 1),
//     Δ = 1 − (ñ/(ñ+1))² − (1/(ñ+1))², split = PermuteAndFlip(ε_node / 2, Δ, monotonic = False);
//   - leaves: PermuteAndFlip(ε_leaf, 1, monotonic = True) on the class counts, value one-hot;
//   - budget (§3): E_K = max_p 2 ln(1/p) (1 − (1 − (1−p)^K) / (K p)),
//     ε_leaf = min(share · ε, E_K 2^d / (n (1 − p_s))), ε_node = (ε − ε_leaf) / d per level;
//     levels compose sequentially, nodes of a level and leaves in parallel: d ε_node + ε_leaf = ε.
//
// Privacy under add/remove-one (README "Privacy labels"). As published (strict = false) two parts read
// private quantities without paying: ε_leaf reads the exact n (§3 step 3), and Δ(ñ) is a local Gini
// sensitivity at a noisy size — the weighted Gini of a node of n rows moves by up to 1/(n+1) when a
// row is added, which Δ(ñ) = 2ñ/(ñ+1)² falls below once ñ exceeds about 2n + 1, an event of positive
// probability (§4 "UNVERIFIED"). The label says so. strict = true repairs both:
//   - n is ñ = max(1, n + Lap(1/ε_n)) paid with 5 % of ε (algorithms/common/occupancy.hpp), the rest
//     is divided as above;
//   - the split utility is Q_i = n (1 − Gini_i) = Σ_sides Σ_c n_sc² / n_side, whose add/remove
//     sensitivity is at most 1 (one side gains one row: (n_L(2 n_Lc + 1) − S_L) / (n_L (n_L + 1)) lies
//     in (−1, 1]), so PermuteAndFlip(ε_node, Δ = 1, monotonic = False) selects with the global
//     sensitivity and no noisy size; on the Gini scale this is exp(ε_node n (Gini* − Gini_i) / 2), sharper
//     than the published exp(ε_node ñ (Gini* − Gini_i) / 8) at equal ε_node.
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

// The parameters of both PrivaTree variants (privatree.md §3; PrivaTreeClassifier's defaults).
struct PrivaTreeParams {
  double epsilon = 1;
  int max_depth = 3, max_bins = 10;
  double success_prob = 0.99;  // leaf_label_success_prob, < 1
  double leaf_share = 0.5;     // max_leaf_epsilon_share
  bool strict = false;
  bool quantile_bins = true;   // privatree-v2 only: bins from exact quantiles (PrivaTree*) or uniform
};

std::vector<AlgorithmInfo> privatree_algorithms();  // privatree, privatree-v2
// privatree-v2: the arXiv-v2 code (variant (A), privatree.md §5), published, not epsilon-DP (privatree_v2.cpp).
AlgorithmInfo privatree_v2_algorithm();

// E_K of privatree.md §3 step 1 (worst-case expected error of permute-and-flip over K candidates),
// maximised to ~1e-12 relative (the authors use scipy's bounded Brent, xatol 1e-5). E_2 = 1/e.
double privatree_worst_expected_error(int n_classes);

}  // namespace dpf
