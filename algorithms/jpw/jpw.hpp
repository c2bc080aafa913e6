// JPW: Jagannathan, Pillaipakkamnatt & Wright (2009 ICDM-W; 2012 TDP), as Fletcher & Islam (2017)
// ran it in §5.2 (smooth-rdf.md §2.1): the same data-independent random trees as smooth-rdf
// (continuous extension: uniform split point in the feature's current domain), tau = 10 trees,
// depth min(m/2, log_b n - 1) with b the mean branching factor (2 for a continuous feature, the
// number of domain values for a discrete one), every tree on all n training rows with epsilon/tau.
// Leaf release, two versions (§2.1):
//   coded    (default, the authors' JAG switch): per non-empty leaf, noisy_c = max(0, trunc(n_c +
//            Lap(tau/eps))), label = argmax (ties: first class seen in the leaf, then class order);
//            empty leaves uniform; majority vote;
//   original (reconstructed from memory of JPW, [R] in the spec): Lap(tau/eps) on every class count
//            of every leaf, empty ones included; predict the largest noisy count summed over trees.
// strict (epsilon-DP under add/remove-one; the published rules above leak):
//   public feature domains and the schema's public class list; depth_rule jpw reads a noisy n paid
//   with kNEpsilonShare = 5 % of epsilon (common/occupancy.hpp); coded ties go to a uniformly drawn tied
//   class (the leaf's own stream, not the order of its rows); empty leaves run the same noisy-count
//   argmax on zero counts instead of a uniform label.
// AUC score (Predictions::value; smooth-rdf.md §5.2, §7.8 leave it open): coded = the fraction of trees
// voting for the class, original = the summed noisy counts clamped at 0 and normalised. A per-tree
// noisy leaf frequency (Fan et al.'s RDT average) scores higher; the measured gaps are recorded in
// configs/smooth-rdf/published.yaml (fig12-auc-jpw-*).
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> jpw_algorithms();  // jpw
// d = min(m/2, log_b(n) - 1), floored (or ceiled), at least 0 (smooth-rdf.md §2.1).
int jpw_depth(const std::vector<int>& branching, double n, bool round_up);

}  // namespace dpf
