// Oracle tuning: the upper bound of what tuning can give, not a private pipeline. Every grid point of
// the base is scored by k-fold cross-validation on the training rows (each inner fit at the nominal
// epsilon, scored exactly on its held-out inner fold: the mean correct share, or minus the mean clipped
// squared error), the best point (the first on ties) is refitted on all training rows at the nominal
// epsilon, and that model is returned. The choice reads the training rows without noise, so the result
// is labelled not DP whatever the base; the leaderboard keeps it apart from the DP tracks and never
// ranks it with them. Its ledger holds the final fit only (what the returned model spent), so the
// epsilon columns say what the refit cost; the selection's leak is what the label records.
#include <limits>

#include "algorithms/common/shared_params.hpp"
#include "algorithms/tuning/grid.hpp"
#include "algorithms/tuning/entries.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

class OracleLearner : public Learner {
 public:
  explicit OracleLearner(TuningParams p) : p_(std::move(p)) {}

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const TuningSetup setup = tuning_setup(p_, p_.epsilon);
    require(setup.base->supports(data.task()), "oracle-tuning over '", setup.base->name, "': the base does not support ",
            to_string(data.task()));
    const int k_folds = p_.inner_folds;
    // Inner folds: row r goes to fold hash(r) mod k (data-independent; the same for every grid point).
    std::vector<std::vector<uint32_t>> folds(static_cast<std::size_t>(k_folds));
    const Rng fold_rng = ctx.rng.derive("inner-folds");
    for (uint32_t r : rows) folds[fold_rng.derive(static_cast<uint64_t>(r)).below(k_folds)].push_back(r);

    double best = -std::numeric_limits<double>::infinity();
    std::size_t best_index = 0;
    for (std::size_t g = 0; g < setup.candidates.size(); ++g) {
      double total = 0.0;
      std::size_t scored = 0;
      for (int f = 0; f < k_folds; ++f) {
        const auto& held = folds[static_cast<std::size_t>(f)];
        if (held.empty()) continue;
        std::vector<uint32_t> train;
        for (int h = 0; h < k_folds; ++h)
          if (h != f) train.insert(train.end(), folds[static_cast<std::size_t>(h)].begin(), folds[static_cast<std::size_t>(h)].end());
        FitContext inner{ctx.rng.derive("inner-fit").derive(g, static_cast<uint64_t>(f)), PrivacyLedger(), ctx.threads};
        const auto model = setup.base->make(setup.candidates[g], data.schema())->fit(data, train, inner);
        total += validation_score(*model, data, held);
        scored += held.size();
      }
      const double mean = scored ? total / static_cast<double>(scored) : 0.0;
      if (mean > best) {
        best = mean;
        best_index = g;
      }
    }
    FitContext final_ctx{ctx.rng.derive("refit"), PrivacyLedger(), ctx.threads};
    auto model = setup.base->make(setup.candidates[best_index], data.schema())->fit(data, rows, final_ctx);
    ctx.ledger.absorb(PrivacyLedger::kRoot, final_ctx.ledger);
    return std::make_unique<TunedModel>(std::move(model), "oracle (non-private nested CV)",
                                        setup.point_text[best_index], static_cast<int>(best_index),
                                        static_cast<int>(setup.candidates.size()) * k_folds + 1, best, false);
  }

 private:
  TuningParams p_;
};

}  // namespace

AlgorithmInfo oracle_tuning_algorithm(AlgorithmLookup lookup) {
  AlgorithmInfo a = describe(
      "oracle-tuning", "benchmark", kBothTasks,
      "The oracle upper bound of tuning, not a private pipeline: every point of `grid` for `base` is scored by "
      "non-private inner k-fold cross-validation on the training rows, the best is refitted on all of them at ε. "
      "Labelled not DP whatever the base; never ranked with DP configurations");
  using P = TuningParams;
  const ParamSet<P> set =
      tuning_param_set("privacy budget ε of every candidate fit and of the final refit (the non-private selection is "
                       "not accounted: the label says so)")
          .add(&P::inner_folds,
               param::count("inner_folds", 3, 2, 20, "k of the inner k-fold cross-validation on the training rows"));
  const TuningParams fixed{.name = a.name, .lookup = lookup};
  auto resolve = [set, fixed](const Params& p) { return set.from(p, fixed); };
  a.privacy_status = [](const Params&, TaskKind) -> std::string {
    return "published, not epsilon-DP: oracle tuning, the hyper-parameters are chosen by non-private nested "
           "cross-validation on the training rows (an upper bound of tuning, not a private pipeline)";
  };
  a.privacy_bound = [resolve](const Params& p, TaskKind task) {
    const TuningParams t = resolve(p);
    const TuningSetup s = tuning_setup(t, t.epsilon);
    PrivacyBound b{0.0, 0.0, 0.0};
    for (const Params& c : s.candidates) {
      if (!s.base->supports(task)) break;
      const PrivacyBound cb = s.base->privacy_bound(c, task);
      b = {std::max(b.epsilon, cb.epsilon), std::max(b.epsilon_conservative, cb.epsilon_conservative),
           std::max(b.delta, cb.delta)};
    }
    return b;
  };
  a = with_learner<OracleLearner>(std::move(a), set, fixed);
  // Every grid point inner_folds times on (k - 1) / k of the rows, then the chosen one on all of them.
  a.inner = [resolve](const Params& p) {
    const TuningParams t = resolve(p);
    const TuningSetup s = tuning_setup(t, t.epsilon);
    const double k = t.inner_folds;
    return InnerFits{.algorithm = s.base->name, .candidates = s.candidates,
                     .fits = static_cast<double>(s.candidates.size()) * k, .row_share = (k - 1) / k, .full_fits = 1.0};
  };
  return a;
}

}  // namespace dpf
