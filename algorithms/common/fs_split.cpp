#include "algorithms/common/fs_split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/privacy/mechanisms.hpp"
#include "core/tree/split_search.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

// Speed (bit-identical to sorting each node's rows per attribute, which the first version did): the
// policy sorts every continuous column once per fit (rows by (value, row), core/tree's RankIndex) and
// keeps, per tree level, each scored node's rows in that order per attribute. A node filters its parent's lists by
// membership (a stamp per row) in one pass that also sweeps the split-point scores, so a node costs
// O(parent rows) per attribute instead of a comparison sort. A row's rank never changes down the tree,
// and the scores depend only on the multiset of (value, class) of the node's rows, so the interval EM
// sees exactly the breaks and scores the per-node sort gave; the draws happen in the same order. The
// presort lives in the policy, so RGV's trees (one policy, the same rows) share it. A list that is not
// a superset of the node's rows (checked by count) falls back to the fit's presort; repeated rows fall
// back to the per-node sort. What remains of an RGV tree is mostly the interval EM itself (a log and an
// exp per interval, about one interval per distinct value, in core/privacy) and this filter pass.

// A row in a per-attribute sorted list: its value, index and class.
struct Entry {
  double x;
  uint32_t row;
  uint32_t y;
};

class FsSplit : public SplitPolicy {
 public:
  FsSplit(double eps_op, int n_classes, bool certified) : eps_(eps_op), k_(n_classes), certified_(certified) {}
  // A fresh policy (the caches are rebuilt on first use), so clones on other threads share nothing.
  std::unique_ptr<SplitPolicy> clone() const override { return std::make_unique<FsSplit>(eps_, k_, certified_); }

  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override {
    const Dataset& d = node.data;
    // §2.2 step 1: N = |T| + Lap(1/eps'), the Laplace mechanism on a count (sensitivity 1).
    double n = std::max(0.0, laplace_mechanism(rng, static_cast<double>(node.rows.size()), 1.0, eps_));
    ledger.charge(node.scope, "laplace", eps_, 1.0, certified_);
    // Step 2: stop when N / (t K) <= sqrt(2) / eps' (the Laplace standard deviation).
    int t = 2;
    for (int f : node.active)
      if (d.schema().features[static_cast<std::size_t>(f)].kind == FeatureKind::kCategorical)
        t = std::max<int>(t, static_cast<int>(d.schema().features[static_cast<std::size_t>(f)].n_categories()));
    if (n / (static_cast<double>(t) * k_) <= std::sqrt(2.0) / eps_) return std::nullopt;

    prepare(d, node.depth == 0);
    const bool distinct = mark_rows(node.rows);
    score_.clear();
    cand_.clear();
    total_.assign(static_cast<std::size_t>(k_), 0);
    for (uint32_t r : node.rows) ++total_[labels_[r]];
    const auto depth = static_cast<std::size_t>(std::max(node.depth, 0));
    const bool keep = node.max_depth <= 0 || node.depth + 1 < node.max_depth;  // children will score
    if (keep && level_.size() <= depth) level_.resize(depth + 1);
    for (int f : node.active) {
      const auto fu = static_cast<std::size_t>(f);
      const Feature& feat = d.schema().features[fu];
      auto col = d.column(fu);
      SplitChoice c;
      c.feature = f;
      if (feat.kind == FeatureKind::kCategorical) {
        // Step 5: q_M(A) = sum over values of the largest class count (max operator, sensitivity 1).
        const std::size_t q = feat.n_categories();
        cnt_.assign(q * static_cast<std::size_t>(k_), 0);
        for (uint32_t r : node.rows)
          ++cnt_[static_cast<std::size_t>(col[r]) * static_cast<std::size_t>(k_) + labels_[r]];
        double s = 0;
        for (std::size_t v = 0; v < q; ++v)
          s += *std::max_element(cnt_.begin() + static_cast<std::ptrdiff_t>(v * static_cast<std::size_t>(k_)),
                                 cnt_.begin() + static_cast<std::ptrdiff_t>((v + 1) * static_cast<std::size_t>(k_)));
        c.kind = SplitKind::kMultiway;
        cand_.push_back(c);
        score_.push_back(s);
        continue;
      }
      // Step 4: intervals [lb, v1), [v1, v2), ..., [v_last, ub]; a split point p in interval i sends the
      // values < p left; score = max_c left + max_c right; EM with length base measure, Delta = 1.
      const FeatureDomain& dom = node.domains[fu];
      std::vector<Entry>* out = nullptr;
      if (keep) {
        auto& lists = level_[depth];
        if (lists.size() < d.n_features()) lists.resize(d.n_features());
        out = &lists[fu];
      }
      bool swept = false;
      if (distinct) {
        // The parent's list (the latest scored node one level up) when it holds all of this node's rows.
        if (depth > 0 && level_.size() >= depth && level_[depth - 1].size() > fu &&
            level_[depth - 1][fu].size() >= node.rows.size())
          swept = sweep(level_[depth - 1][fu], dom, node.rows.size(), out);
        if (!swept) swept = sweep(order_[fu], dom, node.rows.size(), out);
      }
      if (!swept) {
        // Repeated rows: sort this node's rows (ties in any order give the same breaks and scores).
        sorted_.clear();
        for (uint32_t r : node.rows) sorted_.push_back({col[r], r, labels_[r]});
        std::sort(sorted_.begin(), sorted_.end(), [](const Entry& a, const Entry& b) { return a.x < b.x; });
        sweep(sorted_, dom, sorted_.size(), nullptr, true);
        if (out) out->clear();  // not a list of distinct rows: never used as a parent list
      }
      const IntervalDraw draw =
          interval_exponential_mechanism(rng, std::span<const double>(breaks_.data(), n_intervals_ + 1),
                                         std::span<const double>(scores_.data(), n_intervals_), eps_, 1.0);
      ledger.charge(node.scope, "interval-em", eps_, 1.0, certified_);
      c.kind = SplitKind::kThreshold;
      c.threshold = draw.value;
      cand_.push_back(c);
      score_.push_back(scores_[draw.interval]);
    }
    if (cand_.empty()) return std::nullopt;
    // Step 5: the attribute by the exponential mechanism over the candidates' scores (Delta = 1).
    const std::size_t pick = exponential_mechanism(rng, score_, eps_, 1.0);
    ledger.charge(node.scope, "exponential", eps_, 1.0, certified_);
    return cand_[pick];
  }

