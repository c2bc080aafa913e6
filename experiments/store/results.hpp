// The long results table (design.md §7): one row per task, stored per cell as CSV
// (results/<paper>/<experiment>/cells/<cell_id>.csv, written atomically) and merged into
// results/<paper>/<experiment>/results.csv. Plots and checks read only this table.
#pragma once
#include "core/util/number_text.hpp"  // format_double: shortest round-trip text
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dpf {

// An ordered row: (column, value) in insertion order.
class ResultRow {
 public:
  void set(const std::string& column, const std::string& value);
  void set(const std::string& column, double value);
  const std::vector<std::pair<std::string, std::string>>& cells() const { return cells_; }
  std::string get(const std::string& column) const;  // "" if absent

 private:
  std::vector<std::pair<std::string, std::string>> cells_;
};

std::string csv_escape(const std::string& v);

// Writes rows (their union of columns, in first-seen order) to `path` via a temporary file and an
// atomic rename, so a reader never sees a half-written file.
std::string rows_to_csv(const std::vector<ResultRow>& rows);  // header + one line per row
void write_rows_atomic(const std::string& path, const std::vector<ResultRow>& rows);
void write_text_atomic(const std::string& path, const std::string& text);

// Creates `dir` when missing and proves that files can be created and removed there (a probe file);
// fails naming `what` and the folder otherwise, so a run stops before any work instead of after it.
void require_writable_folder(const std::string& dir, const std::string& what);

// Reads a results CSV back as rows (used by merge and check-published).
std::vector<ResultRow> read_rows(const std::string& path);


}  // namespace dpf
