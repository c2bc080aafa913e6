// `dpforest summarize RESULTS_DIR`: a generic view of any experiment's results, a user's own config
// included: mean ± sd of the metric per series x dataset x value of the swept parameter, and the
// labels of its figure (one panel per dataset, metric against the swept parameter) from the protocol.
#pragma once
#include <string>
#include <vector>

#include "experiments/config/config.hpp"
#include "experiments/store/results.hpp"

namespace dpf {

// "5-fold CV × 2 repetitions", "10 random 90/10 splits", "3 fits evaluated on their training rows".
std::string protocol_text(const Protocol& p);

struct SummaryRow {
  std::string series, dataset, metric, value;  // value: of the swept parameter ("" when the series has none)
  double mean = 0, sd = 0;                     // sd: NaN for one task
  std::size_t n = 0;                           // tasks
};

struct ResultsSummary {
  std::string swept;                  // the swept parameter ("" when none varies)
  std::vector<std::string> also_varied;  // other parameters that vary, shown in the series names
  std::vector<SummaryRow> rows;       // series in first-seen order, then dataset, then value (numeric order)
  std::string y_label, x_label;
};

// The metric is `metric`, or per row accuracy (classification) / mse (regression). The swept
// parameter is epsilon when it varies within a series on a dataset, else the parameter with the most
// distinct values that does; others that vary are appended to the series names ("RF (max_depth=4)").
ResultsSummary summarize_results(const std::vector<ResultRow>& rows, const Protocol& protocol, const std::string& metric = "");

std::string summary_text(const ResultsSummary& s);  // an aligned table
std::string summary_tsv(const ResultsSummary& s);   // series, dataset, metric, <swept>, mean, sd, n

}  // namespace dpf
