#include "core/tree/grower.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>

#include "core/tree/split_search.hpp"
#include "core/util/error.hpp"

namespace dpf {

std::vector<FeatureDomain> schema_domains(const Schema& schema) {
  std::vector<FeatureDomain> d(schema.n_features());
  for (std::size_t f = 0; f < d.size(); ++f) {
    const Feature& feat = schema.features[f];
    if (feat.kind == FeatureKind::kNumeric) {
      d[f].lo = feat.lo;
      d[f].hi = feat.hi;
    } else if (feat.n_categories() <= 64) {
      d[f].all_categories = false;
      d[f].categories = feat.n_categories() == 64 ? ~uint64_t{0} : ((uint64_t{1} << feat.n_categories()) - 1);
    }
  }
  return d;
}

namespace {

struct Frame {
  int32_t node;
  std::size_t begin, end;  // row range in the shared index array
  std::vector<FeatureDomain> domains;
  std::vector<int> active;
  PrivacyLedger::ScopeId parent_scope;
};

class Grower {
 public:
  Grower(const Dataset& data, std::span<uint32_t> rows, SplitPolicy& split, LeafPolicy& leaf,
         const GrowOptions& options, const Rng& rng, PrivacyLedger& ledger)
      : data_(data), rows_(rows), split_(split), leaf_(leaf), options_(options), rng_(rng), ledger_(ledger),
        tree_(leaf.n_outputs()), leaf_buffer_(static_cast<std::size_t>(leaf.n_outputs())) {}

  Tree run(std::span<const FeatureDomain> domains, std::span<const int> active) {
    std::span<const double> y = data_.y();
    const std::size_t n = rows_.size();
    ys_.resize(n);
    for (std::size_t i = 0; i < n; ++i) ys_[i] = y.empty() ? 0.0 : y[rows_[i]];
    const std::size_t d = data_.n_features();
    if (options_.node_columns && n * d * sizeof(double) <= GrowOptions::kNodeColumnsBytes) {
      xs_.resize(n * d);
      for (std::size_t f = 0; f < d; ++f) {
        std::span<const double> col = data_.column(f);
        double* out = xs_.data() + f * n;
        for (std::size_t i = 0; i < n; ++i) out[i] = col[rows_[i]];
      }
    }
    if (options_.presort != nullptr && n > 0 &&
        n * d * (sizeof(double) + sizeof(uint32_t)) <= GrowOptions::kPresortBytes)
      presort_root();
    tree_.add_nodes(1, 0);
    Frame root{0, 0, rows_.size(), {domains.begin(), domains.end()}, {active.begin(), active.end()},
               options_.tree_scope};
    grow(root);
    return std::move(tree_);
  }

 private:
  void grow(Frame& f) {
    Node& node0 = tree_.mutable_nodes()[static_cast<std::size_t>(f.node)];
    const int depth = node0.depth;
    node0.count = static_cast<int32_t>(f.end - f.begin);
    PrivacyLedger::ScopeId scope = -1;
    // The node's own mechanisms compose sequentially; its children (disjoint rows) in parallel.
    if (options_.track_privacy) scope = ledger_.open_scope(f.parent_scope, Composition::kSequential);
    NodeView view{data_,    rows_.subspan(f.begin, f.end - f.begin), depth, options_.max_depth, f.node, f.domains,
                  f.active, scope, std::span<const double>(ys_).subspan(f.begin, f.end - f.begin),
                  xs_.empty() ? nullptr : xs_.data() + f.begin, rows_.size()};
    if (!sorted_ids_.empty()) {
      view.sorted_id_base = sorted_ids_.data() + f.begin;
      view.sorted_value_base = sorted_values_.data() + f.begin;
      view.sorted_stride = rows_.size();
      view.root_y = root_y_;
    }
    Rng node_rng = rng_.derive(static_cast<uint64_t>(f.node));

    std::optional<SplitChoice> choice;
    bool depth_left = options_.unlimited_depth || depth < options_.max_depth;
    if (depth_left && !f.active.empty()) choice = split_.choose(view, node_rng, ledger_);
    if (!choice) {
      Rng leaf_rng = node_rng.derive("leaf");
      leaf_.release(view, leaf_rng, ledger_, leaf_buffer_);
      Node& node = tree_.mutable_nodes()[static_cast<std::size_t>(f.node)];
      node.kind = SplitKind::kLeaf;
      node.leaf = tree_.add_leaf_values(leaf_buffer_);
      return;
    }
    split(f, *choice, depth, scope);
  }

