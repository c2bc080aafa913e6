// A user's own data: a local CSV file (header row) with its public schema, named directly by an
// experiment config or a command, with no registry entry, URL, checksum or mirror (docs/own-data.md).
// The schema is typed into the same VariantSpec the registry uses and the rows go through the same
// build_dataset(), so an own dataset is checked and typed exactly like a registry one.
//
// Schema keys (a mapping: inline in the config's dataset entry, or a YAML file):
//   target: <column>                        required
//   task: classification | regression       default classification
//   classes: [...]                          classification: the public class list (label order)
//   target_bounds: [lo, hi]                 regression: public bounds of the target
//   features: {<column>: {bounds: [lo, hi]} | {categories: [...]} | numeric | categorical}
//                                           every column except the target and `drop`
//   drop: [<column>, ...]                   columns that are not features
//   delimiter: ","                          optional ("tab" for a tab)
//   missing: ["?", ""]                      optional: cells meaning "missing"; such rows are dropped
//   domains: from-data                      optional: accept domains, categories and classes read from
//                                           the rows (not differentially private; rows say so)
// Without `domains: from-data`, a numeric feature without bounds, a categorical one without
// categories, a classification target without classes or a regression target without bounds is an
// error naming the column: deriving them from the rows would leak the data.
#pragma once
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/data/dataset.hpp"
#include "datasets/variant.hpp"

namespace dpf {

struct LocalDataset {
  std::string id;       // its name in results: the file stem unless given
  std::string csv;      // the CSV file
  std::string origin;   // where the schema was given, for messages (a file, or "config.yaml: datasets[2]")
  VariantSpec spec;     // the schema as a registry variant
  std::vector<std::string> features;  // the features the schema declares, in its order
  bool domains_from_data = false;
};

// Parses a schema mapping; `where` prefixes every message. With domains_from_data (the schema's own
// `domains: from-data`, or the config entry's) missing public domains are allowed.
LocalDataset parse_local_schema(const YAML::Node& node, const std::string& where, bool domains_from_data = false);

// The schema in `schema_file` for the CSV file `csv`; id: the file stem unless given.
LocalDataset local_dataset_from_files(const std::string& csv, const std::string& schema_file, const std::string& id = "",
                                      bool domains_from_data = false);

// True for a dataset spec naming a CSV file ("data/mine.csv"); its schema is the side file
// <stem>.schema.yaml (load_dataset uses it).
bool is_local_csv_spec(const std::string& spec);
std::string side_schema_path(const std::string& csv);

// Reads and types the file. A missing file throws dpf::MissingInput (a run skips its cells); a column
// the schema does not declare, a declared feature that is not a column, or a value outside the schema
// throws dpf::Error naming the file, line and column.
Dataset load_local_dataset(const LocalDataset& d);

// `dpforest dataset check`: every row against the schema. Every problem found (up to `max_errors`
// listed) names the line and column; `summary` describes the file as the schema types it.
struct LocalCheck {
  std::size_t rows = 0, dropped = 0;  // data rows, rows dropped for a missing marker
  std::vector<std::string> errors;
  std::size_t error_count = 0;
  std::string summary;
};
LocalCheck check_local_dataset(const LocalDataset& d, std::size_t max_errors = 50);

}  // namespace dpf
