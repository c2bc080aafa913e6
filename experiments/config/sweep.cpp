#include "experiments/config/sweep.hpp"

#include <cstdio>

#include "algorithms/registry.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"
#include "core/util/grid.hpp"
#include "datasets/registry.hpp"

namespace dpf {

namespace {

std::string hex16(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Why `info` cannot run on a dataset with these public facts ("" when it can), with the fix.
std::string incompatibility(const AlgorithmInfo& info, const DatasetFacts& f) {
  if (!f.known) return "";
  if (!info.supports(f.task))
    return std::string("it does not support ") + to_string(f.task) + " (its tasks: " + [&] {
      std::string t;
      for (TaskKind k : info.tasks) t += (t.empty() ? "" : ", ") + std::string(to_string(k));
      return t;
    }() + ")";
  if (info.binary_classification_only && f.task == TaskKind::kClassification && f.classes > 2)
    return "it classifies two classes only and the dataset lists " + std::to_string(f.classes) +
           " classes; use a binary variant of the dataset";
  if (info.private_algorithm && f.imputes_train_median)
    return "the dataset imputes missing values with training-fold medians, which are not differentially private "
           "(privacy.md §6); use a variant without missing.rule impute-train-median";
  return "";
}

// Static incompatibilities (task kind, class count, a non-private cleaning rule) are refused here,
// before any work, rather than by every task of the run. `info` is the row's algorithm, or the entry a
// meta-algorithm fits inside (`via` then names it).
void check_compatible(const ExperimentSpec& spec, const AlgorithmRef& ref, const AlgorithmInfo& info,
                      const DatasetRef& d, const std::string& via = "") {
  const std::string why = incompatibility(info, config_dataset_facts(spec, d.id));
  if (why.empty()) return;
  fail(spec.path, ": ", ref.where, " ('", ref.label, "', ", ref.name, ") cannot run on dataset '", d.id, "': ", via, why,
       ", or add to the algorithm `exclude_datasets: {\"", d.id, "\": \"<why it does not run>\"}`");
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
    for (const auto& [k, values] : grid) combos = add_grid_axis(combos, k, values);
    for (std::size_t d = 0; d < spec.datasets.size(); ++d) {
      if (ref.exclude_datasets.count(spec.datasets[d].id)) continue;  // declared in the config, with a reason
      check_compatible(spec, ref, info, spec.datasets[d]);
      for (const auto& combo : combos) {
        Cell c;
        c.algorithm = ref.name;
        c.label = ref.label;
        c.algorithm_index = a;
        c.dataset_index = d;
        c.dataset = spec.datasets[d].id;
        c.preprocess = with_overrides(spec.datasets[d].preprocess, ref.preprocess_overrides);
        c.params = resolve_params(ref.name, info.params, combo, spec.path + ": " + ref.where + ".params");
        if (info.inner) {
          const std::string inner = info.inner(c.params).algorithm;
          check_compatible(spec, ref, find_algorithm(inner), spec.datasets[d], "the entry it fits, '" + inner + "': ");
        }
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
