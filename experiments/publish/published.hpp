// Published-number checks (design.md §2 "merge / check"): configs/<paper>/published.yaml lists every
// number a paper prints (value, spread if given, where it is printed, a tolerance), which results
// rows measure it (the paper's method; optionally the run with the authors' reference quirks and the
// strict variant) and the explanation of any known gap. check_published prints published vs ours,
// then the paper's claims that compare series (the `claims:` section, experiments/publish/claims.hpp).
//
// The report is kept as structured entries (PublishedNumber, PublishedClaim) and rendered twice: as
// Markdown (a short table per section, long texts in a notes list under it, wrapped at 120 columns)
// and as JSON (published_json(), the schema of README.md "Reference snapshot and verify", read by the
// report and written into results/reference/<paper>/published.json by the snapshot).
#pragma once
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace dpf {

struct PublishedCheckOptions {
  std::string results_root = "results";
  std::string markdown_out;  // also write the report here (empty: do not)
  std::string json_out;      // also write published_json() here (empty: do not)
  // The project's own results directory: commands printed for missing data add RESULTS=<results_root>
  // to `make` only when results_root is another directory (empty: always add it unless it is "results").
  std::string default_results_root;
};

// One series of a number as measured (paper method, with quirks, strict).
struct MeasuredSeries {
  bool given = false;  // the entry names this series
  bool any = false;    // rows were found
  std::vector<std::pair<std::string, std::string>> selector;
  double mean = NAN, sd = NAN;
  std::size_t n = 0;
};

struct PublishedNumber {
  std::string id, source, experiment, metric, spread, compare, verdict;  // verdict: within | outside | no data
  double value = NAN, tolerance = NAN, delta = NAN;                      // delta: compared mean - value
  bool explained = false;  // outside, with an explanation the contradiction check does not flag and
                           // no `unexplained: true` (an investigated gap the text does not account for)
  std::string explanation, warning, command;
  // No data because the experiment's config excludes the compared series on its dataset
  // (exclude_datasets): "'label' on dataset: reason"; empty otherwise.
  std::string excluded_by_config;
  MeasuredSeries paper_method, with_quirks, strict;
};

struct PublishedClaim {
  std::string id, source, text, verdict;  // verdict: holds | fails | no data
  std::vector<std::string> experiments;
  double effect = NAN, p = NAN;  // paired: the smallest effect (sds) and the largest p over the groups
  std::string measured, rules, missing, explanation, command;
};

struct PublishedCheckReport {
  std::size_t numbers = 0, within = 0, outside = 0, no_data = 0;
  std::size_t outside_explained = 0;
  std::size_t claims = 0, claims_hold = 0, claims_fail = 0, claims_no_data = 0;  // the `claims:` section
  std::string paper, published_yaml, results_root;
  std::vector<PublishedNumber> number_entries;
  std::vector<PublishedClaim> claim_entries;
  // Non-empty when the results directory holds nothing for the paper (names the directory looked in).
  std::string no_results_warning;
  std::string text;  // the Markdown report
};

// `path`: a published.yaml. Throws dpf::Error naming the file and key on a malformed entry.
PublishedCheckReport check_published(const std::string& path, const PublishedCheckOptions& options);
// The same on the file's text already in memory (tests, the fuzz target of tests/fuzz); `path` names
// the file in messages. check_published reads the file (at most kMaxConfigBytes) and calls this.
PublishedCheckReport check_published_text(const std::string& yaml_text, const std::string& path,
                                          const PublishedCheckOptions& options);

// The report as Markdown: a warning when the results root holds nothing for the paper, a table of
// numbers (id, published, our three series, verdict) and of claims (id, verdict, effect, p), each
// followed by notes (source, explanation, what was measured, the command for missing data) wrapped at
// 120 columns, and the commands that produce the missing data.
std::string published_markdown(const PublishedCheckReport& report);

// The report as one JSON object: paper, published_yaml, results_root, numbers[], claims[], counts{}.
std::string published_json(const PublishedCheckReport& report);

// How to produce the results of `experiment`: `make reproduce-<experiment> PAPER=<paper>` for a
// figure-*/table-* config beside `published_yaml`, else `build/dpforest run <config> --results <root>`.
std::string reproduce_command(const std::string& paper, const std::string& experiment, const std::string& published_yaml,
                              const PublishedCheckOptions& options);

// `text` wrapped at `width` columns (code points) on spaces; continuation lines start with `indent`.
std::string wrap_text(const std::string& text, std::size_t width, const std::string& indent);

}  // namespace dpf
