#include "algorithms/tuning/tuning.hpp"

#include <utility>

#include "algorithms/common/shared_params.hpp"
#include "algorithms/tuning/entries.hpp"

namespace dpf {

namespace {

// A string parameter read as it is, with a default (the tuning entries parse it themselves).
ParamSpec text_with_default(std::string name, std::string default_value, std::string doc) {
  ParamSpec s = param::text(std::move(name), std::move(doc));
  s.default_value = std::move(default_value);
  return s;
}

}  // namespace

ParamSet<TuningParams> tuning_param_set(std::string epsilon_doc) {
  using P = TuningParams;
  return ParamSet<P>()
      .add(&P::epsilon, param::epsilon(std::move(epsilon_doc)))
      .add(&P::base, text_with_default("base", "dp-ert", "the registry algorithm whose hyper-parameters are tuned"))
      .add(&P::base_params, text_with_default("base_params", "none",
                                              "the base's fixed parameters, \"k=v;k=v\" (none: its defaults); the grid "
                                              "overrides them"))
      .add(&P::grid, text_with_default("grid", "max_depth=3,5;n_trees=5,10",
                                       "the candidates: \"k=v1,v2;k2=w1,w2\", the cartesian product of the base's "
                                       "parameter values"))
      .add(&P::strict, param::strict());
}

std::vector<AlgorithmInfo> tuning_algorithms(AlgorithmLookup lookup) {
  return {private_selection_algorithm(lookup), enumerated_selection_algorithm(lookup), oracle_tuning_algorithm(lookup)};
}

}  // namespace dpf
