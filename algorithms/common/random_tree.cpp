#include "algorithms/common/random_tree.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"

namespace dpf {

RandomTreeSchema random_tree_schema(const Dataset& data, std::span<const uint32_t> rows, bool from_training, int depth) {
  const Schema& sc = data.schema();
  const std::size_t m = sc.n_features();
  RandomTreeSchema s;
  s.depth = depth;
  s.discrete.assign(m, 0);
  s.lo.assign(m, 0.0);
  s.hi.assign(m, 0.0);
  s.child_of.assign(m, {});
  s.n_values.assign(m, 0);
  s.bit.assign(m, -1);
  for (std::size_t f = 0; f < m; ++f) {
    const Feature& feat = sc.features[f];
    auto col = data.column(f);
    if (feat.kind == FeatureKind::kNumeric) {
      ++s.n_continuous;
      if (from_training && !rows.empty()) {
        double lo = col[rows[0]], hi = col[rows[0]];
        for (uint32_t r : rows) {
          lo = std::min(lo, col[r]);
          hi = std::max(hi, col[r]);
        }
        s.lo[f] = lo;
        s.hi[f] = hi;
      } else {
        s.lo[f] = feat.lo;
        s.hi[f] = feat.hi;
      }
      continue;
    }
    s.discrete[f] = 1;
    s.bit[f] = s.n_discrete++;
    require(s.n_discrete <= 58, "smooth-rdf trees: at most 58 discrete features (dataset ", data.name(), ")");
    const std::size_t k = feat.n_categories();
    std::vector<uint8_t> present(k, from_training ? 0 : 1);
    if (from_training)
      for (uint32_t r : rows) present[static_cast<std::size_t>(col[r])] = 1;
    s.child_of[f].assign(k, -1);
    for (std::size_t c = 0; c < k; ++c)
      if (present[c]) s.child_of[f][c] = static_cast<int16_t>(s.n_values[f]++);
  }
  s.cont_before.assign(m + 1, 0);
  s.disc_before.assign(m + 1, 0);
  for (std::size_t f = 0; f < m; ++f) {
    s.cont_before[f + 1] = s.cont_before[f] + (s.discrete[f] ? 0 : 1);
    s.disc_before[f + 1] = s.disc_before[f] + (s.discrete[f] ? 1 : 0);
    if (s.discrete[f] && s.n_values[f] > 0) s.with_values |= uint64_t{1} << s.bit[f];
  }
  return s;
}

namespace {

// Bits set in x, inline (without a popcnt target the library call costs more than the count).
inline int bit_count(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

struct Draw {
  int feature = -1;  // -1: leaf
  double threshold = 0.0;
  int n_children = 0;
};

// Alg. 2 line "pick g uniformly from the candidates" and "p ~ Uniform(domain of g)" (smooth-rdf.md
// §1.4): a pure function of the node's key and its state, so stored and virtual nodes agree.
Draw draw_split(const RandomTreeSchema& s, uint64_t key, int depth, uint64_t used, const double* lo, const double* hi) {
  Draw d;
  if (depth >= s.depth) return d;
  const int m = static_cast<int>(s.discrete.size());
  // The candidates in feature order: every continuous feature, and each discrete feature with a value
  // that the path has not used.
  auto candidate = [&](std::size_t f) {
    return !s.discrete[f] || (!((used >> s.bit[f]) & 1u) && s.n_values[f] > 0);
  };
  int f = -1, n_cand = 0;
  if (s.cont_before.size() == static_cast<std::size_t>(m) + 1) {
    // Indexed: the candidates before feature f number cont_before[f] + the free discrete bits below
    // disc_before[f]; the pick-th candidate is the first f whose count through f exceeds pick.
    const uint64_t free = s.with_values & ~used;
    auto through = [&](int g) {  // candidates among features 0..g
      const auto h = static_cast<std::size_t>(g + 1);
      const int bits = s.disc_before[h];
      const uint64_t below = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
      return s.cont_before[h] + bit_count(free & below);
    };
    n_cand = s.n_continuous + bit_count(free);
    if (n_cand == 0) return d;
    Rng rng(key);
    const int pick = static_cast<int>(rng.below(static_cast<uint64_t>(n_cand)));
    int lo_f = 0, hi_f = m - 1;
    while (lo_f < hi_f) {
      const int mid = lo_f + (hi_f - lo_f) / 2;
      if (through(mid) > pick) hi_f = mid;
      else lo_f = mid + 1;
    }
    f = lo_f;
    d.feature = f;
    if (s.discrete[static_cast<std::size_t>(f)]) {
      d.n_children = s.n_values[static_cast<std::size_t>(f)];
    } else {
      d.n_children = 2;
      d.threshold = rng.uniform(lo[f], hi[f]);
    }
    return d;
  }
  for (int g = 0; g < m; ++g) n_cand += candidate(static_cast<std::size_t>(g));
  if (n_cand == 0) return d;
  Rng rng(key);
  int pick = static_cast<int>(rng.below(static_cast<uint64_t>(n_cand)));
  for (int g = 0; g < m; ++g) {
    const auto fu = static_cast<std::size_t>(g);
    if (!candidate(fu)) continue;
    if (pick-- > 0) continue;
    d.feature = g;
    if (s.discrete[fu]) {
      d.n_children = s.n_values[fu];
    } else {
      d.n_children = 2;
      d.threshold = rng.uniform(lo[g], hi[g]);
    }
    return d;
  }
  return d;
}

inline int child_index(const RandomTreeSchema& s, int feature, double threshold, double x) {
  const auto f = static_cast<std::size_t>(feature);
  if (!s.discrete[f]) return x < threshold ? 0 : 1;  // x < p left, x >= p right (§1.4, §1.7)
  const auto code = static_cast<std::size_t>(x);
  return code < s.child_of[f].size() ? s.child_of[f][code] : -1;
}

}  // namespace

RandomTree::RandomTree(uint64_t key, const RandomTreeSchema& schema) : lo_(schema.lo), hi_(schema.hi) {
  Node root;
  root.key = key;
  nodes_.push_back(root);
}

uint64_t RandomTree::replay(const RandomTreeSchema& schema, std::span<const std::pair<int32_t, int>> path,
                            std::vector<double>& lo, std::vector<double>& hi) const {
  lo.assign(schema.lo.begin(), schema.lo.end());
  hi.assign(schema.hi.begin(), schema.hi.end());
  uint64_t used = 0;
  for (auto [anc, c] : path) {
    const Node& a = nodes_[static_cast<std::size_t>(anc)];
    const auto f = static_cast<std::size_t>(a.feature);
    if (schema.discrete[f]) used |= uint64_t{1} << schema.bit[f];
    else if (c == 0) hi[f] = a.threshold;
    else lo[f] = a.threshold;
  }
  return used;
}

void RandomTree::expand(const RandomTreeSchema& schema, std::size_t node, std::span<const std::pair<int32_t, int>> path) {
  const uint64_t used = replay(schema, path, lo_, hi_);
  const Draw d = draw_split(schema, nodes_[node].key, nodes_[node].depth, used, lo_.data(), hi_.data());
  if (d.feature < 0) {
    nodes_[node].feature = -1;
    nodes_[node].first_child = static_cast<int32_t>(leaf_key_.size());
    leaf_key_.push_back(nodes_[node].key);
    return;
  }
  const auto first = static_cast<int32_t>(nodes_.size());
  const uint64_t key = nodes_[node].key;
  const int16_t depth = static_cast<int16_t>(nodes_[node].depth + 1);
  nodes_[node].feature = d.feature;
  nodes_[node].threshold = d.threshold;
  nodes_[node].first_child = first;
  nodes_[node].n_children = d.n_children;
  for (int c = 0; c < d.n_children; ++c) {
    Node child;
    child.depth = depth;
    child.key = hash_combine(key, static_cast<uint64_t>(c));
    nodes_.push_back(child);
  }
}

void RandomTree::build_mirror(const RandomTreeSchema& schema) {
  mirror_ = RouteMirror();
  std::vector<int32_t> children;
  std::vector<int32_t> child_of;
  // (tree node, its mirror node), parents before children.
  std::vector<std::pair<int32_t, int32_t>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [i, m] = stack.back();
    stack.pop_back();
    const Node& n = nodes_[static_cast<std::size_t>(i)];
    if (n.feature == -2) continue;  // pending: code kResolve
    if (n.feature == -1) {
      mirror_.set_code(m, n.first_child);
      continue;
    }
    const auto f = static_cast<std::size_t>(n.feature);
    children.resize(static_cast<std::size_t>(n.n_children));
    if (!schema.discrete[f]) {
      const int32_t first = mirror_.split_threshold(m, n.threshold, n.feature);  // x < p: child 0
      children[0] = first;
      children[1] = first + 1;
    } else {
      // Code c to child child_of[c] (child_index()); codes outside the domain abstain.
      child_of.assign(schema.child_of[f].begin(), schema.child_of[f].end());
      mirror_.split_codes(m, n.feature, child_of, RouteMirror::kAbstain, n.n_children, children.data());
    }
    for (int c = 0; c < n.n_children; ++c) stack.emplace_back(n.first_child + c, children[static_cast<std::size_t>(c)]);
  }
}

template <class Value>
int32_t RandomTree::route_grow_with(const RandomTreeSchema& schema, Value value) {
  // Through the materialised nodes without recording the path; only a row that reaches a pending
  // node walks again from the root, recording the path that expand() needs for the node's domains.
  std::size_t i = 0;
  for (;;) {
    const Node& n = nodes_[i];
    if (n.feature < 0) {
      if (n.feature == -1) return n.first_child;
      break;  // pending
    }
    const int c = child_index(schema, n.feature, n.threshold, value(n.feature));
    if (c < 0) return -1;
    i = static_cast<std::size_t>(n.first_child + c);
  }
  path_.clear();
  i = 0;
  for (;;) {
    if (nodes_[i].feature == -2) expand(schema, i, path_);
    const Node& n = nodes_[i];
    if (n.feature == -1) return n.first_child;
    const int c = child_index(schema, n.feature, n.threshold, value(n.feature));
    if (c < 0) return -1;
    path_.emplace_back(static_cast<int32_t>(i), c);
    i = static_cast<std::size_t>(n.first_child + c);
  }
}

int32_t RandomTree::route_grow(const RandomTreeSchema& schema, const Dataset& data, uint32_t row) {
  return route_grow_with(schema, [&](int f) { return data.column(static_cast<std::size_t>(f))[row]; });
}

int32_t RandomTree::route_grow(const RandomTreeSchema& schema, const double* x, std::size_t stride) {
  return route_grow_with(schema, [&](int f) { return x[static_cast<std::size_t>(f) * stride]; });
}

template <class Value>
RouteResult RandomTree::route_with(const RandomTreeSchema& schema, Value value) const {
  thread_local std::vector<std::pair<int32_t, int>> path;
  thread_local std::vector<double> lo, hi;
  path.clear();
  RouteResult out;
  std::size_t i = 0;
  for (;;) {
    const Node& n = nodes_[i];
    if (n.feature == -2) break;
    if (n.feature == -1) {
      out.leaf = n.first_child;
      return out;
    }
    const int c = child_index(schema, n.feature, n.threshold, value(n.feature));
    if (c < 0) {
      out.abstain = true;
      return out;
    }
    path.emplace_back(static_cast<int32_t>(i), c);
    i = static_cast<std::size_t>(n.first_child + c);
  }
  // Left the stored part: replay the path's domain narrowing, then follow the virtual splits.
  uint64_t used = replay(schema, path, lo, hi);
  uint64_t key = nodes_[i].key;
  int depth = nodes_[i].depth;
  for (;;) {
    const Draw d = draw_split(schema, key, depth, used, lo.data(), hi.data());
    if (d.feature < 0) {
      out.virtual_key = key;
      return out;
    }
    const auto f = static_cast<std::size_t>(d.feature);
    const int c = child_index(schema, d.feature, d.threshold, value(d.feature));
    if (c < 0) {
      out.abstain = true;
      return out;
    }
    if (schema.discrete[f]) used |= uint64_t{1} << schema.bit[f];
    else if (c == 0) hi[f] = d.threshold;
    else lo[f] = d.threshold;
    key = hash_combine(key, static_cast<uint64_t>(c));
    ++depth;
  }
}

RouteResult RandomTree::route(const RandomTreeSchema& schema, const Dataset& data, uint32_t row) const {
  return route_with(schema, [&](int f) { return data.column(static_cast<std::size_t>(f))[row]; });
}

RouteResult RandomTree::route(const RandomTreeSchema& schema, const double* x, std::size_t stride) const {
  return route_with(schema, [&](int f) { return x[static_cast<std::size_t>(f) * stride]; });
}

void RandomTree::walk(const RandomTreeSchema& schema, const std::function<void(int, double, int)>& node,
                      const std::function<void(int32_t, uint64_t)>& leaf) const {
  std::vector<double> lo(schema.lo), hi(schema.hi);
  // stored >= 0: a stored node; -1: virtual (key, depth and the domains say where).
  std::function<void(int32_t, uint64_t, int, uint64_t)> visit = [&](int32_t stored, uint64_t key, int depth, uint64_t used) {
    int feature;
    double threshold;
    int n_children;
    int32_t first = -1;
    if (stored >= 0 && nodes_[static_cast<std::size_t>(stored)].feature != -2) {
      const Node& n = nodes_[static_cast<std::size_t>(stored)];
      if (n.feature == -1) return leaf(n.first_child, n.key);
      feature = n.feature;
      threshold = n.threshold;
      n_children = n.n_children;
      first = n.first_child;
    } else {
      const Draw d = draw_split(schema, key, depth, used, lo.data(), hi.data());
      if (d.feature < 0) return leaf(-1, key);
      feature = d.feature;
      threshold = d.threshold;
      n_children = d.n_children;
    }
    node(feature, threshold, n_children);
    const auto f = static_cast<std::size_t>(feature);
    for (int c = 0; c < n_children; ++c) {
      const double old_lo = lo[f], old_hi = hi[f];
      uint64_t u = used;
      if (schema.discrete[f]) u |= uint64_t{1} << schema.bit[f];
      else if (c == 0) hi[f] = threshold;
      else lo[f] = threshold;
      visit(first >= 0 ? first + c : -1, hash_combine(key, static_cast<uint64_t>(c)), depth + 1, u);
      lo[f] = old_lo;
      hi[f] = old_hi;
    }
  };
  visit(0, nodes_[0].key, 0, 0);
}

double RandomTree::total_leaves(const RandomTreeSchema& schema) const {
  LeafCountExpectation expect(schema);
  return total_leaves(schema, expect);
}

double RandomTree::total_leaves(const RandomTreeSchema& schema, LeafCountExpectation& expect) const {
  double total = 0.0;
  std::vector<std::pair<int32_t, uint64_t>> stack{{0, 0}};
  while (!stack.empty()) {
    auto [i, used] = stack.back();
    stack.pop_back();
    const Node& n = nodes_[static_cast<std::size_t>(i)];
    if (n.feature == -1) { total += 1.0; continue; }
    if (n.feature == -2) { total += expect(used, n.depth); continue; }
    const auto f = static_cast<std::size_t>(n.feature);
    const uint64_t u = schema.discrete[f] ? used | (uint64_t{1} << schema.bit[f]) : used;
    for (int c = 0; c < n.n_children; ++c) stack.emplace_back(n.first_child + c, u);
  }
  return total;
}

double LeafCountExpectation::operator()(uint64_t used, int depth) {
  const int k = schema_.depth - depth;
  if (k <= 0) return 1.0;
  const int s = schema_.n_continuous;
  if (schema_.n_discrete == 0) return std::ldexp(1.0, k);  // continuous only: 2^k leaves
  const uint64_t key = (used << 6) | static_cast<uint64_t>(k);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  // The free discrete features (with a value, not used on the path), in feature order: their value
  // counts b and bits.
  auto free_feature = [&](std::size_t f) {
    return schema_.discrete[f] && !((used >> schema_.bit[f]) & 1u) && schema_.n_values[f] > 0;
  };
  std::size_t n_free = 0;
  for (std::size_t f = 0; f < schema_.discrete.size(); ++f) n_free += free_feature(f);
  double e = 1.0;
  if (s == 0) {
    // Every split spends one discrete feature, drawn uniformly without replacement along the path:
    // E = e_k(b) / C(|D|, k), e_k the elementary symmetric polynomial, k capped at |D|.
    const int kk = std::min<int>(k, static_cast<int>(n_free));
    std::vector<double> el(static_cast<std::size_t>(kk) + 1, 0.0);
    el[0] = 1.0;
    for (std::size_t f = 0; f < schema_.discrete.size(); ++f) {
      if (!free_feature(f)) continue;
      const double v = schema_.n_values[f];
      for (int j = kk; j >= 1; --j) el[static_cast<std::size_t>(j)] += el[static_cast<std::size_t>(j - 1)] * v;
    }
    double choose = 1.0;
    for (int j = 0; j < kk; ++j) choose = choose * static_cast<double>(n_free - static_cast<std::size_t>(j)) / (j + 1);
    e = el[static_cast<std::size_t>(kk)] / choose;
  } else {
    // E(L, l) = (1/|L|) sum_g b_g E(L', l+1), b = 2 for continuous features (always candidates).
    double sum = 2.0 * s * (*this)(used, depth + 1);
    for (std::size_t f = 0; f < schema_.discrete.size(); ++f)
      if (free_feature(f)) sum += schema_.n_values[f] * (*this)(used | (uint64_t{1} << schema_.bit[f]), depth + 1);
    e = sum / (s + static_cast<double>(n_free));
  }
  memo_[key] = e;
  return e;
}

}  // namespace dpf
