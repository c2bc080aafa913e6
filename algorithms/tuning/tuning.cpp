#include "algorithms/tuning/tuning.hpp"

#include <utility>

#include "algorithms/common/shared_params.hpp"
#include "algorithms/tuning/entries.hpp"

namespace dpf {

ParamSet<TuningParams> tuning_param_set(std::string epsilon_doc) {
  using P = TuningParams;
  return ParamSet<P>()
      .add(&P::epsilon, param::epsilon(std::move(epsilon_doc)))
      .add(&P::base, {.name = "base", .default_value = "dp-ert", .doc = "the registry algorithm whose hyper-parameters are tuned"})
      .add(&P::base_params, {.name = "base_params", .default_value = "none",
                             .doc = "the base's fixed parameters, \"k=v;k=v\" (none: its defaults); the grid overrides them"})
      .add(&P::grid, {.name = "grid", .default_value = "max_depth=3,5;n_trees=5,10",
                      .doc = "the candidates: \"k=v1,v2;k2=w1,w2\", the cartesian product of the base's parameter values"})
      .add(&P::strict, param::strict());
}

std::vector<AlgorithmInfo> tuning_algorithms(AlgorithmLookup lookup) {
  return {private_selection_algorithm(lookup), oracle_tuning_algorithm(lookup)};
}

}  // namespace dpf
