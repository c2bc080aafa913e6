// S-BDT's privacy accounting (s-bdt.md §3.1, §4, §7): the budget split, the noise calibration of the
// leaf releases, the ledger charges of a fit, its a-priori bound and its privacy label, and the
// per-record charges of the individual Rényi filter (§3.6).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"
#include "algorithms/s_bdt/params.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rdp.hpp"

namespace dpf::sbdt {

struct Plan {
  bool newton = false;        // Newton mode (classification with newton: true)
  bool half_hessian = false;  // published Newton: the hessian noise is halved (§7 F1)
  double eps_init = 0.0;      // epsilon * init_ratio (§3.1 step 1)
  double eps_leaf = 0.0;      // epsilon * (1 - init_ratio): split scoring is never used (§3.1 step 2)
  SgmCalibration regular;     // sigma, order alpha*, epsilon and rho of the T regular rounds (§4.2)
  bool stream_extra = false;  // stream mode without the filter: the extra rounds are calibrated apart (§3.7)
  SgmCalibration extra;
  // Per-round curves of the mechanism as it runs: mu = c / sigma^2 with c = 1, or (1 - w) + 4 w when
  // the hessian noise is halved (§7 F1).
  std::shared_ptr<const RdpCurve> regular_curve, extra_curve;
};

// The plan of a configuration for a task (data-independent; validates p).
Plan plan_budget(const SbdtParams& p, TaskKind task);

// Charges what a fit with this plan releases (§10.3): the initial score (pure), then the leaf releases
// (RDP: one charge per round; with the filter one (alpha*, B) charge, B = T rho(alpha*)). In stream
// mode without the filter the initial population and the new records form two parallel scopes, each
// holding its leaf rounds converted to one (epsilon, delta) charge.
void charge(PrivacyLedger& ledger, const SbdtParams& p, const Plan& plan);

// The a-priori (epsilon, delta) of the configuration: the ledger of charge() converted at delta.
PrivacyBound privacy_bound(const SbdtParams& p, TaskKind task);
// "(epsilon, delta)-DP", or "published, not (epsilon, delta)-DP: ..." naming the §7 findings that apply.
std::string privacy_status(const SbdtParams& p, TaskKind task);

// Per-record RDP charges of the individual Rényi filter at the plan's order alpha* (§3.6): a record with
// clipped gradient |g| = s and hessian h (Newton; 1 in count mode) is charged the subsampled-Gaussian
// RDP with mu_i = ((1 - w) (s / G)^2 + w (h / H)^2) / sigma^2.
//  * default: h clipped to [0, H] (what the leaves add); mu_i rounded UP on a grid of 4096 steps of its
//    worst case 1 / sigma^2 (exact when Q = 1). The authors' exact mode charges the raw hessian, which
//    only over-charges, and caches by gradient alone; it was not used for published numbers;
//  * quirk filter_table (the published runs' approximate_privacy_filter): the authors' 1000 x 1000
//    table read with std::map::upper_bound in
//    lexicographic order (rdp_accountant.cpp L133-154): s is rounded up to the gradient grid and, unless
//    s lies exactly on it (a clipped record), the hessian is read as the smallest grid value H / 1000,
//    which charges the hessian term as ~0 (§7 F3). In count mode the lookup rounds s up (safe).
class FilterCharges {
 public:
  FilterCharges(const SbdtParams& p, const Plan& plan);
  double rho(double clipped_gradient, double hessian) const;
  double budget() const { return budget_; }  // B = T rho(alpha*)
  int alpha() const { return alpha_; }

 private:
  double table_rho(double u) const;  // u = mu_i sigma^2, rounded up on the grid
  bool approximate_, newton_;
  double w_, G_, H_, sigma_, q_, budget_, u_max_;
  int alpha_;
  std::vector<double> grid_;          // strict / exact: rho at u = k u_max / K
  std::vector<double> approx_grad_;   // approximate: rho at gradient grid k with hessian H/1000 (Newton) or 1
  double approx_clipped_ = 0.0;       // approximate Newton: a clipped record, hessian rounded up to H
};

}  // namespace dpf::sbdt
