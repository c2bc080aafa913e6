#include "core/data/loaders.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/util/error.hpp"
#include "core/util/input_check.hpp"

namespace dpf {

namespace {

bool is_gzip(std::string_view bytes) { return bytes.size() >= 2 && bytes.substr(0, 2) == "\x1f\x8b"; }

// Inflates every gzip member in turn (concatenated members are legal gzip).
std::string gunzip(const std::string& in, const std::string& path) {
  std::string out;
  out.reserve(in.size() * 4);
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) fail("cannot initialise zlib for ", path);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  char buf[1 << 16];
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    int rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof(buf) - zs.avail_out);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      if (inflateReset(&zs) != Z_OK) break;
      continue;
    }
    if (rc != Z_OK) {
      std::string msg = zs.msg ? zs.msg : "unknown error";
      inflateEnd(&zs);
      fail(path, ": corrupt gzip data (", msg, ")");
    }
    if (zs.avail_in == 0 && zs.avail_out != 0) {
      inflateEnd(&zs);
      fail(path, ": truncated gzip data");
    }
  }
  inflateEnd(&zs);
  return out;
}

std::string_view trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return s.substr(b, e - b);
}

void default_names(RawTable& t) {
  std::size_t width = t.columns.size();
  for (const auto& r : t.rows) width = std::max(width, r.size());
  for (std::size_t c = t.columns.size(); c < width; ++c) t.columns.push_back("c" + std::to_string(c));
}

// Splits the text into lines (LF, CRLF or a missing final newline), calling f(line, line_number)
// for each line after skip_lines. Used by the line-oriented formats.
template <typename F>
void for_each_line(const std::string& text, int skip_lines, F&& f) {
  std::size_t pos = 0, line_no = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    pos = nl + 1;
    if (static_cast<int>(line_no) <= skip_lines) continue;
    f(line, line_no);
  }
}

// RFC 4180 CSV: quoted fields may hold the delimiter, doubled quotes and line breaks. Unquoted
// fields are trimmed of blanks (UCI files often use ", " as the separator).
RawTable parse_csv(const std::string& text, const TableFormat& fmt, const std::string& source) {
  RawTable t;
  t.source = source;
  const char d = fmt.delimiter, q = fmt.quote;
  std::size_t pos = 0, line = 1;
  // skip_lines counts physical lines.
  for (int s = 0; s < fmt.skip_lines && pos < text.size(); ++s) {
    std::size_t nl = text.find('\n', pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    ++line;
  }
  bool need_header = fmt.header;
  std::vector<std::string> row;
  std::string cell;
  const std::size_t n = text.size();
  while (pos < n) {
    std::size_t row_line = line;
    // Comment and blank lines.
    if (fmt.comment != '\0' && text[pos] == fmt.comment) {
      std::size_t nl = text.find('\n', pos);
      pos = nl == std::string::npos ? n : nl + 1;
      ++line;
      continue;
    }
    if (text[pos] == '\n' || (text[pos] == '\r' && pos + 1 < n && text[pos + 1] == '\n') ||
        (text[pos] == '\r' && pos + 1 == n)) {
      pos += text[pos] == '\r' ? 2 : 1;
      ++line;
      continue;
    }
    row.clear();
    bool end_of_row = false;
    while (!end_of_row) {
      cell.clear();
      // Leading blanks before a quote are allowed.
      std::size_t p = pos;
      while (p < n && (text[p] == ' ' || text[p] == '\t') && text[p] != d) ++p;
      if (p < n && text[p] == q) {
        pos = p + 1;
        for (;;) {
          if (pos >= n) fail(source, " line ", row_line, ": unterminated quoted field");
          char c = text[pos];
          if (c == q) {
            if (pos + 1 < n && text[pos + 1] == q) {
              cell.push_back(q);
              pos += 2;
              continue;
            }
            ++pos;
            break;
          }
          if (c == '\n') ++line;
          cell.push_back(c);
          ++pos;
        }
        // Skip blanks after the closing quote.
        while (pos < n && (text[pos] == ' ' || text[pos] == '\t') && text[pos] != d) ++pos;
        row.push_back(cell);
      } else {
        std::size_t b = pos;
        while (pos < n && text[pos] != d && text[pos] != '\n') ++pos;
        row.emplace_back(trim(std::string_view(text.data() + b, pos - b)));
      }
      if (pos >= n) {
        end_of_row = true;
      } else if (text[pos] == d) {
        ++pos;
      } else if (text[pos] == '\n') {
        ++pos;
        ++line;
        end_of_row = true;
      } else if (text[pos] == '\r') {
        pos += (pos + 1 < n && text[pos + 1] == '\n') ? 2 : 1;
        ++line;
        end_of_row = true;
      } else {
        fail(source, " line ", row_line, ": unexpected character '", text[pos], "' after a quoted field");
      }
    }
    if (row.size() == 1 && row[0].empty()) continue;  // a line of blanks
    if (need_header) {
      t.columns = row;
      need_header = false;
      continue;
    }
    t.rows.push_back(row);
    t.line_of_row.push_back(row_line);
  }
  return t;
}

RawTable parse_whitespace(const std::string& text, const TableFormat& fmt, const std::string& source) {
  RawTable t;
  t.source = source;
  bool need_header = fmt.header;
  std::vector<std::string> row;
  for_each_line(text, fmt.skip_lines, [&](std::string_view line, std::size_t no) {
    if (fmt.comment != '\0' && !line.empty() && line[0] == fmt.comment) return;
    row.clear();
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      std::size_t b = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      if (i > b) row.emplace_back(line.substr(b, i - b));
      if (fmt.max_fields > 0 && row.size() == static_cast<std::size_t>(fmt.max_fields)) break;
    }
    if (row.empty()) return;
    if (need_header) {
      t.columns = row;
      need_header = false;
      return;
    }
    t.rows.push_back(row);
    t.line_of_row.push_back(no);
  });
  return t;
}

