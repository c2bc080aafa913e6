#include "experiments/config/sweep.hpp"

#include <cstdio>

#include "algorithms/registry.hpp"
#include "core/privacy/rng.hpp"

namespace dpf {

namespace {

std::string hex16(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::vector<Cell> expand_cells(const ExperimentSpec& spec) {
  std::vector<Cell> cells;
  for (std::size_t a = 0; a < spec.algorithms.size(); ++a) {
    const AlgorithmRef& ref = spec.algorithms[a];
    const AlgorithmInfo& info = find_algorithm(ref.name);
    // Defaults apply where the algorithm has the parameter; the algorithm's own params win.
    std::map<std::string, std::vector<std::string>> grid;
    for (const auto& [k, v] : spec.defaults)
      for (const auto& p : info.params)
        if (p.name == k) grid[k] = v;
    for (const auto& [k, v] : ref.params) grid[k] = v;

    std::vector<std::map<std::string, std::string>> combos{{}};
    for (const auto& [k, values] : grid) {
      std::vector<std::map<std::string, std::string>> next;
      for (const auto& c : combos)
        for (const auto& v : values) {
          auto m = c;
          m[k] = v;
          next.push_back(std::move(m));
        }
      combos = std::move(next);
    }
    for (std::size_t d = 0; d < spec.datasets.size(); ++d) {
      if (ref.exclude_datasets.count(spec.datasets[d].id)) continue;  // declared in the config, with a reason
      for (const auto& combo : combos) {
        Cell c;
        c.algorithm = ref.name;
        c.label = ref.label;
        c.algorithm_index = a;
        c.dataset_index = d;
        c.dataset = spec.datasets[d].id;
        c.preprocess = with_overrides(spec.datasets[d].preprocess, ref.preprocess_overrides);
        c.params = resolve_params(ref.name, info.params, combo, spec.path + ": " + ref.where + ".params");
        c.key = spec.paper + "|" + spec.experiment + "|" + c.label + "|" + c.algorithm + "|" + c.dataset + "|" +
                c.preprocess.key() + "|" + c.params.canonical();
        c.id = hex16(hash_string(c.key));
        c.index = cells.size();
        cells.push_back(std::move(c));
      }
    }
  }
  return cells;
}

std::string exclusion_note(const AlgorithmRef& ref, const std::string& dataset) {
  const auto it = ref.exclude_datasets.find(dataset);
  return it == ref.exclude_datasets.end() ? "" : "'" + ref.label + "' on " + dataset + ": " + it->second;
}

std::vector<std::string> excluded_cell_notes(const ExperimentSpec& spec) {
  std::vector<std::string> notes;
  for (const AlgorithmRef& ref : spec.algorithms)
    for (const auto& kv : ref.exclude_datasets) notes.push_back(exclusion_note(ref, kv.first));
  return notes;
}

}  // namespace dpf
