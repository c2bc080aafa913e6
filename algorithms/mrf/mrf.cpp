#include "algorithms/mrf/mrf.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/forest_fit.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

namespace dpf {

MrfDpBudget mrf_dp_budget(double epsilon, int n_trees, int depth, bool parallel_s_e) {
  // §1.10 (Lemmas 5-7, Theorem 2 as reconstructed): M trees read all rows -> sequential, ε/M per tree;
  // d layers of (feature draw + value draw) on disjoint nodes -> d (B1 + B2); leaves on disjoint E
  // points -> B3. Parallel S/E: max(d (B1 + B2), B3) = ε/M; sequential: d (B1 + B2) + B3 = ε/M, split
  // half to the structure and half to the labels (our allocation; the paper gives none for it).
  const double per_tree = epsilon / n_trees;
  const double structure = parallel_s_e ? per_tree : per_tree / 2;
  const double label = parallel_s_e ? per_tree : per_tree / 2;
  return {structure / (2.0 * depth), structure / (2.0 * depth), label, depth};
}

int mrf_default_depth(std::size_t n, double partition_rate, int min_leaf) {
  const double ne = static_cast<double>(n - structure_size(n, partition_rate));
  return std::max(1, static_cast<int>(std::ceil(std::log2(std::max(2.0, ne / min_leaf)))));
}

MrfPolicy::MrfPolicy(const MrfParams& p, int n_features, int n_classes)
    : p_(p), n_features_(n_features), n_classes_(n_classes), search_(n_classes),
      gains_(static_cast<std::size_t>(n_features)), sorted_(static_cast<std::size_t>(n_features)) {}

// Candidate values and their gains for feature f at the node (§1.3, eq. 4); false if the feature is
// not a candidate (fewer than 2 distinct structure values).
bool MrfPolicy::gains_of(const HonestView& node, int f, std::vector<SplitGain>& out) {
  const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
  std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
  const bool discrete = feat.kind == FeatureKind::kCategorical && !p_.all_continuous;
  std::size_t distinct = 0;
  if (discrete && cached(node, f)) {
    distinct = search_.one_vs_rest_codes(codes_[static_cast<std::size_t>(f)].data() + node.s_offset,
                                         seg_labels_.data() + node.s_offset, node.s.size(), feat.n_categories(), out);
  } else if (discrete) {
    distinct = search_.one_vs_rest(col, node.labels, node.s, out);
  } else if (presorted(node, f)) {
    std::span<const uint32_t> seg(sorted_[static_cast<std::size_t>(f)].data() + node.s_offset, node.s.size());
    distinct = search_.numeric_sorted(col, node.labels, seg, out);
  } else {
    distinct = search_.numeric(col, node.labels, node.s, out);
  }
  return distinct >= 2;
}

bool MrfPolicy::cached(const HonestView& node, int f) const {
  const auto& v = codes_[static_cast<std::size_t>(f)];
  return !v.empty() && node.s_offset + node.s.size() <= v.size();
}

bool MrfPolicy::presorted(const HonestView& node, int f) const {
  const auto& v = sorted_[static_cast<std::size_t>(f)];
  return !v.empty() && node.s_offset + node.s.size() <= v.size();
}

void MrfPolicy::presort(const HonestView& node) {
  codes_.resize(static_cast<std::size_t>(n_features_));
  // The code caches pay off once the categorical columns no longer sit in cache (Connect-4: 2.8 M
  // cells, ~3x faster); on smaller data (Car, Nursery, Chess) the gathers are cheaper than the
  // extra partitions.
  std::size_t categorical_cells = 0;
  for (const Feature& feat : node.data.schema().features)
    categorical_cells += feat.kind == FeatureKind::kCategorical ? node.data.n_rows() : 0;
  const bool use_cache = !p_.all_continuous && categorical_cells > kCodeCacheMinCells;
  seg_rows_.clear();
  seg_labels_.clear();
  if (use_cache) {
    seg_rows_.assign(node.s.begin(), node.s.end());
    seg_labels_.resize(node.s.size());
    for (std::size_t i = 0; i < node.s.size(); ++i) seg_labels_[i] = node.labels[node.s[i]];
  }
  for (int f = 0; f < n_features_; ++f) {
    auto& v = sorted_[static_cast<std::size_t>(f)];
    v.clear();
    const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
    const bool discrete = feat.kind == FeatureKind::kCategorical && !p_.all_continuous;
    auto& k = codes_[static_cast<std::size_t>(f)];
    k.clear();
    if (use_cache && discrete && feat.n_categories() <= 256) {
      std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
      k.resize(node.s.size());
      for (std::size_t i = 0; i < node.s.size(); ++i) k[i] = static_cast<uint8_t>(col[node.s[i]]);
    }
    if (discrete) continue;
    index_.sort_rows(node.data, node.s, f, v);  // shared presort + radix (core/tree/split_search.hpp)
  }
  left_.assign(node.data.n_rows(), 0);
}

// The loop will send the split's left rows to the front of the node's range; keep every presorted
// copy in step (stable, so each child's segment stays sorted).
// Stable partition of seg[0, n) by flag(i) (left first), without a branch per element: every
// element is written to both the kept prefix and the scratch, and only the right counter advances.
template <class T, class Flag>
static void stable_partition_by(T* seg, std::size_t n, Flag flag, std::vector<T>& tmp) {
  tmp.resize(n);
  std::size_t w = 0, t = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T x = seg[i];
    const std::size_t f = flag(i) ? 1 : 0;
    seg[w] = x;
    tmp[t] = x;
    w += f;
    t += f ^ 1;
  }
  std::copy(tmp.begin(), tmp.begin() + static_cast<std::ptrdiff_t>(t), seg + w);
}

