// The published check's report (experiments/publish/published_report.cpp): the JSON of the reference snapshot
// (README.md "Reference snapshot and verify"), the warning for a results root holding nothing for the
// paper, the exact command for missing data, and rows that stay readable at 120 columns.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "experiments/exp_fixtures.hpp"
#include "experiments/publish/published.hpp"
#include "experiments/store/results.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::TempDir;

namespace {

// Notes are wrapped at 120 columns with continuation lines indented by two spaces: joined back here.
bool contains(const std::string& s, const std::string& part) {
  std::string u = s;
  for (std::size_t p; (p = u.find("\n  ")) != std::string::npos;) u.replace(p, 3, " ");
  return s.find(part) != std::string::npos || u.find(part) != std::string::npos;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// results/tp/figure-1/results.csv: label P at 0.60 / 0.70 on two folds of d, label Q at 0.50 / 0.52.
void write_results(const fs::path& root) {
  std::vector<ResultRow> rows;
  for (int fold = 0; fold < 2; ++fold)
    for (const auto& [label, acc] : {std::pair{"P", fold ? 0.70 : 0.60}, std::pair{"Q", fold ? 0.52 : 0.50}}) {
      ResultRow r;
      r.set("label", label);
      r.set("dataset", "d");
      r.set("epsilon", "0.1");
      r.set("repetition", "0");
      r.set("fold", std::to_string(fold));
      r.set("accuracy", acc);
      rows.push_back(r);
    }
  fs::create_directories(root / "tp" / "figure-1");
  write_rows_atomic((root / "tp" / "figure-1" / "results.csv").string(), rows);
}

const std::string kLong(2000, 'x');

// figure-1 and table-3 have configs beside published.yaml (make targets); figure-9 has none.
std::string published(const std::string& long_word) {
  std::string why;
  for (int i = 0; i < 300; ++i) why += "word" + std::to_string(i) + " ";
  return "paper: tp\nnumbers:\n"
         "  - {id: in, source: \"Figure 1, left\", experiment: figure-1, metric: accuracy, value: 0.66, spread: 0.02,"
         " tolerance: 0.05, paper_method: {label: P, epsilon: 0.1}}\n"
         "  - {id: out-explained, experiment: figure-1, metric: accuracy, value: 0.9, tolerance: 0.01,"
         " paper_method: {label: P}, strict: {label: Q}, explanation: \"" + why + long_word + "\"}\n"
         "  - {id: out-bare, experiment: figure-1, metric: accuracy, value: 0.9, tolerance: 0.01, paper_method: {label: Q}}\n"
         "  - {id: missing-table, experiment: table-3, metric: accuracy, value: 0.9, tolerance: 0.01, paper_method: {label: P}}\n"
         "  - {id: missing-noconfig, experiment: figure-9, metric: accuracy, value: 0.9, tolerance: 0.01, paper_method: {label: P}}\n"
         "claims:\n"
         "  - id: p-beats-q\n    source: Figure 1\n    statement: P beats Q\n    type: paired\n    experiment: figure-1\n"
         "    metric: accuracy\n    a: {label: P}\n    b: {label: Q}\n    expect: {min_difference: 0}\n"
         "  - id: never\n    statement: P beats Q in table 3\n    type: paired\n    experiment: table-3\n"
         "    metric: accuracy\n    a: {label: P}\n    b: {label: Q}\n    expect: {min_difference: 0}\n";
}

struct Fixture {
  TempDir dir;
  fs::path pub, results;
  Fixture() {
    results = dir.path() / "results";
    fs::create_directories(dir.path() / "configs" / "tp");
    pub = dir.path() / "configs" / "tp" / "published.yaml";
    dpf::test::write_file(pub, published(""));
    dpf::test::write_file(dir.path() / "configs" / "tp" / "figure-1.yaml", "# exists\n");
    dpf::test::write_file(dir.path() / "configs" / "tp" / "table-3.yaml", "# exists\n");
  }
  PublishedCheckReport check(const fs::path& root, bool default_root = true) const {
    PublishedCheckOptions o;
    o.results_root = root.string();
    o.default_results_root = default_root ? root.string() : (dir.path() / "elsewhere").string();
    o.json_out = (dir.path() / "out.json").string();
    return check_published(pub.string(), o);
  }
};

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("check-published JSON: verdicts, explained, series, commands and counts") {
    Fixture f;
    write_results(f.results);
    const PublishedCheckReport rep = f.check(f.results);
    CAPTURE(rep.text);
    CHECK(rep.no_results_warning.empty());
    REQUIRE(rep.number_entries.size() == 5);
    CHECK(rep.number_entries[0].verdict == "within");
    CHECK(rep.number_entries[1].verdict == "outside");
    CHECK(rep.number_entries[1].explained);
    CHECK(rep.number_entries[2].verdict == "outside");
    CHECK_FALSE(rep.number_entries[2].explained);
    CHECK(rep.number_entries[3].verdict == "no data");
    const std::string json = slurp(f.dir.path() / "out.json");
    CHECK(json == published_json(rep));
    CHECK(contains(json, "\"paper\":\"tp\""));
    CHECK(contains(json, "\"id\":\"in\",\"source\":\"Figure 1, left\",\"experiment\":\"figure-1\",\"metric\":\"accuracy\","
                         "\"value\":0.66,\"spread\":0.02,\"tolerance\":0.05"));
    CHECK(contains(json, "\"verdict\":\"within\",\"explained\":false"));
    CHECK(contains(json, "\"paper_method\":{\"selector\":{\"label\":\"P\",\"epsilon\":0.1},\"label\":\"P\",\"mean\":0.6"));
    CHECK(contains(json, "\"n\":2}"));
    CHECK(contains(json, "\"with_quirks\":null"));
    CHECK(contains(json, "\"verdict\":\"outside\",\"explained\":true"));
    CHECK(contains(json, "\"command\":\"make reproduce-figure-1 PAPER=tp\""));
    CHECK(contains(json, "\"command\":\"make reproduce-table-3 PAPER=tp\""));
    CHECK(contains(json, "\"text\":\"P beats Q\",\"experiment\":\"figure-1\",\"experiments\":[\"figure-1\"],\"verdict\":\"holds\",\"effect\":"));
    CHECK(contains(json, "\"verdict\":\"no data\",\"effect\":null,\"p\":null"));
    CHECK(contains(json, "\"counts\":{\"numbers\":5,\"within\":1,\"outside_explained\":1,\"outside_unexplained\":1,"
                         "\"no_data\":2,\"claims\":2,\"claims_hold\":1,\"claims_fail\":0,\"claims_no_data\":1}"));
  }

  TEST_CASE("check-published: exact commands for missing data, RESULTS= for another results root") {
    Fixture f;
    write_results(f.results);
    const PublishedCheckReport rep = f.check(f.results);
    CHECK(contains(rep.text, "| missing-table | 0.9 | — | n/a | NO DATA |"));
    CHECK(contains(rep.text, "No data: run `make reproduce-table-3 PAPER=tp`."));
    // figure-9 has no config: the command runs the config that is still to be written, and says so.
    const std::string cfg = (f.dir.path() / "configs" / "tp" / "figure-9.yaml").string();
    CHECK(contains(rep.text, "build/dpforest run " + cfg + " --results " + f.results.string()));
    CHECK(contains(rep.text, "(no config " + cfg + " yet: write it first)"));
    CHECK(contains(published_json(rep), "\"command\":\"build/dpforest run " + cfg + " --results " + f.results.string() + "\""));
    CHECK(contains(rep.text, "To produce the missing data (2 numbers, 1 claims):\n\n    make reproduce-table-3 PAPER=tp\n"));
    const PublishedCheckReport other = f.check(f.results, false);
    CHECK(contains(other.text, "`make reproduce-table-3 PAPER=tp RESULTS=" + f.results.string() + "`"));
  }

  TEST_CASE("check-published: no data on a pair the config excludes says so instead of asking for a run") {
    Fixture f;
    write_results(f.results);
    dpf::test::write_file(f.dir.path() / "configs" / "tp" / "table-3.yaml",
                          "paper: tp\nexperiment: table-3\ndatasets: [iris, banknote]\nalgorithms:\n"
                          "  - {name: rf, label: P, exclude_datasets: {iris: \"the method cannot read this data\"}}\n");
    dpf::test::write_file(f.pub, "paper: tp\nnumbers:\n"
                                 "  - {id: excluded, experiment: table-3, metric: accuracy, value: 0.9, tolerance: 0.01,"
                                 " paper_method: {label: P, dataset: iris}}\n"
                                 "  - {id: runnable, experiment: table-3, metric: accuracy, value: 0.9, tolerance: 0.01,"
                                 " paper_method: {label: P, dataset: banknote}}\n");
    const PublishedCheckReport rep = f.check(f.results);
    CAPTURE(rep.text);
    REQUIRE(rep.number_entries.size() == 2);
    CHECK(rep.number_entries[0].verdict == "no data");
    CHECK(rep.number_entries[0].excluded_by_config == "'P' on iris: the method cannot read this data");
    CHECK(rep.number_entries[1].excluded_by_config.empty());
    CHECK(contains(rep.text, "No data: the config excludes 'P' on iris: the method cannot read this data."));
    CHECK(contains(rep.text, "No data: run `make reproduce-table-3 PAPER=tp`."));  // the runnable one still asks
    CHECK(contains(published_json(rep), "\"excluded_by_config\":\"'P' on iris: the method cannot read this data\""));
  }

  TEST_CASE("check-published: a results root without the paper's results is a warning naming the directory") {
    Fixture f;
    write_results(f.results);
    // The parent of the right root: results/<paper> does not exist there.
    const PublishedCheckReport none = f.check(f.dir.path());
    CHECK(none.no_data == 5);
    CHECK(contains(none.no_results_warning, "no results for paper 'tp' in " + (f.dir.path() / "tp").string() + " (no such directory)"));
    CHECK(contains(none.text, "> **WARNING**: no results for paper 'tp'"));
    CHECK(contains(published_json(none), "\"warning\":\"no results for paper 'tp'"));
    // The paper's directory exists but holds no results.csv of these experiments.
    fs::create_directories(f.dir.path() / "empty" / "tp" / "figure-1" / "cells");
    const PublishedCheckReport empty = f.check(f.dir.path() / "empty");
    CHECK(contains(empty.no_results_warning, "(the directory holds no results.csv for any experiment of"));
    // With the results there is no warning (tested above) and the JSON's warning is null.
    CHECK(contains(published_json(f.check(f.results)), "\"warning\":null"));
  }

  TEST_CASE("check-published: rows stay readable (a 2,000-character explanation goes to a wrapped note)") {
    Fixture f;
    write_results(f.results);
    dpf::test::write_file(f.pub, published(kLong));
    const PublishedCheckReport rep = f.check(f.results);
    std::size_t lines = 0, longest = 0;
    for (std::size_t at = 0; at < rep.text.size();) {
      std::size_t end = rep.text.find('\n', at);
      if (end == std::string::npos) end = rep.text.size();
      const std::string line = rep.text.substr(at, end - at);
      // A word longer than the width and a command (never broken, here with long temporary paths)
      // cannot fit; every other line does.
      if (!contains(line, kLong) && !contains(line, "dpforest run /")) longest = std::max(longest, code_points(line));
      ++lines;
      at = end + 1;
    }
    CAPTURE(rep.text);
    CHECK(lines > 10);
    CHECK(longest <= 120);
    CHECK(contains(rep.text, "| out-explained | 0.9 | 0.65 ±0.071 | 0.51 ±0.014 | OUTSIDE (explained) Δ-0.25 |"));
    CHECK(contains(rep.text, "| out-bare | 0.9 | 0.51 ±0.014 | n/a | **OUTSIDE** Δ-0.39 |"));
    CHECK(contains(rep.text, "\n- **out-explained**: figure-1, accuracy (n=2, tolerance 0.01, vs paper_method: label=P). word0"));
    CHECK(contains(rep.text, "| p-beats-q | holds | "));
  }

  TEST_CASE("check-published: a long published spread shows its number in the table and its text in the note") {
    Fixture f;
    write_results(f.results);
    dpf::test::write_file(f.pub, "paper: tp\nnumbers:\n  - {id: s, experiment: figure-1, metric: accuracy, value: 0.66,"
                                 " spread: \"0.035 (95% t half-width, 10 runs)\", tolerance: 0.05, paper_method: {label: P}}\n");
    const PublishedCheckReport rep = f.check(f.results);
    CAPTURE(rep.text);
    CHECK(contains(rep.text, "| s | 0.66 ± 0.035 | 0.65 ±0.071 | ok Δ-0.01 |"));
    CHECK(contains(rep.text, "- **s**: Published spread: 0.035 (95% t half-width, 10 runs). figure-1, accuracy"));
    CHECK(contains(published_json(rep), "\"spread\":\"0.035 (95% t half-width, 10 runs)\""));
  }

  TEST_CASE("wrap_text: breaks on spaces at the width, counts code points, keeps over-long words whole") {
    CHECK(wrap_text("aaa bbb ccc", 7, "  ") == "aaa bbb\n  ccc");
    CHECK(wrap_text("ääää ö", 6, "") == "ääää ö");
    CHECK(wrap_text("a " + std::string(10, 'x') + " b", 4, "") == "a\n" + std::string(10, 'x') + "\nb");
    CHECK(wrap_text("run `make reproduce-figure-2 PAPER=x` now", 12, "  ") == "run\n  `make reproduce-figure-2 PAPER=x`\n  now");
  }
}
