// The `claims:` section of published.yaml (experiments/publish/claims.hpp): paired comparisons and argmax claims
// checked against small synthetic results.csv files in a temporary directory.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/eval/stats.hpp"
#include "experiments/exp_fixtures.hpp"
#include "experiments/publish/published.hpp"
#include "experiments/store/results.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::error_of;
using dpf::test::TempDir;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

ResultRow row(const std::string& label, const std::string& dataset, int rep, int fold, double acc,
              const std::string& eps = "", const std::string& trees = "") {
  ResultRow r;
  r.set("paper", "tp");
  r.set("label", label);
  r.set("dataset", dataset);
  r.set("repetition", std::to_string(rep));
  r.set("fold", std::to_string(fold));
  r.set("epsilon", eps);
  r.set("n_trees", trees);
  r.set("accuracy", acc);
  return r;
}

// A fold-dependent wiggle in [-0.01, 0.01] (deterministic; the claims only need spread).
double wiggle(int rep, int fold) { return 0.005 * static_cast<double>((rep * 5 + fold) % 5 - 2); }

// Experiment "cmp": series A and B on d1 (A ahead by 0.10), d2 (A ahead by 0.05), d3 (B ahead by 0.001,
// well within one sd), 2 repetitions x 5 folds. Experiment "trees": Ours at n_trees 1, 10, 100, best at
// 10 on d1 and at 100 on d2. Experiment "eps": P at eps 0.5, 1, 2 and NP without eps, gap shrinking.
void write_results(const fs::path& root) {
  std::vector<ResultRow> cmp, trees, eps;
  for (int rep = 0; rep < 2; ++rep)
    for (int fold = 0; fold < 5; ++fold) {
      const double w = wiggle(rep, fold), v = 0.002 * fold;
      cmp.push_back(row("A", "d1", rep, fold, 0.80 + w));
      cmp.push_back(row("B", "d1", rep, fold, 0.70 + w - v));
      cmp.push_back(row("A", "d2", rep, fold, 0.75 + w));
      cmp.push_back(row("B", "d2", rep, fold, 0.70 + w + v));
      cmp.push_back(row("A", "d3", rep, fold, 0.70 + w));
      cmp.push_back(row("B", "d3", rep, fold, 0.701 - w));
      cmp.push_back(row("A", "d0", rep, fold, 0.70 + w));  // d0: identical series, Wilcoxon p undefined
      cmp.push_back(row("B", "d0", rep, fold, 0.70 + w));
      const double d1[] = {0.6, 0.8, 0.78}, d2[] = {0.6, 0.7, 0.75};
      const char* grid[] = {"1", "10", "100"};
      for (int g = 0; g < 3; ++g) {
        trees.push_back(row("Ours", "d1", rep, fold, d1[g] + w, "1", grid[g]));
        trees.push_back(row("Ours", "d2", rep, fold, d2[g] + w, "1", grid[g]));
      }
      const double p[] = {0.6, 0.7, 0.75};
      const char* e[] = {"0.5", "1", "2"};
      for (int g = 0; g < 3; ++g) eps.push_back(row("P", "d1", rep, fold, p[g] + w, e[g]));
      eps.push_back(row("NP", "d1", rep, fold, 0.8 + w));
    }
  for (const auto& [name, rows] : {std::pair{"cmp", cmp}, std::pair{"trees", trees}, std::pair{"eps", eps}}) {
    fs::create_directories(root / "tp" / name);
    write_rows_atomic((root / "tp" / name / "results.csv").string(), rows);
  }
}

// A paired claim A vs B on experiment cmp over the given datasets, requiring `folds` pairs per dataset.
std::string paired(const std::string& datasets, int folds = 10) {
  return "  type: paired\n  experiment: cmp\n  metric: accuracy\n  a: {label: A}\n  b: {label: B}\n  datasets: [" +
         datasets + "]\n  min_folds: " + std::to_string(folds) + "\n";
}
const std::string kPaired = paired("d1, d2, d3");

std::string claim(const std::string& id, const std::string& body, const std::string& expect) {
  return "- id: " + id + "\n  source: test\n  statement: \"" + id + "\"\n" + body + "  expect: " + expect + "\n";
}

