#include "experiments/store/cell_store.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"

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

// The rows when they number expect.rows and all carry the cell's id; else fails naming the file.
std::vector<ResultRow> parse_rows(const std::string& csv, const CellExpect& expect) {
  std::vector<ResultRow> rows = read_rows(csv);
  if (rows.size() != expect.rows) fail(csv, ": ", rows.size(), " rows, the cell has ", expect.rows, " tasks");
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].get("cell_id") != expect.id)
      fail(csv, " row ", i + 1, ": cell_id '", clip(rows[i].get("cell_id")), "', expected '", expect.id, "'");
  return rows;
}

// Checks the CSV against its record; fills `rec` and returns "" when they agree. A cell without a
// record (written before records existed) is checked by its content instead.
std::string check(const std::string& csv, const CellExpect& expect, Record& rec) {
  std::error_code ec;
  if (!fs::exists(csv, ec)) return csv + ": missing";
  std::string rtext;
  const std::string ok = cell_record_path(csv);
  if (!fs::exists(ok, ec)) {
    try {
      check_text(read_text_limited(csv, std::size_t{1} << 30, "cell file"), csv, true);
      rec.rows = parse_rows(csv, expect).size();
      return "";
    } catch (const Error& e) {
      return "no completion record " + fs::path(ok).filename().string() + " and the content fails: " + clip(e.what());
    }
  }
  if (!read_small(ok, rtext, 4096) || !parse_record(rtext, rec)) return ok + ": not a dpforest cell record";
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
  // Every value that ends in results.csv (labels, parameters, model columns, host) must be UTF-8.
  check_text(text, cell_csv + " (rows to write)", true);
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

std::string cell_problem(const std::string& cell_csv, const CellExpect& expect) {
  Record rec;
  std::string why = check(cell_csv, expect, rec);
  if (why.empty() && rec.rows != expect.rows)
    why = cell_csv + ": its record says " + std::to_string(rec.rows) + " rows, the cell has " +
          std::to_string(expect.rows) + " tasks";
  return why;
}

std::vector<ResultRow> read_cell(const std::string& cell_csv, const CellExpect& expect) {
  const std::string why = cell_problem(cell_csv, expect);
  if (!why.empty()) fail(why);
  return parse_rows(cell_csv, expect);
}

}  // namespace dpf

namespace dpf {

std::map<std::string, std::vector<PieceFile>> list_pieces(const std::string& cells_dir) {
  std::map<std::string, std::vector<PieceFile>> out;
  std::error_code ec;
  if (!fs::is_directory(cells_dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(cells_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".csv") continue;
    const auto part = name.find(".part-");
    if (part == std::string::npos) continue;
    int first = -1, end = -1;
    char tail[8] = {};
    if (std::sscanf(name.c_str() + part, ".part-%d-%d%7s", &first, &end, tail) != 3 || std::string(tail) != ".csv" ||
        first < 0 || end <= first)
      continue;
    out[name.substr(0, part)].push_back({first, end, e.path().string()});
  }
  for (auto& [id, v] : out)
    std::sort(v.begin(), v.end(), [](const PieceFile& a, const PieceFile& b) {
      return a.first != b.first ? a.first < b.first : a.end > b.end;
    });
  return out;
}

std::optional<std::vector<ResultRow>> rows_from_pieces(const std::vector<PieceFile>& pieces, const std::string& cell_id,
                                                       int tasks, int* covered) {
  std::vector<const PieceFile*> valid;
  for (const PieceFile& p : pieces)
    if (p.end <= tasks && cell_problem(p.path, {cell_id, static_cast<std::size_t>(p.end - p.first)}).empty())
      valid.push_back(&p);
  // Longest reach from 0 through contiguous valid pieces (pieces of several layouts may coexist).
  std::vector<int> from(static_cast<std::size_t>(tasks) + 1, -1);  // piece index reaching this task
  std::vector<bool> reach(static_cast<std::size_t>(tasks) + 1, false);
  reach[0] = true;
  for (int t = 0; t < tasks; ++t) {
    if (!reach[static_cast<std::size_t>(t)]) continue;
    for (std::size_t k = 0; k < valid.size(); ++k)
      if (valid[k]->first == t && !reach[static_cast<std::size_t>(valid[k]->end)]) {
        reach[static_cast<std::size_t>(valid[k]->end)] = true;
        from[static_cast<std::size_t>(valid[k]->end)] = static_cast<int>(k);
      }
  }
  if (covered) {
    int c = 0;
    for (const PieceFile* p : valid) c += p->end - p->first;  // an estimate when layouts overlap
    *covered = std::min(c, tasks);
  }
  if (!reach[static_cast<std::size_t>(tasks)]) return std::nullopt;
  std::vector<const PieceFile*> chain;
  for (int t = tasks; t > 0;) {
    const PieceFile* p = valid[static_cast<std::size_t>(from[static_cast<std::size_t>(t)])];
    chain.push_back(p);
    t = p->first;
  }
  std::vector<ResultRow> rows;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    try {
      for (auto& r : read_cell((*it)->path, {cell_id, static_cast<std::size_t>((*it)->end - (*it)->first)}))
        rows.push_back(std::move(r));
    } catch (const Error&) {
      return std::nullopt;  // changed since it was checked
    }
  }
  return rows;
}

}  // namespace dpf
