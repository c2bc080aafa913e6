#include "algorithms/s_bdt/accounting.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

#include "core/util/error.hpp"

namespace dpf::sbdt {

namespace {

// The calibration and the curves depend on the configuration only, and cost milliseconds (a full
// order scan of the subsampled Gaussian): every fit, a-priori bound and label of one configuration
// share them. A small process-wide memo, cleared when it grows past 512 entries.
using CalKey = std::tuple<double, double, int, double, double>;  // q, c, rounds, target epsilon, delta
using CurveKey = std::pair<double, double>;                         // q, mu
std::mutex memo_mutex;

SgmCalibration calibrate(double q, int rounds, double target, double delta) {
  static std::map<CalKey, SgmCalibration> memo;
  const CalKey key{q, 1.0, rounds, target, delta};
  {
    std::lock_guard<std::mutex> lock(memo_mutex);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  SgmCalibration cal = calibrate_subsampled_gaussian(q, 1.0, rounds, target, delta);
  std::lock_guard<std::mutex> lock(memo_mutex);
  if (memo.size() > 512) memo.clear();
  memo.emplace(key, cal);
  return cal;
}

std::shared_ptr<const RdpCurve> curve(double q, double mu) {
  static std::map<CurveKey, std::shared_ptr<const RdpCurve>> memo;
  {
    std::lock_guard<std::mutex> lock(memo_mutex);
    if (auto it = memo.find({q, mu}); it != memo.end()) return it->second;
  }
  auto c = std::make_shared<const RdpCurve>(RdpCurve::subsampled_gaussian(q, mu));
  std::lock_guard<std::mutex> lock(memo_mutex);
  if (memo.size() > 512) memo.clear();
  memo.emplace(CurveKey{q, mu}, c);
  return c;
}

}  // namespace

Plan plan_budget(const SbdtParams& p, TaskKind task) {
  validate(p);
  Plan plan;
  plan.newton = task == TaskKind::kClassification && p.newton;
  plan.half_hessian = plan.newton && p.half_hessian_noise;
  plan.eps_init = p.epsilon * p.init_ratio;
  plan.eps_leaf = p.epsilon - plan.eps_init;
  // §4.1: per round mu = (1 - w) / sigma^2 (numerator: sensitivity G, noise sigma G / sqrt(2 (1 - w)))
  // + w / sigma^2 (denominator: sensitivity 1 or H, noise sigma (1 or H) / sqrt(2 w)) = 1 / sigma^2;
  // a record reaches one leaf and the structure is data-independent, so one round has the
  // sensitivity of one leaf. T rounds at rate Q, converted at delta (§4.2).
  plan.regular = calibrate(p.subsample, p.n_trees, plan.eps_leaf, p.delta);
  // §7 F1: with the hessian noise halved the denominator coordinate costs 4 w / sigma^2.
  const double c = plan.half_hessian ? (1 - p.denominator_weight) + 4 * p.denominator_weight : 1.0;
  auto curve_of = [&](const SgmCalibration& cal) {
    return c == 1.0 ? std::make_shared<const RdpCurve>(cal.per_round) : curve(p.subsample, c / (cal.sigma * cal.sigma));
  };
  plan.regular_curve = curve_of(plan.regular);
  if (p.stream && !p.filter && p.extra_trees > 0) {
    // §3.7: without the filter the extra rounds train on the new records only, re-calibrated for
    // extra_trees rounds; parallel composition with the initial population (disjoint by label).
    plan.stream_extra = true;
    plan.extra = calibrate(p.subsample, p.extra_trees, plan.eps_leaf, p.delta);
    plan.extra_curve = curve_of(plan.extra);
  }
  return plan;
}

namespace {

void charge_init(PrivacyLedger& ledger, PrivacyLedger::ScopeId scope, const SbdtParams& p, const Plan& plan) {
  if (plan.eps_init <= 0) return;
  if (p.strict) {
    // Noisy sum (add/remove sensitivity T0) and noisy count (1), epsilon_init / 2 each; n is never read.
    ledger.charge(scope, "init-sum-laplace", plan.eps_init / 2, p.init_clip);
    ledger.charge(scope, "init-count-laplace", plan.eps_init / 2, 1.0);
  } else {
    // §3.3: a noisy mean whose Laplace scale divides by the private n is no Laplace mechanism under
    // add/remove (uncertified). With init_half_scale (§7 F2) the scale is also half the mean's
    // sensitivity, so the claim is 2 epsilon_init.
    ledger.charge(scope, "init-score-laplace", (p.init_half_scale ? 2 : 1) * plan.eps_init, p.init_clip, false);
  }
}

void charge_rounds(PrivacyLedger& ledger, PrivacyLedger::ScopeId scope, int rounds,
                   const std::shared_ptr<const RdpCurve>& curve) {
  const PrivacyLedger::ScopeId s = ledger.open_scope(scope, Composition::kSequential, "rounds");
  for (int t = 0; t < rounds; ++t) ledger.charge_rdp(s, "gaussian-leaves", curve, 1.0);
}

}  // namespace

void charge(PrivacyLedger& ledger, const SbdtParams& p, const Plan& plan) {
  if (plan.stream_extra) {
    // Two disjoint populations (split by the record's own label), each (eps_part, delta)-DP: parallel
    // composition gives the max. Composing their RDP curves order by order and converting once would
    // be valid but looser (the two optimal orders differ), so each population's leaf rounds are
    // converted on their own and charged as one (epsilon, delta) charge.
    auto converted = [&](int rounds, const std::shared_ptr<const RdpCurve>& curve) {
      return rdp_best_epsilon([&](int a) { return rounds * curve->at(a); }, p.delta).epsilon;
    };
    const PrivacyLedger::ScopeId fit = ledger.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "s-bdt stream");
    const PrivacyLedger::ScopeId initial = ledger.open_scope(fit, Composition::kSequential, "initial population");
    charge_init(ledger, initial, p, plan);
    ledger.charge_approx(initial, "gaussian-leaves-converted", converted(p.n_trees, plan.regular_curve), p.delta, 1.0);
    const PrivacyLedger::ScopeId novel = ledger.open_scope(fit, Composition::kSequential, "new records");
    ledger.charge_approx(novel, "gaussian-leaves-converted", converted(p.extra_trees, plan.extra_curve), p.delta, 1.0);
    return;
  }
  const PrivacyLedger::ScopeId fit = ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "s-bdt");
  charge_init(ledger, fit, p, plan);
  if (!p.filter) {
    charge_rounds(ledger, fit, p.n_trees, plan.regular_curve);
    return;
  }
  // §3.6: every record's accumulated RDP at alpha* stays <= B = T rho(alpha*) (Feldman & Zrnic 2021):
  // the whole leaf release is (alpha*, B)-RDP. Under F1 (halved hessian noise) or F3 (the authors'
  // table read of the hessian) the per-record charges are under-stated, so B is a claim, not a guarantee.
  const bool under = plan.half_hessian || (p.filter_table && plan.newton);
  ledger.charge_rdp(fit, "filtered-gaussian-leaves",
                    std::make_shared<const RdpCurve>(RdpCurve::single_order(plan.regular.alpha, plan.regular.rho)), 1.0,
                    !under);
}

