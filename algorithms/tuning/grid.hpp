// The candidates of a tuning meta-algorithm (tuning.hpp): its grid text, the base's fixed parameters,
// the candidates' resolved parameters, the validation score a candidate is judged by, and the model a
// tuned fit returns (the chosen candidate's, plus what the selection released).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "algorithms/tuning/entries.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

// "k1=v1;k2=v2" -> {k1: v1, k2: v2} ("none" or "" -> {}). A value may hold commas (a list parameter).
// `what` names the source in messages. Duplicate or empty keys are errors.
std::map<std::string, std::string> parse_assignments(const std::string& text, const std::string& what);

// "max_depth=2,3,4;max_bins=8,16" -> the cartesian product, in the text's key order, the last key
// varying fastest (6 points here). Every key needs at least one value.
std::vector<std::map<std::string, std::string>> expand_grid(const std::string& text, const std::string& what);

// The candidates of a tuning configuration.
struct TuningSetup {
  const AlgorithmInfo* base = nullptr;
  std::vector<Params> candidates;       // one per grid point, resolved against the base's schema
  std::vector<std::string> point_text;  // the grid point alone, "k=v;k=v" (for describe and results)
};

// Resolves every grid point of `t` (base, base_params, grid, strict) at the base's `epsilon` =
// candidate_epsilon. The wrapper's `strict` is passed on unless base_params sets it. The grid may not
// set epsilon (the meta-algorithm divides it) nor a key the base lacks (an error naming the wrapper,
// the base and the key). A candidate_delta >= 0 also sets the base's `delta` at every point, over
// base_params and the grid (a meta-algorithm that divides delta as well).
TuningSetup tuning_setup(const TuningParams& t, double candidate_epsilon, double candidate_delta = -1.0);

// The score a candidate is judged by on validation rows it was not fitted on, larger is better:
//   classification: the number of correctly predicted rows;
//   regression: minus the sum of squared errors, prediction and target clipped to the public target
//     bounds [lo, hi].
// Under add/remove-one of a validation row the score moves by at most score_sensitivity(schema):
// 1 for classification, (hi - lo)^2 for regression (one row's clipped squared error).
double validation_score(const Model& model, const Dataset& data, std::span<const uint32_t> rows);
double score_sensitivity(const Schema& schema);

// Splits `rows` into a fitting part and a validation part: each row goes to validation with
// probability `fraction`, by a coin drawn from `rng` keyed by the row's index alone. The assignment is
// independent of every row's values and of the other rows, so under add/remove-one the added or removed
// record falls in exactly one part and the parts are disjoint (parallel composition, McSherry 2009,
// "Privacy integrated queries", Thm 4).
void split_validation(std::span<const uint32_t> rows, double fraction, const Rng& rng, std::vector<uint32_t>& fit,
                      std::vector<uint32_t>& validation);

// The model of a tuned fit: the chosen candidate's model, the chosen grid point, and what the
// selection released beside it (the noisy score for private selection).
class TunedModel : public Model {
 public:
  TunedModel(std::unique_ptr<Model> chosen, std::string method, std::string point, int point_index, int runs,
             double score, bool score_released);
  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override;
  ModelStats stats() const override { return chosen_->stats(); }
  std::string describe() const override;
  std::vector<std::pair<std::string, std::string>> extra_columns() const override;
  // The chosen candidate's release, then the grid index (discrete) and, when released, the noisy
  // score (continuous).
  Release released() const override;
  // Kind "tuned": the chosen grid point and index, the noisy score where it is released, and the
  // candidate's own object. The number of runs and the oracle's non-private CV score are not released
  // (Liu & Talwar's output is the best run alone), so they are not saved.
  void save(JsonWriter& w) const override;

 private:
  std::unique_ptr<Model> chosen_;
  std::string method_, point_;
  int point_index_, runs_;
  double score_;
  bool score_released_;
};

// Reads back a TunedModel saved by TunedModel::save; `load_candidate` reads the candidate's object (the
// loader table's load_model, passed in so that this folder includes no other family). A loaded model's
// runs are -1 (not released).
using CandidateLoader = std::unique_ptr<Model> (*)(const JsonIn&, const Schema&);
std::unique_ptr<Model> load_tuned_model(const JsonIn& in, const Schema& schema, CandidateLoader load_candidate);

}  // namespace dpf
