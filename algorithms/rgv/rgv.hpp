// RGV: Rana, Gupta & Venkatesh (ICDM 2015), "Differentially private random forest with high utility",
// as far as Fletcher & Islam (2017) specify it (smooth-rdf.md §2.3): an ensemble of FS-style trees
// (Friedman & Schuster DiffP-C4.5, algorithm fs, §2.2), each grown on the whole training set with the
// whole epsilon, combined by majority vote; binary classification only.
//
// Specified by Fletcher & Islam §5.2 and footnote 4: trees "built similarly to FS, with some
// modifications"; every tree uses the entire epsilon; 110 to 1 385 trees depending on the dataset;
// binary classes only; eps = 1; RGV's privacy notion is weaker than epsilon-DP (it protects feature
// values and labels, not presence, and keeps only the variance of the output invariant).
// Reconstructed (RGV's text is not available, §7.5): the tree induction is exactly FS's (max scorer,
// depth 5, eps' = eps / ((2 + c) D + 2) per operation, noisy leaf counts), since RGV's modifications are
// unknown; the number of trees is a parameter (RGV's formula is unknown); the vote is a plain majority
// of the trees' noisy-count argmax labels. Reported as "RGV (reconstructed)", never as RGV itself.
#pragma once
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

std::vector<AlgorithmInfo> rgv_algorithms();  // rgv

}  // namespace dpf
