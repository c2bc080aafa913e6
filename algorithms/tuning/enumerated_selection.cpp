// Private selection by enumeration: every grid point of the base is fitted exactly once, and the best
// noisy validation score wins. The selection theorem is basic composition, so it takes any private
// base, in particular an (epsilon, delta) base with no Rényi-DP curve (Lumberjack's GSHM pruning,
// whose divergence is infinite at every order), which private-selection's two random-stopping
// accountings (Liu & Talwar 2019 for epsilon-DP candidates; Papernot & Steinke 2022 Thm 2 in Rényi DP)
// both refuse.
//
// The mechanism, on the training rows D, with k = the number of grid points:
//   1. split D by one data-independent coin per row into a fitting part F and a validation part V
//      (grid.hpp split_validation; the same split for every candidate);
//   2. for i = 0 .. k - 1 (grid order, data-independent): fit the base at grid point i on F at
//      (eps_c, delta_c) (its ledger checked against that pair) and score it on V with the secure Laplace
//      mechanism at eps_c (private_selection.cpp run_candidate);
//   3. release the candidate with the highest noisy score (the first on ties): its model, grid index
//      and noisy score.
// Why it is (epsilon, delta)-DP:
//   * within a candidate, F and V are disjoint and a record's part does not depend on the data, so the
//     record changes the fit or the score, not both: (max(eps_c, eps_c), delta_c) = (eps_c, delta_c)
//     (parallel composition, McSherry 2009 Thm 4; the score of a model fitted on F is post-processing
//     when the record is in F);
//   * across the k candidates, basic composition (Dwork & Roth 2014, Thm 3.16): (k eps_c, k delta_c);
//   * releasing only the best is post-processing (Dwork & Roth 2014, Prop. 2.1).
// So eps_c = epsilon / k and delta_c = delta / k (delta: the base's), each taken just below the quotient
// when needed so that the k charges never sum above the nominal values (share() below). An
// epsilon-DP base (no delta) gets delta = 0 and the pure form of the same argument.
//
// The ledger holds k charges "enumerated-candidate" of (eps_c, delta_c), one per candidate, under a
// sequential scope. The candidates' own ledgers are checked against (eps_c, delta_c) but not absorbed:
// the ledger composes a parallel scope kind by kind and then adds the kinds, so fit (approximate DP and
// zCDP for Lumberjack) | score (pure) would compose to about 2 eps_c, not the max the parallel
// argument gives. The checked fit ledgers justify the explicit pair.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>

#include "algorithms/common/shared_params.hpp"
#include "algorithms/tuning/entries.hpp"
#include "algorithms/tuning/grid.hpp"
#include "algorithms/tuning/selection.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

// The largest share v <= total / k that a candidate reads back exactly (parameters hold numbers as
// canonical_number text) and whose k-fold sum, added in the ledger's order, stays <= total: the
// composed charges then never exceed the nominal value (epsilon_for needs delta >= the charges' delta
// exactly). A function of (total, k) only.
double share(double total, std::size_t k) {
  double v = total / static_cast<double>(k);
  for (;;) {
    const double c = std::strtod(canonical_number(v).c_str(), nullptr);
    double sum = 0.0;
    for (std::size_t i = 0; i < k; ++i) sum += c;
    if (c <= v && sum <= total) return c;
    v = std::nextafter(std::min(v, c), 0.0);
  }
}

// The budget of every candidate, fixed before any data is read.
struct EnumerationPlan {
  bool approx = false;   // the base takes delta: (epsilon, delta) accounting; otherwise epsilon-DP
  double epsilon = 0.0;  // nominal
  double delta = 0.0;    // the base's delta (0 for an epsilon-DP base): the pipeline's
  double candidate_epsilon = 0.0, candidate_delta = 0.0;
  TuningSetup setup;  // the candidates at (candidate_epsilon, candidate_delta)
  std::string who;
};

EnumerationPlan plan_enumeration(const TuningParams& t) {
  const TuningSetup probe = tuning_setup(t, t.epsilon);
  EnumerationPlan plan;
  plan.who = "enumerated-selection over '" + probe.base->name + "'";
  plan.approx = takes_delta(*probe.base);
  plan.epsilon = t.epsilon;
  const std::size_t k = probe.candidates.size();
  plan.candidate_epsilon = share(t.epsilon, k);
  if (plan.approx) {
    plan.delta = base_delta(t, plan.who);
    require(plan.delta > 0.0 && plan.delta < 1.0, plan.who, ": the base's delta must lie in (0, 1), got ", plan.delta);
    plan.candidate_delta = share(plan.delta, k);
  }
  plan.setup = tuning_setup(t, plan.candidate_epsilon, plan.approx ? plan.candidate_delta : -1.0);
  return plan;
}

