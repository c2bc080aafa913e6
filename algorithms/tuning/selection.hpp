// The pieces of private-selection (private_selection.cpp) that its two accountings share or that the
// Rényi-DP accounting adds (rdp_selection.cpp), and that enumerated-selection
// (enumerated_selection.cpp) reuses: one candidate run and the base's delta.
//
// Which accounting a base gets: a base that takes `delta` is an (epsilon, delta) algorithm and gets the
// Rényi-DP one (Papernot & Steinke 2022, Thm 2); every other base gets the pure one (Liu & Talwar 2019,
// Thm 3.4), as before.
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "algorithms/tuning/grid.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rdp.hpp"

namespace dpf {

// The random-stopping loop (the header comment of private_selection.cpp): Geometric(gamma) runs of the
// candidate mechanism Q (uniform grid point, fit on the fitting part, Laplace score at score_epsilon on
// the validation part), the best noisy score kept. check(ledger, k) is called on every candidate's fit
// ledger right after the fit (k: its grid index) and throws when the fit spent more than the selection
// accounts for.
struct SelectionRun {
  std::unique_ptr<Model> best;
  PrivacyLedger best_ledger;
  double best_score = 0.0;
  int best_index = -1, runs = 0;
};
using CandidateCheck = std::function<void(const PrivacyLedger&, std::size_t)>;
// One run of the candidate mechanism Q at grid index k (steps 3-4 of private_selection.cpp's header):
// `learner` (the base made at grid point k) fitted on fit_rows with the stream run.derive("fit") (its
// ledger passed to check(ledger, k), then kept), and its validation score on validation_rows plus
// Laplace noise at score_epsilon from run.derive("score").
struct CandidateRun {
  std::unique_ptr<Model> model;
  PrivacyLedger ledger;
  double score = 0.0;  // noisy
};
CandidateRun run_candidate(const Learner& learner, std::size_t k, const Dataset& data,
                           std::span<const uint32_t> fit_rows, std::span<const uint32_t> validation_rows, const Rng& run,
                           int threads, double score_epsilon, const CandidateCheck& check, const std::string& who);
SelectionRun run_random_stopping(const TuningSetup& setup, const TuningParams& p, const Dataset& data,
                                 std::span<const uint32_t> rows, FitContext& ctx, double score_epsilon,
                                 const CandidateCheck& check, const std::string& who);

// True when the base is an (epsilon, delta) algorithm (it declares `delta`).
bool takes_delta(const AlgorithmInfo& base);
// The base's delta (base_params or the base's default), the same at every grid point: a grid that
// varies it is an error naming `who` (the tuned pipeline's delta is the base's, one value).
double base_delta(const TuningParams& t, const std::string& who);

// The Rényi-DP accounting of a private selection over an (epsilon, delta) base, fixed before any data
// is read (a function of the parameters and the task only):
//   * every candidate Q is the base fitted at candidate_epsilon (its own calibration at the base's delta)
//     on the fitting part | the Laplace score at candidate_epsilon on the validation part (parallel);
//     its Rényi-DP curve is the max over the grid points (the point is drawn independently of the data)
//     of the base's a-priori ledger (AlgorithmInfo::prior_ledger) in parallel with the score's pure
//     charge (min(eps, alpha eps^2 / 2): pure DP bounds every order, and Bun & Steinke 2016 Prop. 1.4);
//   * the selection's overhead is Papernot & Steinke 2022 Thm 2 with eta = 1 (rdp.hpp
//     random_stopping_overhead) on that curve;
//   * candidate_epsilon = scale * epsilon, with scale the largest in (0, 1] (a deterministic bisection,
//     relative 1e-5) for which the ledger charge_selection writes converts, by the ledger's own
//     epsilon_for(delta), to at most the nominal epsilon; delta is the base's.
struct RdpSelectionPlan {
  double epsilon = 0.0;            // nominal
  double delta = 0.0;              // the base's delta: the pipeline's
  double scale = 0.0;
  double candidate_epsilon = 0.0;  // scale * epsilon
  double epsilon_spent = 0.0;      // the selection ledger's epsilon_for(delta) <= epsilon
  TuningSetup setup;               // the candidates at candidate_epsilon
  std::vector<std::vector<double>> prior_rdp;  // per grid point: its a-priori fit ledger at orders 2..max
  std::shared_ptr<const RdpCurve> candidate;   // Q's curve
  RandomStoppingOverhead overhead;
};
// Memoised per configuration (the bisection re-calibrates the base a few dozen times). Throws a
// dpf::Error naming the wrapper and the base when the base has no a-priori ledger, when its ledger holds
// (epsilon, delta)-DP charges with no Rényi-DP curve (Lumberjack's GSHM pruning), when the grid varies
// delta, or when no scale meets the nominal budget.
std::shared_ptr<const RdpSelectionPlan> plan_rdp_selection(const TuningParams& t, TaskKind task);
// The selection's ledger charges under a sequential scope: the candidate's curve (once: the output is
// one run, Thm 2 pays for the rest) and the random-stopping overhead.
void charge_selection(PrivacyLedger& ledger, const RdpSelectionPlan& plan);

}  // namespace dpf
