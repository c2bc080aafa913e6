// A config names a local CSV file directly (`{csv: FILE, schema: FILE}`, or the schema inline), paths
// relative to the config: its cells run like a registry dataset's, under the file's stem, without a
// registry entry, URL or any write to the mirror or the download cache.
#include <doctest/doctest.h>

#include "experiments/config/sweep.hpp"
#include "experiments/exp_fixtures.hpp"
#include "experiments/run/privacy_label.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::error_of;
using dpf::test::TempDir;
using dpf::test::write_file;

namespace {

// 60 rows of two numeric features and a class that follows x1.
std::string patients_csv() {
  std::string s = "x1,x2,group\n";
  for (int i = 0; i < 60; ++i)
    s += std::to_string(i % 10) + "," + std::to_string((i * 7) % 13) + "," + (i % 10 < 5 ? "a" : "b") + "\n";
  return s;
}

const char* kSchema = "target: group\nclasses: [a, b]\nfeatures:\n  x1: {bounds: [0, 10]}\n  x2: {bounds: [0, 20]}\n";

std::string config(const std::string& dataset_entry, const std::string& algorithms =
                                                         "  - {name: rf, label: RF, params: {n_trees: 3}}\n"
                                                         "  - {name: dp-ert, label: DP-ERT, params: {epsilon: 1, strict: true, n_trees: 3}}\n") {
  return "paper: mine\nexperiment: study\nprotocol: {type: kfold, folds: 3, repetitions: 1}\ndatasets:\n  - " +
         dataset_entry + "\nalgorithms:\n" + algorithms;
}

std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (fs::is_directory(dir, ec))
    for (const auto& e : fs::recursive_directory_iterator(dir, ec)) out.push_back(e.path().string());
  return out;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("own data: a config names a CSV file and its schema; the run reads them, writes no mirror") {
    TempDir work, results, cache;
    write_file(work.path() / "data" / "patients.csv", patients_csv());
    write_file(work.path() / "data" / "patients.schema.yaml", kSchema);
    const fs::path cfg = work.path() / "study.yaml";
    write_file(cfg, config("{csv: data/patients.csv, schema: data/patients.schema.yaml}"));
    const ExperimentSpec spec = load_experiment(cfg.string());
    REQUIRE(spec.datasets.size() == 1);
    CHECK(spec.datasets[0].id == "patients");
    REQUIRE(spec.local_dataset("patients") != nullptr);
    const std::vector<Cell> cells = expand_cells(spec);
    CHECK(cells.size() == 2);
    CHECK(privacy_summary(spec, cells).empty());  // strict DP-ERT on public domains: epsilon-DP

    RunOptions opt = dpf::test::quiet_options(results);
    opt.data.cache = cache.str();
    const std::vector<std::string> mirror_before = listing(opt.data.mirror);
    const RunReport r = run_experiment(spec, opt);
    CHECK(r.computed == 2);
    REQUIRE(!r.results_csv.empty());
    for (const ResultRow& row : read_rows(r.results_csv)) {
      CHECK(row.get("dataset") == "patients");
      CHECK(row.get("domains") == "schema");
      if (row.get("algorithm") == "dp-ert") CHECK(row.get("privacy_status") == "epsilon-DP");
    }
    CHECK(listing(opt.data.mirror) == mirror_before);
    CHECK(listing(cache.str()).empty());
  }

  TEST_CASE("own data: the schema inline in the config entry; an explicit id") {
    TempDir work;
    write_file(work.path() / "patients.csv", patients_csv());
    const fs::path cfg = work.path() / "study.yaml";
    write_file(cfg, config("{csv: patients.csv, id: cohort-2024, target: group, classes: [a, b], features: {x1: {bounds: "
                           "[0, 10]}, x2: {bounds: [0, 20]}}}"));
    const ExperimentSpec spec = load_experiment(cfg.string());
    CHECK(spec.datasets[0].id == "cohort-2024");
    TempDir results;
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(results));
    CHECK(r.computed == 2);
  }

  TEST_CASE("own data: a missing bound names the leak; domains: from-data runs and its rows say not epsilon-DP") {
    TempDir work;
    write_file(work.path() / "patients.csv", patients_csv());
    const fs::path cfg = work.path() / "study.yaml";
    const std::string entry = "{csv: patients.csv, target: group, classes: [a, b], features: {x1: numeric, x2: {bounds: [0, 20]}}";
    write_file(cfg, config(entry + "}"));
    const std::string e = error_of([&] { load_experiment(cfg.string()); });
    CAPTURE(e);
    CHECK(e.find(cfg.string() + ": datasets[0].features.x1: numeric feature 'x1' has no bounds") == 0);
    CHECK(e.find("leak") != std::string::npos);

    write_file(cfg, config(entry + ", domains: from-data}"));
    const ExperimentSpec spec = load_experiment(cfg.string());
    const std::vector<std::string> summary = privacy_summary(spec, expand_cells(spec));
    REQUIRE(summary.size() == 2);
    CHECK(summary[1] == "DP-ERT: published, not epsilon-DP: domains: from-data reads the feature domains from the rows");
    TempDir results;
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(results));
    REQUIRE(!r.results_csv.empty());
    for (const ResultRow& row : read_rows(r.results_csv)) {
      CHECK(row.get("domains") == "from-data");
      if (row.get("algorithm") == "dp-ert") CHECK(row.get("privacy_status").rfind("published, not epsilon-DP", 0) == 0);
    }
  }

  TEST_CASE("own data: ids never collide with the registry; a missing file and a multiclass file are named") {
    TempDir work;
    write_file(work.path() / "banknote.csv", patients_csv());
    const fs::path cfg = work.path() / "study.yaml";
    write_file(cfg, config("{csv: banknote.csv, target: group, classes: [a, b], features: {x1: {bounds: [0, 10]}, "
                           "x2: {bounds: [0, 20]}}}"));
    CHECK(error_of([&] { load_experiment(cfg.string()); }).find("is a registry dataset's id") != std::string::npos);
    write_file(cfg, config("{csv: absent.csv, schema: s.yaml}"));
    CHECK(error_of([&] { load_experiment(cfg.string()); }).find("datasets[0].csv: no file") != std::string::npos);
    // Three classes: a binary-only algorithm is refused at validation, as on registry data.
    std::string three = "x1,x2,group\n";
    for (int i = 0; i < 30; ++i) three += std::to_string(i % 10) + ",1," + std::string(1, static_cast<char>('a' + i % 3)) + "\n";
    write_file(work.path() / "three.csv", three);
    write_file(cfg, config("{csv: three.csv, target: group, classes: [a, b, c], features: {x1: {bounds: [0, 10]}, x2: {bounds: [0, 2]}}}",
                           "  - {name: dipreme, params: {epsilon: 1}}\n"));
    const std::string e = error_of([&] { expand_cells(load_experiment(cfg.string())); });
    CHECK(e.find("cannot run on dataset 'three': it classifies two classes only and the dataset lists 3 classes") !=
          std::string::npos);
  }
}
