#include "algorithms/tuning/tuning.hpp"

#include "algorithms/tuning/entries.hpp"
#include "algorithms/common/shared_params.hpp"

namespace dpf {

std::vector<ParamSpec> tuning_common_params(const std::string& default_grid) {
  return {
      {.name = "base", .type = ParamType::kString, .default_value = "dp-ert", .choices = {},
       .doc = "the registry algorithm whose hyper-parameters are tuned"},
      {.name = "base_params", .type = ParamType::kString, .default_value = "none", .choices = {},
       .doc = "the base's fixed parameters, \"k=v;k=v\" (none: its defaults); the grid overrides them"},
      {.name = "grid", .type = ParamType::kString, .default_value = default_grid, .choices = {},
       .doc = "the candidates: \"k=v1,v2;k2=w1,w2\", the cartesian product of the base's parameter values"},
      param::strict(),
  };
}

std::vector<AlgorithmInfo> tuning_algorithms(AlgorithmLookup lookup) {
  return {private_selection_algorithm(lookup), oracle_tuning_algorithm(lookup)};
}

}  // namespace dpf
