// The one tree-growing loop every algorithm shares (design.md §4). Algorithms differ only in their
// policies: how a split is chosen (SplitPolicy), how a leaf is released (LeafPolicy) and how the
// budget is divided (inside the policies, which charge the PrivacyLedger where they draw).
//
// The grower keeps, per node, the current domain of every feature (numeric [lo, hi] narrowed by
// the thresholds on the path; categorical allowed-category masks narrowed by subset splits) and the
// set of features still usable, as the DiPriMe trees need (dipreme.md §2.4). Rows are partitioned in
// place in one index array. Each node draws from its own counter-based stream derived from the
// tree's stream and the node id, so a tree is a pure function of (data, rows, policies, key).
//
// Ledger: every node gets a sequential scope for its own mechanisms (NodeView::scope, where the
// policies charge) holding one parallel scope for its children, which see disjoint rows. The
// composed epsilon of a tree is thus the largest sum along a root-to-leaf path.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rng.hpp"
#include "core/tree/tree.hpp"

namespace dpf {

class RankIndex;  // core/tree/split_search.hpp

struct FeatureDomain {
  double lo = 0.0, hi = 0.0;  // numeric
  uint64_t categories = 0;    // categorical: bit c set = category c still possible (features with <= 64 categories)
  bool all_categories = true; // categorical with > 64 categories: no narrowing
};

// Domains of every feature as the schema states them.
std::vector<FeatureDomain> schema_domains(const Schema& schema);

struct NodeView {
  const Dataset& data;
  std::span<const uint32_t> rows;  // training rows routed to this node
  int depth = 0;
  int max_depth = 0;
  int32_t node_id = 0;
  std::span<const FeatureDomain> domains;
  std::span<const int> active;     // features still usable at this node
  PrivacyLedger::ScopeId scope = -1;  // -1 when the fit is not private
  std::span<const double> y = {};  // y[i] = data.y()[rows[i]]: the targets in row order, contiguous
  // With GrowOptions::node_columns: feature f's values in row order, contiguous
  // (column(f)[i] = data.x(rows[i], f)); empty otherwise.
  std::span<const double> column(int f) const {
    if (columns == nullptr) return {};
    return {columns + static_cast<std::size_t>(f) * column_stride, rows.size()};
  }
  const double* columns = nullptr;  // feature f of row i at columns[f * column_stride + i]
  std::size_t column_stride = 0;
  // With GrowOptions::presort: the node's rows ordered by (value of f, row index), as RankIndex
  // orders them (bootstrap copies of a row adjacent), given as the rows' ids in the tree's root
  // order (sorted_ids(f)[k] = i: the tree's i-th row) and their values of f (sorted_values(f)[k] =
  // data.x(root row i, f)); root_y[i] is the target of the tree's i-th row. Empty otherwise.
  std::span<const uint32_t> sorted_ids(int f) const {
    if (sorted_id_base == nullptr) return {};
    return {sorted_id_base + static_cast<std::size_t>(f) * sorted_stride, rows.size()};
  }
  std::span<const double> sorted_values(int f) const {
    if (sorted_value_base == nullptr) return {};
    return {sorted_value_base + static_cast<std::size_t>(f) * sorted_stride, rows.size()};
  }
  const uint32_t* sorted_id_base = nullptr;
  const double* sorted_value_base = nullptr;
  std::size_t sorted_stride = 0;
  std::span<const double> root_y = {};
};

struct SplitChoice {
  SplitKind kind = SplitKind::kThreshold;
  int feature = -1;
  double threshold = 0.0;
  uint64_t mask = 0;  // kSubset: the categories sent to child 0
  // Optional, kThreshold: values[i] = the feature's value of the node's row i (NodeView::rows order),
  // which the policy may have gathered already; the grower then partitions without reading the
  // column again (the same partition).
  const double* values = nullptr;
};

class SplitPolicy {
 public:
  virtual ~SplitPolicy() = default;
  // nullopt makes the node a leaf.
  virtual std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) = 0;
  // An independent copy for growing another tree on another thread; nullptr (the default) keeps the
  // forest's trees on one thread. Results never depend on this: each tree has its own RNG stream.
  virtual std::unique_ptr<SplitPolicy> clone() const { return nullptr; }
};

class LeafPolicy {
 public:
  virtual ~LeafPolicy() = default;
  virtual int n_outputs() const = 0;
  virtual void release(const NodeView& node, Rng& rng, PrivacyLedger& ledger, std::span<double> out) = 0;
  virtual std::unique_ptr<LeafPolicy> clone() const { return nullptr; }  // as SplitPolicy::clone
};

struct GrowOptions {
  int max_depth = 0;             // leaves at depth <= max_depth; 0 with unlimited_depth means a stump
  bool unlimited_depth = false;
  bool track_privacy = false;    // open a ledger scope per node
  PrivacyLedger::ScopeId tree_scope = PrivacyLedger::kRoot;  // parent scope of the root node
  // A threshold split on a categorical feature with <= 64 categories (its codes compared as numbers,
  // sklearn on integer codes): true narrows the feature's category mask (codes < t to child 0, the
  // others to child 1) and keeps the feature usable on the path while at least two codes remain;
  // false (the default, kept so existing fits stay bit-identical) drops the feature from the path
  // after one such split, so a 4-valued code can never be fully separated.
  bool categorical_threshold_masks = false;
  // Keep a copy of every feature's values in the order of the row array, moved along with the rows
  // at every split (NodeView::column), so a policy reads a node's values contiguously instead of
  // gathering them from the columns. Skipped when the copy would exceed kNodeColumnsBytes: the copy
  // is as large as the data set's features, and on a HIGGS-shaped 10^6 x 28 set it raised the peak
  // memory of an RF fit from 1.9 to 2.8 times the data set while saving about 5 % of the fit.
  bool node_columns = false;
  static constexpr std::size_t kNodeColumnsBytes = std::size_t{64} << 20;
  // Keep, per feature, the node's rows in (value, row) order (NodeView::sorted_ids/sorted_values):
  // the root order comes from this index once per tree, and every split moves each feature's list
  // into the children's ranges with a stable partition, so no node sorts. Skipped when the lists
  // (12 bytes per row and feature) would exceed kPresortBytes; the policy then sorts per node. The
  // index is used by one tree at a time (it keeps scratch buffers).
  RankIndex* presort = nullptr;
  static constexpr std::size_t kPresortBytes = std::size_t{256} << 20;
};

// Grows one tree on `rows` (reordered in place).
Tree grow_tree(const Dataset& data, std::span<uint32_t> rows, std::span<const FeatureDomain> root_domains,
               std::span<const int> root_active, SplitPolicy& split, LeafPolicy& leaf, const GrowOptions& options,
               const Rng& tree_rng, PrivacyLedger& ledger);

}  // namespace dpf
