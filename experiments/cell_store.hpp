// Cell files with a record of what was written (design.md §2: "finished cells are skipped on rerun").
// Next to results/<paper>/<experiment>/cells/<id>.csv, `<id>.ok` holds one line
//   dpforest-cell v1 rows=<N> bytes=<B> fnv1a64=<16 hex>
// written after the CSV. A cell is done only when both exist and the CSV still has that size and
// checksum: a truncated, emptied or overwritten file is not trusted (run recomputes it, merge reports
// it). The CSV itself is unchanged, so results.csv and the plot scripts see the same columns.
#pragma once
#include <string>
#include <vector>

#include "experiments/results.hpp"

namespace dpf {

std::string cell_record_path(const std::string& cell_csv);

// Writes the CSV, then its record; on failure neither is left behind.
void write_cell(const std::string& cell_csv, const std::vector<ResultRow>& rows);

// "" when the cell is complete and unchanged; otherwise why not (short, names the file).
std::string cell_problem(const std::string& cell_csv);

// The rows of a valid cell; fails naming the file when cell_problem() is not empty or the row
// count differs from the record.
std::vector<ResultRow> read_cell(const std::string& cell_csv);

}  // namespace dpf
