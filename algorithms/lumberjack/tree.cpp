#include "algorithms/lumberjack/tree.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/lumberjack/calibration.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

namespace dpf::lumberjack {

int Tree::leaf_at(const Dataset& data, uint32_t row) const {
  int32_t i = root;
  while (nodes[static_cast<std::size_t>(i)].feature >= 0) {
    const Node& n = nodes[static_cast<std::size_t>(i)];
    i = data.x(row, static_cast<std::size_t>(n.feature)) <= n.threshold ? n.left : n.right;  // §4.1 step 3
  }
  return i;
}

std::size_t Tree::n_leaves() const {
  std::size_t n = 0;
  for (const Node& x : nodes) n += x.feature < 0;
  return n;
}

int Tree::max_leaf_depth() const {
  int d = 0;
  for (const Node& x : nodes)
    if (x.feature < 0) d = std::max(d, static_cast<int>(x.depth));
  return d;
}

namespace {

constexpr int32_t kLight = -1;

struct Frame {
  uint64_t key;
  std::size_t begin, end;  // rows_[begin, end) lie in the node
  int32_t depth;
};

class Builder {
 public:
  Builder(const Dataset& data, std::span<const uint32_t> rows, const std::vector<double>& lo,
          const std::vector<double>& hi, const TreeSpec& spec)
      : data_(data), spec_(spec), rows_(rows.begin(), rows.end()), lo_(lo), hi_(hi),
        counts_(static_cast<std::size_t>(spec.n_classes)), scores_(static_cast<std::size_t>(spec.n_classes)) {
    sigma2_split_ = spec.sigma_split * spec.sigma_split;
    sigma2_leaf_ = 1.0 / (2.0 * spec.rho_tree);  // §3.3: sigma_l = 1 / sqrt(2 rho_tree), l2 sensitivity 1
  }

  Tree run(uint64_t tree_key) {
    const Frame root{tree_key, 0, rows_.size(), 0};
    int32_t r = build(spec_.max_depth, root);
    if (r == kLight) r = leaf(root);  // §4.2: a root that is not heavy gives a one-leaf tree
    tree_.root = r;
    return std::move(tree_);
  }

 private:
  // §4.3 Build(hgt, v): decides heaviness for layers depth(v) .. depth(v) + hgt - 1 (the last one is
  // h - 1). Returns the internal node made for v if v is heavy, kLight otherwise.
  int32_t build(int hgt, const Frame& v) {
    if (hgt == 1) return query(v) ? split(v, [&](const Frame& c) { (void)c; return kLight; }, true) : kLight;
    const int m = hgt / 2;
    return explore(v, m, hgt, m);
  }

  // Walks down to the layer depth(v) + m of Build(hgt, v) and queries its nodes (left to right in the
  // code; the order is immaterial here since noise is keyed by node). A node between v and that layer
  // is heavy iff some descendant on it is (heavy marks propagate to ancestors, §4.2).
  int32_t explore(const Frame& u, int to_mid, int hgt, int m) {
    if (to_mid == 0) {
      if (!query(u)) return kLight;  // LIGHT: its subtree is never queried
      // Heavy on the last layer (hgt <= 2): split once more, both children leaves at depth h (§4.2).
      if (hgt <= 2) return split(u, [&](const Frame& c) { (void)c; return kLight; }, true);
      return split(u, [&](const Frame& c) { return build(hgt - m - 1, c); }, true);
    }
    // Expand(v, m): a node whose count is suppressed is not split further (§4.3); it can only be light.
    if (suppressed(u.end - u.begin)) return kLight;
    return split(u, [&](const Frame& c) { return explore(c, to_mid - 1, hgt, m); }, false);
  }

  bool suppressed(std::size_t n) const { return spec_.as_coded_suppression ? n <= 2 : n == 0; }

  // The heavy-hitter test of §4.2 (dp_alternative_sparse.py lines 950-962) on the node's exact count,
  // with the discrete Gaussian N_Z(0, sigma_split^2) (CKS20 Alg. 3) in place of the code's continuous
  // N(0, sigma_split^2): integer counts plus integer noise, no floating-point leak. The (eps_s, delta_s)
  // of all these draws across the forest is the GSHM analysis of §3.2 (k counts per record), made
  // exact for this noise and this threshold by calibration.hpp gshm_delta_discrete, which chose
  // sigma_split; the learner charges it once for the forest (lumberjack.cpp).
  // Default threshold: the integer ceil(tau) + 2 (integer_threshold), so that a count that appears
  // (0 -> 1) passes with probability P(Z >= ceil(tau) + 1) <= 1 - Phi(tau / sigma), the code's p. As
  // coded: n + Z >= tau with n <= 2 suppressed, outside what the calibration covers.
  bool query(const Frame& u) {
    const std::size_t n = u.end - u.begin;
    if (suppressed(n)) return false;
    ++tree_.heavy_queries;
    Rng r = Rng(u.key).derive("heavy-query");
    const double z = static_cast<double>(n) + static_cast<double>(sample_discrete_gaussian(r, sigma2_split_));
    return z >= (spec_.as_coded_suppression ? spec_.tau : integer_threshold(spec_.tau));
  }

