#include "algorithms/common/occupancy.hpp"

#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

RowCountForDepth::RowCountForDepth(FitContext& ctx, std::size_t n, double epsilon, bool strict) {
  n_ = static_cast<double>(n);
  epsilon_left_ = epsilon;
  if (!strict || !std::isfinite(epsilon)) return;
  epsilon_n_ = kNEpsilonShare * epsilon;
  epsilon_left_ = epsilon - epsilon_n_;
  // Laplace mechanism on the count n: add/remove-one changes n by exactly 1 (sensitivity 1).
  Rng rng = ctx.rng.derive("noisy-n");
  n_ = std::max(1.0, laplace_mechanism(rng, n_, 1.0, epsilon_n_));
  ctx.ledger.charge(PrivacyLedger::kRoot, "laplace-n (depth rule)", epsilon_n_, 1.0, true);
}

}  // namespace dpf
