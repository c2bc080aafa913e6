#include "algorithms/common/honest_gini.hpp"

#include <utility>

namespace dpf {

HonestGiniPolicy::HonestGiniPolicy(int n_features, int n_classes)
    : n_classes_(n_classes), search_(n_classes), order_(static_cast<std::size_t>(n_features)) {}

void HonestGiniPolicy::leaf(const HonestView& node, LeafReason, Rng&, PrivacyLedger&, PrivacyLedger::ScopeId,
                            std::span<double> out) {
  estimation_histogram(node, n_classes_, out);
}

std::size_t HonestGiniPolicy::candidates(const HonestView& node, int f) {
  std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
  const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
  if (feat.kind == FeatureKind::kCategorical) return search_.codes(col, node.labels, node.s, feat.n_categories(), gains_);
  index_.sort_rows(node.data, node.s, f, sorted_);
  return search_.numeric_sorted(col, node.labels, sorted_, gains_);
}

void HonestGiniPolicy::reset_order() {
  for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
}

int HonestGiniPolicy::shuffle_next(std::size_t i, Rng& rng) {
  std::swap(order_[i], order_[i + rng.below(order_.size() - i)]);
  return order_[i];
}

}  // namespace dpf
