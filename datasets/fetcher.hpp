// Fetching and verifying dataset files: from the offline mirror, the local cache, or the UCI URL.
#pragma once
#include <string>
#include <vector>

#include "datasets/registry.hpp"

namespace dpf {

std::string sha256_hex(const std::string& bytes);
std::string sha256_file(const std::string& path);

// Local path of a verified copy of the file. Order: cache, mirror (<mirror>/<id>/<name>), download
// into the cache (curl, if allowed). Throws dpf::MissingInput with a message that names the dataset,
// the file, the URL and the command to fix it, when no verified copy can be had.
std::string fetch_file(const DatasetEntry& entry, const DatasetFile& file, const DataOptions& options);

struct VerifyReport {
  std::string id;
  bool ok = false;
  std::string message;  // where each file came from, or what is wrong
};
// Fetches and verifies every file of the given datasets (all when ids is empty).
std::vector<VerifyReport> verify_datasets(const std::vector<std::string>& ids, const DataOptions& options);

}  // namespace dpf
