// The code paths the fuzz targets drive (tests/fuzz/fuzz_*.cpp), shared with the regression test
// (tests/experiments/fuzz_regressions_test.cpp) so that a committed crashing input is replayed through
// exactly what the fuzzer ran. Each function either returns or throws; a dpf::Error is the expected
// answer to bad input, anything else (a crash, a sanitizer report, a hang) is a finding.
#pragma once
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/data/loaders.hpp"
#include "experiments/config/config.hpp"
#include "experiments/publish/published.hpp"
#include "experiments/config/sweep.hpp"

namespace dpf::fuzz {

// (a) An experiment config, parsed and expanded into cells as `dpforest run` does before any work.
inline void config_input(const std::string& data) {
  ExperimentSpec spec = parse_experiment(data, "fuzz/config.yaml");
  (void)expand_cells(spec);
}

// (b) A table. Byte 0 and byte 1 choose the format (every choice a registry entry can make:
// datasets/variant_yaml.cpp accepts any single character as delimiter, quote and comment), the rest
// is the file's bytes, gunzipped first when they start with the gzip magic (as read_table does).
//   byte 0: bits 0-1 type (csv, arff, libsvm, whitespace), bit 2 header, bits 3-4 comment
//           (none, '#', '%', ';'), bits 5-6 skip_lines (0-3), bit 7 quote ('"' or '\'')
//   byte 1: bits 0-2 delimiter (',', ';', tab, ' ', '|', ':', '"', newline), bits 3-5 max_fields
//           (0-7), bits 6-7 libsvm_features (0, 1, 5, 123)
inline TableFormat table_format(unsigned char b0, unsigned char b1) {
  static const char* const types[] = {"csv", "arff", "libsvm", "whitespace"};
  static const char comments[] = {'\0', '#', '%', ';'};
  static const char delimiters[] = {',', ';', '\t', ' ', '|', ':', '"', '\n'};
  static const int features[] = {0, 1, 5, 123};
  TableFormat f;
  f.type = types[b0 & 3];
  f.header = (b0 >> 2) & 1;
  f.comment = comments[(b0 >> 3) & 3];
  f.skip_lines = (b0 >> 5) & 3;
  f.quote = (b0 >> 7) ? '\'' : '"';
  f.delimiter = delimiters[b1 & 7];
  f.max_fields = (b1 >> 3) & 7;
  f.libsvm_features = features[(b1 >> 6) & 3];
  return f;
}

inline void table_input(const std::string& data) {
  if (data.size() < 2) return;
  const TableFormat f = table_format(static_cast<unsigned char>(data[0]), static_cast<unsigned char>(data[1]));
  const std::string source = "fuzz/table." + f.type;
  RawTable t = parse_table(gunzip_if_gzip(data.substr(2), source), f, source);
  // What every consumer relies on: one line number per row, a name for every column.
  if (t.line_of_row.size() != t.rows.size()) __builtin_trap();
  for (const auto& r : t.rows)
    if (r.size() > t.columns.size()) __builtin_trap();
}

// (c) A published.yaml, checked against a small fixed results root (see published_results_root) so
// that the column checks, the measurements and the claims run, not only the parsing.
inline void published_input(const std::string& data, const std::string& results_root) {
  PublishedCheckOptions o;
  o.results_root = results_root;
  (void)check_published_text(data, "fuzz/published.yaml", o);
}

// Writes <root>/<paper>/<experiment>/results.csv for the papers and experiment names the seeds use
// (configs/*/published.yaml, tests/corpus/published), with a few rows of the usual columns.
inline void write_published_results(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  const char* const papers[] = {"corpus", "dipreme", "dipreme-v1", "matrix-rf", "multinomial-rf", "smooth-rdf", "fuzz"};
  const char* const experiments[] = {"tiny", "figure-1", "figure-2", "figure-3", "figure-4", "figure-5", "figure-6",
                                     "figure-7", "figure-8", "table-1", "table-2", "table-3"};
  const std::string csv =
      "paper,experiment,label,algorithm,dataset,epsilon,n_trees,max_depth,repetition,fold,accuracy,error,l1_error,"
      "rmse,mse,auc,reference_quirks\n"
      "p,e,DiPriMe,dipreme,adult,0.1,10,5,0,0,0.7,0.3,0.25,0.4,0.16,0.8,\n"
      "p,e,DiPriMe,dipreme,adult,0.1,10,5,1,0,0.72,0.28,0.27,0.41,0.17,0.79,l1_error\n"
      "p,e,DiPriMe (as coded),dipreme,adult,1,10,5,0,0,0.8,0.2,0.2,nan,,0.9,\"split_budget_as_coded,l1_error\"\n"
      "p,e,rf,rf,\"synthetic:classification:n=40,d=2,seed=1\",1,2,2,0,0,1,0,0,0,0,1,\n";
  for (const char* p : papers)
    for (const char* e : experiments) {
      fs::create_directories(root / p / e);
      std::ofstream(root / p / e / "results.csv", std::ios::binary) << csv;
    }
}

}  // namespace dpf::fuzz
