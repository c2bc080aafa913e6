// Private selection from private candidates (Liu & Talwar, "Private selection from private
// candidates", STOC 2019, §3.2, Algorithm 2 "random stopping" and Theorem 3.4; also the eta = 1 case of
// Papernot & Steinke, "Hyperparameter tuning with Renyi differential privacy", ICLR 2022, Thm 2, whose
// pure-DP limit is (2 + eta) epsilon).
//
// The candidate mechanism Q, run on the training rows D with candidate budget eps_c = epsilon / 3:
//   1. draw a grid point uniformly at random (data-independent);
//   2. split D by one data-independent coin per row into a fitting part F and a validation part V
//      (grid.hpp split_validation; the same split for every run);
//   3. fit the base learner on F at epsilon eps_c (its own ledger, checked against eps_c);
//   4. release the noisy score s = score(V) + Laplace(Delta / eps_c) (the secure Laplace mechanism,
//      mechanisms.hpp), Delta = score_sensitivity (grid.hpp): 1 for the correct count, (hi - lo)^2 for
//      the clipped squared error;
//   and output (model, grid point, s).
// F and V are disjoint and a record's part does not depend on the data, so Q is max(eps_c, eps_c) =
// eps_c-DP by parallel composition (McSherry 2009, Thm 4).
//
// The selection: repeat Q; after every run stop with probability gamma (so the number of runs T is
// Geometric(gamma) on {1, 2, ...}, drawn independently of the data); output the run with the highest
// noisy score (the first on ties). Liu & Talwar Thm 3.4: if Q is eps_c-DP, this is 3 eps_c-DP, for
// every gamma in (0, 1]. The runs and T are not released; only the best run's (model, point, score).
// Hence eps_c = epsilon / 3 and the whole pipeline is epsilon-DP at the nominal epsilon.
//
// The ledger records the split: a scope for the selected candidate (parallel: its fit's ledger | the
// score's Laplace charge of eps_c), composed to eps_c, and the selection's own charge of 2 eps_c, the
// random-stopping overhead of Thm 3.4. Every candidate's ledger is checked against eps_c as it is fitted.
//
// (epsilon, delta) bases (they take `delta`: DP-EBM, S-BDT, Lumberjack) are not epsilon-DP, so Thm 3.4
// does not apply; the same loop is then accounted in Rényi DP by Papernot & Steinke 2022 Thm 2 with
// eta = 1 (the Geometric(gamma) runs above), rdp_selection.cpp: the candidate budget is the largest
// fraction of epsilon for which the whole pipeline converts to at most (epsilon, delta), delta being
// the base's; every candidate's fit ledger is checked against the base's a-priori ledger at every order.
#include <cmath>
#include <limits>

#include "algorithms/common/shared_params.hpp"
#include "algorithms/tuning/entries.hpp"
#include "algorithms/tuning/grid.hpp"
#include "algorithms/tuning/selection.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

constexpr double kSelectionFactor = 3.0;  // Liu & Talwar 2019, Thm 3.4: 3 eps_c

}  // namespace

CandidateRun run_candidate(const Learner& learner, std::size_t k, const Dataset& data,
                           std::span<const uint32_t> fit_rows, std::span<const uint32_t> validation_rows, const Rng& run,
                           int threads, double score_epsilon, const CandidateCheck& check, const std::string& who) {
  FitContext cctx{run.derive("fit"), PrivacyLedger(), threads};
  CandidateRun out;
  out.model = learner.fit(data, fit_rows, cctx);  // step 3
  check(cctx.ledger, k);
  Rng score_rng = run.derive("score");
  const double raw = validation_score(*out.model, data, validation_rows);
  for (const auto& [name, value] : out.model->extra_columns())
    require(name != "epsilon_spent", who, ": the base releases private output in predict(), so a validation "
            "score would spend budget the selection does not account for");
  // Step 4: the secure Laplace mechanism at score_epsilon, sensitivity score_sensitivity (grid.hpp).
  out.score = laplace_mechanism(score_rng, raw, score_sensitivity(data.schema()), score_epsilon);
  out.ledger = std::move(cctx.ledger);
  return out;
}

SelectionRun run_random_stopping(const TuningSetup& setup, const TuningParams& p, const Dataset& data,
                                 std::span<const uint32_t> rows, FitContext& ctx, double score_epsilon,
                                 const CandidateCheck& check, const std::string& who) {
  const double gamma = p.stop_probability;
  std::vector<uint32_t> fit_rows, validation_rows;
  split_validation(rows, p.validation_fraction, ctx.rng.derive("validation-split"), fit_rows, validation_rows);

  SelectionRun out;
  out.best_score = -std::numeric_limits<double>::infinity();
  for (bool stop = false; !stop; ++out.runs) {
    Rng run = ctx.rng.derive("candidate-run").derive(static_cast<uint64_t>(out.runs));
    const int k = static_cast<int>(run.below(setup.candidates.size()));  // step 1: uniform grid point
    const auto learner = setup.base->make(setup.candidates[static_cast<std::size_t>(k)], data.schema());
    CandidateRun c = run_candidate(*learner, static_cast<std::size_t>(k), data, fit_rows, validation_rows, run,
                                   ctx.threads, score_epsilon, check, who);
    if (c.score > out.best_score) {
      out.best_score = c.score;
      out.best_index = k;
      out.best = std::move(c.model);
      out.best_ledger = std::move(c.ledger);
    }
    stop = run.derive("stop").bernoulli(gamma);  // T ~ Geometric(gamma), independent of the data
  }
  return out;
}

