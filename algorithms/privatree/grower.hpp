// The greedy grower both PrivaTree variants share (privatree.md §3-§5): the budget divided between the
// leaves and the levels, one tree grown depth first (a sequential ledger scope per node, a parallel one
// over its children), permute-and-flip leaves, and the rows routed by their bins. A variant supplies its
// split rule: the split of a node, or none to make it a leaf.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "algorithms/privatree/bins.hpp"
#include "algorithms/privatree/privatree.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rng.hpp"

namespace dpf {

// What a split rule sees of a node.
struct PrivaTreeNode {
  const Dataset& data;
  const PrivaTreeBins& binned;
  std::span<const uint32_t> rows;
  const std::vector<double>& counts;  // exact class counts of `rows`
  int depth, max_depth;
  double eps_node;                    // the budget of one level (privatree.md §3 step 4)
  PrivacyLedger& ledger;
  PrivacyLedger::ScopeId scope;       // the node's sequential scope: the rule charges what it reads here
  Rng& rng;                           // the node's stream; a leaf draws its label from it after the rule
};

// The bins order[0..last] of `feature` go left. An empty order is the bins' natural order: a numerical
// split x <= edges[last], a categorical one code <= last (stored as a threshold). An order chosen from the
// data (categorical features only) is stored as a subset of codes.
struct PrivaTreeSplit {
  int feature = -1, last = -1;
  std::vector<int> order;
};

using PrivaTreeRule = std::function<std::optional<PrivaTreeSplit>(const PrivaTreeNode&)>;

struct PrivaTreeVariant {
  const char* name;
  PrivaTreeEdges edges;
  bool leaf_certified;  // whether the leaf's permute-and-flip charge is certified in the ledger
};

// The data checks both variants make (classification, at least one feature, a class list); the class count.
int privatree_classes(const char* name, const Dataset& data);

// One PrivaTree: ε_leaf = min(share · ε, E_K 2^d / (n (1 − p_s))), ε_node = (ε − ε_leaf) / d (privatree.md
// §3), with n the exact size, or in the strict variant ñ paid from ε (algorithms/common/occupancy.hpp);
// the tree grown with `rule`; a one-tree hard-vote model whose ledger is checked within ε.
std::unique_ptr<Model> fit_privatree(const PrivaTreeVariant& variant, const PrivaTreeParams& p, const Dataset& data,
                                     std::span<const uint32_t> rows, FitContext& ctx, const PrivaTreeRule& rule);

}  // namespace dpf
