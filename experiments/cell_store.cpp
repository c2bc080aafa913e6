#include "experiments/cell_store.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/error.hpp"

namespace dpf {

namespace fs = std::filesystem;

namespace {

struct Record {
  std::size_t rows = 0, bytes = 0;
  std::string checksum;
};

std::string fnv1a64(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string format_record(const Record& r) {
  return "dpforest-cell v1 rows=" + std::to_string(r.rows) + " bytes=" + std::to_string(r.bytes) +
         " fnv1a64=" + r.checksum + "\n";
}

bool parse_record(const std::string& text, Record& r) {
  unsigned long long rows = 0, bytes = 0;
  char sum[17] = {};
  if (text.size() > 200 ||
      std::sscanf(text.c_str(), "dpforest-cell v1 rows=%llu bytes=%llu fnv1a64=%16[0-9a-f]", &rows, &bytes, sum) != 3)
    return false;
  r.rows = rows;
  r.bytes = bytes;
  r.checksum = sum;
  return format_record(r) == text;
}

bool read_small(const std::string& path, std::string& out, std::size_t limit) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  const auto size = fs::file_size(path, ec);
  if (ec || size > limit) return false;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in) || in.eof();
}

// Checks the CSV against its record; fills `rec` and returns "" when they agree.
std::string check(const std::string& csv, Record& rec) {
  std::error_code ec;
  if (!fs::exists(csv, ec)) return csv + ": missing";
  std::string rtext;
  const std::string ok = cell_record_path(csv);
  if (!read_small(ok, rtext, 4096))
    return csv + ": no completion record " + fs::path(ok).filename().string() +
           " (interrupted write or an older dpforest); it will be recomputed";
  if (!parse_record(rtext, rec)) return ok + ": not a dpforest cell record";
  const auto size = fs::file_size(csv, ec);
  if (ec) return csv + ": cannot read: " + ec.message();
  if (size != rec.bytes)
    return csv + ": " + std::to_string(size) + " bytes, the record says " + std::to_string(rec.bytes) +
           " (truncated or changed after it was written)";
  std::ifstream in(csv, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (fnv1a64(ss.str()) != rec.checksum) return csv + ": checksum differs from its record (changed after it was written)";
  return "";
}

}  // namespace

std::string cell_record_path(const std::string& cell_csv) {
  fs::path p(cell_csv);
  return (p.parent_path() / (p.stem().string() + ".ok")).string();
}

void write_cell(const std::string& cell_csv, const std::vector<ResultRow>& rows) {
  const std::string text = rows_to_csv(rows);
  const std::string ok = cell_record_path(cell_csv);
  std::error_code ignored;
  fs::remove(ok, ignored);  // a stale record must never vouch for the new file
  try {
    write_text_atomic(cell_csv, text);
    write_text_atomic(ok, format_record({rows.size(), text.size(), fnv1a64(text)}));
  } catch (const Error&) {
    fs::remove(cell_csv, ignored);
    fs::remove(ok, ignored);
    throw;
  }
}

std::string cell_problem(const std::string& cell_csv) {
  Record rec;
  return check(cell_csv, rec);
}

std::vector<ResultRow> read_cell(const std::string& cell_csv) {
  Record rec;
  const std::string why = check(cell_csv, rec);
  if (!why.empty()) fail(why);
  std::vector<ResultRow> rows = read_rows(cell_csv);
  if (rows.size() != rec.rows)
    fail(cell_csv, ": ", rows.size(), " rows, its record says ", rec.rows);
  return rows;
}

}  // namespace dpf