PrivacyBound privacy_bound(const SbdtParams& p, TaskKind task) {
  const Plan plan = plan_budget(p, task);
  PrivacyLedger ledger;
  charge(ledger, p, plan);
  const double e = ledger.epsilon_for(p.delta);
  return PrivacyBound{e, e, p.delta};
}

std::string privacy_status(const SbdtParams& p, TaskKind task) {
  // Quirks that change nothing for this task (a Newton quirk in count mode) are left to the registry's
  // label rule, which withholds the DP label for any non-neutral quirk.
  const bool newton = task == TaskKind::kClassification && p.newton;
  std::string why;
  auto add = [&](const char* s) { why += (why.empty() ? "" : "; ") + std::string(s); };
  if (newton && p.half_hessian_noise)
    add("half_hessian_noise: Newton mode adds half the hessian-sum noise that the accountant assumes (s-bdt.md §7 "
        "F1); the ledger charges the noise as run, epsilon_spent > epsilon");
  if (p.init_ratio > 0 && p.init_half_scale)
    add("init_half_scale: the initial score's Laplace scale is half its sensitivity (§7 F2); charged 2 epsilon_init");
  if (p.init_ratio > 0 && !p.strict)
    add("the initial score's Laplace scale divides by the private training-set size n (§3.3); strict: true releases "
        "a noisy sum over a noisy count");
  if (p.filter && p.filter_table && newton)
    add("filter_table: the authors' approximate Rényi-filter table reads the hessian term as ~0 for unclipped "
        "records (§7 F3)");
  return why.empty() ? std::string(kApproxDpLabel) : "published, not (epsilon, delta)-DP: " + why;
}

