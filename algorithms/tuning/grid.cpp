#include "algorithms/tuning/grid.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/util/error.hpp"
#include "core/util/grid.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// "k1=v1;k2=v2" -> ordered (key, value) pairs.
std::vector<std::pair<std::string, std::string>> split_pairs(const std::string& text, const std::string& what) {
  std::vector<std::pair<std::string, std::string>> out;
  if (trim(text).empty() || trim(text) == "none") return out;
  std::istringstream is(text);
  std::string item;
  while (std::getline(is, item, ';')) {
    item = trim(item);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    require(eq != std::string::npos && eq > 0, what, ": '", item, "' is not of the form key=value");
    const std::string key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
    require(!key.empty() && !value.empty(), what, ": '", item, "' has an empty key or value");
    for (const auto& [k, v] : out) require(k != key, what, ": key '", key, "' is given twice");
    out.emplace_back(key, value);
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> parse_assignments(const std::string& text, const std::string& what) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : split_pairs(text, what)) out[k] = v;
  return out;
}

std::vector<std::map<std::string, std::string>> expand_grid(const std::string& text, const std::string& what) {
  std::vector<std::map<std::string, std::string>> points{{}};
  const auto pairs = split_pairs(text, what);
  require(!pairs.empty(), what, ": the grid is empty (expected e.g. \"max_depth=2,3,4;max_bins=8,16\")");
  for (const auto& [key, values] : pairs) {
    std::vector<std::string> vs;
    std::istringstream is(values);
    std::string v;
    while (std::getline(is, v, ','))
      if (!trim(v).empty()) vs.push_back(trim(v));
    require(!vs.empty(), what, ": key '", key, "' has no values");
    points = add_grid_axis(points, key, vs);
  }
  return points;
}

TuningSetup tuning_setup(const TuningParams& t, double candidate_epsilon, double candidate_delta) {
  const std::string who = "algorithm '" + t.name + "'";
  TuningSetup s;
  s.base = &t.lookup(t.base);
  require(s.base->name != "private-selection" && s.base->name != "enumerated-selection" &&
              s.base->name != "oracle-tuning",
          who, ": base '", s.base->name, "' is itself a tuning meta-algorithm");
  const auto fixed = parse_assignments(t.base_params, who + ": base_params");
  const auto grid = expand_grid(t.grid, who + ": grid");
  auto has = [&](const std::string& name) {
    return std::any_of(s.base->params.begin(), s.base->params.end(), [&](const ParamSpec& p) { return p.name == name; });
  };
  for (const auto& point : grid) {
    std::map<std::string, std::string> given = fixed;
    std::string text;
    for (const auto& [k, v] : point) {
      require(k != "epsilon", who, ": the grid may not set epsilon (the meta-algorithm divides the budget)");
      require(has(k), who, ": grid key '", k, "' is not a parameter of base '", s.base->name, "'");
      given[k] = v;
      text += (text.empty() ? "" : ";") + k + "=" + v;
    }
    for (const auto& [k, v] : fixed) {
      require(k != "epsilon", who, ": base_params may not set epsilon (the meta-algorithm divides the budget)");
      require(has(k), who, ": base_params key '", k, "' is not a parameter of base '", s.base->name, "'");
    }
    if (!given.count("strict") && has("strict")) given["strict"] = t.strict ? "true" : "false";
    if (s.base->private_algorithm) given["epsilon"] = canonical_number(candidate_epsilon);
    if (candidate_delta >= 0.0) {
      require(has("delta"), who, ": base '", s.base->name, "' has no delta to divide");
      given["delta"] = canonical_number(candidate_delta);
    }
    s.candidates.push_back(resolve_params(s.base->name, s.base->params, given, who + " (grid point " + text + ")"));
    s.point_text.push_back(text);
  }
  return s;
}

double score_sensitivity(const Schema& schema) {
  if (schema.target.task == TaskKind::kClassification) return 1.0;
  const double range = schema.target.hi - schema.target.lo;
  require(std::isfinite(range) && range > 0, "a regression validation score needs finite public target bounds; '",
          schema.target.name, "' has [", schema.target.lo, ", ", schema.target.hi, "]");
  return range * range;
}

double validation_score(const Model& model, const Dataset& data, std::span<const uint32_t> rows) {
  if (rows.empty()) return 0.0;
  const Predictions p = model.predict(data, rows);
  double score = 0.0;
  if (data.task() == TaskKind::kClassification) {
    for (std::size_t i = 0; i < rows.size(); ++i) score += p.label[i] == data.label(rows[i]) ? 1.0 : 0.0;
    return score;
  }
  const double lo = data.schema().target.lo, hi = data.schema().target.hi;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double e = std::clamp(p.value[i], lo, hi) - std::clamp(data.y()[rows[i]], lo, hi);
    score -= e * e;
  }
  return score;
}

void split_validation(std::span<const uint32_t> rows, double fraction, const Rng& rng, std::vector<uint32_t>& fit,
                      std::vector<uint32_t>& validation) {
  fit.clear();
  validation.clear();
  for (uint32_t r : rows) {
    Rng coin = rng.derive(static_cast<uint64_t>(r));
    (coin.bernoulli(fraction) ? validation : fit).push_back(r);
  }
}

TunedModel::TunedModel(std::unique_ptr<Model> chosen, std::string method, std::string point, int point_index, int runs,
                       double score, bool score_released)
    : chosen_(std::move(chosen)), method_(std::move(method)), point_(std::move(point)), point_index_(point_index),
      runs_(runs), score_(score), score_released_(score_released) {}

Predictions TunedModel::predict(const Dataset& data, std::span<const uint32_t> rows) const {
  return chosen_->predict(data, rows);
}

std::string TunedModel::describe() const {
  JsonWriter w;
  w.begin_object();
  w.field("tuning", method_).field("selected", point_).field("grid_index", point_index_).field("runs", runs_);
  if (score_released_) w.field("noisy_validation_score", score_);
  else w.field("validation_score", score_);
  w.key("candidate").raw(chosen_->describe());
  w.end_object();
  return w.str();
}

std::vector<std::pair<std::string, std::string>> TunedModel::extra_columns() const {
  std::vector<std::pair<std::string, std::string>> out{{"tuned_params", point_},
                                                       {"tuning_runs", std::to_string(runs_)},
                                                       {"tuning_score", canonical_number(score_)}};
  for (auto& kv : chosen_->extra_columns()) out.push_back(std::move(kv));
  return out;
}

void TunedModel::save(JsonWriter& w) const {
  w.begin_object().field("kind", "tuned").field("method", method_).field("selected", point_).field("grid_index", point_index_);
  w.field("score_released", score_released_);
  if (score_released_) w.key("noisy_validation_score").exact(score_);
  w.key("candidate");
  chosen_->save(w);
  w.end_object();
}

std::unique_ptr<Model> load_tuned_model(const JsonIn& in, const Schema& schema, CandidateLoader load_candidate) {
  const bool released = in["score_released"].boolean();
  const double score = released ? in["noisy_validation_score"].number() : 0.0;
  return std::make_unique<TunedModel>(load_candidate(in["candidate"], schema), in["method"].string(),
                                      in["selected"].string(), static_cast<int>(in["grid_index"].integer(0, 1 << 30)),
                                      -1, score, released);
}

Release TunedModel::released() const {
  Release r = chosen_->released();
  r.discrete.push_back(point_index_);
  if (score_released_) r.continuous.push_back(score_);
  return r;
}

}  // namespace dpf
