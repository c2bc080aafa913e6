// `dpforest dataset check FILE [--schema S]`: an own CSV file against its public schema.
#include <cstdio>
#include <iostream>

#include "core/util/error.hpp"
#include "datasets/local.hpp"
#include "experiments/cli/cli.hpp"

namespace dpf {

namespace {

const char* kDatasetUsage =
    "usage: dpforest dataset check FILE.csv [--schema SCHEMA.yaml]\n"
    "  checks every row of FILE.csv against its public schema (default: the side file FILE.schema.yaml):\n"
    "  columns the schema does not declare, values outside their bounds, unknown categories or classes,\n"
    "  cells that are not finite numbers, and public domains the schema lacks. Exit 5 on any problem.\n"
    "  The schema's keys: docs/own-data.md.\n";

}  // namespace

int cmd_dataset(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "help") {
    std::fputs(kDatasetUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  require(args[0] == "check", "unknown subcommand '", args[0], "'\n", kDatasetUsage);
  std::string file, schema;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--schema" && i + 1 < args.size()) schema = args[++i];
    else if (args[i].rfind("--schema=", 0) == 0) schema = args[i].substr(9);
    else if (file.empty() && args[i].rfind("--", 0) != 0) file = args[i];
    else fail("unexpected argument '", args[i], "'\n", kDatasetUsage);
  }
  require(!file.empty(), "no FILE given\n", kDatasetUsage);
  if (schema.empty()) schema = side_schema_path(file);
  const LocalDataset d = local_dataset_from_files(file, schema);
  const LocalCheck c = check_local_dataset(d);
  for (const auto& e : c.errors) std::printf("  %s\n", e.c_str());
  if (c.error_count > c.errors.size()) std::printf("  ... and %zu more\n", c.error_count - c.errors.size());
  std::printf("%s\n", c.summary.c_str());
  return c.error_count == 0 ? 0 : 5;
}

}  // namespace dpf
