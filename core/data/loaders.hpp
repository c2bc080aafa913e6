// Reading raw tables: CSV (quotes, CRLF, header or not, any delimiter), ARFF, LIBSVM, whitespace
// separated, each optionally gzip-compressed (detected by the gzip magic bytes, not the name).
// A RawTable keeps cells as strings; turning them into a typed Dataset is the registry's job
// (datasets/registry.hpp), which knows the column kinds and missing-value markers.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace dpf {

// 4.3 G cells: HIGGS as LIBSVM (11M x 29 = 319 M cells) must load (the scale benchmark);
// adult-libsvm is 32,561 x 124 = 4.0 M (about 2 cells per byte of its file).
inline constexpr std::size_t kMaxLibsvmCells = std::size_t{1} << 32;
// ... and at most this many cells per byte of the file, plus kLibsvmCellsFloor (a 15-byte line
// "+1 5171752:1" would otherwise be a 5 M cell table).
inline constexpr std::size_t kLibsvmCellsPerByte = 64;
inline constexpr std::size_t kLibsvmCellsFloor = std::size_t{1} << 16;

struct TableFormat {
  std::string type = "csv";  // csv | arff | libsvm | whitespace
  char delimiter = ',';      // csv only
  bool header = false;       // csv/whitespace: first (non-skipped) line names the columns
  int skip_lines = 0;        // lines dropped before the header/data (e.g. the credit xls export's 1st row)
  char quote = '"';
  char comment = '\0';       // lines starting with it are skipped ('%' for ARFF is implicit)
  int max_fields = 0;        // whitespace only: fields after the first max_fields are ignored (0 = keep all)
  int libsvm_features = 0;   // libsvm only: number of features d (0 = the largest index in the file)
};

struct RawTable {
  std::string source;                      // file path, for messages
  std::vector<std::string> columns;        // from the header / ARFF attributes; else "c0", "c1", ...
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> line_of_row;    // 1-based line number in the file of each row (messages)
};

// CSV: unquoted cells are trimmed of blanks and CR; quoted cells are kept verbatim (RFC 4180, with
// embedded delimiters, doubled quotes and line breaks). Blank lines are skipped everywhere.
// LIBSVM: columns "label", "1".."d"; absent entries are "0". The dense table (rows x (d + 1) cells)
// is limited by kMaxLibsvmCells and kLibsvmCellsPerByte: a sparse file can ask for far more than its
// size (one line "1 999999999:1" is a billion cells), so a larger index or table is refused, naming
// the line of the largest index.
// Whole file as bytes, gunzipped if it starts with the gzip magic. Throws dpf::Error naming the path.
std::string read_file_bytes(const std::string& path);
// The same decoding on bytes already in memory (the fuzz target of tests/fuzz): gunzipped when they
// start with the gzip magic, else returned as they are. `path` is for messages.
std::string gunzip_if_gzip(std::string bytes, const std::string& path);
// Parses text already in memory (tests) or a file.
RawTable parse_table(const std::string& text, const TableFormat& format, const std::string& source);
RawTable read_table(const std::string& path, const TableFormat& format);

}  // namespace dpf
