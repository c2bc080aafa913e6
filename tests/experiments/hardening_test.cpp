// Input hardening (README "Robustness"; design.md §10): ids and output paths, duplicate YAML keys,
// unknown defaults, duplicate sweep values, cell records, partial merges, failed writes, folds > rows.
// The CLI side (exit codes, messages, nothing written outside the results root) is tests/corpus.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include "core/util/input_check.hpp"
#include "experiments/store/cell_store.hpp"
#include "experiments/exp_fixtures.hpp"
#include "experiments/config/sweep.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::error_of;
using dpf::test::TempDir;
using dpf::test::write_file;

namespace {

std::string tiny_config(const std::string& datasets, const std::string& protocol = "{type: holdout, repetitions: 1}") {
  return "paper: hardening\nexperiment: tiny\nprotocol: " + protocol + "\ndatasets: " + datasets +
         "\nalgorithms:\n  - {name: rf, params: {n_trees: 2, max_depth: 2}}\n";
}
const std::string kDs = "[\"synthetic:classification:n=40,d=2,seed=1\"]";

std::vector<std::string> files_under(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_SUITE("hardening") {
  TEST_CASE("ids: one pattern for every path part") {
    CHECK_NOTHROW(check_id("multinomial-rf", "x"));
    CHECK_NOTHROW(check_id("table-2b", "x"));
    CHECK_NOTHROW(check_id("iris:bezdek", "x"));
    for (const char* bad : {"", "../escaped", "/abs", "a/b", "a..b", ".", "a\nb", "caf\xc3\xa9"})
      CHECK(error_of([&] { check_id(bad, "cfg.yaml: paper"); }).find("cfg.yaml: paper: '") == 0);
    CHECK(error_of([&] { check_id(std::string(65, 'a'), "k"); }).find("longer than 64") != std::string::npos);
  }

  TEST_CASE("contained_path keeps every output inside the root") {
    CHECK(contained_path("/r", {"p", "e", "results.csv"}) == "/r/p/e/results.csv");
    CHECK(error_of([] { contained_path("/r", {"..", "x"}); }).find("may not contain '..'") != std::string::npos);
    CHECK(error_of([] { contained_path("/r", {"a/../../x"}); }).find("may not contain '..'") != std::string::npos);
    CHECK(error_of([] { contained_path("/r", {"/etc"}); }).find("non-empty relative name") != std::string::npos);
    CHECK(error_of([] { contained_path("/r", {""}); }).find("non-empty relative name") != std::string::npos);
  }

  TEST_CASE("clip caps echoed values and shows bad bytes") {
    CHECK(clip("short") == "short");
    const std::string c = clip(std::string(5000, 'v'));
    CHECK(c == std::string(kMaxEchoChars, 'v') + "… (5000 bytes)");
    CHECK(clip("a\xff\n") == "a\\xFF\\x0A");
  }

  TEST_CASE("duplicate YAML keys are named with both lines, at any depth") {
    CHECK(error_of([] { load_yaml_strict("a: 1\nb: {c: 1}\na: 2\n", "f.yaml"); }) ==
          "f.yaml:3: duplicate key 'a' (first given on line 1; YAML would silently keep one)");
    CHECK(error_of([] { load_yaml_strict("l:\n  - {x: 1, y: 2}\n  - x: 1\n    x: 3\n", "f.yaml"); })
              .find("f.yaml:4: duplicate key 'l[1].x' (first given on line 3") == 0);
    CHECK(error_of([] { load_yaml_strict("t: \"\xe9\"\n", "f.yaml"); }).find("f.yaml line 1: byte 4 is not valid UTF-8") == 0);
    CHECK_NOTHROW(load_yaml_strict("a: 1\nb: {a: 1}\n", "f.yaml"));  // same key in different maps is fine
  }

  TEST_CASE("configs: duplicate keys, unknown defaults, duplicate sweep values, ids, size") {
    const std::string base = tiny_config(kDs);
    CHECK(error_of([&] { parse_experiment("seed: 1\n" + base + "seed: 2\n", "c.yaml"); })
              .find("duplicate key 'seed' (first given on line 1") != std::string::npos);
    CHECK(error_of([&] { parse_experiment(base + "defaults: {n_tress: 50}\n", "c.yaml"); }) ==
          "c.yaml: defaults.n_tress: no algorithm of this config (rf) has this parameter");
    CHECK_NOTHROW(parse_experiment(base + "defaults: {max_depth: 3}\n", "c.yaml"));  // rf has it
    CHECK(error_of([&] { parse_experiment(base + "defaults: {max_depth: [1, 1]}\n", "c.yaml"); }) ==
          "c.yaml: defaults.max_depth: value '1' is listed twice (items 0 and 1)");
    std::string esc = base;
    esc.replace(esc.find("experiment: tiny"), 16, "experiment: ../../../escaped");
    CHECK(error_of([&] { parse_experiment(esc, "c.yaml"); }).find("c.yaml: experiment: '../../../escaped'") == 0);
    TempDir dir;
    write_file(dir.path() / "big.yaml", base + "title: \"" + std::string(kMaxConfigBytes, 'x') + "\"\n");
    CHECK(error_of([&] { load_experiment((dir.path() / "big.yaml").string()); }).find("the limit is 1048576 bytes") !=
          std::string::npos);
  }

  TEST_CASE("a truncated or changed cell is recomputed by run and reported by merge") {
    TempDir dir;
    const ExperimentSpec spec = parse_experiment(tiny_config(kDs), "inline/tiny.yaml");
    RunReport first = run_experiment(spec, test::quiet_options(dir));
    REQUIRE(first.computed == 1);
    const std::string cell = experiment_dir(spec, dir.str()) + "/cells/" + expand_cells(spec)[0].id + ".csv";
    REQUIRE(cell_problem(cell, {expand_cells(spec)[0].id, 1}).empty());
    fs::resize_file(cell, 10);
    CHECK(cell_problem(cell, {expand_cells(spec)[0].id, 1}).find("10 bytes, the record says") != std::string::npos);
    MergeReport m = merge_experiment(spec, dir.str());
    CHECK(m.present == 0);
    REQUIRE(m.invalid.size() == 1);
    CHECK(m.invalid[0].find("truncated or changed") != std::string::npos);
    CHECK_FALSE(m.written);
    RunReport again = run_experiment(spec, test::quiet_options(dir));
    CHECK(again.computed == 1);
    CHECK(again.already_done == 0);
    CHECK(again.notes.at(0).find("recomputing cell") == 0);
    CHECK(cell_problem(cell, {expand_cells(spec)[0].id, 1}).empty());
    RunReport third = run_experiment(spec, test::quiet_options(dir));
    CHECK(third.already_done == 1);
  }

  TEST_CASE("a cell without a record (older dpforest) is trusted only when its rows check out") {
    TempDir dir;
    const ExperimentSpec spec = parse_experiment(tiny_config(kDs), "inline/tiny.yaml");
    run_experiment(spec, test::quiet_options(dir));
    const Cell c = expand_cells(spec)[0];
    const std::string cell = experiment_dir(spec, dir.str()) + "/cells/" + c.id + ".csv";
    fs::remove(cell_record_path(cell));
    CHECK(cell_problem(cell, {c.id, 1}).empty());
    CHECK(cell_problem(cell, {c.id, 2}).find("1 rows, the cell has 2 tasks") != std::string::npos);
    CHECK(cell_problem(cell, {"0000000000000000", 1}).find("cell_id '" + c.id + "'") != std::string::npos);
    write_file(cell, "garbage\n");
    CHECK(cell_problem(cell, {c.id, 1}).find("no completion record") == 0);
  }

  TEST_CASE("merge keeps a complete results.csv when cells are missing, unless allow_partial") {
    TempDir dir;
    const ExperimentSpec spec = parse_experiment(tiny_config(kDs), "inline/tiny.yaml");
    run_experiment(spec, test::quiet_options(dir));
    const std::string csv = experiment_dir(spec, dir.str()) + "/results.csv";
    const auto before = read_rows(csv).size();
    REQUIRE(before == 1);
    const std::string cell = experiment_dir(spec, dir.str()) + "/cells/" + expand_cells(spec)[0].id + ".csv";
    fs::remove(cell);
    MergeReport m = merge_experiment(spec, dir.str());
    CHECK_FALSE(m.written);
    CHECK(m.missing.size() == 1);
    CHECK(read_rows(csv).size() == before);
    MergeReport p = merge_experiment(spec, dir.str(), true);
    CHECK(p.written);
    CHECK(read_rows(csv).empty());
  }

  TEST_CASE("folds > rows skips that dataset's cells naming it and protocol.folds; others run") {
    TempDir dir;
    const ExperimentSpec spec = parse_experiment(
        tiny_config("[\"synthetic:classification:n=6,d=2,seed=1\", \"synthetic:classification:n=60,d=2,seed=1\"]",
                    "{type: kfold, folds: 10, repetitions: 1}"),
        "inline/folds.yaml");
    RunReport r = run_experiment(spec, test::quiet_options(dir));
    CHECK(r.computed == 1);
    CHECK(r.missing_data == 1);
    REQUIRE(r.notes.size() == 1);
    CHECK(r.notes[0].find("inline/folds.yaml: protocol.folds = 10 exceeds the 6 rows of dataset "
                          "synthetic:classification:n=6,d=2,seed=1") != std::string::npos);
  }

  TEST_CASE("a failed write names the cell and leaves no temporary file") {
    TempDir dir;
    const ExperimentSpec spec = parse_experiment(tiny_config(kDs), "inline/tiny.yaml");
    const std::string cells = experiment_dir(spec, dir.str()) + "/cells";
    const std::string cell = cells + "/" + expand_cells(spec)[0].id + ".csv";
    write_file(fs::path(cell) / "blocker", "x");  // the cell's path is a non-empty folder: rename fails
    RunReport r = run_experiment(spec, test::quiet_options(dir));
    CHECK(r.unwritten >= 1);  // computed but not written: counted apart from cells that failed
    CHECK(r.failed == 0);
    std::string note;
    for (const auto& n : r.notes)
      if (n.find("cannot write results") != std::string::npos) note = n;
    CHECK(note.find("cell 'rf' on synthetic:classification:n=40,d=2,seed=1") == 0);
    CHECK(note.find("cannot write '" + cell + "'") != std::string::npos);
    for (const auto& f : files_under(cells)) CHECK(f.find(".tmp.") == std::string::npos);
  }

  TEST_CASE("a ragged cell row is named by its line") {
    TempDir dir;
    write_file(dir.path() / "c.csv", "a,b\n1,2\n3\n");
    CHECK(error_of([&] { read_rows((dir.path() / "c.csv").string()); }) ==
          (dir.path() / "c.csv").string() + " line 3: 1 fields, the header has 2");
  }
}
