// FS: Friedman & Schuster (KDD 2010) DiffP-C4.5 with continuous attributes, as Fletcher & Islam (2017)
// ran it (one tree, depth 5, eps = 1; smooth-rdf.md §2.2): max-operator scorer, per-operation budget
// eps' = eps / ((2 + c) D + 2) with c continuous features, noisy node count with the
// N / (t K) <= sqrt(2) / eps' stopping rule, split points by the exponential mechanism over the
// intervals between consecutive values (length-weighted), the attribute by the exponential mechanism,
// leaves by noisy class counts. Post-pruning is off (the spec's default); root bounds are the
// registry's public domains (FS-code reads public bounds from a file).
#pragma once
#include <memory>
#include <vector>

#include "core/data/schema.hpp"
#include "core/tree/grower.hpp"

namespace dpf {

// eps' = eps / ((2 + c) D + 2), c = continuous features of the schema (FS-code, smooth-rdf.md §2.2).
double fs_operation_epsilon(double epsilon, int depth, const Schema& schema);
// The FS split policy (§2.2 steps 1-5) spending eps_op per operation; `certified` marks its ledger
// charges (false when the caller's composition is only a claim, as for RGV's trees).
std::unique_ptr<SplitPolicy> make_fs_split(double eps_op, int n_classes, bool certified);

}  // namespace dpf
