// Joining a config's cell files into results.csv.
#include "experiments/run/runner.hpp"

#include <filesystem>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/config/formula.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/run/unit_files.hpp"
#include "experiments/store/results.hpp"

namespace dpf {

namespace fs = std::filesystem;

MergeReport merge_experiment(const ExperimentSpec& spec, const std::string& results_root, bool allow_partial,
                             bool write_empty) {
  const std::string dir = experiment_dir(spec, results_root);
  MergeReport m;
  if (!spec.formula.empty()) {
    const std::vector<ResultRow> rows = evaluate_formula(spec.paper, spec.experiment, spec.formula, spec.formula_grid,
                                                         spec.path);
    m.cells = m.present = m.rows = rows.size();
    m.path = dir + "/results.csv";
    write_rows_atomic(m.path, rows);
    m.written = true;
    return m;
  }
  const std::vector<Cell> cells = expand_cells(spec);
  m.cells = cells.size();
  std::vector<ResultRow> rows;
  const auto pieces = list_pieces(dir + "/cells");
  const int tasks = per_cell_tasks(spec);
  for (const Cell& c : cells) {
    std::string p = cell_path(dir, c);
    const std::string what = c.label + " on " + c.dataset + " (" + c.params.canonical() + ")";
    if (!fs::exists(p)) {
      // A cell computed in pieces by several shards: joined here when they cover it.
      auto it = pieces.find(c.id);
      int covered = 0;
      if (it != pieces.end())
        if (auto joined = rows_from_pieces(it->second, c.id, tasks, &covered)) {
          write_cell(p, *joined);
          ++m.present;
          for (auto& r : *joined) rows.push_back(std::move(r));
          continue;
        }
      m.missing.push_back(what + (covered > 0 ? " (" + std::to_string(covered) + " of " + std::to_string(tasks) +
                                                    " tasks in pieces)" : ""));
      continue;
    }
    try {
      std::vector<ResultRow> cell_rows = read_cell(p, {c.id, static_cast<std::size_t>(per_cell_tasks(spec))});
      ++m.present;
      for (auto& r : cell_rows) rows.push_back(std::move(r));
    } catch (const Error& e) {
      m.invalid.push_back(what + ": " + clip(e.what()));
    }
  }
  m.rows = rows.size();
  m.path = dir + "/results.csv";
  // A partial table would silently replace a complete one: written only when asked for.
  if (m.present < m.cells && !allow_partial) return m;
  if (m.present == 0 && !write_empty) return m;
  write_rows_atomic(m.path, rows);
  m.written = true;
  return m;
}

}  // namespace dpf
