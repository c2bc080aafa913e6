// Denil14 (Denil, Matheson, de Freitas, "Narrowing the gap: random forests in theory and in
// practice", ICML 2014), the classification version used by BRF and MRF (spec multinomial-rf.md
// §2.2). What was read in the authors' toolkit (david-matheson/rftk, [D]) and what is reconstructed:
//   per tree: structure/estimation partition, exactly floor(n/2) estimation points without
//     replacement (rftk two_stream_per_tree) — here the shared S/E partition at rate 1 [D];
//   per node: m_f = min(D, 1 + Poisson(λ)) candidate features drawn uniformly without replacement
//     ([M] the paper's rule; rftk draws max(1, Poisson(λ))), λ = sqrt(D) (the MRF paper's "sqrt(D)
//     candidate features", our interpretation);
//   per candidate feature: m_s random structure points of the node fix the search range [min, max]
//     of their values; the best Gini split among the node's structure points inside that range,
//     threshold at the midpoint to the next value [D]. m_s = 0 (default): the node size, i.e. no
//     restriction (the MRF runs' m_s is unknown; rftk's default N/2 rarely restricts);
//   the feature whose best split has the largest decrease among those leaving >= k estimation points
//     on each side and a positive decrease wins; none -> leaf (a feature whose best split is invalid
//     is dropped, its second best not tried) [D];
//   leaf = class histogram of estimation points; forest = hard vote (MRF's text; rftk averages:
//     vote=soft). Impurity Gini (rftk defaults to entropy).
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> denil14_algorithms();  // denil14

}  // namespace dpf
