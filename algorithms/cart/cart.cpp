#include "algorithms/cart/cart.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/leaves.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/util/error.hpp"

namespace dpf {

CartSplit::CartSplit(const CartParams& p, int n_features, TaskKind task, int n_classes)
    : p_(p), task_(task), n_classes_(n_classes), search_(task == TaskKind::kClassification ? n_classes : 1) {
  k_ = p.max_features > 0 ? std::min(p.max_features, n_features)
       : task == TaskKind::kClassification ? std::max(1, static_cast<int>(std::sqrt(static_cast<double>(n_features))))
                                           : n_features;
  const std::size_t c = task == TaskKind::kClassification ? static_cast<std::size_t>(n_classes) : 2;
  left_.resize(c);
  total_.resize(c);
  counts_.resize(c);
}

// Impurity-decrease proxy of sklearn: Σ_c n_lc²/n_l + Σ_c n_rc²/n_r (Gini), or
// S_l²/n_l + S_r²/n_r (squared error), from left_ and total_. Larger is better.
double CartSplit::proxy_of_children(double nl, double nr) const {
  double v = 0;
  if (task_ == TaskKind::kClassification) {
    double sl = 0, sr = 0;
    for (std::size_t c = 0; c < left_.size(); ++c) {
      sl += left_[c] * left_[c];
      double r = total_[c] - left_[c];
      sr += r * r;
    }
    v = sl / nl + sr / nr;
  } else {
    double r = total_[0] - left_[0];
    v = left_[0] * left_[0] / nl + r * r / nr;
  }
  return v;
}

bool CartSplit::best_threshold(const NodeView& node, int f, BestSplit& best) {
  const auto msl = static_cast<std::size_t>(p_.min_samples_leaf);
  // The grower's presorted lists (GrowOptions::presort): the node's values already in (value, row)
  // order, numeric or category code alike (best_codes finds the same split as the sorted sweep).
  if (!node.sorted_ids(f).empty()) {
    if (task_ == TaskKind::kClassification)
      return search_.best_presorted(node.sorted_values(f), node.root_y, node.sorted_ids(f), msl, f, best);
    return search_.best_sse_presorted(node.sorted_values(f), node.root_y, node.sorted_ids(f), msl, total_[0], f,
                                      best);
  }
  std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
  const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
  // A categorical feature (thresholds on its ordinal code): per-code histogram, no sort; the same
  // best split bit for bit (core/tree/split_search.hpp).
  // With the grower's node-ordered copies, the searches index the node's values and targets by
  // position in the node (contiguous) instead of by row; the order (value, row) is the same.
  std::span<const double> values = node.column(f), y = node.y;
  std::span<const uint32_t> at = node.rows;
  if (values.empty()) {
    values = col;
    y = node.data.y();
  } else if (positions_.size() < node.rows.size()) {
    positions_.resize(node.rows.size());
    for (std::size_t i = 0; i < positions_.size(); ++i) positions_[i] = static_cast<uint32_t>(i);
  }
  if (!node.column(f).empty()) at = std::span<const uint32_t>(positions_).first(node.rows.size());
  if (task_ == TaskKind::kClassification && feat.kind == FeatureKind::kCategorical)
    return search_.best_codes(values, y, at, feat.n_categories(), msl, f, best);
  if (node.column(f).empty()) index_.sort_rows(node.data, node.rows, f, sorted_rows_);
  else index_.sort_positions(node.data, node.rows, f, sorted_rows_);
  if (task_ == TaskKind::kClassification) return search_.best_sorted(values, y, sorted_rows_, msl, f, best);
  return search_.best_sse_sorted(values, y, sorted_rows_, msl, total_[0], f, best);
}

bool CartSplit::random_threshold(const NodeView& node, int f, Rng& rng, BestSplit& best) {
  // The node's values of f in row order (the grower's node-ordered copy, or gathered into xs_) with
  // their [min, max], then a branch-free count of the left side over contiguous values and labels
  // (choose() gathered the labels): the same counts and sums as testing each row in turn.
  const std::size_t n = node.rows.size();
  const double* xs = node.column(f).data();
  if (xs == nullptr) {
    std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
    xs_.resize(n);
    for (std::size_t i = 0; i < n; ++i) xs_[i] = col[node.rows[i]];
    xs = xs_.data();
  }
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < n; ++i) {
    lo = std::min(lo, xs[i]);
    hi = std::max(hi, xs[i]);
  }
  if (!(hi > lo)) return false;
  double thr = rng.uniform(lo, hi);
  if (!(thr > lo)) thr = hi;  // keep both sides non-empty: x < thr goes left
  std::size_t nl = 0;
  if (task_ == TaskKind::kClassification) {
    const uint32_t* lab = labels_.data();
    if (n_classes_ == 2) {
      std::size_t n1 = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t lt = xs[i] < thr;
        nl += lt;
        n1 += lt & lab[i];
      }
      left_[0] = static_cast<double>(nl - n1);
      left_[1] = static_cast<double>(n1);
    } else {
      std::fill(counts_.begin(), counts_.end(), 0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t lt = xs[i] < thr;
        nl += lt;
        counts_[lab[i]] += static_cast<uint32_t>(lt);
      }
      for (std::size_t c = 0; c < left_.size(); ++c) left_[c] = static_cast<double>(counts_[c]);
    }
  } else {
    // The left sum in row order; adding +0.0 for a right-hand row leaves it unchanged (a sum that
    // starts at +0.0 is never -0.0).
    const double* ys = node.y.data();
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const bool lt = xs[i] < thr;
      nl += lt;
      sum += lt ? ys[i] : 0.0;
    }
    left_[0] = sum;
  }
  const std::size_t nr = n - nl;
  const auto msl = static_cast<std::size_t>(p_.min_samples_leaf);
  if (nl < msl || nr < msl) return true;
  double proxy = proxy_of_children(static_cast<double>(nl), static_cast<double>(nr));
  if (proxy > best.proxy) {
    best = {proxy, f, thr};
    if (xs == xs_.data()) xs_.swap(best_xs_);  // keep the best candidate's values for the grower's partition
  }
  return true;
}

