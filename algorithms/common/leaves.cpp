#include "algorithms/common/leaves.hpp"

#include <algorithm>
#include <cmath>

#include "core/privacy/mechanisms.hpp"

namespace dpf {

void add_laplace_to_counts(std::span<double> counts, double epsilon, bool certified, const NodeView& node, Rng& rng,
                           PrivacyLedger& ledger) {
  for (double& v : counts) v = std::max(0.0, v + sample_laplace(rng, 1.0 / epsilon));  // Lap(1/epsilon), header
  if (node.scope >= 0) ledger.charge(node.scope, "laplace-class-counts", epsilon, 1.0, certified);
}

void normalise_or_uniform(std::span<double> counts) {
  double total = 0;
  for (double v : counts) total += v;
  if (total <= 0) {
    std::fill(counts.begin(), counts.end(), 1.0 / static_cast<double>(counts.size()));
    return;
  }
  for (double& v : counts) v /= total;
}

void ClassCountLeaf::release(const NodeView& node, Rng& rng, PrivacyLedger& ledger, std::span<double> out) {
  const auto c = static_cast<std::size_t>(n_classes_);
  // Integer counts from the node's contiguous targets (the same exact values as adding 1.0 per row).
  counts_.assign(c, 0);
  if (node.y.size() == node.rows.size()) {
    for (double v : node.y) ++counts_[static_cast<std::size_t>(v)];
  } else {
    for (uint32_t r : node.rows) ++counts_[static_cast<std::size_t>(node.data.label(r))];
  }
  for (std::size_t k = 0; k < c; ++k) out[k] = static_cast<double>(counts_[k]);
  const bool empty = node.rows.empty();
  const bool noisy = std::isfinite(epsilon_);

  if (empty && (!noisy || !strict_)) {
    if (noisy && node.scope >= 0)
      ledger.charge(node.scope, "laplace-class-counts", epsilon_, 1.0, /*certified=*/false);
    if (uniform_empty_ && c == 2) {
      double u = rng.uniform();  // dipreme.md §2.8: an empty leaf's class-1 fraction is Uniform(0, 1)
      out[0] = 1.0 - u;
      out[1] = u;
    } else {
      std::fill(out.begin(), out.end(), 1.0 / static_cast<double>(c));
    }
    return;
  }
  // dipreme.md §2.8: n~ = max(0, n + Lap(1/eps_leaf)) per class; L1 sensitivity 1 (add/remove).
  if (noisy) add_laplace_to_counts(out, epsilon_, /*certified=*/strict_, node, rng, ledger);
  normalise_or_uniform(out);
}

void MeanLeaf::release(const NodeView& node, Rng& rng, PrivacyLedger& ledger, std::span<double> out) {
  double sum = 0;  // in row order
  if (node.y.size() == node.rows.size()) {
    for (double v : node.y) sum += v;
  } else {
    for (uint32_t r : node.rows) sum += node.data.y()[r];
  }
  const auto n = static_cast<double>(node.rows.size());
  const bool noisy = std::isfinite(epsilon_);
  const double bound = std::max(std::fabs(lo_), std::fabs(hi_));

  if (noisy && strict_) {
    // dipreme.md §4 P2: noisy sum and noisy count under half the budget each, divided afterwards.
    const double half = epsilon_ / 2.0;
    // The secure Laplace mechanism rounds the real-valued sum to its noise grid first (privacy.md §1.1):
    // adding lattice noise to an unrounded sum would leave the sum's low bits readable (Mironov 2012).
    double s = laplace_mechanism(rng, sum, bound, half);
    double cnt = laplace_mechanism(rng, n, 1.0, half);
    out[0] = cnt < 1.0 ? 0.5 * (lo_ + hi_) : std::clamp(s / cnt, lo_, hi_);
    if (node.scope >= 0) {
      ledger.charge(node.scope, "laplace-sum", half, bound, true);
      ledger.charge(node.scope, "laplace-count", half, 1.0, true);
    }
    return;
  }
  if (node.rows.empty()) {
    out[0] = rng.uniform(lo_, hi_);  // dipreme.md §2.8: an empty leaf is Uniform(B_L, B_U)
  } else if (!noisy) {
    out[0] = sum / n;
  } else {
    // dipreme.md §2.8: Lap((B_U - B_L) / (N eps_leaf)) ([code], [v1]); "2B" is the [ICML] text's scale.
    const double scale = (scale_2b_ ? 2.0 * bound : hi_ - lo_) / (n * epsilon_);
    out[0] = std::clamp(sum / n + sample_laplace(rng, scale), lo_, hi_);
  }
  if (noisy && node.scope >= 0)
    ledger.charge(node.scope, "laplace-mean-local-scale", epsilon_, (hi_ - lo_) / std::max(n, 1.0), false);
}

}  // namespace dpf
