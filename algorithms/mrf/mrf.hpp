// Multinomial random forest (Bai et al., "Multinomial random forest: toward consistency and
// privacy-preservation"; spec multinomial-rf.md §1).
//
// Per tree: a fresh uniform S/E partition at rate r (§1.2). At a node, every feature with >= 2
// distinct structure values is a candidate (§1.3); its candidate values are the midpoints of its
// distinct values (numeric features, rule x < t | x >= t) or every value one-vs-rest (categorical
// features, rule x == v | x != v; with two values both candidates are kept, as the code does).
// Gains are Gini decreases on structure points (eq. 4), computed for all candidates of a feature
// in one sorted sweep (core/tree/split_search.hpp). Feature draw (the first multinomial, §1.5):
// I^F_i = max_j I_ij, min-max normalised over candidate features (all equal -> all 0), drawn with
// P ∝ exp(B1 Î^F / 2). Value draw (§1.6): the chosen feature's gains min-max normalised, drawn with
// P ∝ exp(B2 Î^V / 2). Both are the exponential mechanism with utility range 1 (core/privacy). Leaf
// labels from estimation points (§1.8): B3 = inf -> majority (ties uniform), finite B3 -> P(c) ∝
// exp(B3 n_c / 2). Forest: hard majority vote (eq. 6), ties broken uniformly at random as the spec
// states (`ties: random`, from the fit's RNG stream and the row index; `ties: lowest` keeps
// ForestModel's lowest-class rule).
//
// Modes:
//   multinomial-rf     the paper's non-private MRF with the reference code's control flow (stop=ref, §1.7) or the
//           paper's wording (stop=paper: a split is kept only if both estimation children hold >= k).
//           As in the code, a finite B3 is used only where a split left an empty estimation child.
//   multinomial-rf-dp  §1.10: hard depth cap d, B1 = B2 = ε/(2 M d), B3 = ε/M (dp_compose=parallel: S and E
//           compose in parallel) or B1 = B2 = ε/(4 M d), B3 = ε/(2M) (dp_compose=sequential: per
//           tree d(B1+B2) + B3 = ε/M); the label mechanism over all C classes at every leaf.
//           strict: true is the repaired, genuinely ε-DP variant of algorithms/mrf/mrf_strict.hpp.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "algorithms/common/honest_tree.hpp"
#include "algorithms/common/algorithm_info.hpp"
#include "core/tree/split_search.hpp"

namespace dpf {

struct MrfParams {
  std::string name;           // registry name, for messages and the model
  int n_trees = 100;
  int min_leaf = 5;
  double partition_rate = 1.0;
  double b1 = 5, b2 = 5, b3 = INFINITY;
  HonestStop stop = HonestStop::kRef;
  bool dp = false;
  double epsilon = INFINITY;
  int max_depth = 0;          // dp: 0 = ceil(log2(|E| / k)) (§1.10 assumption)
  bool parallel_s_e = true;   // dp_compose
  bool all_continuous = false;  // feature_types=continuous: categorical codes split by thresholds
  bool random_ties = true;      // forest vote ties uniformly at random (eq. 6) or to the lowest class
  bool strict = false;          // dp: the repaired ε-DP variant (mrf_strict.hpp)
  int n_thresholds = 16;        // strict: T thresholds per numeric feature and node
};

// The §1.10 mapping: (B1, B2, B3) of one multinomial-rf-dp fit.
struct MrfDpBudget {
  double b1, b2, b3;
  int depth;
};
MrfDpBudget mrf_dp_budget(double epsilon, int n_trees, int depth, bool parallel_s_e);
// Default dp depth for n training rows: ceil(log2(|E| / k)), at least 1.
int mrf_default_depth(std::size_t n, double partition_rate, int min_leaf);

class MrfPolicy : public HonestPolicy {
 public:
  MrfPolicy(const MrfParams& p, int n_features, int n_classes);
  std::optional<SplitChoice> choose(const HonestView& node, Rng& rng, PrivacyLedger& ledger) override;
  void leaf(const HonestView& node, LeafReason why, Rng& rng, PrivacyLedger& ledger, PrivacyLedger::ScopeId scope,
            std::span<double> out) override;

  // Probabilities the two draws would use at a node (tests): the feature draw over `features`, then
  // the value draw of feature `features[i]`.
  std::vector<double> feature_probabilities(const HonestView& node, std::vector<int>& features);

 private:
  bool gains_of(const HonestView& node, int f, std::vector<SplitGain>& out);
  bool feature_score(const HonestView& node, int f, double& score);
  void feature_scores(const HonestView& node);  // cand_, score_ = the candidate features and their I^F
  bool presorted(const HonestView& node, int f) const;
  void presort(const HonestView& node);                          // at the root of every tree
  void partition_presorted(const HonestView& node, const SplitChoice& c);
  std::size_t draw(Rng& rng, std::vector<double>& normalised, double b);

  MrfParams p_;
  int n_features_, n_classes_;
  GiniSplitSearch search_;
  RankIndex index_;
  std::vector<std::vector<SplitGain>> gains_;
  std::vector<int> cand_;
  std::vector<double> score_;
  // Presorted structure rows per numeric feature, laid out like the loop's structure array: a node's
  // rows are [s_offset, s_offset + |s|), sorted by the feature (design.md §6: presort once per fit).
  std::vector<std::vector<uint32_t>> sorted_;
  std::vector<char> left_;
  std::vector<uint32_t> tmp_;
  // Categorical features (<= 256 categories): their codes and the labels laid out in the structure
  // array's order (seg_rows_), partitioned in step with the loop like the presorted numeric orders,
  // so one-vs-rest counts read contiguous bytes instead of gathering from the columns. Within a
  // node's segment the order may differ from the loop's; one-vs-rest counts do not depend on it.
  std::vector<std::vector<uint8_t>> codes_;
  std::vector<uint32_t> seg_rows_;
  std::vector<int> seg_labels_;
  std::vector<char> flag_;
  std::vector<uint8_t> tmp8_;
  std::vector<int> tmp_labels_;
  bool cached(const HonestView& node, int f) const;
  static constexpr std::size_t kCodeCacheMinCells = std::size_t{1} << 19;  // rows x categorical features
};

std::vector<AlgorithmInfo> mrf_algorithms();  // multinomial-rf, multinomial-rf-dp

}  // namespace dpf
