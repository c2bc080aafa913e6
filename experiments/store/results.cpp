#include "experiments/store/results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/data/loaders.hpp"
#include "core/util/error.hpp"

namespace dpf {

void ResultRow::set(const std::string& column, const std::string& value) {
  for (auto& [k, v] : cells_)
    if (k == column) { v = value; return; }
  cells_.emplace_back(column, value);
}

void ResultRow::set(const std::string& column, double value) { set(column, format_double(value)); }

std::string ResultRow::get(const std::string& column) const {
  for (const auto& [k, v] : cells_)
    if (k == column) return v;
  return {};
}


std::string csv_escape(const std::string& v) {
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string o = "\"";
  for (char c : v) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

void write_text_atomic(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) fail("cannot create the folder of '", path, "': ", ec.message());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  // On any failure the temporary file goes too: a full disk leaves no *.tmp.<pid> behind.
  const auto give_up = [&](const std::string& why) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    fail("cannot write '", path, "': ", why);
  };
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) give_up("cannot create '" + tmp + "'");
    out << text;
    out.flush();
    if (!out) give_up("writing '" + tmp + "' failed (disk full?)");
  }
  // fsync the data before the rename makes it visible.
  if (FILE* f = std::fopen(tmp.c_str(), "rb")) {
    const bool synced = ::fsync(fileno(f)) == 0;
    std::fclose(f);
    if (!synced) give_up("fsync of '" + tmp + "' failed (disk full?)");
  }
  fs::rename(tmp, path, ec);
  if (ec) give_up("rename from '" + tmp + "' failed: " + ec.message());
}

std::string rows_to_csv(const std::vector<ResultRow>& rows) {
  std::vector<std::string> columns;
  for (const auto& r : rows)
    for (const auto& [k, v] : r.cells())
      if (std::find(columns.begin(), columns.end(), k) == columns.end()) columns.push_back(k);
  std::string text;
  for (std::size_t i = 0; i < columns.size(); ++i) text += (i ? "," : "") + csv_escape(columns[i]);
  text += "\n";
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < columns.size(); ++i) text += (i ? "," : "") + csv_escape(r.get(columns[i]));
    text += "\n";
  }
  return text;
}

void require_writable_folder(const std::string& dir, const std::string& what) {
  namespace fs = std::filesystem;
  const std::string fix = "; choose another --results root or make it writable";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) fail(what, " '", dir, "' cannot be created: ", ec.message(), fix);
  const std::string probe = dir + "/.write-probe." + std::to_string(::getpid());
  {
    std::ofstream out(probe, std::ios::binary | std::ios::trunc);
    if (!out || !(out << "probe\n") || !out.flush()) {
      std::error_code ignored;
      fs::remove(probe, ignored);
      fail(what, " '", dir, "' is not writable (cannot create a file there)", fix);
    }
  }
  fs::remove(probe, ec);
  if (ec) fail(what, " '", dir, "': cannot remove a file created there: ", ec.message(), fix);
}

void write_rows_atomic(const std::string& path, const std::vector<ResultRow>& rows) {
  write_text_atomic(path, rows_to_csv(rows));
}

std::vector<ResultRow> read_rows(const std::string& path) {
  TableFormat fmt;
  fmt.type = "csv";
  fmt.header = true;
  RawTable t = read_table(path, fmt);
  std::vector<ResultRow> rows;
  rows.reserve(t.rows.size());
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto& cells = t.rows[i];
    if (cells.size() != t.columns.size())
      fail(path, " line ", t.line_of_row[i], ": ", cells.size(), " fields, the header has ", t.columns.size());
    ResultRow r;
    for (std::size_t i = 0; i < t.columns.size() && i < cells.size(); ++i) r.set(t.columns[i], cells[i]);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace dpf
