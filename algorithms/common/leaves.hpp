// Leaf-release policies shared by the tree algorithms.
#pragma once
#include <limits>

#include "core/tree/grower.hpp"

namespace dpf {

inline constexpr double kNoPrivacy = std::numeric_limits<double>::infinity();

// The Laplace mechanism on a leaf's class histogram: n~_c = max(0, n_c + Lap(1/epsilon)) for every
// class. Under add/remove one record changes one count by one (L1 sensitivity 1), so the release costs
// epsilon (Dwork et al. 2006), charged to the node's scope (when it has one) as "laplace-class-counts".
void add_laplace_to_counts(std::span<double> counts, double epsilon, bool certified, const NodeView& node, Rng& rng,
                           PrivacyLedger& ledger);
// The (noisy) counts as a distribution: divided by their total, or uniform 1/C when the total is 0.
void normalise_or_uniform(std::span<double> counts);

// Classification leaf: the class distribution of the node's rows.
//   epsilon = kNoPrivacy: exact fractions (CART, median forest). An empty leaf gets a random
//     class-1 fraction ~ Uniform(0, 1) when `uniform_empty` (binary; dipreme.md §2.8 non-private
//     median forest), else the uniform distribution 1/C.
//   epsilon finite: n~_c = max(0, n_c + Lap(1/epsilon)) for every class, normalised; all zero gives
//     1/C (the 0.5 "neutral vote" of dipreme.md §2.8, [ICML] Thm 2). Under add/remove one record
//     changes one count by one, so the histogram has L1 sensitivity 1 and costs epsilon (Laplace
//     mechanism; Dwork et al. 2006). As published (strict = false) an empty leaf instead gets the
//     Uniform(0,1) fraction: that switch depends on the data (privacy.md §6, dipreme.md §4 P5), so the
//     charge is recorded as uncertified. strict = true always releases noisy counts.
class ClassCountLeaf : public LeafPolicy {
 public:
  ClassCountLeaf(int n_classes, double epsilon, bool strict, bool uniform_empty = true)
      : n_classes_(n_classes), epsilon_(epsilon), strict_(strict), uniform_empty_(uniform_empty) {}
  int n_outputs() const override { return n_classes_; }
  void release(const NodeView& node, Rng& rng, PrivacyLedger& ledger, std::span<double> out) override;
  std::unique_ptr<LeafPolicy> clone() const override { return std::make_unique<ClassCountLeaf>(*this); }

 private:
  int n_classes_;
  double epsilon_;
  bool strict_;
  bool uniform_empty_;
  std::vector<uint32_t> counts_;  // release() scratch
};

// Regression leaf on targets bounded in [lo, hi].
//   epsilon = kNoPrivacy: exact mean; empty leaf Uniform(lo, hi) (dipreme.md §2.8).
//   As published (DiPriMe [ICML] §3 / [v1] Alg. 1, DP-ERT regression analogue):
//     clip(mean + Lap(scale / (N epsilon)), lo, hi) with scale = hi - lo (leaf_scale "range", the
//     authors' code) or 2 max(|lo|, |hi|) ("2B", the [ICML] text); empty leaf Uniform(lo, hi).
//     The noise scale depends on the private count N, which is not epsilon-DP (privacy.md §6.2,
//     dipreme.md §4 P2): the charge is uncertified.
//   strict: noisy sum S~ = sum y + Lap(max(|lo|,|hi|) / (epsilon/2)) and noisy count
//     N~ = N + Lap(1 / (epsilon/2)); value clip(S~ / max(N~, 1), lo, hi), or (lo+hi)/2 when N~ < 1
//     (dipreme.md §4 P2 repair). Both have add/remove sensitivity as stated; total epsilon.
class MeanLeaf : public LeafPolicy {
 public:
  MeanLeaf(double lo, double hi, double epsilon, bool strict, bool scale_2b = false)
      : lo_(lo), hi_(hi), epsilon_(epsilon), strict_(strict), scale_2b_(scale_2b) {}
  int n_outputs() const override { return 1; }
  void release(const NodeView& node, Rng& rng, PrivacyLedger& ledger, std::span<double> out) override;
  std::unique_ptr<LeafPolicy> clone() const override { return std::make_unique<MeanLeaf>(*this); }

 private:
  double lo_, hi_, epsilon_;
  bool strict_, scale_2b_;
};

}  // namespace dpf
