// DiPriMe's FINDSPLIT (dipreme.md §2.7) as a SplitPolicy.
#include "algorithms/dipreme/split.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/privacy/mechanisms.hpp"

namespace dpf {

DiPrimeSplit::DiPrimeSplit(const DiPrimeParams& p, const DiPrimeBudget& b, double y_lo, double y_hi)
    : p_(p), b_(b), y_lo_(y_lo), y_hi_(y_hi) {}

double DiPrimeSplit::score(const NodeView& node, const SplitChoice& c) const {
  // Weighted within-child variance ("MSE", ddof 0) of the targets, dipreme.md §2.7 step 3, with the
  // code's special cases. Classification uses the 0/1 labels (half the weighted Gini impurity).
  std::span<const double> col = node.data.column(static_cast<std::size_t>(c.feature));
  std::span<const double> y = node.data.y();
  MedianChildStats a, b, all;
  for (uint32_t r : node.rows) {
    bool first = c.kind == SplitKind::kThreshold ? col[r] < c.threshold
                                                 : ((c.mask >> static_cast<uint64_t>(col[r])) & 1u) != 0;
    (first ? a : b).add(y[r]);
    all.add(y[r]);
  }
  return finish_score(c, a, b, all);
}

double DiPrimeSplit::threshold_score(std::span<const double> x, std::span<const double> y, const SplitChoice& c,
                                     const MedianChildStats& all) const {
  // score() for a threshold on the node's gathered values and targets (same row order, so the same
  // sums bit for bit); branch-free: a row adds its y (and y²) to one child and exactly 0 to the other.
  MedianChildStats a, b;
  const double t = c.threshold;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double yi = y[i];
    const bool left = x[i] < t;
    const double ya = left ? yi : 0.0, yb = left ? 0.0 : yi;
    a.n += left ? 1.0 : 0.0;
    a.sum += ya;
    a.sumsq += ya * ya;
    b.n += left ? 0.0 : 1.0;
    b.sum += yb;
    b.sumsq += yb * yb;
  }
  return finish_score(c, a, b, all);
}

double DiPrimeSplit::finish_score(const SplitChoice& c, const MedianChildStats& a, const MedianChildStats& b,
                                  const MedianChildStats& all) const {
  const double bound = std::max(std::fabs(y_lo_), std::fabs(y_hi_));
  const double n = all.n;
  if (p_.strict) return a.sse() + b.sse();  // P4 repair: unnormalised SSE, Δ = (B_U - B_L)^2
  if (c.kind == SplitKind::kSubset && p_.cat_score_bug) {
    // [code] bug: both "children" are the rows in C, so the score is 2 n_C Var(y_C) / N.
    return a.n > 0 ? 2.0 * a.sse() / n : 40.0 * bound * bound;
  }
  if (n == 0) return 40.0 * bound * bound;
  if (a.n == 0 || b.n == 0) return all.sse() / n;
  return (a.sse() + b.sse()) / n;
}

