#include "experiments/run/work_plan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/util/error.hpp"
#include "experiments/cost/cost_model.hpp"

namespace dpf {

double estimated_task_cost(const ExperimentSpec& spec, const Cell& cell) { return estimated_task_seconds(spec, cell); }

std::string piece_name(const std::string& cell_id, int first, int end) {
  return cell_id + ".part-" + std::to_string(first) + "-" + std::to_string(end);
}

double WorkPlan::balance() const {
  if (shard_cost.empty() || total_cost <= 0) return 1;
  const double mean = total_cost / static_cast<double>(shard_cost.size());
  return *std::max_element(shard_cost.begin(), shard_cost.end()) / mean;
}

WorkPlan plan_work(const ExperimentSpec& spec, const std::vector<Cell>& cells, int shard_count, Assignment how) {
  require(shard_count >= 1, "a plan needs at least one shard");
  WorkPlan plan;
  plan.shard_count = shard_count;
  plan.tasks_per_cell = spec.protocol.repetitions * spec.protocol.n_folds();
  const int tasks = plan.tasks_per_cell;
  std::vector<double> task_cost(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    task_cost[i] = estimated_task_cost(spec, cells[i]);
    plan.total_cost += task_cost[i] * tasks;
  }
  const double piece_target = plan.total_cost / (4.0 * shard_count);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const double cost = task_cost[i] * tasks;
    int pieces = 1;
    if (how == Assignment::kByCost && shard_count > 1 && cost > piece_target && tasks > 1)
      pieces = static_cast<int>(std::min<double>(tasks, std::ceil(cost / piece_target)));
    for (int k = 0; k < pieces; ++k) {
      WorkUnit u;
      u.cell = i;
      u.first = tasks * k / pieces;
      u.end = tasks * (k + 1) / pieces;
      u.whole = pieces == 1;
      u.cost = task_cost[i] * (u.end - u.first);
      u.name = u.whole ? cells[i].id : piece_name(cells[i].id, u.first, u.end);
      u.shard = static_cast<int>(cells[i].index % static_cast<std::size_t>(shard_count));
      plan.units.push_back(u);
    }
  }
  plan.shard_cost.assign(static_cast<std::size_t>(shard_count), 0.0);
  if (how == Assignment::kByCost) {
    std::vector<std::size_t> order(plan.units.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return plan.units[a].cost > plan.units[b].cost; });
    for (std::size_t k : order) {
      const auto least = std::min_element(plan.shard_cost.begin(), plan.shard_cost.end());
      plan.units[k].shard = static_cast<int>(least - plan.shard_cost.begin());
      *least += plan.units[k].cost;
    }
  } else {
    for (const WorkUnit& u : plan.units) plan.shard_cost[static_cast<std::size_t>(u.shard)] += u.cost;
  }
  return plan;
}

void shard_from_slurm(const std::string& arg, const std::function<std::string(const char*)>& env, int& index,
                      int& count) {
  auto number = [&](const char* var, bool required) -> long {
    const std::string v = env(var);
    if (v.empty()) {
      if (required)
        fail("--shard ", arg, ": ", var, " is not set; run it inside a SLURM job array (sbatch --array=0-3), or give --shard i/N");
      return -1;
    }
    try {
      std::size_t used = 0;
      const long n = std::stol(v, &used);
      require(used == v.size() && n >= 0, "");
      return n;
    } catch (const std::exception&) {
      fail("--shard ", arg, ": ", var, "='", v, "' is not a non-negative integer");
    }
  };
  const long id = number("SLURM_ARRAY_TASK_ID", true);
  const long n_array = number("SLURM_ARRAY_TASK_COUNT", false);
  const long lo = number("SLURM_ARRAY_TASK_MIN", false), hi = number("SLURM_ARRAY_TASK_MAX", false);
  const long step = std::max(1L, number("SLURM_ARRAY_TASK_STEP", false));
  if (arg == "slurm") {
    require(n_array >= 1 && lo >= 0 && hi >= lo, "--shard slurm: SLURM_ARRAY_TASK_COUNT/MIN/MAX are not set; give --shard slurm/N");
    require((hi - lo) / step + 1 == n_array && (id - lo) % step == 0,
            "--shard slurm: the array indices (", lo, "-", hi, ", ", n_array,
            " tasks) are not one evenly spaced range; submit --array=A-B[:S], or give --shard slurm/N");
    index = static_cast<int>((id - lo) / step);
    count = static_cast<int>(n_array);
    return;
  }
  long n = -1;
  try {
    std::size_t used = 0;
    n = std::stol(arg.substr(6), &used);
    require(used == arg.size() - 6 && n >= 1, "");
  } catch (const std::exception&) {
    fail("--shard '", arg, "': expected slurm or slurm/N with N >= 1");
  }
  // The whole array (not a task resubmitted on its own) must cover each shard once.
  if (n_array > n)
    fail("--shard ", arg, ": the array has ", n_array, " tasks for ", n,
         " shards; submit --array with ", n, " indices (e.g. --array=0-", n - 1, ")");
  if (n_array == n && lo >= 0 && step > 1 && std::gcd(step, n) != 1)
    fail("--shard ", arg, ": array step ", step, " does not reach every shard mod ", n, "; use --array=0-", n - 1);
  index = static_cast<int>(id % n);
  count = static_cast<int>(n);
}

}  // namespace dpf
