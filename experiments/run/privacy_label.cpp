#include "experiments/run/privacy_label.hpp"

#include <algorithm>
#include <map>

#include "datasets/registry.hpp"

namespace dpf {

std::string cell_privacy_status(const AlgorithmInfo& info, const Cell& cell, TaskKind task, bool domains_from_data) {
  std::string status = info.privacy_status(cell.params, task);
  if (!info.private_algorithm || !is_dp_label(status)) return status;
  const std::string label = status;
  if (cell.preprocess.target_scaling == "minmax" || cell.preprocess.target_scaling == "max")
    return "published, not " + label + ": target_scaling " + cell.preprocess.target_scaling +
           " reads the target's range from the rows (use public-" + cell.preprocess.target_scaling + ")";
  if (domains_from_data) return "published, not " + label + ": domains: from-data reads the feature domains from the rows";
  return status;
}

namespace {

// One series' cells: how many, and the statuses of those that are not epsilon-DP (first seen first).
struct SeriesStatus {
  std::size_t cells = 0, not_dp = 0;
  std::vector<std::string> statuses;
};

std::string series_line(const std::string& label, const SeriesStatus& s) {
  std::string line = label + ": " + s.statuses.front();
  if (s.statuses.size() > 1) line += " (and " + std::to_string(s.statuses.size() - 1) + " other statuses across its cells)";
  if (s.not_dp < s.cells) line += " [" + std::to_string(s.not_dp) + " of its " + std::to_string(s.cells) + " cells]";
  return line;
}

}  // namespace

std::vector<std::string> privacy_summary(const ExperimentSpec& spec, const std::vector<Cell>& cells) {
  std::vector<std::string> labels;  // private series, in config order
  std::map<std::string, SeriesStatus> series;
  for (const Cell& c : cells) {
    const AlgorithmInfo& info = find_algorithm(c.algorithm);
    if (!info.private_algorithm) continue;
    if (!series.count(c.label)) labels.push_back(c.label);
    SeriesStatus& s = series[c.label];
    ++s.cells;
    const DatasetFacts f = config_dataset_facts(spec, c.dataset);
    const bool from_data = c.preprocess.domains == "from-data" || f.domains_from_data;
    const std::string status = cell_privacy_status(info, c, f.known ? f.task : TaskKind::kClassification, from_data);
    if (is_dp_label(status)) continue;
    ++s.not_dp;
    if (std::find(s.statuses.begin(), s.statuses.end(), status) == s.statuses.end()) s.statuses.push_back(status);
  }
  std::vector<std::string> lines;
  std::size_t k = 0;
  for (const auto& label : labels) k += series[label].not_dp > 0 ? 1 : 0;
  if (k == 0) return lines;
  lines.push_back(std::to_string(k) + " of " + std::to_string(labels.size()) +
                  " series are not epsilon-DP (published variants):");
  for (const auto& label : labels)
    if (series[label].not_dp > 0) lines.push_back(series_line(label, series[label]));
  return lines;
}

}  // namespace dpf
