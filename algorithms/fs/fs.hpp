// FS: Friedman & Schuster (KDD 2010) DiffP-C4.5 with continuous attributes, as Fletcher & Islam (2017)
// ran it (one tree, depth 5, eps = 1; smooth-rdf.md §2.2): max-operator scorer, per-operation budget
// eps' = eps / ((2 + c) D + 2) with c continuous features, noisy node count with the
// N / (t K) <= sqrt(2) / eps' stopping rule, split points by the exponential mechanism over the
// intervals between consecutive values (length-weighted), the attribute by the exponential mechanism,
// leaves by noisy class counts. Post-pruning is off (the spec's default); root bounds are the
// registry's public domains (FS-code reads public bounds from a file).
#pragma once
#include <vector>

#include "algorithms/registry.hpp"

namespace dpf {

std::vector<AlgorithmInfo> fs_algorithms();  // fs

}  // namespace dpf
