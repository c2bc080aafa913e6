// Experiment configs, sweep expansion, the results CSV and the published-number check
// (experiments/config/config.hpp, sweep.hpp, results.hpp, published.hpp), plus every shipped config.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "experiments/exp_fixtures.hpp"
#include "experiments/config/formula.hpp"
#include "experiments/publish/published.hpp"
#include "experiments/config/sweep.hpp"
#include "core/privacy/rng.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::error_of;
using dpf::test::TempDir;

namespace {

const std::string kPath = "configs/test/bad.yaml";

const std::string kGood = R"(paper: testpaper
experiment: sweep
seed: 3
protocol: {type: kfold, folds: 3, repetitions: 2, stratified: true}
datasets:
  - banknote
  - {id: transfusion, domains: from-data}
defaults: {n_trees: 4, max_depth: 3, epsilon: [0.5, 1, 2]}
algorithms:
  - {name: dipreme, label: DiPriMe, params: {max_depth: [2, 4]}}
  - {name: rf, label: RF}
  - {name: dp-ert, label: DP-ERT, params: {reference_quirks: [[l1_error]]}}
)";

// The message of parsing and expanding `yaml` (empty if both succeed).
std::string problem(const std::string& yaml) {
  return error_of([&] { expand_cells(parse_experiment(yaml, kPath)); });
}

