// The three registry entries of this folder and the parameters they share (tuning.cpp).
#pragma once
#include <string>
#include <vector>

#include "algorithms/common/param_set.hpp"
#include "algorithms/tuning/tuning.hpp"

namespace dpf {

// A tuning entry's resolved configuration. `name` and `lookup` are fixed by the entry (the factory's
// base struct), the rest are its parameters.
struct TuningParams {
  std::string name;
  AlgorithmLookup lookup;
  double epsilon = 1;
  std::string base = "dp-ert", base_params = "none", grid = "max_depth=3,5;n_trees=5,10";
  bool strict = false;
  double stop_probability = 0.1;     // private-selection
  double validation_fraction = 0.2;  // private-selection, enumerated-selection
  int inner_folds = 3;                                       // oracle-tuning
};

// epsilon (documented by `epsilon_doc`), base, base_params, grid, strict: the parameters both entries
// declare, in that order; each entry adds its own after them.
ParamSet<TuningParams> tuning_param_set(std::string epsilon_doc);

AlgorithmInfo private_selection_algorithm(AlgorithmLookup lookup);
AlgorithmInfo enumerated_selection_algorithm(AlgorithmLookup lookup);
AlgorithmInfo oracle_tuning_algorithm(AlgorithmLookup lookup);

}  // namespace dpf
