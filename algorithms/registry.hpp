// The algorithm registry (design.md §4): one explicit table in registry.cpp (no static
// self-registration). Each entry: name -> factory, parameter schema, supported tasks, the fidelity
// options (reference quirks, strict variant) and the privacy status.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/params.hpp"
#include "core/data/schema.hpp"
#include "core/tree/model.hpp"

namespace dpf {

struct QuirkSpec {
  std::string name;
  std::string doc;  // what the authors' code did and where the spec records it
};

struct AlgorithmInfo {
  std::string name;
  std::string summary;
  std::string papers;  // paper ids whose experiments use it
  std::vector<TaskKind> tasks;
  std::vector<ParamSpec> params;  // includes the common `strict` and `reference_quirks`
  std::vector<QuirkSpec> quirks;
  bool private_algorithm = true;  // takes `epsilon`
  // Privacy status of the resolved configuration: "epsilon-DP", "non-private", or
  // "published, not epsilon-DP: <reason>" (privacy.md §6).
  std::function<std::string(const Params&, TaskKind)> privacy_status;
  std::function<std::unique_ptr<Learner>(const Params&, const Schema&)> make;

  bool supports(TaskKind t) const;
};

const std::vector<AlgorithmInfo>& algorithm_table();
// Throws dpf::Error naming the unknown name and listing the known ones.
const AlgorithmInfo& find_algorithm(const std::string& name);

// Common parameters every algorithm has.
ParamSpec strict_param();
ParamSpec quirks_param(const std::vector<QuirkSpec>& quirks);

}  // namespace dpf
