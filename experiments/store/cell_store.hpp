// Cell files with a record of what was written (design.md §2: "finished cells are skipped on rerun").
// Next to results/<paper>/<experiment>/cells/<id>.csv, `<id>.ok` holds one line
//   dpforest-cell v1 rows=<N> bytes=<B> fnv1a64=<16 hex>
// written after the CSV. A cell is done only when both exist and the CSV still has that size and
// checksum: a truncated, emptied or overwritten file is not trusted (run recomputes it, merge reports
// it). The CSV itself is unchanged, so results.csv and the plot scripts see the same columns.
// Either way the rows must number repetitions x folds and carry the cell's id: a cell written before
// records existed is accepted only when it passes those checks and is valid UTF-8.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "experiments/store/results.hpp"

namespace dpf {

std::string cell_record_path(const std::string& cell_csv);

struct CellExpect {
  std::string id;        // the cell_id column of every row
  std::size_t rows = 0;  // repetitions x folds
};

// Writes the CSV, then its record; on failure neither is left behind.
void write_cell(const std::string& cell_csv, const std::vector<ResultRow>& rows);

// "" when the cell is complete and unchanged; otherwise why not (short, names the file).
std::string cell_problem(const std::string& cell_csv, const CellExpect& expect);

// The rows of a valid cell; fails naming the file with cell_problem()'s reason otherwise.
std::vector<ResultRow> read_cell(const std::string& cell_csv, const CellExpect& expect);

}  // namespace dpf

namespace dpf {

// Pieces of a cell (a sharded run may cut an expensive cell's tasks, experiments/run/work_plan.hpp):
// cells/<id>.part-<first>-<end>.csv, each a cell file of its own (with its .ok record) holding tasks
// [first, end) in slot order.
struct PieceFile {
  int first = 0, end = 0;
  std::string path;
};
// Every cells/<id>.part-A-B.csv under `cells_dir`, by cell id (one listing of the folder).
std::map<std::string, std::vector<PieceFile>> list_pieces(const std::string& cells_dir);
// The rows of tasks [0, tasks) joined from valid pieces in slot order, when the valid pieces cover
// them exactly (any mix of layouts); nullopt otherwise. `covered` receives the tasks they do cover.
std::optional<std::vector<ResultRow>> rows_from_pieces(const std::vector<PieceFile>& pieces, const std::string& cell_id,
                                                       int tasks, int* covered = nullptr);

}  // namespace dpf
