#include "algorithms/cart/cart.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/leaves.hpp"
#include "core/util/error.hpp"

namespace dpf {

CartSplit::CartSplit(const CartParams& p, int n_features, TaskKind task, int n_classes)
    : p_(p), task_(task), n_classes_(n_classes) {
  k_ = p.max_features > 0 ? std::min(p.max_features, n_features)
       : task == TaskKind::kClassification ? std::max(1, static_cast<int>(std::sqrt(static_cast<double>(n_features))))
                                           : n_features;
  const std::size_t c = task == TaskKind::kClassification ? static_cast<std::size_t>(n_classes) : 2;
  left_.resize(c);
  total_.resize(c);
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

const std::vector<uint32_t>& CartSplit::ranks(const Dataset& data, int f) {
  if (ranked_data_ != &data) {
    ranked_data_ = &data;
    rank_.assign(data.n_features(), {});
  }
  std::vector<uint32_t>& rank = rank_[static_cast<std::size_t>(f)];
  if (rank.empty()) {
    std::span<const double> col = data.column(static_cast<std::size_t>(f));
    std::vector<uint32_t> order(data.n_rows());
    std::iota(order.begin(), order.end(), 0u);
    // The order of std::pair<double, uint32_t>'s operator<: by value, ties by row index.
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return col[a] < col[b] || (!(col[b] < col[a]) && a < b);
    });
    rank.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<uint32_t>(i);
  }
  return rank;
}

void CartSplit::sort_rows(const NodeView& node, int f) {
  const std::size_t n = node.rows.size();
  sorted_rows_.resize(n);
  const std::size_t n_data = node.data.n_rows();
  if (n_data * node.data.n_features() > kMaxRankedEntries || n_data > (std::size_t{1} << 32) - 1) {
    std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
    pair_scratch_.clear();
    for (uint32_t r : node.rows) pair_scratch_.emplace_back(col[r], r);
    std::sort(pair_scratch_.begin(), pair_scratch_.end());
    for (std::size_t i = 0; i < n; ++i) sorted_rows_[i] = pair_scratch_[i].second;
    return;
  }
  // Keys rank << 32 | row: distinct rows have distinct ranks, so sorting the keys sorts by
  // (value, row); bootstrap copies of a row have equal keys and stay together.
  const std::vector<uint32_t>& rank = ranks(node.data, f);
  keys_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t r = node.rows[i];
    keys_[i] = (static_cast<uint64_t>(rank[r]) << 32) | r;
  }
  if (n < 256) {
    std::sort(keys_.begin(), keys_.end());
  } else {
    // LSD radix sort on the rank bits, 8 bits per pass (stable, so earlier passes keep their order).
    const int rank_bits = std::bit_width(n_data - 1);
    keys_tmp_.resize(n);
    for (int shift = 32; shift < 32 + rank_bits; shift += 8) {
      std::size_t count[257] = {};
      for (uint64_t k : keys_) ++count[((k >> shift) & 255u) + 1];
      for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
      for (uint64_t k : keys_) keys_tmp_[count[(k >> shift) & 255u]++] = k;
      keys_.swap(keys_tmp_);
    }
  }
  for (std::size_t i = 0; i < n; ++i) sorted_rows_[i] = static_cast<uint32_t>(keys_[i]);
}