namespace {

// Every candidate fit's ledger is at most the base's a-priori ledger at every order (the plan's
// curve assumes it); a relative 1e-9 absorbs the summation order of per-query charges.
void check_dominated(const PrivacyLedger& fit, const std::vector<double>& prior, const std::string& who) {
  for (std::size_t k = 0; k < prior.size(); ++k) {
    const int alpha = static_cast<int>(k) + kRdpMinOrder;
    const double spent = fit.rdp_at(alpha);
    require(spent <= prior[k] * (1 + 1e-9), who, ": the fit's ledger composes ", spent, " at Renyi order ", alpha,
            ", above the base's a-priori ledger (", prior[k], ") that the selection's accounting assumes");
  }
}

class PrivateSelectionLearner : public Learner {
 public:
  explicit PrivateSelectionLearner(TuningParams p) : p_(std::move(p)) {}

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    if (takes_delta(p_.lookup(p_.base))) return fit_rdp(data, rows, ctx);
    const double epsilon = p_.epsilon;
    const double eps_c = epsilon / kSelectionFactor;
    const TuningSetup setup = tuning_setup(p_, eps_c);
    const std::string who = "private-selection over '" + setup.base->name + "'";
    check_base(setup, data, who);
    const double sensitivity = score_sensitivity(data.schema());
    SelectionRun run = run_random_stopping(
        setup, p_, data, rows, ctx, eps_c,
        [&](const PrivacyLedger& ledger, std::size_t k) {
          ledger.check_within(eps_c, who + " candidate " + setup.point_text[k]);
        },
        who);

    // The ledger's split of epsilon: the selected candidate (fit | score, in parallel) and the selection.
    const auto selection = ctx.ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential,
                                                 "private selection (Liu & Talwar 2019 Thm 3.4)");
    const auto candidate = ctx.ledger.open_scope(selection, Composition::kParallel, "candidate: fit part | validation part");
    ctx.ledger.absorb(candidate, run.best_ledger);
    const auto score = ctx.ledger.open_scope(candidate, Composition::kSequential, "validation score");
    ctx.ledger.charge(score, "laplace-validation-score", eps_c, sensitivity);
    ctx.ledger.charge(selection, "random-stopping-selection", (kSelectionFactor - 1.0) * eps_c, 1.0);
    ctx.ledger.check_within(epsilon, who);
    return std::make_unique<TunedModel>(std::move(run.best), "private-selection (Liu-Talwar, geometric)",
                                        setup.point_text[static_cast<std::size_t>(run.best_index)], run.best_index,
                                        run.runs, run.best_score, true);
  }

 private:
  static void check_base(const TuningSetup& setup, const Dataset& data, const std::string& who) {
    require(setup.base->private_algorithm, who, ": the base is not a private algorithm");
    require(setup.base->supports(data.task()), who, ": the base does not support ", to_string(data.task()));
  }

  // (epsilon, delta) bases: the same loop at the plan's candidate budget, accounted in Rényi DP.
  std::unique_ptr<Model> fit_rdp(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const {
    const std::shared_ptr<const RdpSelectionPlan> plan = plan_rdp_selection(p_, data.task());
    const TuningSetup& setup = plan->setup;
    const std::string who = "private-selection over '" + setup.base->name + "'";
    check_base(setup, data, who);
    SelectionRun run = run_random_stopping(
        setup, p_, data, rows, ctx, plan->candidate_epsilon,
        [&](const PrivacyLedger& ledger, std::size_t k) {
          check_dominated(ledger, plan->prior_rdp[k], who + " candidate " + setup.point_text[k]);
        },
        who);
    charge_selection(ctx.ledger, *plan);
    ctx.ledger.check_within(plan->epsilon, plan->delta, who);
    return std::make_unique<TunedModel>(std::move(run.best), "private-selection (Papernot-Steinke RDP, geometric)",
                                        setup.point_text[static_cast<std::size_t>(run.best_index)], run.best_index,
                                        run.runs, run.best_score, true);
  }

  TuningParams p_;
};

// The label over an (epsilon, delta) base: every candidate must be (epsilon, delta)-DP as configured,
// and the plan must exist (it throws, naming the reason, for a base without a Rényi-DP curve).
std::string rdp_status(const TuningParams& t, TaskKind task) {
  const auto plan = plan_rdp_selection(t, task);
  const TuningSetup& s = plan->setup;
  if (!s.base->supports(task))
    return "published, not (epsilon, delta)-DP: base '" + s.base->name + "' does not support " + to_string(task);
  for (std::size_t i = 0; i < s.candidates.size(); ++i) {
    const std::string st = s.base->privacy_status(s.candidates[i], task);
    if (!is_dp_label(st))
      return "published, not (epsilon, delta)-DP: candidate " + s.point_text[i] + " of base '" + s.base->name +
             "' is '" + st + "' (Papernot & Steinke's Thm 2 needs candidates whose Renyi-DP curve holds)";
  }
  return kApproxDpLabel;
}

}  // namespace

