// The Rényi-DP accounting of private selection over (epsilon, delta) bases (selection.hpp).
//
// Papernot & Steinke, "Hyperparameter tuning with Renyi differential privacy" (ICLR 2022, arXiv
// 2110.03620v2), Thm 2: if the candidate mechanism Q is (lambda, eps)-RDP and (lambda_hat, eps_hat)-RDP
// and the number of runs K is drawn from the truncated negative binomial D_{eta, gamma} (their
// Definition 1) independently of the data, then running Q K times and releasing the best run is
// (lambda, eps')-RDP with eps' = eps + (1 + eta)(1 - 1/lambda_hat) eps_hat + (1 + eta) log(1/gamma) /
// lambda_hat + log(E[K]) / (lambda - 1). The loop of private_selection.cpp stops after every run with
// probability gamma: K ~ Geometric(gamma), the case eta = 1, E[K] = 1/gamma. The theorem holds for any
// totally ordered output ranked by the released noisy score (ties: the first run), as here.
//
// Q is an RDP mechanism at every order where the candidate's curve is finite: the grid point is drawn
// uniformly and released, a data-independent first step, so Q's divergence at each order is at most the
// largest over the grid points of (fit | score); fit and score read disjoint parts of a data-independent
// split, so a record changes one of them only: the max of the two curves (the score is computed from
// the fitted model, a post-processing when the record is in the fitting part).
#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "algorithms/tuning/selection.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

constexpr std::size_t kOrders = kRdpMaxOrder - kRdpMinOrder + 1;
constexpr double kScaleTolerance = 1e-5;  // relative width of the final bisection bracket
constexpr double kSmallestScale = 1e-6;

// One evaluation of the plan at candidate budget eps_c (the bisection's step).
RdpSelectionPlan evaluate(const TuningParams& t, TaskKind task, double eps_c, double delta, const std::string& who) {
  RdpSelectionPlan r;
  r.epsilon = t.epsilon;
  r.delta = delta;
  r.candidate_epsilon = eps_c;
  r.scale = eps_c / t.epsilon;
  r.setup = tuning_setup(t, eps_c);
  const AlgorithmInfo& base = *r.setup.base;
  std::vector<double> q(kOrders, 0.0);
  for (std::size_t i = 0; i < r.setup.candidates.size(); ++i) {
    const PrivacyLedger prior = base.prior_ledger(r.setup.candidates[i], task);
    require(!prior.has_approx(), who, ": candidate ", r.setup.point_text[i], " of base '", base.name,
            "' charges (epsilon, delta)-DP mechanisms with no Renyi-DP bound at any order (", prior.summary(),
            "); Papernot & Steinke's Thm 2 needs the candidates' Renyi-DP at two orders, so private selection "
            "refuses this base (its oracle-tuning row is not DP either); use enumerated-selection, which fits "
            "every grid point once at (epsilon/k, delta/k) and needs only basic composition");
    // Q = fit part | validation score (parallel); the score is the Laplace mechanism at eps_c (pure).
    PrivacyLedger cand(Composition::kParallel);
    cand.absorb(PrivacyLedger::kRoot, prior);
    cand.charge(cand.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "validation score"),
                "laplace-validation-score", eps_c, 1.0);
    std::vector<double> fit(kOrders);
    for (std::size_t k = 0; k < kOrders; ++k) {
      const int alpha = static_cast<int>(k) + kRdpMinOrder;
      fit[k] = prior.rdp_at(alpha);
      q[k] = std::max(q[k], cand.rdp_at(alpha));
    }
    r.prior_rdp.push_back(std::move(fit));
  }
  r.candidate = std::make_shared<const RdpCurve>(std::move(q));
  r.overhead = random_stopping_overhead(*r.candidate, t.stop_probability);
  PrivacyLedger ledger;
  charge_selection(ledger, r);
  r.epsilon_spent = ledger.epsilon_for(delta);
  return r;
}

