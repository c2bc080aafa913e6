// Helpers of the experiment tests: temporary result directories, inline configs, row comparison
// without the columns that legitimately differ between runs (timings, host, start time, threads).
#pragma once
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/util/error.hpp"
#include "datasets/registry.hpp"
#include "experiments/config/config.hpp"
#include "experiments/store/results.hpp"
#include "experiments/run/runner.hpp"

namespace dpf::test {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("dpf-exp-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

inline DataOptions offline_data() {
  DataOptions o = DataOptions::from_environment();
  o.allow_download = false;
  return o;
}

// True when the mirror (or cache) holds the dataset; otherwise a MESSAGE and the caller returns.
inline bool have_dataset(const std::string& id) {
  try {
    load_dataset(id, offline_data());
    return true;
  } catch (const MissingInput& e) {
    const std::string note = "dataset " + id + " not available; skipped: " + e.what();
    MESSAGE(note);
    return false;
  }
}

inline RunOptions quiet_options(const TempDir& dir, int threads = 1) {
  RunOptions o;
  o.threads = threads;
  o.results_root = dir.str();
  o.data = offline_data();
  o.progress = false;
  return o;
}

inline const std::set<std::string>& volatile_columns() {
  static const std::set<std::string> v{"fit_seconds", "predict_seconds", "cpu_seconds", "threads", "host", "started_at"};
  return v;
}

// The rows with the volatile columns removed, as (column, value) lists.
inline std::vector<std::vector<std::pair<std::string, std::string>>> stable(const std::vector<ResultRow>& rows) {
  std::vector<std::vector<std::pair<std::string, std::string>>> out;
  for (const auto& r : rows) {
    std::vector<std::pair<std::string, std::string>> cells;
    for (const auto& c : r.cells())
      if (!volatile_columns().count(c.first)) cells.push_back(c);
    out.push_back(std::move(cells));
  }
  return out;
}

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
}

}  // namespace dpf::test
