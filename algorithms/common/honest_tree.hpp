// Growth loop of the "honest" (consistent) forests of multinomial-rf.md: every tree splits its
// training rows at random into structure points S (they choose the splits) and estimation points E
// (they decide when to stop and label the leaves) — MRF §1.2, Denil14 §2.2, BRF §2.3.
//
// The shared grower (core/tree/grower.hpp) routes one row set per node, so this loop lives here and
// writes into core/tree's Tree storage (add_nodes / add_leaf_values); the result predicts through
// ForestModel like every other forest.
//
// Control flow at a node (S_A, E_A) at depth t — MRF §1.7 (the reference code) with `stop=paper`
// and the dp depth cap (§1.10) as options:
//   0. max_depth > 0 and t == max_depth                   -> leaf
//   1. S_A non-empty and one class only                   -> leaf
//   2. the policy returns no split (no candidate feature) -> leaf
//   3. route S_A and E_A; an empty estimation child       -> this node is a leaf (reason kEmptyChild)
//   4. stop=paper: a child with < k estimation points     -> this node is a leaf (split rejected)
//   5. stop=ref: a child with <= k estimation points becomes a leaf, the others recurse;
//      stop=paper: every child recurses.
// strict (the repaired ε-DP MRF, mrf_strict.hpp): steps 1, 3, 4 and 5's k rule are skipped — they
// read the data — so a node is a leaf only at the public depth cap (step 0) or when the policy has
// no candidate at all (a function of the schema and the path); every record joins S with
// probability r/(r+1) independently (instead of a fixed-size split, which couples the records), and
// the loop tracks each node's public domains (the schema's, narrowed by the path) for the policy.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/privacy/ledger.hpp"
#include "core/privacy/rng.hpp"
#include "core/tree/forest.hpp"
#include "core/tree/grower.hpp"
#include "core/tree/model.hpp"
#include "core/tree/tree.hpp"

namespace dpf {

enum class HonestStop { kRef, kPaper };
enum class LeafReason { kStop, kEmptyChild };

struct HonestView {
  const Dataset& data;
  std::span<const int> labels;     // class of every dataset row
  std::span<const uint32_t> s;     // structure points at the node
  std::span<const uint32_t> e;     // estimation points at the node
  int depth = 0;
  PrivacyLedger::ScopeId scope = -1;  // the node's own sequential scope (-1: not private)
  std::size_t s_offset = 0;  // where s starts in the tree's structure array (policies that keep presorted
                             // per-feature copies of that array partition them in step with the loop)
  std::span<const FeatureDomain> domains = {};  // strict: the node's public domains (else empty)
};

class HonestPolicy {
 public:
  virtual ~HonestPolicy() = default;
  // The split of a node, or nullopt for a leaf. May charge view.scope. The root (depth 0) is always
  // asked first, with s = the whole structure array. After a split is returned, the loop partitions
  // s so that the rows going left (goes_left) come first; a policy keeping presorted copies partitions
  // them the same way (stably) in choose().
  virtual std::optional<SplitChoice> choose(const HonestView& node, Rng& rng, PrivacyLedger& ledger) = 0;
  // Fills the leaf's class scores (size C). `scope` is the leaf's own scope (-1: not private).
  virtual void leaf(const HonestView& node, LeafReason why, Rng& rng, PrivacyLedger& ledger,
                    PrivacyLedger::ScopeId scope, std::span<double> out) = 0;
};

struct HonestOptions {
  int min_leaf = 5;          // k, on estimation points
  HonestStop stop = HonestStop::kRef;
  int max_depth = 0;         // 0: no cap
  double partition_rate = 1; // r = |S| / |E|; |S| = ceil(n r / (r + 1)) (§1.2, the code)
  bool track_privacy = false;
  bool parallel_s_e = true;  // private: S and E compose in parallel (the paper) or sequentially
  bool strict = false;       // data-independent stops, Bernoulli S/E assignment, domain tracking
  PrivacyLedger::ScopeId forest_scope = PrivacyLedger::kRoot;
};

// Number of structure points for n rows at rate r (§1.2).
std::size_t structure_size(std::size_t n, double r);

// Draws this tree's S/E partition of `rows` from `rng` (uniform, no stratification) and grows it.
Tree grow_honest_tree(const Dataset& data, std::span<const int> labels, std::span<const uint32_t> rows,
                      HonestPolicy& policy, const HonestOptions& opt, const Rng& tree_rng, PrivacyLedger& ledger);

// A non-private forest of honest trees: tree t grows from ctx.rng.derive("tree").derive(t).
std::unique_ptr<Model> fit_honest_forest(const std::string& name, const Dataset& data, std::span<const uint32_t> rows,
                                         FitContext& ctx, int n_trees, HonestPolicy& policy, const HonestOptions& opt,
                                         Vote vote);

// Routes one row by a split: true = child 0 (x < threshold, or code in mask).
inline bool goes_left(const Dataset& data, const SplitChoice& c, uint32_t row) {
  const double x = data.x(row, static_cast<std::size_t>(c.feature));
  if (c.kind == SplitKind::kThreshold) return x < c.threshold;
  const auto code = static_cast<uint64_t>(x);
  return code < 64 && ((c.mask >> code) & 1u);
}

// Class counts of `rows` (size C).
std::vector<double> class_counts(std::span<const int> labels, std::span<const uint32_t> rows, int n_classes);
// Leaf of the consistent baselines: the class fractions of the estimation points (1/C each when empty).
void estimation_histogram(const HonestView& node, int n_classes, std::span<double> out);
// Poisson(lambda) draw (Knuth's product of uniforms; lambda up to a few hundred).
int sample_poisson(Rng& rng, double lambda);
// Index of the largest count, ties broken uniformly at random (§1.8 harness rule).
int argmax_uniform_ties(std::span<const double> counts, Rng& rng);

}  // namespace dpf