std::string with(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("bad configs are rejected naming the file and the key path") {
    CHECK(problem(kGood).empty());
    struct Bad {
      std::string yaml;
      std::vector<std::string> parts;
    };
    const Bad cases[] = {
        {"paper: [unclosed\nexperiment: x\n", {kPath, "not valid YAML"}},
        {"- just\n- a list\n", {kPath, "mapping"}},
        {with("seed: 3", "sed: 3"), {kPath, "sed", "unknown key"}},
        {with("seed: 3", "seed: 3\nrecord: [leaf_occupancy, balance]"), {kPath, "record[1]", "'balance'"}},
        {with("seed: 3", "seed: 3\nrecord: leaf_occupancy"), {kPath, "record", "list"}},
        {with("folds: 3", "folds: 3, fold: 2"), {kPath, "protocol.fold", "unknown key"}},
        {with("{id: transfusion, domains: from-data}", "{id: transfusion, domain: from-data}"), {kPath, "datasets[1].domain"}},
        {with("{id: transfusion, domains: from-data}", "{id: transfusion, domains: public}"), {kPath, "datasets[1].domains", "'public'"}},
        {with("name: rf,", "name: random-forest,"),
         {kPath, "algorithms[1].name", "unknown algorithm 'random-forest'"}},
        {with("label: RF}", "label: RF, parms: {n_trees: 3}}"), {kPath, "algorithms[1].parms", "unknown key"}},
        {with("params: {max_depth: [2, 4]}", "params: {depth: [2, 4]}"),
         {kPath, "algorithms[0].params", "unknown parameter 'depth'", "dipreme"}},
        {with("epsilon: [0.5, 1, 2]", "epsilon: [0.5, 0, 2]"), {kPath, "algorithms[0]", "'epsilon'", "'0'"}},
        {with("epsilon: [0.5, 1, 2]", "epsilon: -1"), {kPath, "algorithms[0]", "'epsilon'", "'-1'", "> 0"}},
        {with("n_trees: 4", "n_trees: many"), {kPath, "'n_trees'", "'many'"}},
        {with("params: {max_depth: [2, 4]}", "params: {max_depth: [2, 4.5]}"), {kPath, "max_depth", "'4.5'"}},
        {with("{type: kfold, folds: 3,", "{type: holdout, test_fraction: 1.5,"),
         {kPath, "protocol.test_fraction", "'1.5'"}},
        {with("{type: kfold", "{type: loo"), {kPath, "protocol.type", "'loo'"}},
        {with("repetitions: 2", "repetitions: two"), {kPath, "protocol.repetitions", "'two'"}},
        {with("seed: 3", "seed: -4"), {kPath, "seed"}},
        {with("label: RF}", "label: DiPriMe}"), {kPath, "algorithms[1].label", "used twice"}},
        {with("reference_quirks: [[l1_error]]", "reference_quirks: [[l2_error]]"), {kPath, "'l2_error'", "reference_quirks"}},
        {with("experiment: sweep\n", ""), {kPath, "experiment", "missing"}},
        {with("  - banknote\n  - {id: transfusion, domains: from-data}\n", " []\n"), {kPath, "datasets"}},
        {with("epsilon: [0.5, 1, 2]", "epsilon: []"), {kPath, "defaults.epsilon", "empty list"}},
        {with("label: RF}", "label: RF, exclude_datasets: {wine: \"the method refuses this data\"}}"),
         {kPath, "algorithms[1].exclude_datasets.wine", "not a dataset of this config", "banknote"}},
        {with("label: RF}", "label: RF, exclude_datasets: {banknote: short}}"),
         {kPath, "algorithms[1].exclude_datasets.banknote", "reason"}},
        {with("label: RF}", "label: RF, exclude_datasets: [banknote]}"),
         {kPath, "algorithms[1].exclude_datasets", "mapping of dataset id: reason"}},
        {with("label: RF}", "label: RF, exclude_datasets: {banknote: \"the method refuses this data\", transfusion: "
                            "\"the method refuses this data\"}}"),
         {kPath, "algorithms[1].exclude_datasets", "every dataset"}},
    };
    for (const Bad& b : cases) {
      CAPTURE(b.yaml);
      const std::string m = problem(b.yaml);
      CAPTURE(m);
      CHECK(!m.empty());
      for (const auto& part : b.parts) CHECK(contains(m, part));
    }
    // load_experiment names a file it cannot open.
    CHECK(contains(error_of([] { load_experiment("configs/none/missing.yaml"); }), "configs/none/missing.yaml"));
  }

  TEST_CASE("sweep expansion: cell counts, defaults only where the algorithm has the parameter, stable ids") {
    const ExperimentSpec spec = parse_experiment(kGood, "configs/testpaper/sweep.yaml");
    CHECK(spec.protocol.n_folds() == 3);
    CHECK(spec.datasets[1].preprocess.domains == "from-data");
    const std::vector<Cell> cells = expand_cells(spec);
    // dipreme: 3 epsilons x 2 depths x 2 datasets; rf: no epsilon -> 1 x 2; dp-ert: 3 x 2.
    CHECK(cells.size() == 12 + 2 + 6);
    std::set<std::string> ids;
    for (const Cell& c : cells) {
      CAPTURE(c.key);
      CHECK(c.id.size() == 16);
      CHECK(c.id.find_first_not_of("0123456789abcdef") == std::string::npos);
      ids.insert(c.id);
      CHECK(c.index == static_cast<std::size_t>(&c - cells.data()));
      if (c.algorithm == "rf") {
        CHECK_FALSE(c.params.has("epsilon"));
        CHECK(c.params.text("n_trees") == "4");  // the default applies where the parameter exists
        CHECK(c.params.text("max_depth") == "3");
      }
      if (c.algorithm == "dipreme") CHECK((c.params.text("max_depth") == "2" || c.params.text("max_depth") == "4"));
      if (c.algorithm == "dp-ert") CHECK(c.params.text("reference_quirks") == "l1_error");
    }
    CHECK(ids.size() == cells.size());
    // The same experiment written differently (key order, number spelling) gives the same ids; a
    // different master seed does not change them either (seeds enter the task keys, not the cells).
    const std::string respelled = R"(experiment: sweep
paper: testpaper
seed: 4
protocol: {type: kfold, repetitions: 2, folds: 3, stratified: true}
datasets: [banknote, {domains: from-data, id: transfusion}]
defaults: {epsilon: [0.50, 1.0, 2e0], max_depth: 3, n_trees: 4.0}
algorithms:
  - {label: DiPriMe, name: dipreme, params: {max_depth: [2.0, 4]}}
  - {name: rf, label: RF}
  - {name: dp-ert, label: DP-ERT, params: {reference_quirks: l1_error}}
)";
    const std::vector<Cell> again = expand_cells(parse_experiment(respelled, "elsewhere.yaml"));
    REQUIRE(again.size() == cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
      CHECK(again[i].id == cells[i].id);
      CHECK(again[i].key == cells[i].key);
    }
    // The id is 16 hex digits of hash_string(key) (FNV-1a, then mix64): pinned on a fixed key so a
    // change of the hash, which would orphan every finished cell file, fails here. The key itself
    // lists every resolved parameter, so it grows when an algorithm gains a parameter.
    auto hex = [](uint64_t v) {
      char buf[17];
      std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
      return std::string(buf);
    };
    CHECK(hex(hash_string("testpaper|sweep|DiPriMe|dipreme|banknote|scale=none,domains=registry,bins=0|clf_vote=soft;"
                          "epsilon=0.5;leaf_scale=range;max_depth=2;n_trees=4;partition=true;reference_quirks=;"
                          "rho=0.5;strict=false")) == "65098dbec361275a");
    for (const Cell& c : cells) CHECK(c.id == hex(hash_string(c.key)));
    CHECK(cells[0].key.rfind("testpaper|sweep|DiPriMe|dipreme|banknote|scale=none,domains=registry,bins=0|", 0) == 0);
    CHECK(contains(cells[0].key, "epsilon=0.5;"));
    CHECK(contains(cells[0].key, "max_depth=2;"));
  }

  TEST_CASE("exclude_datasets drops one algorithm's cells on a dataset and leaves every other cell as it was") {
    const std::string reason = "the authors' code refuses categorical features here";
    const ExperimentSpec spec = parse_experiment(
        with("label: RF}", "label: RF, exclude_datasets: {transfusion: \"" + reason + "\"}}"), "configs/testpaper/sweep.yaml");
    const std::vector<Cell> all = expand_cells(parse_experiment(kGood, "configs/testpaper/sweep.yaml"));
    const std::vector<Cell> cells = expand_cells(spec);
    CHECK(cells.size() == all.size() - 1);  // rf has one cell per dataset
    std::set<std::string> ids;
    for (const Cell& c : all) ids.insert(c.id);
    for (const Cell& c : cells) {
      CHECK_FALSE((c.algorithm == "rf" && c.dataset == "transfusion"));
      CHECK(ids.count(c.id) == 1);  // same keys, so the same ids and seeds: finished cells stay valid
      CHECK(c.index == static_cast<std::size_t>(&c - cells.data()));
    }
    const std::vector<std::string> notes = excluded_cell_notes(spec);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == "'RF' on transfusion: " + reason);
    CHECK(excluded_cell_notes(parse_experiment(kGood, kPath)).empty());
  }

  TEST_CASE("results CSV round trip keeps commas, quotes and column order") {
    TempDir dir;
    ResultRow a, b;
    a.set("label", "DiPriMe (as coded)");
    a.set("reference_quirks", "split_budget_as_coded,cat_score_bug");
    a.set("note", "say \"hi\", then go");
    a.set("accuracy", 0.1 + 0.2);
    b.set("label", "RF");
    b.set("extra", "only in b");
    b.set("accuracy", 1.0 / 3.0);
    const std::string path = (dir.path() / "rows.csv").string();
    write_rows_atomic(path, {a, b});
    const auto back = read_rows(path);
    REQUIRE(back.size() == 2);
    CHECK(back[0].get("reference_quirks") == "split_budget_as_coded,cat_score_bug");
    CHECK(back[0].get("note") == "say \"hi\", then go");
    CHECK(back[0].get("label") == "DiPriMe (as coded)");
    CHECK(std::strtod(back[0].get("accuracy").c_str(), nullptr) == 0.1 + 0.2);  // shortest round-trip text
    CHECK(std::strtod(back[1].get("accuracy").c_str(), nullptr) == 1.0 / 3.0);
    CHECK(back[0].get("extra").empty());
    CHECK(back[1].get("extra") == "only in b");
    std::vector<std::string> columns;
    for (const auto& c : back[0].cells()) columns.push_back(c.first);
    CHECK(columns == std::vector<std::string>{"label", "reference_quirks", "note", "accuracy", "extra"});
    CHECK(csv_escape("plain") == "plain");
    CHECK(csv_escape("a,b") == "\"a,b\"");
    CHECK(csv_escape("q\"") == "\"q\"\"\"");
    CHECK(format_double(0.5) == "0.5");
    CHECK(format_double(std::nan("")) == "nan");
    // Atomic writes leave no temporary files behind.
    for (const auto& e : fs::directory_iterator(dir.path())) CHECK(e.path().filename() == "rows.csv");
  }

  TEST_CASE("check_published: within, outside and no data against a small run") {
    if (!dpf::test::have_dataset("banknote")) return;
    TempDir dir;
    const ExperimentSpec spec = parse_experiment(R"(
paper: testpaper
experiment: pub
seed: 8
protocol: {type: holdout, test_fraction: 0.2, repetitions: 2}
datasets: [banknote]
algorithms:
  - {name: rf, label: RF, params: {n_trees: 5, max_depth: 4}}
  - {name: dipreme, label: DiPriMe, params: {epsilon: [1, 10], n_trees: 4, max_depth: 4}}
)",
                                                 "inline/pub.yaml");
    const RunReport r = run_experiment(spec, dpf::test::quiet_options(dir));
    REQUIRE(r.computed == 3);
    double rf_acc = 0;
    int n = 0;
    for (const auto& row : read_rows(r.results_csv))
      if (row.get("label") == "RF") rf_acc += std::strtod(row.get("accuracy").c_str(), nullptr), ++n;
    REQUIRE(n == 2);
    rf_acc /= n;
    const fs::path pub = dir.path() / "published.yaml";
    dpf::test::write_file(pub, "paper: testpaper\nnumbers:\n"
                               "  - {id: rf-acc, source: test, experiment: pub, metric: accuracy, value: " +
                                   format_double(rf_acc + 0.01) +
                                   ", tolerance: 0.02, paper_method: {label: RF}}\n"
                                   "  - {id: rf-err, experiment: pub, metric: 1-accuracy, value: 0.5, tolerance: 0.01,"
                                   " paper_method: {label: RF}}\n"
                                   "  - {id: dp-eps10, experiment: pub, metric: accuracy, value: 0.9, tolerance: 0.5,"
                                   " paper_method: {label: DiPriMe, epsilon: 10}, strict: {label: DiPriMe, epsilon: 3}}\n"
                                   "  - {id: absent, experiment: never-run, metric: accuracy, value: 0.9, tolerance: 0.1,"
                                   " paper_method: {label: RF}}\n");
    PublishedCheckOptions o;
    o.results_root = dir.str();
    o.markdown_out = (dir.path() / "check.md").string();
    const PublishedCheckReport rep = check_published(pub.string(), o);
    CAPTURE(rep.text);
    CHECK(rep.numbers == 4);
    CHECK(rep.within == 2);
    CHECK(rep.outside == 1);
    CHECK(rep.no_data == 1);
    CHECK(contains(rep.text, "**OUTSIDE**"));
    CHECK(contains(rep.text, "| absent | 0.9 | — | n/a | NO DATA |"));
    std::string unwrapped = rep.text;  // notes are wrapped at 120 columns, continuation lines indented
    for (std::size_t p; (p = unwrapped.find("\n  ")) != std::string::npos;) unwrapped.replace(p, 3, " ");
    // never-run has no config beside published.yaml: the command says to write one, then run it.
    CHECK(contains(unwrapped, "No data: run `build/dpforest run " + (dir.path() / "never-run.yaml").string() + " --results " + dir.str()));
    CHECK(fs::exists(o.markdown_out));
    // Malformed entries name the file and the entry.
    const fs::path bad = dir.path() / "bad.yaml";
    dpf::test::write_file(bad, "paper: testpaper\nnumbers:\n  - {id: x, experiment: pub, metric: accuracy, valu: 1,"
                               " tolerance: 0.1, paper_method: {label: RF}}\n");
    const std::string m = error_of([&] { check_published(bad.string(), o); });
    CHECK(contains(m, bad.string()));
    CHECK(contains(m, "numbers[0]"));
    dpf::test::write_file(bad, "paper: testpaper\nnumbers:\n  - {id: x, experiment: pub, metric: accuracy, value: high,"
                               " tolerance: 0.1, paper_method: {label: RF}}\n");
    const std::string m2 = error_of([&] { check_published(bad.string(), o); });
    CAPTURE(m2);
    CHECK(contains(m2, bad.string()));
    CHECK(contains(m2, "value"));
  }

  TEST_CASE("every shipped config parses and expands; every published.yaml checks against empty results") {
    const fs::path root = fs::path(project_root()) / "configs";
    REQUIRE(fs::is_directory(root));
    TempDir empty;
    int configs = 0, published = 0;
    for (const auto& paper : fs::directory_iterator(root)) {
      // configs/audit holds audit pairs and the audit matrix, not experiments (tests/audit reads them).
      if (!paper.is_directory() || paper.path().filename() == "audit") continue;
      for (const auto& f : fs::directory_iterator(paper.path())) {
        if (f.path().extension() != ".yaml") continue;
        CAPTURE(f.path().string());
        if (f.path().filename() == "published.yaml") {
          PublishedCheckOptions o;
          o.results_root = empty.str();
          PublishedCheckReport rep;
          CHECK_NOTHROW(rep = check_published(f.path().string(), o));
          // A paper whose printed numbers cannot be verified (lumberjack.md §5) records claims only.
          CHECK(rep.numbers + rep.claims > 0);
          CHECK(rep.no_data == rep.numbers);
          ++published;
        } else {
          ExperimentSpec s;
          CHECK_NOTHROW(s = load_experiment(f.path().string()));
          CHECK(s.paper == paper.path().filename().string());
          CHECK(s.experiment == f.path().stem().string());
          if (!s.formula.empty()) {  // a closed-form table: rows, not cells
            CHECK(!evaluate_formula(s.paper, s.experiment, s.formula, s.formula_grid, s.path).empty());
            ++configs;
            continue;
          }
          std::vector<Cell> cells;
          CHECK_NOTHROW(cells = expand_cells(s));
          CHECK(!cells.empty());
          std::set<std::string> ids;
          for (const Cell& c : cells) ids.insert(c.id);
          CHECK(ids.size() == cells.size());
          ++configs;
        }
      }
    }
    CHECK(configs >= 1);
    CHECK(published >= 1);
  }
}
