#include "algorithms/saved_model.hpp"

#include <set>

#include "algorithms/model_io.hpp"
#include "core/data/preprocess.hpp"
#include "core/data/schema_io.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "core/util/json.hpp"

namespace dpf {

namespace {

constexpr const char* kFormat = "dpforest-model";

// The schema the model sees: the input schema, binned as before the fit.
Schema model_schema(const Schema& input, int bins) {
  if (bins <= 0) return input;
  return bin_equal_width(Dataset("schema", input), bins).schema();
}

}  // namespace

std::string saved_model_json(const RegistryFit& fit, const Schema& input_schema, int bins) {
  JsonWriter model;
  fit.model->save(model);  // first: a model that cannot be saved fails before anything is written
  JsonWriter w;
  w.begin_object();
  w.field("format", kFormat).field("version", kSavedModelVersion);
  w.field("algorithm", fit.info->name).field("task", to_string(fit.task));
  w.key("params").begin_object();
  for (const auto& [k, v] : fit.params.values()) w.field(k, v);
  w.end_object();
  w.key("privacy").begin_object().field("status", fit.privacy_status);
  w.key("epsilon").exact(fit.bound.epsilon);
  w.key("delta").exact(fit.bound.delta);
  w.end_object();
  w.key("schema");
  write_schema(w, input_schema);
  w.key("preprocess").begin_object().field("bins", bins).end_object();
  w.key("model").raw(model.str());
  w.end_object();
  return w.str();
}

SavedModel parse_saved_model(std::string_view text, const std::string& source) {
  const JsonValue doc = parse_json(text, source);
  const JsonIn in(doc, source);
  static const std::set<std::string> keys = {"format", "version", "algorithm", "task", "params", "privacy",
                                             "schema", "preprocess", "model", "estimator"};
  for (const auto& [k, v] : in.members())
    if (!keys.count(k)) v.fail_here("unknown key in a saved model");
  if (in["format"].string() != kFormat) in["format"].fail_here("not a dpforest saved model");
  const int64_t version = in["version"].integer(1, 1 << 20);
  if (version != kSavedModelVersion)
    in["version"].fail_here("version " + std::to_string(version) + " is not the version this build reads (" +
                            std::to_string(kSavedModelVersion) + ")");
  SavedModel m;
  m.source = source;
  m.algorithm = in["algorithm"].string();
  const AlgorithmInfo& info = find_algorithm(m.algorithm);
  for (const auto& [k, v] : in["params"].members()) m.params[k] = v.string();
  const JsonIn privacy = in["privacy"];
  m.privacy_status = privacy["status"].string();
  m.bound.epsilon = m.bound.epsilon_conservative = privacy["epsilon"].number();
  m.bound.delta = privacy["delta"].number();
  m.schema = read_schema(in["schema"]);
  if (in["task"].string() != to_string(m.schema.target.task)) in["task"].fail_here("does not match the schema's target");
  if (!info.supports(m.schema.target.task)) in["task"].fail_here("algorithm '" + m.algorithm + "' does not support it");
  m.bins = static_cast<int>(in["preprocess"]["bins"].integer(0, 1000));
  m.model = load_model(in["model"], model_schema(m.schema, m.bins));
  return m;
}

SavedModel read_saved_model(const std::string& path) {
  return parse_saved_model(read_text_limited(path, kMaxSavedModelBytes, "saved model"), path);
}

Predictions SavedModel::predict(const Dataset& data) const {
  require(data.n_features() == schema.n_features(), source, ": the data has ", data.n_features(),
          " features, the model ", schema.n_features());
  const std::vector<uint32_t> rows = all_rows(data.n_rows());
  if (bins <= 0) return model->predict(data, rows);
  return model->predict(bin_equal_width(data, bins), rows);
}

}  // namespace dpf
