// libFuzzer target (c): published.yaml files, dpf::check_published_text against a small results root
// written once per process under the temp dir (make fuzz).
#include <filesystem>
#include <unistd.h>

#include "fuzz/fuzz_common.hpp"
#include "fuzz/fuzz_paths.hpp"

namespace {

struct ResultsRoot {
  std::filesystem::path path;
  ResultsRoot() {
    path = std::filesystem::temp_directory_path() / ("dpf-fuzz-published-" + std::to_string(::getpid()));
    dpf::fuzz::write_published_results(path);
  }
  ~ResultsRoot() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ResultsRoot root;
  return dpf::fuzz::run_one(data, size, [](const std::string& s) { dpf::fuzz::published_input(s, root.path.string()); });
}
