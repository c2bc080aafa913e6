// Published-number checks (design.md §2 "merge / check"): configs/<paper>/published.yaml lists every
// number a paper prints (value, spread if given, where it is printed, a tolerance), which results
// rows measure it (the paper's method; optionally the run with the authors' reference quirks and the
// strict variant) and the explanation of any known gap. check_published prints published vs ours,
// then the paper's claims that compare series (the `claims:` section, experiments/claims.hpp).
#pragma once
#include <string>
#include <vector>

namespace dpf {

struct PublishedCheckOptions {
  std::string results_root = "results";
  std::string markdown_out;  // also write the report here (empty: do not)
};

struct PublishedCheckReport {
  std::size_t numbers = 0, within = 0, outside = 0, no_data = 0;
  std::size_t claims = 0, claims_hold = 0, claims_fail = 0, claims_no_data = 0;  // the `claims:` section
  std::string text;  // the Markdown report
};

// `path`: a published.yaml. Throws dpf::Error naming the file and key on a malformed entry.
PublishedCheckReport check_published(const std::string& path, const PublishedCheckOptions& options);
// The same on the file's text already in memory (tests, the fuzz target of tests/fuzz); `path` names
// the file in messages. check_published reads the file (at most kMaxConfigBytes) and calls this.
PublishedCheckReport check_published_text(const std::string& yaml_text, const std::string& path,
                                          const PublishedCheckOptions& options);

}  // namespace dpf