const char* label_of(const EnumerationPlan& plan) { return plan.approx ? kApproxDpLabel : kPureDpLabel; }

class EnumeratedSelectionLearner : public Learner {
 public:
  explicit EnumeratedSelectionLearner(TuningParams p) : p_(std::move(p)) {}

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const Prepared& prepared = prepare(data.schema());
    const EnumerationPlan& plan = prepared.plan;
    const TuningSetup& setup = plan.setup;
    const std::string& who = plan.who;
    require(setup.base->supports(data.task()), who, ": the base does not support ", to_string(data.task()));
    const double eps_c = plan.candidate_epsilon, delta_c = plan.candidate_delta;
    const CandidateCheck check = [&](const PrivacyLedger& ledger, std::size_t i) {
      const std::string name = who + " candidate " + setup.point_text[i];
      if (plan.approx) ledger.check_within(eps_c, delta_c, name);
      else ledger.check_within(eps_c, name);
    };
    std::vector<uint32_t> fit_rows, validation_rows;
    split_validation(rows, p_.validation_fraction, ctx.rng.derive("validation-split"), fit_rows, validation_rows);

    const std::size_t k = setup.candidates.size();
    std::unique_ptr<Model> best;
    double best_score = -std::numeric_limits<double>::infinity();
    std::size_t best_index = 0;
    bool certified = true;  // every candidate's fit ledger certified (a quirk inside the base is not)
    for (std::size_t i = 0; i < k; ++i) {
      const Rng run = ctx.rng.derive("enumerated-run").derive(static_cast<uint64_t>(i));
      // Fit on F at (eps_c, delta_c), checked; Laplace score on V at eps_c (Dwork & Roth 2014 Thm 3.6).
      CandidateRun c =
          run_candidate(*prepared.learners[i], i, data, fit_rows, validation_rows, run, ctx.threads, eps_c, check, who);
      certified = certified && c.ledger.certified();
      if (c.score > best_score) {
        best_score = c.score;
        best_index = i;
        best = std::move(c.model);
      }
    }

    // Basic composition over the k candidates (Dwork & Roth 2014 Thm 3.16), each (fit | score) one
    // (eps_c, delta_c) charge by parallel composition; the release of the best is post-processing.
    const auto selection = ctx.ledger.open_scope(
        PrivacyLedger::kRoot, Composition::kSequential,
        "private selection by enumeration (k = " + std::to_string(k) + "; basic composition, Dwork & Roth 2014 Thm 3.16)");
    for (std::size_t i = 0; i < k; ++i) {
      if (plan.approx) ctx.ledger.charge_approx(selection, "enumerated-candidate", eps_c, delta_c, 1.0, certified);
      else ctx.ledger.charge(selection, "enumerated-candidate", eps_c, 1.0, certified);
    }
    if (plan.approx) ctx.ledger.check_within(plan.epsilon, plan.delta, who);
    else ctx.ledger.check_within(plan.epsilon, who);
    return std::make_unique<TunedModel>(std::move(best), "enumerated-selection (basic composition)",
                                        setup.point_text[best_index], static_cast<int>(best_index),
                                        static_cast<int>(k), best_score, true);
  }

 private:
  // The plan and the candidates' learners: a function of the parameters and the schema only, made at
  // the first fit and reused by later fits of this learner (a base may calibrate its mechanism when made,
  // as Lumberjack's GSHM does, which dominates a fit on tiny data such as the audit's 10^5 fits). A
  // learner serves the schema it was made for and is not fitted concurrently (callers make one per
  // thread), so neither are the candidates' learners.
  struct Prepared {
    EnumerationPlan plan;
    std::vector<std::unique_ptr<Learner>> learners;
  };
  const Prepared& prepare(const Schema& schema) const {
    std::call_once(once_, [&] {
      auto made = std::make_unique<Prepared>();
      made->plan = plan_enumeration(p_);
      const TuningSetup& setup = made->plan.setup;
      require(setup.base->private_algorithm, made->plan.who, ": the base is not a private algorithm");
      for (const Params& c : setup.candidates) made->learners.push_back(setup.base->make(c, schema));
      prepared_ = std::move(made);
    });
    return *prepared_;
  }

  TuningParams p_;
  mutable std::once_flag once_;
  mutable std::unique_ptr<const Prepared> prepared_;
};