AlgorithmInfo private_selection_algorithm(AlgorithmLookup lookup) {
  AlgorithmInfo a = describe(
      "private-selection", "benchmark", kBothTasks,
      "Hyper-parameter tuning that is itself ε-DP: Liu & Talwar's random stopping (STOC 2019, Alg. 2, Thm 3.4) over "
      "candidates of `base` drawn uniformly from `grid`; each candidate is fitted at ε/3 on a fitting part of the "
      "training rows and scored with Laplace noise at ε/3 on the disjoint validation part; the best noisy score wins; "
      "the whole pipeline is ε-DP. Over an (ε, δ) base (one that takes delta) the same loop is accounted in Rényi DP "
      "(Papernot & Steinke 2022, Thm 2): the candidate budget is the largest share of ε that keeps the pipeline "
      "(ε, δ)-DP at the base's δ");
  using P = TuningParams;
  const ParamSet<P> set =
      tuning_param_set("total privacy budget ε of the whole tuned pipeline: every candidate run is ε/3-DP, the "
                       "selection 3 x that (Liu & Talwar 2019, Thm 3.4)")
          .add(&P::stop_probability,
               param::positive("stop_probability", "0.1", 1,
                               "γ: after every candidate run, stop with probability γ (T ~ Geometric(γ), expected 1/γ "
                               "runs)"))
          .add(&P::validation_fraction,
               param::positive("validation_fraction", "0.2", 0.9,
                               "share of the training rows (one data-independent coin per row) held out for the noisy "
                               "validation score; the candidate is fitted on the rest"));
  const TuningParams fixed{.name = a.name, .lookup = lookup};
  auto resolve = [set, fixed](const Params& p) { return set.from(p, fixed); };
  a.privacy_status = [resolve](const Params& p, TaskKind task) -> std::string {
    const TuningParams t = resolve(p);
    if (takes_delta(t.lookup(t.base))) return rdp_status(t, task);
    const TuningSetup s = tuning_setup(t, t.epsilon / kSelectionFactor);
    if (!s.base->private_algorithm) return "published, not epsilon-DP: base '" + s.base->name + "' is not private";
    if (!s.base->supports(task))
      return "published, not epsilon-DP: base '" + s.base->name + "' does not support " + to_string(task);
    for (std::size_t i = 0; i < s.candidates.size(); ++i) {
      const std::string st = s.base->privacy_status(s.candidates[i], task);
      if (st != kPureDpLabel)
        return "published, not epsilon-DP: candidate " + s.point_text[i] + " of base '" + s.base->name + "' is '" + st +
               "' (Liu & Talwar's Thm 3.4 needs epsilon-DP candidates)";
    }
    return kPureDpLabel;
  };
  a.privacy_bound = [resolve](const Params& p, TaskKind task) {
    const TuningParams t = resolve(p);
    if (takes_delta(t.lookup(t.base))) {
      const auto plan = plan_rdp_selection(t, task);
      return PrivacyBound{plan->epsilon_spent, plan->epsilon_spent, plan->delta};
    }
    const double eps_c = t.epsilon / kSelectionFactor;
    const TuningSetup s = tuning_setup(t, eps_c);
    PrivacyBound b{eps_c, eps_c, 0.0};  // the score alone costs eps_c; a fit may be bounded above that
    for (const Params& c : s.candidates) {
      if (!s.base->private_algorithm || !s.base->supports(task)) break;
      const PrivacyBound cb = s.base->privacy_bound(c, task);
      b = {std::max(b.epsilon, cb.epsilon), std::max(b.epsilon_conservative, cb.epsilon_conservative),
           std::max(b.delta, cb.delta)};
    }
    return PrivacyBound{kSelectionFactor * b.epsilon, kSelectionFactor * b.epsilon_conservative, b.delta};
  };
  // The pipeline's delta is the base's (0 for an epsilon-DP base).
  a.nominal_delta = [resolve](const Params& p) {
    const TuningParams t = resolve(p);
    if (!takes_delta(t.lookup(t.base))) return 0.0;
    return tuning_setup(t, t.epsilon).candidates.front().get_double("delta");
  };
  a = with_learner<PrivateSelectionLearner>(std::move(a), set, fixed);
  // E[T] = 1 / gamma candidate fits on the fitting part (Geometric(gamma) runs, each a uniform grid point).
  a.inner = [resolve](const Params& p) {
    const TuningParams t = resolve(p);
    const TuningSetup s = tuning_setup(t, t.epsilon / kSelectionFactor);
    return InnerFits{.algorithm = s.base->name, .candidates = s.candidates, .fits = 1.0 / t.stop_probability,
                     .row_share = 1.0 - t.validation_fraction, .full_fits = 0.0};
  };
  return a;
}

}  // namespace dpf