void MrfPolicy::partition_presorted(const HonestView& node, const SplitChoice& c) {
  for (uint32_t r : node.s) left_[r] = goes_left(node.data, c, r) ? 1 : 0;
  for (int f = 0; f < n_features_; ++f) {
    if (!presorted(node, f)) continue;
    auto& v = sorted_[static_cast<std::size_t>(f)];
    auto* seg = v.data() + node.s_offset;
    stable_partition_by(seg, node.s.size(), [&](std::size_t i) { return left_[seg[i]] != 0; }, tmp_);
  }
  if (seg_rows_.size() < node.s_offset + node.s.size()) return;
  // The code caches: flags from the rows of the cache's own order, then one stable pass per array.
  const std::size_t n = node.s.size(), off = node.s_offset;
  flag_.resize(n);
  for (std::size_t i = 0; i < n; ++i) flag_[i] = left_[seg_rows_[off + i]];
  auto stable = [&](auto* seg, auto& tmp) {
    stable_partition_by(seg, n, [&](std::size_t i) { return flag_[i] != 0; }, tmp);
  };
  for (auto& k : codes_)
    if (k.size() >= off + n) stable(k.data() + off, tmp8_);
  stable(seg_labels_.data() + off, tmp_labels_);
  stable(seg_rows_.data() + off, tmp_);
}

// Min-max normalisation (§1.5 step 2; all equal -> all 0) then one draw with P ∝ exp(b Î / 2):
// the exponential mechanism with utility range 1 and privacy parameter b (§1.5 step 3, §1.6, Lemma 5).
// b = 0: uniform; b = inf: the argmax (ties uniform).
std::size_t MrfPolicy::draw(Rng& rng, std::vector<double>& v, double b) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const double mn = *lo, range = *hi - *lo;
  for (double& x : v) x = range > 0 ? (x - mn) / range : 0.0;
  if (b == 0) return static_cast<std::size_t>(rng.below(v.size()));
  return exponential_mechanism(rng, v, b, 1.0);
}

// I^F_f = max_j I_fj (§1.5 step 1) into `score`; false if f is not a candidate (§1.3). A presorted
// numeric feature needs only the maximum: its candidates are listed for the drawn feature alone.
bool MrfPolicy::feature_score(const HonestView& node, int f, double& score) {
  if (presorted(node, f)) {
    std::span<const uint32_t> seg(sorted_[static_cast<std::size_t>(f)].data() + node.s_offset, node.s.size());
    return search_.max_gain_node(node.data.column(static_cast<std::size_t>(f)), node.labels, seg, score) >= 2;
  }
  auto& g = gains_[static_cast<std::size_t>(f)];
  if (!gains_of(node, f, g)) return false;
  score = 0;
  for (const SplitGain& s : g) score = std::max(score, s.gain);
  return true;
}