std::shared_ptr<const RdpSelectionPlan> compute_plan(const TuningParams& t, TaskKind task) {
  const TuningSetup probe = tuning_setup(t, t.epsilon);
  const std::string who = "private-selection over '" + probe.base->name + "'";
  require(static_cast<bool>(probe.base->prior_ledger), who, ": the base takes delta but declares no a-priori ledger "
          "(AlgorithmInfo::prior_ledger), so its candidates' Renyi-DP curve is unknown before fitting");
  const double delta = base_delta(t, who);
  require(delta > 0.0 && delta < 1.0, who, ": the base's delta must lie in (0, 1), got ", delta);
  const double eps = t.epsilon;
  // The largest feasible scale: halve from 1 until feasible, then bisect geometrically. Every step is a
  // function of the parameters alone, so the result is deterministic and data-independent.
  RdpSelectionPlan best = evaluate(t, task, eps, delta, who);
  if (best.epsilon_spent <= eps) return std::make_shared<const RdpSelectionPlan>(std::move(best));
  double hi = 1.0, lo = 0.5;
  for (;; lo /= 2) {
    require(lo >= kSmallestScale, who, ": no candidate budget down to ", kSmallestScale, " epsilon keeps the tuned "
            "pipeline within (", eps, ", ", delta, "): the selection's overhead alone (stop_probability ",
            t.stop_probability, ") exceeds it");
    RdpSelectionPlan r = evaluate(t, task, lo * eps, delta, who);
    if (r.epsilon_spent <= eps) {
      best = std::move(r);
      break;
    }
    hi = lo;
  }
  while (hi > lo * (1 + kScaleTolerance)) {
    const double mid = std::sqrt(lo * hi);
    RdpSelectionPlan r = evaluate(t, task, mid * eps, delta, who);
    if (r.epsilon_spent <= eps) {
      lo = mid;
      best = std::move(r);
    } else {
      hi = mid;
    }
  }
  return std::make_shared<const RdpSelectionPlan>(std::move(best));
}

}  // namespace

double base_delta(const TuningParams& t, const std::string& who) {
  const TuningSetup s = tuning_setup(t, t.epsilon);
  double delta = -1.0;
  for (std::size_t i = 0; i < s.candidates.size(); ++i) {
    const double d = s.candidates[i].get_double("delta");
    require(delta < 0.0 || d == delta, who, ": the grid may not vary delta (grid point ", s.point_text[i],
            "): the tuned pipeline's delta is the base's, one value");
    delta = d;
  }
  return delta;
}

bool takes_delta(const AlgorithmInfo& base) {
  return std::any_of(base.params.begin(), base.params.end(), [](const ParamSpec& p) { return p.name == "delta"; });
}

std::shared_ptr<const RdpSelectionPlan> plan_rdp_selection(const TuningParams& t, TaskKind task) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const RdpSelectionPlan>> memo;
  const std::string key = t.name + "|" + t.base + "|" + t.base_params + "|" + t.grid + "|" + (t.strict ? "1" : "0") +
                          "|" + canonical_number(t.epsilon) + "|" + canonical_number(t.stop_probability) + "|" +
                          to_string(task);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  std::shared_ptr<const RdpSelectionPlan> plan = compute_plan(t, task);
  std::lock_guard<std::mutex> lock(mutex);
  if (memo.size() > 256) memo.clear();
  memo.emplace(key, plan);
  return plan;
}

void charge_selection(PrivacyLedger& ledger, const RdpSelectionPlan& plan) {
  const auto selection = ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential,
                                           "private selection (Papernot & Steinke 2022 Thm 2, eta = 1)");
  // Thm 2's eps at lambda: the candidate (any grid point; fit | validation score).
  ledger.charge_rdp(selection, "candidate-fit-or-score", plan.candidate, 1.0);
  // Thm 2's overhead at lambda: 2 (1 - 1/lambda_hat) eps_hat + 2 log(1/gamma) / lambda_hat + log(1/gamma) / (lambda - 1).
  ledger.charge_rdp(selection, "random-stopping-selection", plan.overhead.curve, 1.0);
}

}  // namespace dpf
