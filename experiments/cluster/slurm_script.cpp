// The pure parts of `dpforest slurm` (templates, quoting, the plan summary), apart from the command
// itself so that tests link them without the command line parser.
#include <cctype>
#include <cstdio>

#include "core/util/error.hpp"
#include "experiments/cluster/slurm.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/work_plan.hpp"

namespace dpf {

std::string fill_template(const std::string& text, const std::vector<std::pair<std::string, std::string>>& values,
                          const std::string& what) {
  std::string out = text;
  for (const auto& [k, v] : values) {
    const std::string key = "@" + k + "@";
    for (std::size_t pos = out.find(key); pos != std::string::npos; pos = out.find(key, pos + v.size()))
      out.replace(pos, key.size(), v);
  }
  // A leftover @NAME@ (capitals and _ between two @): a placeholder the template uses and no value fills.
  std::string leftover;
  for (std::size_t at = out.find('@'); at != std::string::npos && leftover.empty(); at = out.find('@', at + 1)) {
    std::size_t end = at + 1;
    while (end < out.size() && (std::isupper(static_cast<unsigned char>(out[end])) || out[end] == '_')) ++end;
    if (end > at + 1 && end < out.size() && out[end] == '@') leftover = out.substr(at, end - at + 1);
  }
  if (!leftover.empty())
    fail(what, ": placeholder ", leftover, " has no value (known: ", [&] {
           std::string k;
           for (const auto& kv : values) k += (k.empty() ? "" : ", ") + kv.first;
           return k;
         }(), ")");
  return out;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string plan_summary(const ExperimentSpec& spec, int shards) {
  if (!spec.formula.empty()) return spec.paper + "/" + spec.experiment + ": a formula table (evaluated by every shard)";
  const std::vector<Cell> cells = expand_cells(spec);
  const WorkPlan by_cost = plan_work(spec, cells, shards, Assignment::kByCost);
  const WorkPlan by_index = plan_work(spec, cells, shards, Assignment::kByIndex);
  char buf[512];
  std::size_t pieces = 0;
  for (const auto& u : by_cost.units) pieces += u.whole ? 0 : 1;
  std::snprintf(buf, sizeof buf,
                "%s/%s: %zu cells x %d tasks in %zu units (%zu pieces of split cells); estimated load balance over %d "
                "shards (slowest / mean): %.3f by cost, %.3f by cell index mod %d",
                spec.paper.c_str(), spec.experiment.c_str(), cells.size(), by_cost.tasks_per_cell, by_cost.units.size(),
                pieces, shards, by_cost.balance(), by_index.balance(), shards);
  return buf;
}

}  // namespace dpf