void MrfPolicy::feature_scores(const HonestView& node) {
  if (node.depth == 0) presort(node);
  cand_.clear();
  score_.clear();
  search_.begin_node(node.labels, node.s);  // class counts once for every presorted feature
  for (int f = 0; f < n_features_; ++f) {
    double best = 0;
    if (!feature_score(node, f, best)) continue;
    cand_.push_back(f);
    score_.push_back(best);
  }
}

std::optional<SplitChoice> MrfPolicy::choose(const HonestView& node, Rng& rng, PrivacyLedger& ledger) {
  feature_scores(node);
  if (cand_.empty()) return std::nullopt;  // §1.7 step 2
  const int f = cand_[draw(rng, score_, p_.b1)];
  auto& g = gains_[static_cast<std::size_t>(f)];
  if (presorted(node, f)) gains_of(node, f, g);
  score_.resize(g.size());
  for (std::size_t j = 0; j < g.size(); ++j) score_[j] = g[j].gain;
  const SplitGain& v = g[draw(rng, score_, p_.b2)];
  if (p_.dp) {
    // §1.10, Lemma 5: feature draw B1-DP and value draw B2-DP (utility Î in [0, 1], Δu <= 1). The
    // candidate sets and stopping rules depend on the data (the caveat recorded in privacy_status):
    // the charges are claims, not certified.
    ledger.charge(node.scope, "exponential", p_.b1, 1.0, false);
    ledger.charge(node.scope, "exponential", p_.b2, 1.0, false);
  }
  SplitChoice c;
  c.feature = f;
  if (node.data.schema().features[static_cast<std::size_t>(f)].kind == FeatureKind::kCategorical && !p_.all_continuous) {
    require(v.threshold < 64, "multinomial-rf: categorical feature '", node.data.schema().features[static_cast<std::size_t>(f)].name,
            "' has a code >= 64 (one-vs-rest splits need <= 64 categories; use feature_types=continuous)");
    c.kind = SplitKind::kSubset;  // x == v -> child 0
    c.mask = uint64_t{1} << static_cast<unsigned>(v.threshold);
  } else {
    c.kind = SplitKind::kThreshold;  // x < t -> child 0
    c.threshold = v.threshold;
  }
  partition_presorted(node, c);
  return c;
}

void MrfPolicy::leaf(const HonestView& node, LeafReason why, Rng& rng, PrivacyLedger& ledger,
                     PrivacyLedger::ScopeId scope, std::span<double> out) {
  std::vector<double> n = class_counts(node.labels, node.e, n_classes_);
  int label = 0;
  if (p_.dp) {
    // §1.8 / §1.10, Lemma 7: P(c) ∝ exp(B3 n_c / 2) over ALL C classes (an absent class has weight
    // e^0); a count has sensitivity 1, so this is the exponential mechanism, B3-DP. Leaves hold
    // disjoint estimation points: parallel composition in the leaf-label scope.
    label = static_cast<int>(exponential_mechanism(rng, n, p_.b3, 1.0));
    ledger.charge(scope, "exponential", p_.b3, 1.0, true);
  } else if (why == LeafReason::kEmptyChild && std::isfinite(p_.b3)) {
    // §1.7 step 4 (the reference code's only use of B3): the draw is over the classes present in
    // the node's estimation points, P(c) ∝ exp(B3 n_c / 2).
    std::vector<double> s(n.size());
    for (std::size_t c = 0; c < n.size(); ++c) s[c] = n[c] > 0 ? n[c] : -INFINITY;
    label = p_.b3 == 0 ? argmax_uniform_ties(std::vector<double>(n.size(), 0.0), rng)
                       : static_cast<int>(exponential_mechanism(rng, s, p_.b3, 1.0));
  } else {
    label = argmax_uniform_ties(n, rng);  // B3 = inf: majority, ties uniform (§1.8 harness rule)
  }
  out[static_cast<std::size_t>(label)] = 1.0;
}

std::vector<double> MrfPolicy::feature_probabilities(const HonestView& node, std::vector<int>& features) {
  feature_scores(node);
  features = cand_;
  if (score_.empty()) return {};
  const auto [lo, hi] = std::minmax_element(score_.begin(), score_.end());
  const double mn = *lo, range = *hi - *lo;
  for (double& x : score_) x = range > 0 ? (x - mn) / range : 0.0;
  if (p_.b1 == 0) return std::vector<double>(score_.size(), 1.0 / static_cast<double>(score_.size()));
  return exponential_mechanism_probabilities(score_, p_.b1, 1.0);
}

}  // namespace dpf