  void split(Frame& f, const SplitChoice& c, int depth, PrivacyLedger::ScopeId scope) {
    const auto feat = static_cast<std::size_t>(c.feature);
    require(feat < data_.n_features(), "split policy chose feature ", c.feature, " outside the schema");
    std::span<const double> col = data_.column(feat);
    auto first = rows_.begin() + static_cast<std::ptrdiff_t>(f.begin);
    auto last = rows_.begin() + static_cast<std::ptrdiff_t>(f.end);

    int n_children = 2;
    std::vector<std::size_t> bounds;  // child k covers [bounds[k], bounds[k+1])
    const std::size_t n = f.end - f.begin;
    if (c.kind == SplitKind::kThreshold || c.kind == SplitKind::kSubset) {
      keep_.resize(n);
      // The node's values of the feature: the policy's, the grower's node-ordered copy, or the column.
      const double* values = c.kind == SplitKind::kThreshold ? c.values : nullptr;
      if (values == nullptr && !xs_.empty()) values = xs_.data() + feat * rows_.size() + f.begin;
      auto value = [&](std::size_t i) { return values != nullptr ? values[i] : col[*(first + static_cast<std::ptrdiff_t>(i))]; };
      if (c.kind == SplitKind::kThreshold && values == nullptr && !sorted_ids_.empty()) {
        // From the feature's presorted list: sequential reads instead of gathering from the column.
        const uint32_t* sids = sorted_ids_.data() + feat * rows_.size() + f.begin;
        const double* svalues = sorted_values_.data() + feat * rows_.size() + f.begin;
        for (std::size_t k = 0; k < n; ++k) go_left_[sids[k]] = svalues[k] < c.threshold;
        const uint32_t* ids = ids_.data() + f.begin;
        for (std::size_t i = 0; i < n; ++i) keep_[i] = go_left_[ids[i]];
      } else if (c.kind == SplitKind::kThreshold) {
        for (std::size_t i = 0; i < n; ++i) keep_[i] = value(i) < c.threshold;
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          auto code = static_cast<uint64_t>(value(i));
          keep_[i] = code < 64 && ((c.mask >> code) & 1u);
        }
      }
      const std::size_t mid = partition(f.begin, n);
      bounds = {f.begin, f.begin + mid, f.end};
    } else {
      n_children = static_cast<int>(data_.schema().features[feat].n_categories());
      require(n_children >= 1, "multiway split on a feature without categories");
      // Counting sort of the node's rows (and their targets) by category code.
      std::vector<std::size_t> count(static_cast<std::size_t>(n_children) + 1, 0);
      for (auto it = first; it != last; ++it) ++count[static_cast<std::size_t>(col[*it]) + 1];
      for (std::size_t k = 1; k < count.size(); ++k) count[k] += count[k - 1];
      std::vector<uint32_t> sorted(static_cast<std::size_t>(last - first));
      std::vector<double> sorted_y(sorted.size());
      std::vector<std::size_t> pos(count.begin(), count.end() - 1);
      std::vector<uint32_t> place(n);  // the new position of the node's row i
      for (std::size_t i = 0; i < n; ++i) {
        const uint32_t r = *(first + static_cast<std::ptrdiff_t>(i));
        const std::size_t at = pos[static_cast<std::size_t>(col[r])]++;
        sorted[at] = r;
        sorted_y[at] = ys_[f.begin + i];
        place[i] = static_cast<uint32_t>(at);
      }
      std::copy(sorted.begin(), sorted.end(), first);
      std::copy(sorted_y.begin(), sorted_y.end(), ys_.begin() + static_cast<std::ptrdiff_t>(f.begin));
      if (!sorted_ids_.empty()) {
        uint32_t* ids = ids_.data() + f.begin;
        for (std::size_t i = 0; i < n; ++i) {
          child_[ids[i]] = static_cast<uint32_t>(col[*(first + static_cast<std::ptrdiff_t>(place[i]))]);
          sorted[place[i]] = ids[i];
        }
        std::copy(sorted.begin(), sorted.end(), ids);
        presort_scatter(f.begin, n, count);
      }
      for (std::size_t g = 0; !xs_.empty() && g < data_.n_features(); ++g) {
        double* xs = xs_.data() + g * rows_.size() + f.begin;
        for (std::size_t i = 0; i < n; ++i) sorted_y[place[i]] = xs[i];
        std::copy(sorted_y.begin(), sorted_y.end(), xs);
      }
      bounds.resize(count.size());
      for (std::size_t k = 0; k < count.size(); ++k) bounds[k] = f.begin + count[k];
    }

