#include "algorithms/mrf/mrf_strict.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

MrfStrictPolicy::MrfStrictPolicy(const MrfStrictParams& p, int n_features, int n_classes)
    : p_(p), n_features_(n_features), n_classes_(n_classes), search_(n_classes) {
  require(p.n_thresholds >= 1, "multinomial-rf-dp strict: n_thresholds must be >= 1");
}

void MrfStrictPolicy::pack_cells(const HonestView& node) {
  cells_.emplace(node.data, node.labels, static_cast<std::size_t>(n_classes_));
  packed_for_ = &node.data;
  packed_labels_ = node.labels.data();
  packed_rows_ = node.data.n_rows();
}

MrfStrictPolicy::Candidates MrfStrictPolicy::candidates(const HonestView& node) {
  require(node.domains.size() == static_cast<std::size_t>(n_features_),
          "multinomial-rf-dp strict: the tree loop must track the node domains");
  if (packed_for_ != &node.data || packed_labels_ != node.labels.data() || packed_rows_ != node.data.n_rows())
    pack_cells(node);
  Candidates c;
  const double n = static_cast<double>(node.s.size());
  for (int f = 0; f < n_features_; ++f) {
    const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
    const FeatureDomain& dom = node.domains[static_cast<std::size_t>(f)];
    std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
    std::vector<SplitChoice> splits;
    std::vector<double> u;
    if (feat.kind == FeatureKind::kCategorical) {
      // Repair 1: every public category still possible on the path, x == v vs x != v.
      require(!dom.all_categories, "multinomial-rf-dp strict: categorical feature '", feat.name,
              "' has more than 64 categories (one-vs-rest masks hold 64)");
      if (std::popcount(dom.categories) < 2) continue;
      if (const uint8_t* cell = cells_->cells(static_cast<std::size_t>(f)))
        search_.one_vs_rest_cells(cell, node.s, feat.n_categories(), gains_);
      else
        search_.one_vs_rest(col, node.labels, node.s, gains_, feat.n_categories());
      for (const SplitGain& g : gains_) {
        const auto v = static_cast<unsigned>(g.threshold);
        if (!((dom.categories >> v) & 1u)) continue;
        SplitChoice s;
        s.kind = SplitKind::kSubset;
        s.feature = f;
        s.mask = uint64_t{1} << v;
        splits.push_back(s);
        u.push_back(g.proxy - n);  // repair 3: -(n_l T(S_l) + n_r T(S_r))
      }
    } else {
      // Repair 1: T thresholds strictly inside the node's public interval.
      if (!(dom.hi > dom.lo)) continue;
      thresholds_.clear();
      const auto T = static_cast<double>(p_.n_thresholds);
      for (int k = 1; k <= p_.n_thresholds; ++k) {
        const double t = dom.lo + (dom.hi - dom.lo) * static_cast<double>(k) / (T + 1.0);
        if (t > dom.lo && t < dom.hi && (thresholds_.empty() || t > thresholds_.back())) thresholds_.push_back(t);
      }
      if (thresholds_.empty()) continue;
      search_.at_thresholds(col, node.labels, node.s, thresholds_, gains_);
      for (const SplitGain& g : gains_) {
        SplitChoice s;
        s.kind = SplitKind::kThreshold;
        s.feature = f;
        s.threshold = g.threshold;
        splits.push_back(s);
        u.push_back(g.proxy - n);
      }
    }
    if (splits.empty()) continue;
    c.features.push_back(f);
    c.feature_utility.push_back(*std::max_element(u.begin(), u.end()));
    c.splits.push_back(std::move(splits));
    c.utility.push_back(std::move(u));
  }
  return c;
}

std::optional<SplitChoice> MrfStrictPolicy::choose(const HonestView& node, Rng& rng, PrivacyLedger& ledger) {
  Candidates c = candidates(node);
  if (c.features.empty()) return std::nullopt;  // the schema and the path leave no candidate (public)
  // §1.5 step 3 (feature multinomial), repaired: exponential mechanism on max_t u(f, t), Δu = 2,
  // epsilon B1 = ε/(2Md) (§1.10, Lemma 5 with the sensitivity of repair 3).
  const std::size_t i = exponential_mechanism(rng, c.feature_utility, p_.b1, kMrfStrictUtilitySensitivity);
  ledger.charge(node.scope, "exponential", p_.b1, kMrfStrictUtilitySensitivity, true);
  // §1.6 (value multinomial), repaired: exponential mechanism on u(f*, t), Δu = 2, epsilon B2.
  const std::size_t j = exponential_mechanism(rng, c.utility[i], p_.b2, kMrfStrictUtilitySensitivity);
  ledger.charge(node.scope, "exponential", p_.b2, kMrfStrictUtilitySensitivity, true);
  return c.splits[i][j];
}

void MrfStrictPolicy::leaf(const HonestView& node, LeafReason, Rng& rng, PrivacyLedger& ledger,
                           PrivacyLedger::ScopeId scope, std::span<double> out) {
  // §1.8 / Lemma 7, repair 5: P(c) ∝ exp(B3 n_c / 2) over all C classes (count sensitivity 1 under
  // add/remove); leaves read disjoint estimation points (parallel scope of the tree loop).
  const std::vector<double> n = class_counts(node.labels, node.e, n_classes_);
  const std::size_t label = exponential_mechanism(rng, n, p_.b3, 1.0);
  ledger.charge(scope, "exponential", p_.b3, 1.0, true);
  out[label] = 1.0;
}

}  // namespace dpf