std::optional<SplitChoice> CartSplit::choose(const NodeView& node, Rng& rng, PrivacyLedger&) {
  const std::size_t n = node.rows.size();
  if (n < static_cast<std::size_t>(p_.min_samples_split) || n < 2 * static_cast<std::size_t>(p_.min_samples_leaf))
    return std::nullopt;
  std::span<const double> y = node.y;  // the targets in row order, contiguous
  const bool clf = task_ == TaskKind::kClassification;
  std::fill(total_.begin(), total_.end(), 0.0);
  bool pure = true;
  const double y0 = y[0];
  const bool ert_labels = p_.random_thresholds && clf;  // random_threshold() counts integer labels
  if (ert_labels) labels_.resize(n);
  if (clf) {
    std::fill(counts_.begin(), counts_.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const double v = y[i];
      ++counts_[static_cast<std::size_t>(v)];
      pure = pure && v == y0;
      if (ert_labels) labels_[i] = static_cast<uint32_t>(v);
    }
    for (std::size_t c = 0; c < total_.size(); ++c) total_[c] = static_cast<double>(counts_[c]);
  } else {
    double sum = 0.0;  // in row order, as before
    for (std::size_t i = 0; i < n; ++i) {
      sum += y[i];
      pure = pure && y[i] == y0;
    }
    total_[0] = sum;
  }
  if (pure) return std::nullopt;

  std::vector<int>& order = order_;
  order.assign(node.active.begin(), node.active.end());
  BestSplit best;
  int visited = 0;
  for (std::size_t i = 0; i < order.size() && visited < k_; ++i) {
    std::swap(order[i], order[i + rng.below(order.size() - i)]);
    int f = order[i];
    bool informative = p_.random_thresholds ? random_threshold(node, f, rng, best) : best_threshold(node, f, best);
    if (informative) ++visited;
  }
  if (best.feature < 0) return std::nullopt;
  SplitChoice c;
  c.kind = SplitKind::kThreshold;
  c.feature = best.feature;
  c.threshold = best.threshold;
  if (p_.random_thresholds && node.columns == nullptr) c.values = best_xs_.data();  // the grower partitions on them
  return c;
}

