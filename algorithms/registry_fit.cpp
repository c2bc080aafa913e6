#include "algorithms/registry_fit.hpp"

#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace dpf {

SpentTotals spent_totals(const AlgorithmInfo& info, const PrivacyBound& bound, const PrivacyLedger& ledger) {
  SpentTotals t;
  if (!info.private_algorithm) return t;
  const bool approx = bound.delta > 0.0;
  t.epsilon = approx ? ledger.epsilon_for(bound.delta) : ledger.spent();
  t.epsilon_conservative = approx ? ledger.epsilon_for(bound.delta, true) : ledger.spent_conservative();
  t.delta = approx ? bound.delta : 0.0;
  return t;
}

RegistryFit fit_registry(const std::string& algorithm, const std::map<std::string, std::string>& given,
                         const Dataset& data, uint64_t seed, int threads, const std::string& where) {
  RegistryFit r;
  r.info = &find_algorithm(algorithm);
  r.params = resolve_params(algorithm, r.info->params, given, where);
  r.task = data.task();
  require(r.info->supports(r.task), "algorithm '", algorithm, "' does not support ", to_string(r.task));
  r.privacy_status = r.info->privacy_status(r.params, r.task);
  if (r.info->private_algorithm) r.bound = r.info->privacy_bound(r.params, r.task);
  std::unique_ptr<Learner> learner = r.info->make(r.params, data.schema());
  FitContext ctx{Rng(seed), PrivacyLedger(), threads};
  const std::vector<uint32_t> rows = all_rows(data.n_rows());
  // Values outside the public bounds are clamped to them before fitting (core/data/dataset.hpp).
  Dataset clamped;
  r.model = learner->fit(clamped_to_bounds(data, clamped), rows, ctx);
  r.ledger = std::move(ctx.ledger);
  return r;
}

std::string describe_json(const RegistryFit& fit, const std::string& dataset) {
  JsonWriter w;
  w.begin_object();
  w.field("algorithm", fit.info->name).field("dataset", dataset);
  w.key("params").begin_object();
  for (const auto& [k, v] : fit.params.values()) w.field(k, v);
  w.end_object();
  w.field("privacy_status", fit.privacy_status);
  if (fit.info->private_algorithm) {
    w.field("epsilon_apriori", fit.bound.epsilon).field("epsilon_apriori_conservative", fit.bound.epsilon_conservative);
    w.field("delta_apriori", fit.bound.delta);
    const SpentTotals spent = spent_totals(*fit.info, fit.bound, fit.ledger);
    w.field("epsilon_spent", spent.epsilon);
    w.field("epsilon_spent_conservative", spent.epsilon_conservative);
    if (spent.delta > 0.0) w.field("delta_spent", spent.delta);
    w.field("ledger_certified", fit.ledger.certified());
  }
  w.key("model").raw(fit.model->describe());
  w.end_object();
  return w.str();
}

}  // namespace dpf
