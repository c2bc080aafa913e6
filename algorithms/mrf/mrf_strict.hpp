// Repaired ε-DP MRF: multinomial-rf-dp with strict: true (multinomial-rf.md §1.10; privacy.md §6.7,
// §7.2). Neighbours: add/remove one record. What breaks DP in the published mapping, and the repair:
//
//  1. Candidate values are the midpoints of the node's data values (numeric) or the values present
//     (categorical), so the set of outcomes depends on the data.
//     -> T thresholds evenly spaced strictly inside the node's PUBLIC domain (the schema's domain,
//        narrowed by the thresholds on the path), t_k = lo + k (hi - lo) / (T + 1), k = 1..T; every
//        public category still possible on the path, one-vs-rest.
//  2. Candidate features are those with >= 2 distinct structure values (data).
//     -> every feature that has a candidate in 1 (a function of the schema and the path only).
//  3. Min-max normalisation of the gains over data-dependent candidates: Î jumps from 0 to 1 when one
//     record breaks a tie, so the utility range 1 of Lemma 5 bounds nothing (unbounded sensitivity of
//     a normalised score); the raw gain I is itself normalised by the private node size.
//     -> the un-normalised count-scale utility u(f, t) = -(n_l T(S_l) + n_r T(S_r))
//        = sum_c n_lc^2 / n_l + sum_c n_rc^2 / n_r - |S_A|, whose sensitivity under add/remove is < 2
//        (one record enters one child: N T changes by at most 2N/(N+1); Friedman & Schuster 2010's
//        Gini bound); the feature utility max_t u(f, t) has the same bound. Both draws are the
//        exponential mechanism with Δu = 2: P ∝ exp(B u / (2 Δu)) (the paper's two multinomials,
//        §1.5 step 3 / §1.6, with the factor the sensitivity demands).
//  4. Stops on purity, on no candidate, on an empty estimation child and on <= k estimation points
//     (§1.7) read the data and are not charged.
//     -> only the public depth cap d: complete trees of depth d (a node without records draws
//        uniformly, all utilities being 0).
//  5. Labels drawn over the classes present in the leaf (§1.8 code).
//     -> the exponential mechanism over all C classes on the estimation counts (Δ = 1) at every leaf:
//        P(c) ∝ exp(B3 n_c / 2) (Lemma 7 reading of §1.8).
//  6. |S| = ceil(n r / (r + 1)) with a uniform permutation couples the records' assignments.
//     -> each record joins S with probability r / (r + 1) independently, so one record is read by the
//        structure or by the labels: per tree max(d (B1 + B2), B3) (dp_compose=parallel) or the sum.
//  7. The default depth ceil(log2(|E| / k)) reads the private n.
//     -> max_depth must be given (a public parameter).
// Budget (§1.10 mapping unchanged): B1 = B2 = ε / (2 M d), B3 = ε / M (parallel) or half of each
// (sequential); the M trees compose sequentially. Numeric domains are the registry's (public);
// with `domains: from-data` the guarantee does not hold (privacy.md §6 P6).
#pragma once
#include <optional>
#include <vector>

#include "algorithms/common/code_class_counts.hpp"
#include "algorithms/common/honest_tree.hpp"
#include "core/tree/split_search.hpp"

namespace dpf {

struct MrfStrictParams {
  double b1 = 0, b2 = 0, b3 = 0;  // per-draw epsilons of the §1.10 mapping
  int n_thresholds = 16;          // T
};

// Sensitivity of the count-scale Gini utility under add/remove (repair 3).
inline constexpr double kMrfStrictUtilitySensitivity = 2.0;

class MrfStrictPolicy : public HonestPolicy {
 public:
  MrfStrictPolicy(const MrfStrictParams& p, int n_features, int n_classes);
  std::optional<SplitChoice> choose(const HonestView& node, Rng& rng, PrivacyLedger& ledger) override;
  void leaf(const HonestView& node, LeafReason why, Rng& rng, PrivacyLedger& ledger, PrivacyLedger::ScopeId scope,
            std::span<double> out) override;

  // The node's candidates (tests): for each candidate feature, its candidate splits and utilities.
  struct Candidates {
    std::vector<int> features;
    std::vector<double> feature_utility;             // max_t u(f, t)
    std::vector<std::vector<SplitChoice>> splits;    // per candidate feature
    std::vector<std::vector<double>> utility;        // u(f, t) per split
  };
  Candidates candidates(const HonestView& node);

 private:
  // The categorical columns packed with the labels (code * C + class per row, where n_categories * C
  // <= 256): built on the first node of a fit (a policy serves one dataset and label vector; another
  // one rebuilds them), read by GiniSplitSearch::one_vs_rest_cells.
  void pack_cells(const HonestView& node);

  MrfStrictParams p_;
  int n_features_, n_classes_;
  GiniSplitSearch search_;
  std::optional<CodeClassCounts> cells_;
  const Dataset* packed_for_ = nullptr;
  const int* packed_labels_ = nullptr;
  std::size_t packed_rows_ = 0;
  std::vector<SplitGain> gains_;
  std::vector<double> thresholds_;
};

}  // namespace dpf