// Splits one ARFF data line or attribute list on commas, honouring '...' and "..." quotes.
void split_arff(std::string_view line, std::vector<std::string>& out, const std::string& source, std::size_t no) {
  out.clear();
  std::size_t i = 0;
  for (;;) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::string cell;
    if (i < line.size() && (line[i] == '\'' || line[i] == '"')) {
      char q = line[i++];
      for (;;) {
        if (i >= line.size()) fail(source, " line ", no, ": unterminated quoted value");
        if (line[i] == '\\' && i + 1 < line.size()) {
          cell.push_back(line[i + 1]);
          i += 2;
          continue;
        }
        if (line[i] == q) {
          ++i;
          break;
        }
        cell.push_back(line[i++]);
      }
      while (i < line.size() && line[i] != ',') ++i;
    } else {
      std::size_t b = i;
      while (i < line.size() && line[i] != ',') ++i;
      cell = std::string(trim(line.substr(b, i - b)));
    }
    out.push_back(std::move(cell));
    if (i >= line.size()) break;
    ++i;  // the comma
  }
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

RawTable parse_arff(const std::string& text, const TableFormat& fmt, const std::string& source) {
  RawTable t;
  t.source = source;
  bool in_data = false;
  std::vector<std::string> row;
  for_each_line(text, fmt.skip_lines, [&](std::string_view raw, std::size_t no) {
    std::string_view line = trim(raw);
    if (line.empty() || line[0] == '%') return;
    if (!in_data) {
      if (starts_with_ci(line, "@attribute")) {
        std::string_view rest = trim(line.substr(10));
        std::string name;
        if (!rest.empty() && (rest[0] == '\'' || rest[0] == '"')) {
          char q = rest[0];
          std::size_t e = rest.find(q, 1);
          if (e == std::string_view::npos) fail(source, " line ", no, ": unterminated attribute name");
          name = std::string(rest.substr(1, e - 1));
        } else {
          std::size_t e = rest.find_first_of(" \t");
          name = std::string(rest.substr(0, e));
        }
        t.columns.push_back(name);
      } else if (starts_with_ci(line, "@data")) {
        in_data = true;
      }
      return;
    }
    if (line[0] == '{') fail(source, " line ", no, ": sparse ARFF rows are not supported");
    split_arff(line, row, source, no);
    t.rows.push_back(row);
    t.line_of_row.push_back(no);
  });
  if (!in_data) fail(source, ": no @data section (is this an ARFF file?)");
  return t;
}

