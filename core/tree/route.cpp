#include "core/tree/route.hpp"

#include <algorithm>

#include "core/util/error.hpp"

namespace dpf {

static_assert(sizeof(RouteNode) == 16, "RouteNode: 16 bytes, child offsets are scaled by 16");

// ---------------------------------------------------------------------------------------------
// RouteMirror

RouteMirror::RouteMirror() : nodes_{RouteNode::stop(0)}, code_{kResolve}, depth_{0} {}

int32_t RouteMirror::add_pair(int depth) {
  const auto first = static_cast<int32_t>(nodes_.size());
  require(first < (int32_t{1} << 27), "RouteMirror: more than 2^27 nodes");
  for (int32_t k = 0; k < 2; ++k) {
    nodes_.push_back(RouteNode::stop(first + k));
    code_.push_back(kResolve);
    depth_.push_back(static_cast<int16_t>(depth));
  }
  levels_ = std::max(levels_, depth);
  return first;
}

int32_t RouteMirror::split_threshold(int32_t node, double threshold, int feature) {
  const int32_t first = add_pair(depth_[static_cast<std::size_t>(node)] + 1);
  nodes_[static_cast<std::size_t>(node)] = RouteNode::split(threshold, feature, first);
  code_[static_cast<std::size_t>(node)] = kResolve;
  return first;
}

void RouteMirror::build_runs(int32_t at, int depth, int feature, std::span<const double> bounds,
                             std::span<const int32_t> dest, std::size_t lo, std::size_t hi, int32_t* children) {
  if (hi - lo == 1) {
    const int32_t d = dest[lo];
    if (d == kAbstain) {
      code_[static_cast<std::size_t>(at)] = kAbstain;
    } else if (children[d] < 0) {
      children[d] = at;  // the child's own node
    } else {
      // A second run to the same child: a node that sends every row (x < -inf is false, NaN
      // included) to the child's node.
      nodes_[static_cast<std::size_t>(at)] = {-std::numeric_limits<double>::infinity(), 0,
                                              static_cast<uint32_t>(children[d] - 1) * static_cast<uint32_t>(sizeof(RouteNode))};
      int16_t& target = depth_[static_cast<std::size_t>(children[d])];
      target = static_cast<int16_t>(std::max<int>(target, depth + 1));
      levels_ = std::max<int>(levels_, target);
    }
    return;
  }
  const std::size_t mid = (lo + hi) / 2;  // runs [lo, mid) left of bounds[mid - 1], [mid, hi) right
  const int32_t first = add_pair(depth + 1);
  nodes_[static_cast<std::size_t>(at)] = RouteNode::split(bounds[mid - 1], feature, first);
  code_[static_cast<std::size_t>(at)] = kResolve;
  build_runs(first, depth + 1, feature, bounds, dest, lo, mid, children);
  build_runs(first + 1, depth + 1, feature, bounds, dest, mid, hi, children);
}

void RouteMirror::split_codes(int32_t node, int feature, std::span<const int32_t> child_of_code, int32_t beyond,
                              int n_children, int32_t* children) {
  // Runs of consecutive codes with one destination; code c occupies [c, c + 1), codes below 0 the
  // first run, codes >= child_of_code.size() the last.
  std::vector<double> bounds;  // run k ends where run k + 1 starts
  std::vector<int32_t> dest;
  for (std::size_t c = 0; c <= child_of_code.size(); ++c) {
    const int32_t d = c < child_of_code.size() ? (child_of_code[c] < 0 ? kAbstain : child_of_code[c]) : beyond;
    if (!dest.empty() && dest.back() == d) continue;
    if (!dest.empty()) bounds.push_back(static_cast<double>(c));
    dest.push_back(d);
  }
  std::fill(children, children + n_children, -1);
  if (dest.size() == 1) {
    // Every code to one destination: a forwarding pair (child 0 of the node) keeps the node a split.
    const int32_t first = add_pair(depth_[static_cast<std::size_t>(node)] + 1);
    nodes_[static_cast<std::size_t>(node)] = {-std::numeric_limits<double>::infinity(), 0,
                                              static_cast<uint32_t>(first) * static_cast<uint32_t>(sizeof(RouteNode))};
    code_[static_cast<std::size_t>(node)] = kResolve;
    if (dest[0] == kAbstain) code_[static_cast<std::size_t>(first) + 1] = kAbstain;
    else children[dest[0]] = first + 1;
  } else {
    build_runs(node, depth_[static_cast<std::size_t>(node)], feature, bounds, dest, 0, dest.size(), children);
  }
  // A child no code reaches still gets a node (never visited), so every child has one.
  for (int k = 0; k < n_children; ++k)
    if (children[k] < 0) children[k] = add_pair(depth_[static_cast<std::size_t>(node)] + 1);
}

// ---------------------------------------------------------------------------------------------
// RowBlock

RowBlock::RowBlock(const Dataset& data) : columns_(data.n_features()), n_features_(data.n_features()) {
  require(n_features_ * kRows * sizeof(double) < (std::size_t{1} << 32), "RowBlock: too many features (",
          n_features_, ") for 32-bit value offsets");
  for (std::size_t f = 0; f < n_features_; ++f) columns_[f] = data.column(f).data();
  values_.resize(kRows * std::max<std::size_t>(n_features_, 1));
}

void RowBlock::load(std::span<const uint32_t> rows) {
  require(rows.size() <= kRows, "RowBlock: at most ", kRows, " rows");
  n_ = rows.size();
  if (n_ == 0) return;
  // Consecutive rows (scoring a whole file, or a contiguous range) are a plain copy per feature, which
  // the compiler vectorises; any other order is a gather.
  bool consecutive = true;
  for (std::size_t k = 1; k < n_; ++k) consecutive &= rows[k] == rows[0] + k;
  for (std::size_t f = 0; f < n_features_; ++f) {
    const double* col = columns_[f];
    double* out = values_.data() + f * kRows;
    if (consecutive) std::copy(col + rows[0], col + rows[0] + n_, out);
    else
      for (std::size_t k = 0; k < n_; ++k) out[k] = col[rows[k]];
  }
}

namespace {

// x: the block's values from the group's first row on (feature f of row j at x[f * kRows + j]).
// Positions are byte offsets, so a step is two loads, a compare and an add. Every fourth step also
// notes whether any row moved: a row that did not is at a stop node (a split node always moves a
// row), so when none moved the group is done, however many levels the deepest path has.
template <int G>
inline void route_group(const RouteNode* nodes, const double* x, int levels, int32_t* at) {
  const auto* node_bytes = reinterpret_cast<const char*>(nodes);
  const auto* x_bytes = reinterpret_cast<const char*>(x);
  uint32_t pos[G];
  for (int j = 0; j < G; ++j) pos[j] = 0;
  auto step = [&](int j) {
    const auto* nd = reinterpret_cast<const RouteNode*>(node_bytes + pos[j]);
    const double v = *reinterpret_cast<const double*>(x_bytes + nd->value_offset + j * sizeof(double));
    return nd->child_offset + (static_cast<uint32_t>(!(v < nd->threshold)) << 4);
  };
  for (int l = 0; l < levels;) {
    const int checked = std::min(l + 4, levels) - 1;  // the step whose moves are noted
    for (; l < checked; ++l)
      for (int j = 0; j < G; ++j) pos[j] = step(j);
    uint32_t moved = 0;
    for (int j = 0; j < G; ++j) {
      const uint32_t next = step(j);
      moved |= next ^ pos[j];
      pos[j] = next;
    }
    ++l;
    if (moved == 0) break;
  }
  for (int j = 0; j < G; ++j) at[j] = static_cast<int32_t>(pos[j] / sizeof(RouteNode));
}

}  // namespace

void RowBlock::route(std::span<const RouteNode> nodes, int levels, int32_t* at) const {
  constexpr int kGroup = 16;  // independent paths in flight
  std::size_t k = 0;
  for (; k + kGroup <= n_; k += kGroup) route_group<kGroup>(nodes.data(), values_.data() + k, levels, at + k);
  for (; k < n_; ++k) route_group<1>(nodes.data(), values_.data() + k, levels, at + k);
}

}  // namespace dpf
