// Explanations of published numbers (experiments/publish/published.cpp, explain()): placeholders filled from the
// measurement, and the warning for text that contradicts it, on a tiny published.yaml and results.csv.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "experiments/exp_fixtures.hpp"
#include "experiments/publish/published.hpp"
#include "experiments/store/results.hpp"

using namespace dpf;
namespace fs = std::filesystem;
using dpf::test::TempDir;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// results/tp/e/results.csv: label P at 0.60 and 0.70 (mean 0.65), label S at 0.50 (mean 0.5).
void write_results(const fs::path& root) {
  std::vector<ResultRow> rows;
  for (int rep = 0; rep < 2; ++rep)
    for (const auto& [label, acc] : {std::pair{"P", rep ? 0.70 : 0.60}, std::pair{"S", 0.50}}) {
      ResultRow r;
      r.set("label", label);
      r.set("dataset", "d");
      r.set("repetition", std::to_string(rep));
      r.set("accuracy", acc);
      rows.push_back(r);
    }
  fs::create_directories(root / "tp" / "e");
  write_rows_atomic((root / "tp" / "e" / "results.csv").string(), rows);
}

// The report's notes are wrapped at 120 columns, continuation lines indented by two spaces.
std::string unwrap(std::string t) {
  for (std::size_t p; (p = t.find("\n  ")) != std::string::npos;) t.replace(p, 3, " ");
  return t;
}

std::string number(const std::string& id, double value, double tol, const std::string& why) {
  return "  - {id: " + id + ", experiment: e, metric: accuracy, value: " + std::to_string(value) +
         ", tolerance: " + std::to_string(tol) + ", paper_method: {label: P}, strict: {label: S}, explanation: \"" + why +
         "\"}\n";
}

std::string report(const std::string& numbers) {
  TempDir dir;
  write_results(dir.path() / "results");
  const fs::path pub = dir.path() / "published.yaml";
  dpf::test::write_file(pub, "paper: tp\nnumbers:\n" + numbers);
  PublishedCheckOptions o;
  o.results_root = (dir.path() / "results").string();
  return unwrap(check_published(pub.string(), o).text);
}

std::string warning_of(const std::string& text, const std::string& id) {
  const auto at = text.find("- **" + id + "**: explanation contradicts the measurement");
  if (at == std::string::npos) return "";
  return text.substr(at, text.find('\n', at) - at);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("published: explanation placeholders are filled from the measurement") {
    const std::string t =
        report(number("a", 0.70, 0.01, "ours {ours}, strict {ours.strict}, quirks {ours.quirks}, delta {delta}: {verdict}"));
    CHECK(contains(t, "ours 0.65, strict 0.5, quirks —, delta -0.05: outside"));
    CHECK(warning_of(t, "a").empty());  // placeholders are never typed values
    const std::string u = report(number("b", 0.66, 0.02, "{verdict} ({delta})"));
    CHECK(contains(u, "inside (-0.01)"));
  }

  TEST_CASE("published: an explanation contradicting the measurement is flagged") {
    const std::string t = report(number("stale", 0.70, 0.2, "we get about 0.71") +       // typed, stale
                                 number("fresh", 0.70, 0.2, "Ours 0.65 (strict 0.50)") +  // typed, matches
                                 number("pct", 0.70, 0.2, "Ours 65.0 in percent") +       // as a percentage
                                 number("says-in", 0.90, 0.1, "the tolerance covers the spread") +
                                 number("says-out", 0.66, 0.1, "outside: a known gap") +
                                 number("honest-out", 0.90, 0.1, "outside: a known gap") +
                                 number("integer", 0.70, 0.2, "ours has 10 trees") +
                                 number("cited", 0.71, 0.2, "Ours {ours} vs published 0.71; we measure it"));
    CHECK(contains(warning_of(t, "stale"), "typed value 0.71 after 'we get'"));
    CHECK(warning_of(t, "fresh").empty());
    CHECK(warning_of(t, "pct").empty());
    CHECK(contains(warning_of(t, "says-in"), "outside its tolerance"));
    CHECK(contains(warning_of(t, "says-out"), "inside its tolerance"));
    CHECK(warning_of(t, "honest-out").empty());
    CHECK(warning_of(t, "integer").empty());
    CHECK(warning_of(t, "cited").empty());  // the scan stops at a placeholder and at ';'
    CHECK(contains(t, "explanation contradicts the measurement"));
  }

  TEST_CASE("published: explanations without data are not flagged") {
    TempDir dir;
    const fs::path pub = dir.path() / "published.yaml";
    dpf::test::write_file(pub, "paper: tp\nnumbers:\n" + number("x", 0.7, 0.1, "we get 0.99, {ours}, {verdict}"));
    PublishedCheckOptions o;
    o.results_root = dir.str();
    const std::string t = unwrap(check_published(pub.string(), o).text);
    CHECK(contains(t, "we get 0.99, —, no data"));
    CHECK(warning_of(t, "x").empty());
  }

  TEST_CASE("published: 'unexplained: true' counts an investigated gap as unexplained, and needs a text") {
    TempDir dir;
    write_results(dir.path() / "results");
    const fs::path pub = dir.path() / "published.yaml";
    // Both outside (ours 0.65 against 0.90), both with a text the contradiction check accepts.
    const std::string two = number("explained", 0.90, 0.1, "outside: a known gap") +
                            number("open", 0.90, 0.1, "outside: side runs rule out the seed and the depth");
    dpf::test::write_file(pub, "paper: tp\nnumbers:\n" + two);
    PublishedCheckOptions o;
    o.results_root = (dir.path() / "results").string();
    const PublishedCheckReport before = check_published(pub.string(), o);
    CHECK(before.outside == 2);
    CHECK(before.outside_explained == 2);
    const auto flagged = [](std::string entry, const std::string& value) {  // "...}\n" -> "..., unexplained: v}\n"
      return entry.insert(entry.size() - 2, ", unexplained: " + value);
    };
    const std::string open_flagged = flagged(number("open", 0.90, 0.1, "outside: side runs rule out the seed and the depth"), "true");
    dpf::test::write_file(pub, "paper: tp\nnumbers:\n" + number("explained", 0.90, 0.1, "outside: a known gap") + open_flagged);
    const PublishedCheckReport after = check_published(pub.string(), o);
    CHECK(after.outside == 2);
    CHECK(after.outside_explained == 1);
    REQUIRE(after.number_entries.size() == 2);
    CHECK(after.number_entries[0].explained);
    CHECK_FALSE(after.number_entries[1].explained);
    CHECK(after.number_entries[1].warning.empty());  // not a contradiction: a declared open question
    // Without an explanation the flag says nothing, and a non-boolean is refused with its key.
    dpf::test::write_file(pub, "paper: tp\nnumbers:\n  - {id: bare, experiment: e, metric: accuracy, value: 0.9, "
                               "tolerance: 0.1, paper_method: {label: P}, unexplained: true}\n");
    CHECK_THROWS_WITH_AS(check_published(pub.string(), o), doctest::Contains("numbers[0].unexplained: needs an 'explanation'"),
                         std::exception);
    dpf::test::write_file(pub, "paper: tp\nnumbers:\n" + number("explained", 0.90, 0.1, "outside: a known gap") +
                                   flagged(number("open", 0.90, 0.1, "outside"), "maybe"));
    CHECK_THROWS_WITH_AS(check_published(pub.string(), o), doctest::Contains("numbers[1].unexplained: expected true or false"),
                         std::exception);
  }
}
