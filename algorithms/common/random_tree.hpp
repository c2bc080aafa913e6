// The data-independent random decision tree of Fletcher & Islam (2017), Alg. 2 / smooth-rdf.md §1.4,
// built lazily: a node's split (feature, threshold) is drawn the first time a training record
// reaches it, from a counter-based stream keyed by the node's path (tree key, child index, ...), so
// the tree does not depend on the order in which records arrive and never touches the data
// beyond routing. Unreached subtrees are never stored; a test record that leaves the stored part
// continues through the same (re-derivable) splits to a virtual, empty leaf (§1.4 "build lazily").
//
// Splits (Alg. 2): the feature g is uniform over the candidate list (every continuous feature, and
// each discrete feature not yet used on the path). Continuous g with current domain [lo, hi]:
// threshold p ~ Uniform(lo, hi), x < p left with domain [lo, p], x >= p right with [p, hi].
// Discrete g: one child per domain value, g removed from the children's candidates. A node at depth
// d (root depth 0) or with no candidate is a leaf.
//
// This is a specialised fast path (structure first, then one pass of leaf counting) rather than the
// shared grower, whose per-node cost (domain vectors, ledger scopes, row partitioning) dominates
// for 100 trees x 2^15 leaves; the structure rules are the same.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/privacy/rng.hpp"
#include "core/tree/route.hpp"

namespace dpf {

// The public description the trees are drawn from (per fit).
struct RandomTreeSchema {
  int depth = 0;
  std::vector<uint8_t> discrete;                 // per feature
  std::vector<double> lo, hi;                    // continuous: root domain
  std::vector<std::vector<int16_t>> child_of;    // discrete: category code -> child index (-1: not in domain)
  std::vector<int> n_values;                     // discrete: number of children
  std::vector<int> bit;                          // discrete: bit in the used-feature mask (-1: continuous)
  int n_continuous = 0, n_discrete = 0;
  // The index a split draw counts candidates with (random_tree_schema fills it; left empty, draws
  // scan the features): per feature f, the continuous and the discrete features before f (the
  // discrete ones hold bits 0 .. disc_before[f] - 1), and the bits of the discrete features with a
  // value.
  std::vector<int> cont_before, disc_before;
  uint64_t with_values = 0;
};

// Domains from the training rows (the authors' code, smooth-rdf.md §1.2: continuous [min, max] of the
// training values, discrete = values present) or from the public schema.
RandomTreeSchema random_tree_schema(const Dataset& data, std::span<const uint32_t> rows, bool from_training, int depth);

struct RouteResult {
  int32_t leaf = -1;        // stored leaf index, or -1
  uint64_t virtual_key = 0; // when leaf == -1 and !abstain: key of the virtual (empty) leaf
  bool abstain = false;     // a discrete value outside the tree's domain (§1.7: the tree abstains)
};

class LeafCountExpectation;

class RandomTree {
 public:
  RandomTree(uint64_t key, const RandomTreeSchema& schema);

  // Training: routes a row, materialising the nodes it passes; returns its leaf index (or -1 when the
  // row's discrete value is outside the domain).
  int32_t route_grow(const RandomTreeSchema& schema, const Dataset& data, uint32_t row);
  // The same for a row whose feature f is x[f * stride] (a RowBlock's row: core/tree/route.hpp).
  int32_t route_grow(const RandomTreeSchema& schema, const double* x, std::size_t stride);
  // Prediction: no materialisation.
  RouteResult route(const RandomTreeSchema& schema, const Dataset& data, uint32_t row) const;
  // The same for a row whose feature f is x[f * stride].
  RouteResult route(const RandomTreeSchema& schema, const double* x, std::size_t stride) const;

  // The stored tree as a routing mirror (core/tree/route.hpp), built by build_mirror() once the tree
  // is grown. A row's stop node has code: >= 0, the stored leaf index; RouteMirror::kAbstain, the
  // tree abstains (§1.7); RouteMirror::kResolve, the row leaves the stored part (route() it).
  void build_mirror(const RandomTreeSchema& schema);
  const RouteMirror& mirror() const { return mirror_; }

  std::size_t n_leaves() const { return leaf_key_.size(); }
  uint64_t leaf_key(int32_t leaf) const { return leaf_key_[static_cast<std::size_t>(leaf)]; }
  std::size_t n_nodes() const { return nodes_.size(); }
  // Number of leaves of the full (virtual) tree: exact for continuous-only trees (2^d), otherwise
  // stored leaves plus the expected leaf count of every unreached subtree (smooth-rdf.md §1.4).
  double total_leaves(const RandomTreeSchema& schema) const;
  // The same with the expectations of unreached subtrees taken from (and added to) `expect`, built on
  // the same schema: the trees of one forest share it, so each expectation is computed once per fit.
  double total_leaves(const RandomTreeSchema& schema, LeafCountExpectation& expect) const;
  // Walks the full (virtual) tree depth first, children in index order: node(feature, threshold,
  // n_children) at every internal node, leaf(stored leaf index or -1, leaf key) at every leaf — the
  // stored key for a stored leaf, the virtual key route() would give otherwise. For the released
  // output (a privacy audit), so only for small trees: the walk visits every leaf of the full tree.
  void walk(const RandomTreeSchema& schema, const std::function<void(int, double, int)>& node,
            const std::function<void(int32_t, uint64_t)>& leaf) const;

 private:
  struct Node {
    int32_t feature = -2;      // -2 pending (not drawn yet), -1 leaf
    int32_t first_child = -1;  // internal: first child; leaf: leaf index
    int32_t n_children = 0;
    int16_t depth = 0;
    double threshold = 0.0;
    uint64_t key = 0;
  };
  // The domain of the node `path` leads to: the schema's bounds narrowed by the path's numeric splits
  // (into lo, hi), and the bits of the discrete features the path has split on.
  uint64_t replay(const RandomTreeSchema& schema, std::span<const std::pair<int32_t, int>> path,
                  std::vector<double>& lo, std::vector<double>& hi) const;
  void expand(const RandomTreeSchema& schema, std::size_t node, std::span<const std::pair<int32_t, int>> path);
  // value(f): the row's feature f.
  template <class Value>
  int32_t route_grow_with(const RandomTreeSchema& schema, Value value);
  template <class Value>
  RouteResult route_with(const RandomTreeSchema& schema, Value value) const;
  std::vector<Node> nodes_;
  RouteMirror mirror_;
  std::vector<uint64_t> leaf_key_;
  std::vector<std::pair<int32_t, int>> path_;  // scratch for route_grow
  std::vector<double> lo_, hi_;                // scratch
};

// Expected leaf count of a subtree whose root is at `depth` with the discrete features in `used`
// already spent (E(L, l) of smooth-rdf.md §1.4), memoised.
class LeafCountExpectation {
 public:
  explicit LeafCountExpectation(const RandomTreeSchema& schema) : schema_(schema) {}
  double operator()(uint64_t used, int depth);

 private:
  const RandomTreeSchema& schema_;
  std::unordered_map<uint64_t, double> memo_;
};

}  // namespace dpf
