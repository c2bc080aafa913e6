// Sweep expansion (design.md §2): algorithm x dataset x the cartesian product of every parameter
// given as a list. Every cell's parameters are resolved against the algorithm's schema here, before
// any work, so a bad value anywhere fails the whole config up front.
#pragma once
#include <string>
#include <vector>

#include "algorithms/common/params.hpp"
#include "experiments/config/config.hpp"

namespace dpf {

struct Cell {
  std::size_t index = 0;  // position in the expanded list (sharding uses index % N)
  std::string id;         // 16 hex digits of hash(key): the cell's file name and seed input
  std::string key;        // canonical description: paper|experiment|label|algorithm|dataset|preprocess|params
  std::string algorithm, label, dataset;
  std::size_t algorithm_index = 0, dataset_index = 0;
  Preprocess preprocess;
  Params params;
};

std::vector<Cell> expand_cells(const ExperimentSpec& spec);

// "'label' on dataset: reason" when the config excludes `ref` on `dataset` (AlgorithmRef::
// exclude_datasets), else "".
std::string exclusion_note(const AlgorithmRef& ref, const std::string& dataset);

// One such line per (algorithm, dataset) pair the config excludes, for dry-run, status and list.
std::vector<std::string> excluded_cell_notes(const ExperimentSpec& spec);

}  // namespace dpf