bool CartSplit::best_threshold(const NodeView& node, int f, Best& best) {
  std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
  std::span<const double> y = node.data.y();
  sort_rows(node, f);
  const std::size_t n = sorted_rows_.size();
  xs_.resize(n);
  ys_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs_[i] = col[sorted_rows_[i]];
    ys_[i] = y[sorted_rows_[i]];
  }
  if (!(xs_[n - 1] > xs_[0])) return false;  // constant at this node
  const auto msl = static_cast<std::size_t>(p_.min_samples_leaf);
  if (n < 2 * msl) return true;
  // A threshold after position i leaves nl = i + 1 rows left and n - nl right: only
  // i in [msl - 1, n - msl - 1] can be a split; rows before only add to the left statistics.
  const std::size_t first = msl - 1, last = n - msl - 1;
  const double* xs = xs_.data();
  const double* ys = ys_.data();
  auto consider = [&](std::size_t i, double proxy) {
    if (proxy > best.proxy) {
      double thr = 0.5 * (xs[i] + xs[i + 1]);
      if (!(thr > xs[i])) thr = xs[i + 1];  // midpoint rounded down onto x_i
      best = {proxy, f, thr};
    }
  };
  if (task_ == TaskKind::kClassification && n_classes_ == 2) {
    // Binary Gini, the arithmetic of proxy_of_children on exact integer counts.
    const double t0 = total_[0], t1 = total_[1];
    double l1 = 0;
    for (std::size_t i = 0; i < first; ++i) l1 += ys[i];
    for (std::size_t i = first; i <= last; ++i) {
      l1 += ys[i];
      if (xs[i + 1] <= xs[i]) continue;  // no threshold between equal values
      const double nl = static_cast<double>(i + 1), nr = static_cast<double>(n - i - 1);
      const double l0 = nl - l1, r0 = t0 - l0, r1 = t1 - l1;
      consider(i, (l0 * l0 + l1 * l1) / nl + (r0 * r0 + r1 * r1) / nr);
    }
    return true;
  }
  std::fill(left_.begin(), left_.end(), 0.0);
  const bool clf = task_ == TaskKind::kClassification;
  auto add = [&](std::size_t i) {
    if (clf) left_[static_cast<std::size_t>(ys[i])] += 1;
    else left_[0] += ys[i];
  };
  for (std::size_t i = 0; i < first; ++i) add(i);
  for (std::size_t i = first; i <= last; ++i) {
    add(i);
    if (xs[i + 1] <= xs[i]) continue;
    consider(i, proxy_of_children(static_cast<double>(i + 1), static_cast<double>(n - i - 1)));
  }
  return true;
}

bool CartSplit::random_threshold(const NodeView& node, int f, Rng& rng, Best& best) {
  std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
  std::span<const double> y = node.data.y();
  double lo = INFINITY, hi = -INFINITY;
  for (uint32_t r : node.rows) { lo = std::min(lo, col[r]); hi = std::max(hi, col[r]); }
  if (!(hi > lo)) return false;
  double thr = rng.uniform(lo, hi);
  if (!(thr > lo)) thr = hi;  // keep both sides non-empty: x < thr goes left
  std::fill(left_.begin(), left_.end(), 0.0);
  const bool clf = task_ == TaskKind::kClassification;
  std::size_t nl = 0;
  for (uint32_t r : node.rows) {
    if (col[r] < thr) {
      ++nl;
      if (clf) left_[static_cast<std::size_t>(y[r])] += 1;
      else left_[0] += y[r];
    }
  }
  const std::size_t nr = node.rows.size() - nl;
  const auto msl = static_cast<std::size_t>(p_.min_samples_leaf);
  if (nl < msl || nr < msl) return true;
  double proxy = proxy_of_children(static_cast<double>(nl), static_cast<double>(nr));
  if (proxy > best.proxy) best = {proxy, f, thr};
  return true;
}

std::optional<SplitChoice> CartSplit::choose(const NodeView& node, Rng& rng, PrivacyLedger&) {
  const std::size_t n = node.rows.size();
  if (n < static_cast<std::size_t>(p_.min_samples_split) || n < 2 * static_cast<std::size_t>(p_.min_samples_leaf))
    return std::nullopt;
  std::span<const double> y = node.data.y();
  const bool clf = task_ == TaskKind::kClassification;
  std::fill(total_.begin(), total_.end(), 0.0);
  bool pure = true;
  for (uint32_t r : node.rows) {
    if (clf) total_[static_cast<std::size_t>(y[r])] += 1;
    else total_[0] += y[r];
    pure = pure && y[r] == y[node.rows[0]];
  }
  if (pure) return std::nullopt;

  std::vector<int>& order = order_;
  order.assign(node.active.begin(), node.active.end());
  Best best;
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
  return c;
}

