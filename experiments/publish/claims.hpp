// Published *claims* (the `claims:` section of configs/<paper>/published.yaml, README.md "How to add an
// experiment"): statements that compare series rather than print one number, checked on results.csv.
//
//   type: paired  — series a vs series b per dataset (and per value of `by`), paired by (dataset,
//                   repetition, fold, the `match` columns): mean difference a - b, its size in sds
//                   (the larger of the two series' sds, the paper's error bars) and the two-sided
//                   Wilcoxon signed-rank p over the paired folds (core/eval/stats.hpp); rules on those.
//   type: argmax  — which value of the column `over` maximises the series' mean, per dataset.
//
// Every measured value comes from results.csv; the rules hold the paper's statement.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "experiments/publish/published.hpp"
#include "experiments/store/results.hpp"

namespace dpf {

// Helpers shared by the number and claim checks (defined in published.cpp).
namespace published_detail {
using Selector = std::vector<std::pair<std::string, std::string>>;
bool same_value(const std::string& a, const std::string& b);  // equal as text or as numbers
bool selected(const ResultRow& r, const Selector& sel);
// Metric value of a row: a column name or "1-<column>" (accuracy/error honour the l1_error quirk).
double metric_of(const ResultRow& r, const std::string& metric);
Selector selector(const YAML::Node& n, const std::string& where, const std::string& path);
// A misspelt metric ("1-" prefix allowed) or selector column would read as "no data": fails naming
// `where` and the table when `rows` (non-empty) lack it. Empty `metric`: selectors only.
void check_columns(const std::vector<ResultRow>& rows, const std::string& metric, const Selector& sel,
                   const std::string& where, const std::string& path, const std::string& csv);
std::string fmt(double v);
std::string cell_text(std::string s);
// results/<paper>/<experiment>/results.csv, read once (empty when the experiment has not run).
class Tables {
 public:
  Tables(std::string root, std::string paper) : root_(std::move(root)), paper_(std::move(paper)) {}
  const std::vector<ResultRow>& rows(const std::string& experiment);
  std::string csv(const std::string& experiment) const;
  // True once any experiment read so far had rows (false: the results root holds nothing asked for).
  bool any_rows() const { return any_rows_; }

 private:
  std::string root_, paper_;
  std::map<std::string, std::vector<ResultRow>> cache_;
  bool any_rows_ = false;
};
}  // namespace published_detail

struct ClaimsReport {
  std::size_t claims = 0, hold = 0, fail = 0, no_data = 0;
  std::vector<PublishedClaim> entries;  // in the file's order (command left empty: published.cpp fills it)
};

// `claims`: the YAML sequence under `claims:` of the file `path`. Throws dpf::Error naming the file and
// the key (claims[i].key) on a malformed entry.
ClaimsReport check_claims(const YAML::Node& claims, const std::string& path, published_detail::Tables& tables);

}  // namespace dpf