// The claims table row of one id, followed by its note (what was measured, the rules; unwrapped).
std::string row_of(const std::string& text, const std::string& id) {
  const auto at = text.find("| " + id + " |");
  REQUIRE(at != std::string::npos);
  std::string row = text.substr(at, text.find('\n', at) - at);
  const auto n = text.find("\n- **" + id + "**: ", at);
  REQUIRE(n != std::string::npos);
  std::size_t end = n + 1;
  while (end < text.size() && text.compare(end, 3, "\n- ") != 0 && text.compare(end, 2, "\n\n") != 0) ++end;
  std::string note = text.substr(n + 1, end - n - 1);
  for (std::size_t p; (p = note.find("\n  ")) != std::string::npos;) note.replace(p, 3, " ");
  return row + "\n" + note;
}

PublishedCheckReport check(const TempDir& dir, const std::string& claims) {
  const fs::path pub = dir.path() / "published.yaml";
  dpf::test::write_file(pub, "paper: tp\nclaims:\n" + claims);
  PublishedCheckOptions o;
  o.results_root = (dir.path() / "results").string();
  return check_published(pub.string(), o);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("claims: an undefined p (identical series) is not overwritten by the next group's p") {
    TempDir dir;
    write_results(dir.path() / "results");
    // d0 has p = NaN, d1 a tiny p: max_p must fail on d0 whatever order the groups come in.
    const PublishedCheckReport rep =
        check(dir, claim("p-nan-first", paired("d0, d1"), "{max_p: 0.05}") +
                       claim("p-nan-last", paired("d1, d0"), "{max_p: 0.05}"));
    CHECK(rep.claims == 2);
    CHECK(rep.claims_fail == 2);
    CHECK(rep.claims_hold == 0);
  }

  TEST_CASE("claims: paired and argmax claims that hold, fail or have no data") {
    TempDir dir;
    write_results(dir.path() / "results");
    const std::string text =
        claim("holds-tally", kPaired, "{wins: 2, ties_on: [d3], losses: 0, largest_difference: [0.09, 0.11], min_effect: -1}") +
        claim("fails-min", kPaired, "{min_difference: 0.02}") +
        claim("holds-p", paired("d1, d2"), "{max_p: 0.05}") +
        claim("fails-strict", kPaired, "{tie_sd: 0, losses: 0}") +
        claim("absent", "  type: paired\n  experiment: never-run\n  metric: accuracy\n  a: {label: A}\n  b: {label: B}\n",
              "{wins: 1}") +
        claim("short", paired("d1, d2, d3", 20), "{wins: 2}") +
        claim("argmax-holds", "  type: argmax\n  experiment: trees\n  metric: accuracy\n  series: {label: Ours, epsilon: 1}\n"
                              "  over: n_trees\n  values: [1, 10, 100]\n  min_folds: 10\n",
              "{argmax_in: [10, 100]}") +
        claim("argmax-fails", "  type: argmax\n  experiment: trees\n  metric: accuracy\n  series: {label: Ours}\n  over: n_trees\n",
              "{argmax_in: 100}") +
        claim("argmax-grid", "  type: argmax\n  experiment: trees\n  metric: accuracy\n  series: {label: Ours}\n  over: n_trees\n"
                             "  values: [1, 10, 100, 1000]\n",
              "{argmax_in: [10, 100]}") +
        claim("trend", "  type: paired\n  experiment: eps\n  metric: accuracy\n  a: {label: NP}\n  b: {label: P}\n  by: epsilon\n",
              "{trend: decreasing, min_difference: 0}") +
        claim("trend-up", "  type: paired\n  experiment: eps\n  metric: accuracy\n  a: {label: NP}\n  b: {label: P}\n  by: epsilon\n",
              "{trend: increasing}");
    const PublishedCheckReport rep = check(dir, text);
    CAPTURE(rep.text);
    CHECK(rep.claims == 11);
    CHECK(rep.numbers == 0);
    CHECK(contains(row_of(rep.text, "holds-tally"), "| holds |"));
    CHECK(contains(row_of(rep.text, "holds-tally"), "wins/ties/losses 2/1/0"));
    // d1's mean difference is 0.10 + mean(0.002 * fold) = 0.104, from the rows, not from the claim.
    CHECK(contains(row_of(rep.text, "holds-tally"), "d1 +0.104"));
    CHECK(contains(row_of(rep.text, "fails-min"), "**does not hold**"));
    CHECK(contains(row_of(rep.text, "fails-min"), "smallest difference -0.001 (d3)"));
    CHECK(contains(row_of(rep.text, "holds-p"), "| holds |"));
    CHECK(contains(row_of(rep.text, "fails-strict"), "**does not hold**"));
    CHECK(contains(row_of(rep.text, "fails-strict"), "losses 1 (d3)"));
    CHECK(contains(row_of(rep.text, "absent"), "NO DATA"));
    CHECK(contains(row_of(rep.text, "short"), "NO DATA"));
    CHECK(contains(row_of(rep.text, "short"), "10 pairs in cmp"));
    CHECK(contains(row_of(rep.text, "argmax-holds"), "| holds |"));
    CHECK(contains(row_of(rep.text, "argmax-holds"), "d1 10 (0.8)"));
    CHECK(contains(row_of(rep.text, "argmax-holds"), "d2 100 (0.75)"));
    CHECK(contains(row_of(rep.text, "argmax-fails"), "outside: d1 10"));
    CHECK(contains(row_of(rep.text, "argmax-fails"), "d1 10 (0.8) [best in range: 100 (0.78)]"));
    CHECK(contains(row_of(rep.text, "argmax-grid"), "NO DATA"));
    CHECK(contains(row_of(rep.text, "trend"), "| holds |"));
    CHECK(contains(row_of(rep.text, "trend"), "d1 @0.5 +0.200"));
    CHECK(contains(row_of(rep.text, "trend-up"), "**does not hold**"));
    CHECK(rep.claims_hold == 4);
    CHECK(rep.claims_fail == 4);
    CHECK(rep.claims_no_data == 3);
    CHECK(contains(rep.text, "11 claims: 4 hold, 4 do not hold, 3 without (complete) results."));
  }

  TEST_CASE("claims: the Wilcoxon p in the report is core/eval/stats' over the paired folds") {
    TempDir dir;
    write_results(dir.path() / "results");
    std::vector<double> a, b;
    for (int rep = 0; rep < 2; ++rep)
      for (int fold = 0; fold < 5; ++fold) a.push_back(0.75 + wiggle(rep, fold)), b.push_back(0.70 + wiggle(rep, fold) + 0.002 * fold);
    const double p = wilcoxon_signed_rank(a, b).p_value;
    const PublishedCheckReport rep = check(dir, claim("p", paired("d2") + "  match: [epsilon]\n", "{max_p: 0.05}"));
    CAPTURE(rep.text);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", p);
    CHECK(p < 0.05);
    CHECK(contains(row_of(rep.text, "p"), std::string("d2 +0.046 (") ));
    CHECK(contains(row_of(rep.text, "p"), std::string("p ") + buf));
  }

  TEST_CASE("claims: one tally over several (experiment, metric) sources") {
    TempDir dir;
    write_results(dir.path() / "results");
    const std::string body = "  type: paired\n  experiment: [cmp, cmp]\n  metric: [accuracy, 1-accuracy]\n"
                             "  a: {label: A}\n  b: {label: B}\n  datasets: [d1, d2, d3]\n";
    const PublishedCheckReport rep = check(dir, claim("both", body, "{wins: 2, ties: 2, losses: 2}") +
                                                    claim("wrong", body, "{wins: 4}"));
    CAPTURE(rep.text);
    CHECK(contains(row_of(rep.text, "both"), "| holds |"));
    CHECK(contains(row_of(rep.text, "both"), "d1 1-accuracy -0.104"));
    CHECK(contains(row_of(rep.text, "wrong"), "**does not hold**"));
    const std::string m = error_of([&] {
      check(dir, claim("x", "  type: paired\n  experiment: [cmp, cmp, cmp]\n  metric: [accuracy, f1]\n  a: {label: A}\n"
                            "  b: {label: B}\n", "{wins: 1}"));
    });
    CHECK(contains(m, "claims[0].metric: experiment and metric lists must have the same length"));
  }

  TEST_CASE("claims: malformed entries name the file and the key") {
    TempDir dir;
    write_results(dir.path() / "results");
    const fs::path pub = dir.path() / "published.yaml";
    auto err = [&](const std::string& claims) {
      dpf::test::write_file(pub, "paper: tp\nclaims:\n" + claims);
      PublishedCheckOptions o;
      o.results_root = (dir.path() / "results").string();
      return error_of([&] { check_published(pub.string(), o); });
    };
    std::string m = err(claim("x", kPaired + "  colour: red\n", "{wins: 1}"));
    CHECK(contains(m, pub.string()));
    CHECK(contains(m, "claims[0].colour: unknown key"));
    m = err(claim("x", kPaired, "{wins: many}"));
    CHECK(contains(m, "claims[0].expect.wins: expected a number"));
    m = err(claim("x", kPaired, "{most: 1}"));
    CHECK(contains(m, "claims[0].expect.most: unknown rule"));
    m = err(claim("x", "  type: paired\n  experiment: cmp\n  metric: accuracy\n  a: {label: A}\n", "{wins: 1}"));
    CHECK(contains(m, "claims[0]: missing 'b'"));
    m = err(claim("x", "  type: ranking\n  experiment: cmp\n  metric: accuracy\n", "{wins: 1}"));
    CHECK(contains(m, "claims[0].type: expected paired or argmax"));
    m = err(claim("x", kPaired + "  over: n_trees\n", "{wins: 1}"));
    CHECK(contains(m, "claims[0].over: not a key of a paired claim"));
    m = err(claim("x", kPaired, "{trend: decreasing}"));
    CHECK(contains(m, "claims[0].expect.trend: needs 'by'"));
    // Series P has three rows per (dataset, repetition, fold), one per epsilon: pairing needs 'by' or 'match'.
    m = err(claim("x", "  type: paired\n  experiment: eps\n  metric: accuracy\n  a: {label: NP}\n  b: {label: P}\n", "{wins: 1}"));
    CHECK(contains(m, "claims[0].b: selects several rows"));
    m = err(claim("x", kPaired, "{wins: 1}") + claim("x", kPaired, "{wins: 1}"));
    CHECK(contains(m, "claims[1].id: duplicate id"));
    m = err(claim("x", kPaired, "{largest_difference: [0.2, 0.1]}"));
    CHECK(contains(m, "claims[0].expect.largest_difference: expected low <= high"));
  }

  TEST_CASE("claims: every shipped published.yaml's claims parse and have no data against empty results") {
    const fs::path root = fs::path(project_root()) / "configs";
    TempDir empty;
    int with_claims = 0;
    for (const auto& paper : fs::directory_iterator(root)) {
      const fs::path f = paper.path() / "published.yaml";
      if (!fs::exists(f)) continue;
      CAPTURE(f.string());
      PublishedCheckOptions o;
      o.results_root = empty.str();
      PublishedCheckReport rep;
      CHECK_NOTHROW(rep = check_published(f.string(), o));
      CHECK(rep.claims_no_data == rep.claims);
      with_claims += rep.claims > 0;
    }
    CHECK(with_claims >= 1);
  }

  TEST_CASE("claims: docs/extending.md's claims example parses") {
    std::ifstream in(fs::path(project_root()) / "docs" / "extending.md");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string readme = ss.str();
    const auto at = readme.find("```yaml\nclaims:\n");
    REQUIRE(at != std::string::npos);
    const auto begin = at + 8, end = readme.find("```", begin);
    REQUIRE(end != std::string::npos);
    TempDir dir;
    const fs::path pub = dir.path() / "published.yaml";
    dpf::test::write_file(pub, "paper: tp\n" + readme.substr(begin, end - begin));
    PublishedCheckOptions o;
    o.results_root = dir.str();
    PublishedCheckReport rep;
    CHECK_NOTHROW(rep = check_published(pub.string(), o));
    CHECK(rep.claims == 2);
    CHECK(rep.claims_no_data == 2);
  }
}
