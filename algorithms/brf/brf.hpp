// BRF, the Bernoulli random forest (Wang, Xia, Tang, Wu, Zhu, TNNLS 2018; IJCAI 2016), as the
// multinomial-rf paper ran it (spec multinomial-rf.md §2.3). Reconstructed from memory of the BRF
// paper ([M] in the spec), not read in any code:
//   per tree a random S/E partition at rate 1;
//   per node two Bernoulli draws: b1 ~ B(p1) -> one candidate feature, else sqrt(D) features drawn
//   without replacement; b2 ~ B(p2) -> per candidate feature one split value uniform among the
//   midpoints of the node's structure points, else that feature's best Gini split (structure points);
//   the candidate feature with the largest Gini decrease wins;
//   a split is kept only if both estimation children hold >= k = 5 points (else leaf);
//   leaf = class histogram of its estimation points; forest = hard majority vote (vote=soft: mean).
// Decisions of ours: p1 = p2 = 0.05 (the spec's recollection, unverified); features constant at the
// node are skipped and more are drawn until sqrt(D) informative ones were seen (scikit-learn's rule);
// categorical features are ordinal codes split by thresholds, as in Breiman RF (§2.1).
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> brf_algorithms();  // brf

}  // namespace dpf
