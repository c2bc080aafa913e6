#include "algorithms/common/algorithm_info.hpp"

#include <utility>

namespace dpf {

bool is_dp_label(const std::string& status) { return status == kPureDpLabel || status == kApproxDpLabel; }

bool AlgorithmInfo::supports(TaskKind t) const {
  for (TaskKind k : tasks)
    if (k == t) return true;
  return false;
}

AlgorithmInfo describe(std::string name, std::string papers, std::vector<TaskKind> tasks, std::string summary) {
  return {.name = std::move(name), .summary = std::move(summary), .papers = std::move(papers), .tasks = std::move(tasks)};
}

AlgorithmInfo describe_non_private(std::string name, std::string papers, std::vector<TaskKind> tasks,
                                   std::string summary) {
  AlgorithmInfo a = describe(std::move(name), std::move(papers), std::move(tasks), std::move(summary));
  a.private_algorithm = false;
  a.privacy_status = [](const Params&, TaskKind) { return std::string("non-private"); };
  return a;
}

ParamSpec strict_param() {
  return {.name = "strict", .type = ParamType::kBool, .default_value = "false",
          .doc = "use the repaired, genuinely epsilon-DP variant where the published mechanism is not DP"};
}

ParamSpec quirks_param(const std::vector<QuirkSpec>& quirks) {
  ParamSpec p{.name = "reference_quirks", .type = ParamType::kStringList,
              .doc = "documented deviations of the authors' code to reproduce (none by default)"};
  for (const auto& q : quirks) p.choices.push_back(q.name);
  if (p.choices.empty()) p.choices.push_back("none-defined");
  return p;
}

}  // namespace dpf