std::optional<SplitChoice> DiPrimeSplit::choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) {
  const bool priv = std::isfinite(p_.epsilon);
  // Step 1: K' = min(K, |A_n|) attributes, a uniform subset (first K' of a random permutation).
  std::vector<int> cand(node.active.begin(), node.active.end());
  Rng perm = rng.derive("candidates");
  const std::size_t kk = std::min<std::size_t>(static_cast<std::size_t>(p_.k), cand.size());
  for (std::size_t i = 0; i < kk; ++i) std::swap(cand[i], cand[i + perm.below(cand.size() - i)]);
  cand.resize(kk);

  // Step 2: a private median split per candidate. As published the K' draws are charged as one ε_s
  // (the papers' "separate attributes" claim, §4 P1); strict gives each ε_s / K'.
  const double eps_each = p_.strict ? b_.eps_split / static_cast<double>(kk) : b_.eps_split;
  PrivacyLedger::ScopeId cand_scope = node.scope;
  if (priv && node.scope >= 0 && !p_.strict && kk > 1)
    cand_scope = ledger.open_scope(node.scope, Composition::kClaimedParallel, "candidate medians");
  NumericMedian numeric = p_.numeric;
  if (p_.strict && (numeric == NumericMedian::kFlipCode || numeric == NumericMedian::kUniformPositions))
    numeric = numeric == NumericMedian::kFlipCode ? NumericMedian::kFlipGrid : NumericMedian::kExponential;

  // The node's targets and each numeric candidate's values are gathered once into contiguous
  // scratch (kept across nodes): the median draws reorder a copy, the scores read the originals.
  const bool scored = !(kk == 1 && p_.select == AttributeSelect::kUniform);
  const std::size_t m = node.rows.size();
  MedianChildStats all;
  if (scored) {
    std::span<const double> y = node.data.y();
    ys_.resize(m);
    for (std::size_t i = 0; i < m; ++i) all.add(ys_[i] = y[node.rows[i]]);
    xs_.resize(kk * m);
  }
  std::vector<SplitChoice> splits(kk);
  std::vector<int> counts;
  for (std::size_t i = 0; i < kk; ++i) {
    const int f = cand[i];
    Rng draw = rng.derive(static_cast<uint64_t>(1000 + i));
    const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
    const FeatureDomain& dom = node.domains[static_cast<std::size_t>(f)];
    std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
    SplitChoice& s = splits[i];
    s.feature = f;
    // Under the claimed accounting each candidate is a child of the claimed-parallel scope.
    const PrivacyLedger::ScopeId charge_scope =
        cand_scope != node.scope ? ledger.open_scope(cand_scope, Composition::kSequential) : node.scope;
    if (feat.kind == FeatureKind::kNumeric) {
      work_.resize(m);
      for (std::size_t j = 0; j < m; ++j) work_[j] = col[node.rows[j]];
      if (scored) std::copy(work_.begin(), work_.end(), xs_.begin() + static_cast<std::ptrdiff_t>(i * m));
      s.kind = SplitKind::kThreshold;
      s.threshold = numeric_median_split_unsorted(draw, work_, dom.lo, dom.hi, eps_each, numeric);
      if (priv && node.scope >= 0)
        ledger.charge(charge_scope, numeric == NumericMedian::kFlipGrid ? "pf-median-grid"
                                  : numeric == NumericMedian::kFlipCode ? "pf-median-intervals"
                                  : numeric == NumericMedian::kUniformPositions ? "em-median-positions"
                                                                                : "em-median",
                      eps_each, 1.0,
                      numeric != NumericMedian::kFlipCode && numeric != NumericMedian::kUniformPositions);
    } else {
      counts.assign(feat.n_categories(), 0);
      for (uint32_t r : node.rows) ++counts[static_cast<std::size_t>(col[r])];
      s.kind = SplitKind::kSubset;
      s.mask = categorical_median_split(draw, counts, dom.categories, eps_each, p_.categorical);
      if (priv && node.scope >= 0) ledger.charge(charge_scope, "em-category-median", eps_each, 1.0, true);
    }
  }

  // Steps 3-4: score and select.
  if (!scored) return splits[0];
  std::vector<double> scores(kk);
  for (std::size_t i = 0; i < kk; ++i)
    scores[i] = -(splits[i].kind == SplitKind::kThreshold
                      ? threshold_score(std::span<const double>(xs_).subspan(i * m, m), ys_, splits[i], all)
                      : score(node, splits[i]));
  Rng pick = rng.derive("select");
  std::size_t chosen = 0;
  const double range = y_hi_ - y_lo_;
  const double bound = std::max(std::fabs(y_lo_), std::fabs(y_hi_));
  const double n = static_cast<double>(node.rows.size());
  if (!priv || p_.select == AttributeSelect::kArgmin) {
    chosen = static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
  } else if (p_.select == AttributeSelect::kUniform) {
    chosen = pick.below(kk);
  } else {
    // dipreme.md §2.7 step 4: EM / PFM with score -MSE and Δ = 4B²/N_n ([ICML] App. A); the private
    // N_n in Δ is not DP (§4 P4). strict: score -SSE with Δ = (B_U - B_L)². Empty node: uniform.
    const double sens = p_.strict ? range * range : 4.0 * bound * bound / std::max(n, 1.0);
    if (node.rows.empty() && !p_.strict) {
      chosen = pick.below(kk);
    } else if (p_.select == AttributeSelect::kExponential) {
      chosen = exponential_mechanism(pick, scores, b_.eps_select, sens);
    } else {
      chosen = permute_and_flip(pick, scores, b_.eps_select, sens);
    }
    if (node.scope >= 0)
      ledger.charge(node.scope, p_.select == AttributeSelect::kExponential ? "em-attribute" : "pf-attribute",
                    b_.eps_select, sens, p_.strict);
  }
  return splits[chosen];
}

}  // namespace dpf