std::unique_ptr<Model> fit_cart(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx, const CartParams& p,
                                CartLayout layout) {
  const bool clf = data.task() == TaskKind::kClassification;
  CartSplit split(p, static_cast<int>(data.n_features()), data.task(), static_cast<int>(data.n_classes()));
  std::unique_ptr<LeafPolicy> leaf;
  if (clf) leaf = std::make_unique<ClassCountLeaf>(static_cast<int>(data.n_classes()), kNoPrivacy, false, false);
  else leaf = std::make_unique<MeanLeaf>(data.schema().target.lo, data.schema().target.hi, kNoPrivacy, false);
  ForestFitSpec spec;
  spec.algorithm = p.name;
  spec.n_trees = p.n_trees;
  spec.max_depth = p.max_depth;
  spec.unlimited_depth = p.max_depth == 0;
  spec.rows = p.bootstrap ? TreeRows::kBootstrap : TreeRows::kAll;
  spec.categorical_threshold_masks = p.categorical_reuse;
  // The learners: Breiman RF grows from presorted per-feature lists (no sort per node); ERT from
  // node-ordered feature copies (contiguous reads for its min/max and counts). Every layout gives the
  // same forest.
  if (layout == CartLayout::kLearner) layout = p.random_thresholds ? CartLayout::kNodeColumns : CartLayout::kPresorted;
  spec.node_columns = layout == CartLayout::kNodeColumns;
  if (layout == CartLayout::kPresorted) spec.presort = &split.rank_index();
  spec.vote = clf ? Vote::kSoft : Vote::kMean;
  return fit_forest(data, rows, ctx, spec, split, *leaf);
}

namespace {

class CartLearner : public Learner {
 public:
  explicit CartLearner(CartParams p) : p_(std::move(p)) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    return fit_cart(data, rows, ctx, p_);
  }

 private:
  CartParams p_;
};

ParamSet<CartParams> cart_set(bool bootstrap_default) {
  using P = CartParams;
  return ParamSet<P>()
      .add(&P::n_trees, param::n_trees(100))
      .add(&P::max_depth, param::max_depth(0, "maximum depth (0: unlimited)", 0, 64))
      .add(&P::max_features, param::max_features("K candidate features per split (0: sqrt(D) clf, D reg)"))
      .add(&P::min_samples_leaf, param::count("min_samples_leaf", 1, 1, 1e9, "minimum rows per leaf"))
      .add(&P::min_samples_split, param::count("min_samples_split", 2, 2, 1e9, "minimum rows to split a node"))
      .add(&P::bootstrap, param::flag("bootstrap", bootstrap_default, "bootstrap rows per tree"))
      .add(&P::categorical_reuse,
           param::flag("categorical_reuse", true,
                       "true: a categorical feature split by a code threshold stays usable below while >= 2 of its "
                       "codes remain (sklearn on integer codes, what every paper's RF/ERT ran); false: one threshold "
                       "split per categorical feature and path (this harness's rule before 2026-11-22: it capped "
                       "Car/Nursery/Traffic trees)"));
}

}  // namespace

std::vector<AlgorithmInfo> cart_algorithms() {
  AlgorithmInfo rf = describe_non_private(
      "rf", "dipreme, dipreme-v1, smooth-rdf, matrix-rf, multinomial-rf", kBothTasks,
      "Breiman random forest: bootstrap, CART splits over K random features (sklearn semantics)");
  AlgorithmInfo ert = describe_non_private(
      "ert", "dipreme, dipreme-v1", kBothTasks,
      "Extremely randomised trees (Geurts et al. 2006): one uniform threshold per candidate feature, best of K");
  return {with_learner<CartLearner>(rf, cart_set(true), CartParams{.name = "rf"}),
          with_learner<CartLearner>(ert, cart_set(false), CartParams{.name = "ert", .random_thresholds = true})};
}

}  // namespace dpf
