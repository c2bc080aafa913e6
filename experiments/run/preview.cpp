// `dpforest run --dry-run`: the work of a shard, what the results folder holds, the cost estimate.
#include "experiments/run/runner.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/cost/cost_model.hpp"
#include "experiments/run/unit_files.hpp"

namespace dpf {

RunPreview preview_run(const ExperimentSpec& spec, const RunOptions& opt) {
  require(opt.threads >= 1, "--threads must be >= 1");
  require(opt.shard_count >= 1 && opt.shard_index >= 0 && opt.shard_index < opt.shard_count,
          "--shard i/N needs 0 <= i < N");
  RunPreview p;
  p.threads = opt.threads;
  if (!spec.formula.empty()) return p;  // a closed-form table: no tasks
  const std::vector<Cell> cells = expand_cells(spec);
  const std::string dir = experiment_dir(spec, opt.results_root);
  const int per_cell = per_cell_tasks(spec);
  const WorkPlan plan = plan_work(spec, cells, opt.shard_count);
  const auto pieces = list_pieces(dir + "/cells");
  p.cells = cells.size();
  p.tasks = cells.size() * static_cast<std::size_t>(per_cell);
  std::map<std::size_t, std::size_t> row_of;  // cell index -> per_cell row
  for (const WorkUnit& u : plan.units) {
    if (u.shard != opt.shard_index) continue;
    const Cell& c = cells[u.cell];
    auto [it, fresh] = row_of.try_emplace(u.cell, p.per_cell.size());
    if (fresh) {
      RunPreview::CellCost cc;
      const TaskShape shape = task_shape(spec, c);
      cc.id = c.id, cc.label = c.label, cc.algorithm = c.algorithm, cc.dataset = c.dataset, cc.task = shape.task;
      cc.cost_key = cost_key(c);
      cc.train_rows = shape.train_rows, cc.features = shape.features, cc.numeric_features = shape.numeric_features;
      cc.trees = shape.trees, cc.depth = shape.depth;
      cc.classes = shape.classes;
      cc.task_seconds = estimated_task_seconds(spec, c);
      if (!shape.mirrored) ++p.cells_not_mirrored;
      // Done: a valid cell file, or valid pieces that cover it (joined by the next run or merge).
      cc.done = cell_problem(cell_path(dir, c), {c.id, static_cast<std::size_t>(per_cell)}).empty();
      if (!cc.done)
        if (auto pc = pieces.find(c.id); pc != pieces.end()) cc.done = rows_from_pieces(pc->second, c.id, per_cell).has_value();
      p.per_cell.push_back(cc);
    }
    RunPreview::CellCost& cc = p.per_cell[it->second];
    const int n = u.end - u.first;
    cc.tasks += n;
    p.shard_tasks += static_cast<std::size_t>(n);
    p.cpu_seconds += cc.task_seconds * n;
    const bool unit_done =
        cc.done || (!u.whole && cell_problem(unit_path(dir, u), {c.id, static_cast<std::size_t>(n)}).empty());
    if (unit_done) continue;
    p.tasks_left += static_cast<std::size_t>(n);
    p.cpu_seconds_left += cc.task_seconds * n;
    p.largest_task_seconds = std::max(p.largest_task_seconds, cc.task_seconds);
  }
  p.shard_cells = p.per_cell.size();
  for (const auto& cc : p.per_cell) p.cells_done += cc.done ? 1 : 0;
  p.wall_seconds_left = estimated_wall_seconds(p.cpu_seconds_left, p.largest_task_seconds, p.tasks_left, opt.threads);
  return p;
}

std::string format_preview(const ExperimentSpec& spec, const RunOptions& opt, const RunPreview& p) {
  std::string out;
  char buf[512];
  const std::string name = spec.paper + "/" + spec.experiment;
  if (!spec.formula.empty())
    return name + ": a closed-form table (formula): no tasks, evaluated in microseconds\n";
  std::snprintf(buf, sizeof buf, "%s: %zu cells, %zu tasks (%d per cell)\n", name.c_str(), p.cells, p.tasks,
                per_cell_tasks(spec));
  out += buf;
  if (opt.shard_count > 1) {
    std::snprintf(buf, sizeof buf, "  shard %d/%d: %zu cells (or pieces of them), %zu tasks\n", opt.shard_index,
                  opt.shard_count, p.shard_cells, p.shard_tasks);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "  already done in %s: %zu of %zu cells; %zu tasks left\n",
                experiment_dir(spec, opt.results_root).c_str(), p.cells_done, p.shard_cells, p.tasks_left);
  out += buf;
  if (p.cells_not_mirrored > 0) {
    std::snprintf(buf, sizeof buf, "  %zu cells on datasets not mirrored here (the run skips them; estimated at 0 s)\n",
                  p.cells_not_mirrored);
    out += buf;
  }
  for (const std::string& note : excluded_cell_notes(spec)) out += "  excluded by the config: " + note + "\n";
  std::snprintf(buf, sizeof buf,
                "  estimated CPU time%s: %s in all, %s left (largest task %s); wall time left at %d thread%s: %s\n",
                opt.shard_count > 1 ? " of this shard" : "", human_seconds(p.cpu_seconds).c_str(), human_seconds(p.cpu_seconds_left).c_str(),
                human_seconds(p.largest_task_seconds).c_str(), p.threads, p.threads == 1 ? "" : "s",
                human_seconds(p.wall_seconds_left).c_str());
  out += buf;
  out += "  (calibrated cost model, experiments/cost/cost_table.inc: CPU seconds of the calibrating machine)\n";
  return out;
}

}  // namespace dpf
