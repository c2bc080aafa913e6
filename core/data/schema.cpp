#include "core/data/schema.hpp"

namespace dpf {

const char* to_string(FeatureKind k) { return k == FeatureKind::kNumeric ? "numeric" : "categorical"; }
const char* to_string(TaskKind k) { return k == TaskKind::kClassification ? "classification" : "regression"; }

int Schema::find_feature(const std::string& name) const {
  for (std::size_t i = 0; i < features.size(); ++i)
    if (features[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace dpf