// LIBSVM "label idx:val ..." -> dense columns label, 1..d with absent entries "0".
RawTable parse_libsvm(const std::string& text, const TableFormat& fmt, const std::string& source) {
  RawTable t;
  t.source = source;
  struct Entry {
    std::size_t idx;
    std::string_view val;
  };
  std::vector<std::pair<std::string_view, std::vector<Entry>>> lines;
  std::vector<std::size_t> numbers;
  std::size_t max_idx = 0, max_idx_line = 0;  // the largest index and the row giving it
  for_each_line(text, fmt.skip_lines, [&](std::string_view line, std::size_t no) {
    line = trim(line);
    if (line.empty() || (fmt.comment != '\0' && line[0] == fmt.comment)) return;
    std::size_t i = line.find_first_of(" \t");
    std::string_view label = line.substr(0, i);
    std::vector<Entry> entries;
    while (i != std::string_view::npos && i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i >= line.size()) break;
      std::size_t e = line.find_first_of(" \t", i);
      std::string_view tok = line.substr(i, e == std::string_view::npos ? std::string_view::npos : e - i);
      std::size_t colon = tok.find(':');
      if (colon == std::string_view::npos || colon == 0)
        fail(source, " line ", no, ": '", clip(std::string(tok)), "' is not of the form index:value");
      std::size_t idx = 0;
      for (char c : tok.substr(0, colon)) {
        if (c < '0' || c > '9') fail(source, " line ", no, ": '", clip(std::string(tok)), "' has a non-numeric index");
        idx = idx * 10 + static_cast<std::size_t>(c - '0');
        // Checked per digit, so a long index cannot wrap around.
        if (idx >= kMaxLibsvmCells)
          fail(source, " line ", no, ": feature index '", clip(std::string(tok.substr(0, colon))),
               "' is too large (the dense table is limited to ", kMaxLibsvmCells, " cells)");
      }
      if (idx == 0) fail(source, " line ", no, ": feature index 0 (LIBSVM indices start at 1)");
      if (idx > max_idx) {
        max_idx = idx;
        max_idx_line = lines.size();
      }
      entries.push_back({idx, tok.substr(colon + 1)});
      i = e;
    }
    lines.emplace_back(label, std::move(entries));
    numbers.push_back(no);
  });
  std::size_t d = fmt.libsvm_features > 0 ? static_cast<std::size_t>(fmt.libsvm_features) : max_idx;
  if (max_idx > d) fail(source, ": feature index ", max_idx, " exceeds the declared ", d, " features");
  const std::size_t max_cells = std::min(kMaxLibsvmCells, kLibsvmCellsPerByte * text.size() + kLibsvmCellsFloor);
  const std::size_t n_rows = std::max<std::size_t>(lines.size(), 1);  // the header row counts too
  if (d + 1 > max_cells / n_rows)
    fail(source, ": ", n_rows, " rows x ", d + 1, " columns (label and features 1..", d, ") exceed the limit of ",
         max_cells, " cells of a LIBSVM table (", kLibsvmCellsPerByte, " per byte of the file + ", kLibsvmCellsFloor,
         ", at most ", kMaxLibsvmCells, ")",
         fmt.libsvm_features > 0 || numbers.empty()
             ? std::string(" (d is the declared libsvm_features)")
             : " (d is the largest index, on line " + std::to_string(numbers[max_idx_line]) + ")");
  t.columns.push_back("label");
  for (std::size_t j = 1; j <= d; ++j) t.columns.push_back(std::to_string(j));
  t.rows.reserve(lines.size());
  for (std::size_t r = 0; r < lines.size(); ++r) {
    std::vector<std::string> row(d + 1, "0");
    row[0] = std::string(lines[r].first);
    for (const Entry& e : lines[r].second) row[e.idx] = std::string(e.val);
    t.rows.push_back(std::move(row));
  }
  t.line_of_row = std::move(numbers);
  return t;
}

}  // namespace

std::string gunzip_if_gzip(std::string bytes, const std::string& path) {
  if (is_gzip(bytes)) return gunzip(bytes, path);
  return bytes;
}

std::string read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open ", path);
  std::string bytes;
  in.seekg(0, std::ios::end);
  auto size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) {
    bytes.resize(static_cast<std::size_t>(size));
    in.read(bytes.data(), size);
  }
  if (!in && !in.eof()) fail("error reading ", path);
  return gunzip_if_gzip(std::move(bytes), path);
}

RawTable parse_table(const std::string& text, const TableFormat& format, const std::string& source) {
  RawTable t;
  if (format.type == "csv") {
    t = parse_csv(text, format, source);
  } else if (format.type == "whitespace") {
    t = parse_whitespace(text, format, source);
  } else if (format.type == "arff") {
    t = parse_arff(text, format, source);
  } else if (format.type == "libsvm") {
    t = parse_libsvm(text, format, source);
  } else {
    fail(source, ": unknown table format '", format.type, "' (expected csv, arff, libsvm or whitespace)");
  }
  default_names(t);
  return t;
}

RawTable read_table(const std::string& path, const TableFormat& format) {
  return parse_table(read_file_bytes(path), format, path);
}

}  // namespace dpf