 private:
  // Per fit (per dataset): labels and every numeric column's rows in (value, row) order.
  // At a root (depth 0) a kept presort is checked against the columns in O(rows), so a policy handed
  // another dataset at the same address rebuilds it.
  void prepare(const Dataset& d, bool root) {
    if (prepared_ == &d && labels_.size() == d.n_rows() && order_.size() == d.n_features() &&
        (!root || still_sorted(d)))
      return;
    const std::size_t n = d.n_rows();
    labels_.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
      const int y = d.label(r);
      require(y >= 0 && y < k_, "fs: row ", r, " has class ", y, " outside 0..", k_ - 1);
      labels_[r] = static_cast<uint32_t>(y);
    }
    order_.assign(d.n_features(), {});
    const std::vector<uint32_t> all = all_rows(n);
    std::vector<uint32_t> idx;
    RankIndex ranks;  // the shared presort of core/tree: rows by (value, row)
    for (std::size_t f = 0; f < d.n_features(); ++f) {
      if (d.schema().features[f].kind == FeatureKind::kCategorical) continue;
      auto col = d.column(f);
      for (std::size_t r = 0; r < n; ++r)
        require(!std::isnan(col[r]), "fs: feature '", d.schema().features[f].name, "' row ", r,
                " is missing (FS needs complete numeric columns)");
      ranks.sort_rows(d, all, static_cast<int>(f), idx);
      order_[f].resize(n);
      for (std::size_t i = 0; i < n; ++i) order_[f][i] = {col[idx[i]], idx[i], labels_[idx[i]]};
    }
    mark_.assign(n, 0);
    stamp_ = 0;
    level_.clear();
    prepared_ = &d;
  }

  bool still_sorted(const Dataset& d) const {
    for (std::size_t r = 0; r < labels_.size(); ++r)
      if (static_cast<int>(labels_[r]) != d.label(r)) return false;
    for (std::size_t f = 0; f < order_.size(); ++f) {
      if (order_[f].empty()) continue;
      auto col = d.column(f);
      for (std::size_t i = 0; i < order_[f].size(); ++i) {
        const Entry& e = order_[f][i];
        if (!(col[e.row] == e.x) || e.y != labels_[e.row] || (i > 0 && e.x < order_[f][i - 1].x)) return false;
      }
    }
    return true;
  }

  // Stamps the node's rows; false when a row occurs twice.
  bool mark_rows(std::span<const uint32_t> rows) {
    if (++stamp_ == 0) {
      std::fill(mark_.begin(), mark_.end(), 0);
      stamp_ = 1;
    }
    bool distinct = true;
    for (uint32_t r : rows) {
      distinct = distinct && mark_[r] != stamp_;
      mark_[r] = stamp_;
    }
    return distinct;
  }

  // One pass over `sorted` (rows in (value, row) order) keeping the marked rows: writes them to *out
  // (when given) and the interval breaks and max-operator scores of §2.2 step 4 to breaks_ / scores_.
  // False when fewer than `expect` rows are marked (the list is not a superset of the node's rows).
  // `all` takes every entry (a node's own sorted rows, copies included).
  bool sweep(const std::vector<Entry>& sorted, const FeatureDomain& dom, std::size_t expect, std::vector<Entry>* out,
             bool all = false) {
    if (breaks_.size() < expect + 2) {
      breaks_.resize(expect + 2);
      scores_.resize(expect + 1);
    }
    double* br = breaks_.data();
    double* sc = scores_.data();
    br[0] = dom.lo;
    std::size_t m = 0;  // intervals so far
    left_.assign(static_cast<std::size_t>(k_), 0);
    if (out) out->resize(expect);
    std::size_t taken = 0;
    double raw = 0.0;
    Entry* dst = out ? out->data() : nullptr;
    for (const Entry& e : sorted) {
      if (!all && mark_[e.row] != stamp_) continue;
      if (taken == expect) return false;  // more marked entries than rows: not a list of distinct rows
      if (taken == 0 || e.x != raw) {
        // A new distinct value v: the interval ending at v sends everything below v left.
        sc[m] = q_now();
        br[m + 1] = std::max(std::clamp(e.x, dom.lo, dom.hi), br[m]);
        ++m;
        raw = e.x;
      }
      ++left_[e.y];
      if (dst) dst[taken] = e;
      ++taken;
    }
    if (taken != expect) {
      if (out) out->clear();
      return false;
    }
    sc[m] = q_now();
    br[m + 1] = std::max(dom.hi, br[m]);
    n_intervals_ = m + 1;
    return true;
  }

  double q_now() const {
    if (k_ == 2)
      return static_cast<double>(std::max(left_[0], left_[1]) + std::max(total_[0] - left_[0], total_[1] - left_[1]));
    int32_t ml = 0, mr = 0;
    for (std::size_t c = 0; c < left_.size(); ++c) {
      ml = std::max(ml, left_[c]);
      mr = std::max(mr, total_[c] - left_[c]);
    }
    return static_cast<double>(ml + mr);
  }

  double eps_;
  int k_;
  bool certified_;
  const Dataset* prepared_ = nullptr;
  std::vector<uint32_t> labels_;
  std::vector<std::vector<Entry>> order_;               // per numeric feature: all rows by (value, row)
  std::vector<std::vector<std::vector<Entry>>> level_;  // [depth][feature]: latest scored node's rows
  std::vector<Entry> sorted_;
  std::vector<uint32_t> mark_;
  uint32_t stamp_ = 0;
  std::vector<int32_t> total_, left_, cnt_;
  std::vector<double> breaks_, scores_, score_;  // breaks_ / scores_: the first n_intervals_ (+1) are set
  std::size_t n_intervals_ = 0;
  std::vector<SplitChoice> cand_;
};

}  // namespace

double fs_operation_epsilon(double epsilon, int depth, const Schema& schema) {
  int c = 0;
  for (const Feature& f : schema.features) c += f.kind == FeatureKind::kNumeric;
  // Per-operation budget eps' = eps / ((2 + c) D + 2) (FS-code, smooth-rdf.md §2.2): along a path each
  // level spends a noisy count, one split-point EM per continuous feature and one attribute EM; the
  // leaf a noisy count and a noisy histogram.
  return epsilon / ((2.0 + c) * depth + 2.0);
}

std::unique_ptr<SplitPolicy> make_fs_split(double eps_op, int n_classes, bool certified) {
  return std::make_unique<FsSplit>(eps_op, n_classes, certified);
}
}  // namespace dpf