  // Draws u's split (§4.1: one feature uniformly — no one-hot groups here —, threshold uniform in the
  // node's current box, from the node's own stream), partitions its rows, and runs `child` on both
  // children. If u is heavy or a child is heavy, u becomes an internal node whose non-heavy children
  // are leaves (§4.2); otherwise kLight is returned and nothing is stored.
  template <class F>
  int32_t split(const Frame& u, F&& child, bool heavy) {
    Rng r = Rng(u.key).derive("split");
    const auto f = static_cast<std::size_t>(r.below(lo_.size()));
    const double t = r.uniform(lo_[f], hi_[f]);
    const std::span<const double> col = data_.column(f);
    const auto mid = static_cast<std::size_t>(
        std::partition(rows_.begin() + static_cast<std::ptrdiff_t>(u.begin), rows_.begin() + static_cast<std::ptrdiff_t>(u.end),
                       [&](uint32_t row) { return col[row] <= t; }) -
        rows_.begin());
    const Frame left{hash_combine(u.key, 1), u.begin, mid, u.depth + 1};
    const Frame right{hash_combine(u.key, 2), mid, u.end, u.depth + 1};
    const double saved_hi = hi_[f];
    hi_[f] = t;
    int32_t li = child(left);
    hi_[f] = saved_hi;
    const double saved_lo = lo_[f];
    lo_[f] = t;
    int32_t ri = child(right);
    lo_[f] = saved_lo;
    if (!heavy && li == kLight && ri == kLight) return kLight;
    if (li == kLight) li = leaf(left);
    if (ri == kLight) ri = leaf(right);
    Node n;
    n.feature = static_cast<int32_t>(f);
    n.threshold = t;
    n.left = li;
    n.right = ri;
    n.depth = u.depth;
    n.n_rows = static_cast<uint32_t>(u.end - u.begin);
    tree_.nodes.push_back(n);
    return static_cast<int32_t>(tree_.nodes.size() - 1);
  }

  // §3.3 (privacy_mechanisms.py lines 40-49; dp_alternative_sparse.py lines 1237-1305): every leaf,
  // empty or not, releases a label from its exact class counts. One record changes one count of one
  // leaf by 1, so the tree's count vector has l2 sensitivity 1 under add/remove (lumberjack.md §1):
  //  * noisy_majority: count_c + N_Z(0, 1 / (2 rho_tree)) per class (CKS20 Thm 14: rho_tree-zCDP for
  //    the whole vector), argmax, ties uniformly from the leaf's stream (post-processing);
  //  * exponential_mechanism: report-noisy-max of the counts with Gumbel scale 1 / sqrt(8 rho_tree),
  //    i.e. the exponential mechanism P(c) ∝ exp(eps count_c) with eps = sqrt(8 rho_tree). The counts
  //    are monotone under add/remove (an added record raises one count), so this is eps-bounded-range
  //    (Durfee & Rogers 2019, monotone quality scores) and eps-BR implies eps^2/8 = rho_tree-zCDP
  //    (Cesar & Rogers 2021). Under replace-one the counts are not monotone and the scale would have
  //    to double (the factor-of-2 caveat of §3.3).
  int32_t leaf(const Frame& u) {
    std::fill(counts_.begin(), counts_.end(), 0);
    for (std::size_t i = u.begin; i < u.end; ++i) ++counts_[static_cast<std::size_t>(data_.label(rows_[i]))];
    Rng r = Rng(u.key).derive("leaf");
    const std::size_t K = counts_.size();
    int32_t label = 0;
    if (spec_.leaf == LeafAlgorithm::kExponentialMechanism) {
      for (std::size_t c = 0; c < K; ++c) scores_[c] = static_cast<double>(counts_[c]);
      // exponential_mechanism draws ∝ exp(eps score / (2 s)): s = 1/2 drops the factor 2 (monotone).
      label = static_cast<int32_t>(exponential_mechanism(r, scores_, std::sqrt(8.0 * spec_.rho_tree), 0.5));
    } else {
      int64_t best = 0;
      std::size_t tied = 0;
      for (std::size_t c = 0; c < K; ++c) {
        const int64_t v = counts_[c] + sample_discrete_gaussian(r, sigma2_leaf_);
        if (c == 0 || v > best) {
          best = v;
          tied = 1;
          label = static_cast<int32_t>(c);
        } else if (v == best) {
          // Reservoir choice among the tied maxima: uniform, from the leaf's own stream.
          ++tied;
          if (r.below(tied) == 0) label = static_cast<int32_t>(c);
        }
      }
    }
    Node n;
    n.label = label;
    n.depth = u.depth;
    n.n_rows = static_cast<uint32_t>(u.end - u.begin);
    tree_.nodes.push_back(n);
    return static_cast<int32_t>(tree_.nodes.size() - 1);
  }

  const Dataset& data_;
  const TreeSpec& spec_;
  std::vector<uint32_t> rows_;
  std::vector<double> lo_, hi_;
  std::vector<int64_t> counts_;
  std::vector<double> scores_;
  double sigma2_split_ = 0.0, sigma2_leaf_ = 0.0;
  Tree tree_;
};

}  // namespace

Tree grow_tree(const Dataset& data, std::span<const uint32_t> rows, const std::vector<double>& lo,
               const std::vector<double>& hi, const TreeSpec& spec, uint64_t tree_key) {
  require(spec.max_depth >= 1, "lumberjack: max_depth must be >= 1");
  require(spec.rho_tree > 0.0 && spec.sigma_split > 0.0, "lumberjack: the tree needs rho_tree > 0 and sigma_split > 0");
  require(lo.size() == data.n_features() && hi.size() == lo.size() && !lo.empty(), "lumberjack: one bound per feature");
  Builder b(data, rows, lo, hi, spec);
  return b.run(tree_key);
}

}  // namespace dpf::lumberjack
