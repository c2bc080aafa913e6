// PrivacyLedger::breakdown (ledger.hpp): each mechanism kind's share of the composed guarantee.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/privacy/ledger.hpp"
#include "core/privacy/rdp.hpp"

namespace dpf {

// The per-kind shares of scope s: its own amounts, plus the sum of its children's shares in a
// sequential scope, or the shares of the child whose total is largest in a parallel one (claimed
// accounting: claimed-parallel scopes are parallel). The totals compose exactly as walk() does.
template <class Pick>
std::vector<double> PrivacyLedger::shares(ScopeId s, const Pick& pick) const {
  const Scope& sc = scopes_[static_cast<std::size_t>(s)];
  std::vector<double> out(tallies_.size(), 0.0);
  const bool by_max = sc.kind != Composition::kSequential;
  double best = -1.0;
  for (ScopeId c : sc.children) {
    std::vector<double> child = shares(c, pick);
    if (!by_max) {
      for (std::size_t k = 0; k < out.size(); ++k) out[k] += child[k];
      continue;
    }
    const double total = std::accumulate(child.begin(), child.end(), 0.0);
    if (total > best) {
      best = total;
      out = std::move(child);
    }
  }
  for (const Scope::KindAmount& a : sc.by_kind) out[a.kind] += pick(a);
  return out;
}

std::vector<PrivacyLedger::Share> PrivacyLedger::breakdown(double delta) const {
  const std::size_t n = tallies_.size();
  std::vector<Share> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    out[k].mechanism = tallies_[k].mechanism;
    out[k].calls = tallies_[k].calls;
    out[k].certified = tallies_[k].certified;
  }
  const std::vector<double> rho = shares(kRoot, [](const Scope::KindAmount& a) { return a.rho; });
  const std::vector<double> mu2 = shares(kRoot, [](const Scope::KindAmount& a) { return a.mu2; });
  for (std::size_t k = 0; k < n; ++k) {
    out[k].rho = rho[k];
    out[k].mu = std::sqrt(mu2[k]);
  }
  if (n_zcdp_ == 0 && n_approx_ == 0 && n_gdp_ == 0 && n_rdp_ == 0) {
    const std::vector<double> eps = shares(kRoot, [](const Scope::KindAmount& a) { return a.epsilon; });
    for (std::size_t k = 0; k < n; ++k) out[k].epsilon = eps[k];
    return out;
  }
  // Approximate-DP charges: their own composed (epsilon, delta), added by basic composition.
  if (n_approx_ > 0) {
    const std::vector<double> ae = shares(kRoot, [](const Scope::KindAmount& a) { return a.approx_eps; });
    const std::vector<double> ad = shares(kRoot, [](const Scope::KindAmount& a) { return a.approx_delta; });
    for (std::size_t k = 0; k < n; ++k) {
      out[k].epsilon += ae[k];
      out[k].delta += ad[k];
    }
  }
  // Every other charge, converted together at the remaining delta. The weights follow the accounting
  // epsilon_for uses: Renyi-DP at its best order, pure epsilon alone, GDP alone (mu^2 composes
  // additively), or everything as zCDP (a GDP charge as mu^2 / 2).
  const double rest = epsilon_for(delta) - compose_approx(kRoot, false, false);
  std::vector<double> weight;
  if (n_rdp_ > 0) {
    // Renyi-DP charges: each kind's composed RDP at the order where the whole ledger converts best
    // (the integer scan epsilon_for uses), read as the ledger's compose_rdp reads a scope's charges.
    const int alpha = rdp_best_epsilon([&](int a) { return compose_rdp(kRoot, false, static_cast<double>(a)); },
                                       delta - compose_approx(kRoot, false, true)).alpha;
    const double al = static_cast<double>(alpha);
    weight = shares(kRoot, [this, al](const Scope::KindAmount& a) {
      double r = std::min(a.epsilon, al * a.sq) + al * (a.rho + 0.5 * a.mu2);
      for (const auto& [c, m] : a.rdp) r += m * curves_[static_cast<std::size_t>(c)]->at_real(al);
      return r;
    });
  } else if (n_zcdp_ == 0 && n_gdp_ == 0) {
    weight = shares(kRoot, [](const Scope::KindAmount& a) { return a.epsilon; });
  } else if (n_zcdp_ == 0 && n_charges_ == n_gdp_ + n_approx_) {
    weight = mu2;
  } else {
    weight = shares(kRoot, [](const Scope::KindAmount& a) { return a.rho + a.sq + 0.5 * a.mu2; });
  }
  const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  if (total > 0.0)
    for (std::size_t k = 0; k < n; ++k) out[k].epsilon += rest * weight[k] / total;
  return out;
}

}  // namespace dpf