    const int32_t first_child = tree_.add_nodes(n_children, static_cast<int16_t>(depth + 1));
    {
      Node& node = tree_.mutable_nodes()[static_cast<std::size_t>(f.node)];
      node.kind = c.kind;
      node.feature = c.feature;
      node.threshold = c.threshold;
      node.mask = c.mask;
      node.first_child = first_child;
      node.n_children = n_children;
    }
    const PrivacyLedger::ScopeId children_scope =
        scope < 0 ? f.parent_scope : ledger_.open_scope(scope, Composition::kParallel);
    for (int k = 0; k < n_children; ++k) {
      Frame child{first_child + k, bounds[static_cast<std::size_t>(k)], bounds[static_cast<std::size_t>(k) + 1],
                  f.domains, f.active, children_scope};
      narrow(child, c, k, options_.categorical_threshold_masks);
      grow(child);
    }
  }

  // Child domains and usable features (dipreme.md §2.4).
  static void narrow(Frame& child, const SplitChoice& c, int k, bool categorical_masks) {
    FeatureDomain& d = child.domains[static_cast<std::size_t>(c.feature)];
    bool remove = false;
    if (c.kind == SplitKind::kThreshold && categorical_masks && !d.all_categories) {
      // Category codes compared with the threshold: child 0 keeps codes < t, child 1 codes >= t.
      uint64_t below = 0;
      for (int code = 0; code < 64 && code < c.threshold; ++code) below |= uint64_t{1} << code;
      d.categories = k == 0 ? (d.categories & below) : (d.categories & ~below);
      remove = std::popcount(d.categories) <= 1;
    } else if (c.kind == SplitKind::kThreshold) {
      if (k == 0) { d.hi = std::min(d.hi, c.threshold); remove = d.lo >= d.hi; }
      else { d.lo = std::max(d.lo, c.threshold); remove = d.hi <= d.lo; }
    } else if (c.kind == SplitKind::kSubset) {
      if (!d.all_categories) {
        d.categories = k == 0 ? (d.categories & c.mask) : (d.categories & ~c.mask);
        remove = std::popcount(d.categories) <= 1;
      }
    } else {
      remove = true;  // a multiway split uses the attribute up on this path
    }
    if (remove) std::erase(child.active, c.feature);
  }

  // Moves the rows [begin, begin + n) with keep_[i] set to the front, their targets along, and returns
  // how many were kept, in the element order of libstdc++'s std::partition on bidirectional
  // iterators (the grower's partition before targets travelled with the rows; a row's place in its
  // child decides the order of floating-point sums over the child's rows). That algorithm swaps the
  // k-th dropped row from the left with the k-th kept row from the right until they meet, i.e. the
  // dropped rows before the partition point with the kept rows after it, pairwise; here both lists
  // are collected without branches first (a branch per row on random data mispredicts half the time).
  std::size_t partition(std::size_t begin, std::size_t n) {
    uint32_t* rows = rows_.data() + begin;
    double* ys = ys_.data() + begin;
    const uint8_t* keep = keep_.data();
    std::size_t mid = 0;
    for (std::size_t i = 0; i < n; ++i) mid += keep[i];
    if (!sorted_ids_.empty()) {
      const uint32_t* ids = ids_.data() + begin;
      for (std::size_t i = 0; i < n; ++i) go_left_[ids[i]] = keep[i];
    }
    swap_from_.resize(n);
    swap_to_.resize(n);
    std::size_t a = 0, b = 0;
    for (std::size_t i = 0; i < mid; ++i) {
      swap_from_[a] = static_cast<uint32_t>(i);
      a += keep[i] ^ 1u;
    }
    for (std::size_t i = n; i-- > mid;) {
      swap_to_[b] = static_cast<uint32_t>(i);
      b += keep[i];
    }
    for (std::size_t k = 0; k < a; ++k) {
      std::swap(rows[swap_from_[k]], rows[swap_to_[k]]);
      std::swap(ys[swap_from_[k]], ys[swap_to_[k]]);
    }
    if (!sorted_ids_.empty()) {
      uint32_t* ids = ids_.data() + begin;
      for (std::size_t k = 0; k < a; ++k) std::swap(ids[swap_from_[k]], ids[swap_to_[k]]);
      presort_partition(begin, n, mid);
    }
    for (std::size_t f = 0; !xs_.empty() && f < data_.n_features(); ++f) {
      double* xs = xs_.data() + f * rows_.size() + begin;
      for (std::size_t k = 0; k < a; ++k) std::swap(xs[swap_from_[k]], xs[swap_to_[k]]);
    }
    return mid;
  }

