// One registry fit on every row of a dataset: the path shared by `dpforest describe` and the Python
// binding (python/), so that a Python fit and a CLI fit with the same seed are the same computation.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"

namespace dpf {

struct RegistryFit {
  const AlgorithmInfo* info = nullptr;
  Params params;        // resolved against the schema (defaults filled, canonical text)
  TaskKind task = TaskKind::kClassification;
  std::string privacy_status;
  PrivacyBound bound;   // a-priori bound ({0, 0, 0} for non-private algorithms)
  PrivacyLedger ledger; // what the fit spent
  std::unique_ptr<Model> model;
};

// What a fit spent, as every result row (experiments/run/task.cpp), `dpforest describe` and the
// Python binding report it: 0 for a non-private algorithm; the ledger's pure epsilon (claimed and
// conservative accounting) for a pure-epsilon configuration; for an (epsilon, delta) configuration
// (a-priori delta > 0, e.g. lumberjack) the ledger's epsilon at that delta (epsilon_for), with delta
// the a-priori delta.
struct SpentTotals {
  double epsilon = 0.0;
  double epsilon_conservative = 0.0;
  double delta = 0.0;
};
SpentTotals spent_totals(const AlgorithmInfo& info, const PrivacyBound& bound, const PrivacyLedger& ledger);

// Resolves `given` against the algorithm's schema (`where` names the source in messages), checks the
// task is supported, builds the learner on data.schema() and fits it on all rows with Rng(seed),
// the values clamped to the schema's public bounds (clamped_to_bounds, core/data/dataset.hpp).
RegistryFit fit_registry(const std::string& algorithm, const std::map<std::string, std::string>& given,
                         const Dataset& data, uint64_t seed, int threads, const std::string& where);

// The JSON printed by `dpforest describe`: algorithm, dataset, resolved params, privacy status, the
// a-priori bound and ledger totals (private algorithms), and the model's describe().
std::string describe_json(const RegistryFit& fit, const std::string& dataset);

}  // namespace dpf
