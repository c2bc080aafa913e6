// Where a run keeps its units (work_plan.hpp): results/<paper>/<experiment>/cells/<name>.csv with
// their .ok records (cell_store.hpp), .error and .claim files beside them.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "experiments/config/sweep.hpp"
#include "experiments/run/work_plan.hpp"
#include "experiments/store/cell_store.hpp"

namespace dpf {

inline std::string cell_path(const std::string& dir, const Cell& c) { return dir + "/cells/" + c.id + ".csv"; }
inline std::string unit_path(const std::string& dir, const WorkUnit& u) { return dir + "/cells/" + u.name + ".csv"; }
inline int per_cell_tasks(const ExperimentSpec& spec) { return spec.protocol.repetitions * spec.protocol.n_folds(); }

// The unit's own file is complete and unchanged.
inline bool unit_file_done(const std::string& dir, const WorkUnit& u, const Cell& c) {
  return cell_problem(unit_path(dir, u), {c.id, static_cast<std::size_t>(u.end - u.first)}).empty();
}
// A piece (not a whole cell) whose own file is complete.
inline bool piece_done(const std::string& dir, const WorkUnit& u, const Cell& c) { return !u.whole && unit_file_done(dir, u, c); }

}  // namespace dpf