std::string status(const TuningParams& t, TaskKind task) {
  const EnumerationPlan plan = plan_enumeration(t);
  const TuningSetup& s = plan.setup;
  const std::string label = label_of(plan), not_dp = "published, not " + label + ": ";
  if (!s.base->private_algorithm) return not_dp + "base '" + s.base->name + "' is not private";
  if (!s.base->supports(task)) return not_dp + "base '" + s.base->name + "' does not support " + to_string(task);
  for (std::size_t i = 0; i < s.candidates.size(); ++i) {
    const std::string st = s.base->privacy_status(s.candidates[i], task);
    if (st != label)
      return not_dp + "candidate " + s.point_text[i] + " of base '" + s.base->name + "' is '" + st +
             "' (basic composition needs every candidate " + label + " at (epsilon/k, delta/k))";
  }
  return label;
}

// Sum over the candidates (basic composition) of max(the candidate's a-priori bound, the score's eps_c)
// (parallel composition): (epsilon, epsilon, delta) when every candidate is bounded by its budget.
PrivacyBound bound(const TuningParams& t, TaskKind task) {
  const EnumerationPlan plan = plan_enumeration(t);
  const TuningSetup& s = plan.setup;
  const double eps_c = plan.candidate_epsilon;
  PrivacyBound b{0.0, 0.0, 0.0};
  for (const Params& c : s.candidates) {
    PrivacyBound cb{eps_c, eps_c, plan.candidate_delta};
    if (s.base->private_algorithm && s.base->supports(task)) {
      const PrivacyBound x = s.base->privacy_bound(c, task);
      cb = {std::max(eps_c, x.epsilon), std::max(eps_c, x.epsilon_conservative), std::max(cb.delta, x.delta)};
    }
    b = {b.epsilon + cb.epsilon, b.epsilon_conservative + cb.epsilon_conservative, b.delta + cb.delta};
  }
  return b;
}

}  // namespace

AlgorithmInfo enumerated_selection_algorithm(AlgorithmLookup lookup) {
  AlgorithmInfo a = describe(
      "enumerated-selection", "benchmark", kBothTasks,
      "Hyper-parameter tuning that is itself (ε, δ)-DP by basic composition (Dwork & Roth 2014, Thm 3.16): every "
      "point of `grid` for `base` is fitted once, in grid order, at (ε/k, δ/k) (k grid points, δ the base's) on a "
      "fitting part of the training rows and scored with Laplace noise at ε/k on the disjoint validation part; the "
      "best noisy score wins. Takes any private base, including (ε, δ) bases with no Rényi-DP curve (Lumberjack), "
      "which private-selection refuses; ε-DP over an ε-DP base");
  using P = TuningParams;
  const ParamSet<P> set =
      tuning_param_set("total privacy budget ε of the whole tuned pipeline: each of the k grid points is fitted "
                       "and scored at ε/k (basic composition, Dwork & Roth 2014 Thm 3.16)")
          .add(&P::validation_fraction,
               param::positive("validation_fraction", "0.2", 0.9,
                               "share of the training rows (one data-independent coin per row) held out for the noisy "
                               "validation score; every candidate is fitted on the rest"));
  const TuningParams fixed{.name = a.name, .lookup = lookup};
  auto resolve = [set, fixed](const Params& p) { return set.from(p, fixed); };
  a.privacy_status = [resolve](const Params& p, TaskKind task) { return status(resolve(p), task); };
  a.privacy_bound = [resolve](const Params& p, TaskKind task) { return bound(resolve(p), task); };
  // The pipeline's delta is the base's (0 for an epsilon-DP base).
  a.nominal_delta = [resolve](const Params& p) { return plan_enumeration(resolve(p)).delta; };
  a = with_learner<EnumeratedSelectionLearner>(std::move(a), set, fixed);
  // k candidate fits on the fitting part, one per grid point.
  a.inner = [resolve](const Params& p) {
    const EnumerationPlan plan = plan_enumeration(resolve(p));
    return InnerFits{.algorithm = plan.setup.base->name, .candidates = plan.setup.candidates,
                     .fits = static_cast<double>(plan.setup.candidates.size()),
                     .row_share = 1.0 - resolve(p).validation_fraction, .full_fits = 0.0};
  };
  return a;
}

}  // namespace dpf