// ---- Filter charges ----------------------------------------------------------------------------

namespace {
constexpr int kGridSteps = 4096;      // strict / exact table
constexpr int kAuthorsSteps = 1000;   // rdp_accountant.cpp L135
}  // namespace

FilterCharges::FilterCharges(const SbdtParams& p, const Plan& plan)
    : approximate_(p.filter_table),
      newton_(plan.newton),
      w_(p.denominator_weight),
      G_(p.gradient_clip),
      H_(p.hessian_clip),
      sigma_(plan.regular.sigma),
      q_(p.subsample),
      budget_(plan.regular.rho),
      u_max_(1.0),
      alpha_(plan.regular.alpha) {
  const double s2 = sigma_ * sigma_;
  auto rho_at = [&](double u) { return sgm_rdp(q_, u / s2, alpha_); };
  if (approximate_) {
    // Gradient grid (k + 1) G / 1000; hessian read as H / 1000 (Newton) or 1 + 1e-7 (count mode, whose
    // denominator sensitivity is 1: hess_sens_pow = 1 there).
    const double hmin = newton_ ? 1.0 / kAuthorsSteps : 1.0 + 1e-7;
    approx_grad_.resize(kAuthorsSteps);
    for (int k = 0; k < kAuthorsSteps; ++k) {
      const double gk = (k + 1.0) / kAuthorsSteps;
      approx_grad_[static_cast<std::size_t>(k)] = rho_at((1 - w_) * gk * gk + w_ * hmin * hmin);
    }
    approx_clipped_ = rho_at(1.0);
    return;
  }
  if (q_ == 1.0) return;  // rho is alpha u / sigma^2 exactly
  grid_.resize(kGridSteps + 1);
  for (int k = 0; k <= kGridSteps; ++k) grid_[static_cast<std::size_t>(k)] = rho_at(u_max_ * k / kGridSteps);
}

double FilterCharges::table_rho(double u) const {
  if (q_ == 1.0) return alpha_ * u / (sigma_ * sigma_);
  const double k = std::ceil(std::min(u, u_max_) / u_max_ * kGridSteps);
  return grid_[static_cast<std::size_t>(std::clamp(k, 0.0, double(kGridSteps)))];
}

double FilterCharges::rho(double clipped_gradient, double hessian) const {
  const double s = std::min(std::abs(clipped_gradient), G_) / G_;
  if (approximate_) {
    // std::map::upper_bound on (s, h): the first gradient grid point >= s; exactly on it only when
    // clipped (s = 1), where the hessian is then rounded up (to H when it exceeds the grid).
    const auto k = static_cast<std::size_t>(std::clamp(std::ceil(s * kAuthorsSteps) - 1.0, 0.0, kAuthorsSteps - 1.0));
    if (newton_ && s >= 1.0) return approx_clipped_;
    return approx_grad_[k];
  }
  const double h = newton_ ? std::clamp(hessian, 0.0, H_) / H_ : 1.0;
  return table_rho((1 - w_) * s * s + w_ * h * h);
}

}  // namespace dpf::sbdt
