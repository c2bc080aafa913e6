// Replays the fuzzers' findings (tests/fuzz/regressions/<target>/, each fixed) and the table seeds
// through the code paths of the libFuzzer targets (tests/fuzz/fuzz_paths.hpp), in the ordinary build:
// every input must end normally or with a dpf::Error, never a crash or another exception.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

#include "core/util/error.hpp"
#include "experiments/exp_fixtures.hpp"
#include "fuzz/fuzz_paths.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// Runs every file of `dir` through `f`; returns how many were replayed.
std::size_t replay(const fs::path& dir, const std::function<void(const std::string&)>& f) {
  std::size_t n = 0;
  for (const auto& p : files_in(dir)) {
    INFO("input: " << p.string());
    try {
      f(bytes_of(p));
    } catch (const dpf::Error&) {
    } catch (const std::exception& e) {
      FAIL("not a dpf::Error: " << e.what());
    }
    ++n;
  }
  return n;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("fuzz regressions: configs") {
    replay("tests/fuzz/regressions/config", dpf::fuzz::config_input);
  }

  TEST_CASE("fuzz regressions: tables (and the table seeds, in each format)") {
    replay("tests/fuzz/regressions/table", dpf::fuzz::table_input);
    // The seed snippets under every format byte: the readers accept or reject each, never crash.
    std::size_t n = 0;
    for (const auto& p : files_in("tests/fuzz/seeds/table"))
      for (unsigned b0 = 0; b0 < 256; b0 += 7)
        for (unsigned b1 : {0u, 1u, 6u, 7u, 0x1bu, 0xc0u}) {
          INFO("seed " << p.string() << " bytes " << b0 << " " << b1);
          std::string input{static_cast<char>(b0), static_cast<char>(b1)};
          input += bytes_of(p);
          try {
            dpf::fuzz::table_input(input);
          } catch (const dpf::Error&) {
          }
          ++n;
        }
    CHECK(n > 0);
  }

  TEST_CASE("fuzz regressions: published.yaml") {
    dpf::test::TempDir results;
    dpf::fuzz::write_published_results(results.path());
    const std::string root = results.str();
    replay("tests/fuzz/regressions/published", [&](const std::string& s) { dpf::fuzz::published_input(s, root); });
    // The fixed results root is readable: a published.yaml naming it measures something.
    dpf::PublishedCheckOptions o;
    o.results_root = root;
    auto rep = dpf::check_published_text(
        "paper: fuzz\nnumbers:\n  - {id: a, experiment: tiny, metric: accuracy, value: 0.7, tolerance: 0.1, "
        "paper_method: {label: DiPriMe}}\n",
        "fuzz.yaml", o);
    CHECK(rep.within == 1);
  }
}