  // GrowOptions::presort: every feature's root list from the rank index (positions in the root
  // row order are the rows' ids), with the values alongside.
  void presort_root() {
    const std::size_t n = rows_.size(), d = data_.n_features();
    root_y_ = ys_;
    ids_.resize(n);
    std::iota(ids_.begin(), ids_.end(), 0u);
    go_left_.assign(n, 0);
    child_.assign(n, 0);
    sorted_ids_.resize(n * d);
    sorted_values_.resize(n * d);
    for (std::size_t f = 0; f < d; ++f) {
      options_.presort->sort_positions(data_, rows_, static_cast<int>(f), order_);
      std::span<const double> col = data_.column(f);
      uint32_t* ids = sorted_ids_.data() + f * n;
      double* values = sorted_values_.data() + f * n;
      for (std::size_t k = 0; k < n; ++k) {
        ids[k] = order_[k];
        values[k] = col[rows_[order_[k]]];
      }
    }
  }

  // Two children: each feature's list of the node [begin, begin + n) split stably by go_left_[id]
  // (1: child 0), so both halves stay in (value, row) order; child 0's rows first, as partition()
  // placed them. Branch-free: every entry is written to both sides and one cursor advances.
  void presort_partition(std::size_t begin, std::size_t n, std::size_t mid) {
    const std::size_t stride = rows_.size();
    scratch_ids_.resize(n);
    scratch_values_.resize(n);
    const uint8_t* go_left = go_left_.data();
    for (std::size_t f = 0; f < data_.n_features(); ++f) {
      uint32_t* ids = sorted_ids_.data() + f * stride + begin;
      double* values = sorted_values_.data() + f * stride + begin;
      uint32_t* right_ids = scratch_ids_.data();
      double* right_values = scratch_values_.data();
      std::size_t l = 0, r = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const uint32_t id = ids[k];
        const double v = values[k];
        const std::size_t left = go_left[id];
        ids[l] = id;  // l <= k: a slot already read
        values[l] = v;
        right_ids[r] = id;
        right_values[r] = v;
        l += left;
        r += left ^ 1u;
      }
      std::memcpy(ids + l, right_ids, r * sizeof(uint32_t));
      std::memcpy(values + l, right_values, r * sizeof(double));
      require(l == mid, "grower: a presorted list sends ", l, " rows to child 0, the rows ", mid);
    }
  }

  // Multiway children: each feature's list scattered stably by child_[id] (the category code) into
  // the children's ranges, count[k] = the offset of child k in the node.
  void presort_scatter(std::size_t begin, std::size_t n, const std::vector<std::size_t>& count) {
    const std::size_t stride = rows_.size();
    scratch_ids_.resize(n);
    scratch_values_.resize(n);
    std::vector<std::size_t> at(count.size());
    for (std::size_t f = 0; f < data_.n_features(); ++f) {
      uint32_t* ids = sorted_ids_.data() + f * stride + begin;
      double* values = sorted_values_.data() + f * stride + begin;
      std::copy(count.begin(), count.end(), at.begin());
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t to = at[child_[ids[k]]]++;
        scratch_ids_[to] = ids[k];
        scratch_values_[to] = values[k];
      }
      std::memcpy(ids, scratch_ids_.data(), n * sizeof(uint32_t));
      std::memcpy(values, scratch_values_.data(), n * sizeof(double));
    }
  }

  const Dataset& data_;
  std::span<uint32_t> rows_;
  SplitPolicy& split_;
  LeafPolicy& leaf_;
  const GrowOptions& options_;
  const Rng& rng_;
  PrivacyLedger& ledger_;
  Tree tree_;
  std::vector<double> leaf_buffer_;
  std::vector<double> ys_;     // the targets of rows_, in the same order
  std::vector<double> xs_;     // node_columns: feature f of rows_[i] at xs_[f * rows_.size() + i]
  std::vector<uint8_t> keep_;  // partition(): which of a node's rows go to child 0
  std::vector<uint32_t> swap_from_, swap_to_;  // partition(): the place pairs it swaps
  // GrowOptions::presort: ids_[i] = the root-order id of rows_[i]; per feature f the node's ids and
  // values in (value, row) order at [f * rows_.size() + begin, ... + end); root_y_[id] the targets;
  // go_left_[id] whether a two-way split sends the row to child 0, child_[id] the child a multiway
  // split sends it to; scratch for the partitions.
  std::vector<uint32_t> ids_, sorted_ids_, child_, order_, scratch_ids_;
  std::vector<uint8_t> go_left_;
  std::vector<double> sorted_values_, root_y_, scratch_values_;
};

}  // namespace

Tree grow_tree(const Dataset& data, std::span<uint32_t> rows, std::span<const FeatureDomain> root_domains,
               std::span<const int> root_active, SplitPolicy& split, LeafPolicy& leaf, const GrowOptions& options,
               const Rng& tree_rng, PrivacyLedger& ledger) {
  Grower g(data, rows, split, leaf, options, tree_rng, ledger);
  return g.run(root_domains, root_active);
}

}  // namespace dpf