namespace {

class CartLearner : public Learner {
 public:
  explicit CartLearner(CartParams p) : p_(std::move(p)) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const bool clf = data.task() == TaskKind::kClassification;
    CartSplit split(p_, static_cast<int>(data.n_features()), data.task(), static_cast<int>(data.n_classes()));
    std::unique_ptr<LeafPolicy> leaf;
    if (clf) leaf = std::make_unique<ClassCountLeaf>(static_cast<int>(data.n_classes()), kNoPrivacy, false, false);
    else leaf = std::make_unique<MeanLeaf>(data.schema().target.lo, data.schema().target.hi, kNoPrivacy, false);
    ForestFitSpec spec;
    spec.algorithm = p_.name;
    spec.n_trees = p_.n_trees;
    spec.max_depth = p_.max_depth;
    spec.unlimited_depth = p_.max_depth == 0;
    spec.rows = p_.bootstrap ? TreeRows::kBootstrap : TreeRows::kAll;
    spec.vote = clf ? Vote::kSoft : Vote::kMean;
    return fit_forest(data, rows, ctx, spec, split, *leaf);
  }

 private:
  CartParams p_;
};

std::vector<ParamSpec> cart_schema(bool bootstrap_default) {
  return {
      {"n_trees", ParamType::kInt, "100", 1, 100000, false, {}, "number of trees"},
      {"max_depth", ParamType::kInt, "0", 0, 64, false, {}, "maximum depth (0: unlimited)"},
      {"max_features", ParamType::kInt, "0", 0, 1e9, false, {}, "K candidate features per split (0: sqrt(D) clf, D reg)"},
      {"min_samples_leaf", ParamType::kInt, "1", 1, 1e9, false, {}, "minimum rows per leaf"},
      {"min_samples_split", ParamType::kInt, "2", 2, 1e9, false, {}, "minimum rows to split a node"},
      {"bootstrap", ParamType::kBool, bootstrap_default ? "true" : "false", 0, 1, false, {}, "bootstrap rows per tree"},
  };
}

CartParams cart_params(const std::string& name, const Params& p, bool random_thresholds) {
  CartParams c;
  c.name = name;
  c.n_trees = p.get_int("n_trees");
  c.max_depth = p.get_int("max_depth");
  c.max_features = p.get_int("max_features");
  c.min_samples_leaf = p.get_int("min_samples_leaf");
  c.min_samples_split = p.get_int("min_samples_split");
  c.bootstrap = p.get_bool("bootstrap");
  c.random_thresholds = random_thresholds;
  return c;
}

}  // namespace

std::vector<AlgorithmInfo> cart_algorithms() {
  auto non_private = [](const Params&, TaskKind) { return std::string("non-private"); };
  AlgorithmInfo rf;
  rf.name = "rf";
  rf.summary = "Breiman random forest: bootstrap, CART splits over K random features (sklearn semantics)";
  rf.papers = "dipreme, dipreme-v1, smooth-rdf, matrix-rf, multinomial-rf";
  rf.tasks = {TaskKind::kClassification, TaskKind::kRegression};
  rf.params = cart_schema(true);
  rf.private_algorithm = false;
  rf.privacy_status = non_private;
  rf.make = [](const Params& p, const Schema&) -> std::unique_ptr<Learner> {
    return std::make_unique<CartLearner>(cart_params("rf", p, false));
  };
  AlgorithmInfo ert = rf;
  ert.name = "ert";
  ert.summary = "Extremely randomised trees (Geurts et al. 2006): one uniform threshold per candidate feature, best of K";
  ert.papers = "dipreme, dipreme-v1";
  ert.params = cart_schema(false);
  ert.make = [](const Params& p, const Schema&) -> std::unique_ptr<Learner> {
    return std::make_unique<CartLearner>(cart_params("ert", p, true));
  };
  return {rf, ert};
}

}  // namespace dpf
