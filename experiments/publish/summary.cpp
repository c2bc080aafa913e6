#include "experiments/publish/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "algorithms/registry.hpp"
#include "core/eval/stats.hpp"
#include "experiments/publish/claims.hpp"

namespace dpf {

namespace {

double number_or_nan(const std::string& s) {
  char* e = nullptr;
  const double x = std::strtod(s.c_str(), &e);
  return !s.empty() && *e == '\0' ? x : NAN;
}

// Numbers in numeric order, before other text in text order; "" (no value) first.
bool value_less(const std::string& a, const std::string& b) {
  const double x = number_or_nan(a), y = number_or_nan(b);
  if (!std::isnan(x) && !std::isnan(y)) return x < y;
  if (std::isnan(x) != std::isnan(y)) return !std::isnan(x);
  return a < b;
}

// The columns that hold a cell's configuration: every parameter of the rows' algorithms, and the
// dataset preprocessing.
std::set<std::string> parameter_columns(const std::vector<ResultRow>& rows) {
  std::set<std::string> cols = {"target_scaling", "bins"}, algorithms;
  for (const ResultRow& r : rows) algorithms.insert(r.get("algorithm"));
  for (const auto& a : algorithms) try {
      for (const ParamSpec& p : find_algorithm(a).params) cols.insert(p.name);
    } catch (const std::exception&) {
      // An algorithm this build does not know (older results): its parameters stay in the series.
    }
  return cols;
}

// Parameters whose value differs between rows of one series (label) on one dataset, with their
// number of distinct values over all rows.
std::map<std::string, std::size_t> varying_parameters(const std::vector<ResultRow>& rows) {
  std::map<std::string, std::size_t> out;
  for (const std::string& p : parameter_columns(rows)) {
    std::map<std::string, std::set<std::string>> per_group;
    std::set<std::string> all;
    for (const ResultRow& r : rows) {
      const std::string v = r.get(p);
      if (v.empty()) continue;
      per_group[r.get("label") + "\n" + r.get("dataset")].insert(v);
      all.insert(v);
    }
    for (const auto& [g, values] : per_group)
      if (values.size() > 1) out[p] = all.size();
  }
  return out;
}

std::string swept_parameter(const std::map<std::string, std::size_t>& varying) {
  if (varying.count("epsilon")) return "epsilon";
  std::string best;
  for (const auto& [p, n] : varying)
    if (best.empty() || n > varying.at(best)) best = p;
  return best;
}

std::string series_name(const ResultRow& r, const std::vector<std::string>& also) {
  std::string extra;
  for (const auto& p : also)
    if (!r.get(p).empty()) extra += (extra.empty() ? "" : ", ") + p + "=" + r.get(p);
  return r.get("label") + (extra.empty() ? "" : " (" + extra + ")");
}

std::string default_metric(const ResultRow& r) { return r.get("task") == "regression" ? "mse" : "accuracy"; }

struct Key {
  std::size_t series, dataset;
  std::string metric, value;
  bool operator<(const Key& o) const {
    if (series != o.series) return series < o.series;
    if (dataset != o.dataset) return dataset < o.dataset;
    if (metric != o.metric) return metric < o.metric;
    return value_less(value, o.value);
  }
};

std::string fmt(double x, const char* format = "%.4g") {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

}  // namespace

std::string protocol_text(const Protocol& p) {
  const std::string reps = std::to_string(p.repetitions);
  if (p.type == "kfold")
    return std::to_string(p.folds) + "-fold CV" + (p.repetitions > 1 ? " × " + reps + " repetitions" : "");
  if (p.type == "resubstitution")
    return reps + (p.repetitions == 1 ? " fit" : " fits") + " evaluated on their training rows";
  const long test = std::lround(100 * p.test_fraction);
  return reps + " random " + std::to_string(100 - test) + "/" + std::to_string(test) + " split" +
         (p.repetitions == 1 ? "" : "s");
}

ResultsSummary summarize_results(const std::vector<ResultRow>& rows, const Protocol& protocol, const std::string& metric) {
  ResultsSummary s;
  const std::map<std::string, std::size_t> varying = varying_parameters(rows);
  s.swept = swept_parameter(varying);
  for (const auto& [p, n] : varying)
    if (p != s.swept) s.also_varied.push_back(p);
  std::vector<std::string> series, datasets;
  std::map<Key, std::vector<double>> values;
  std::set<std::string> metrics;
  for (const ResultRow& r : rows) {
    const std::string m = metric.empty() ? default_metric(r) : metric;
    const double x = published_detail::metric_of(r, m);
    if (std::isnan(x)) continue;
    const std::string name = series_name(r, s.also_varied);
    auto at = [](std::vector<std::string>& v, const std::string& x) {
      auto it = std::find(v.begin(), v.end(), x);
      if (it == v.end()) it = v.insert(v.end(), x);
      return static_cast<std::size_t>(it - v.begin());
    };
    values[{at(series, name), at(datasets, r.get("dataset")), m, s.swept.empty() ? "" : r.get(s.swept)}].push_back(x);
    metrics.insert(m);
  }
  for (const auto& [k, xs] : values) {
    const Summary sum = summarize(xs);
    s.rows.push_back({series[k.series], datasets[k.dataset], k.metric, k.value, sum.mean, sum.std, sum.n});
  }
  std::string ms;
  for (const auto& m : metrics) ms += (ms.empty() ? "" : " / ") + m;
  s.y_label = ms + " (mean ± sd over " + protocol_text(protocol) + ")";
  s.x_label = s.swept;
  return s;
}

std::string summary_text(const ResultsSummary& s) {
  std::vector<std::vector<std::string>> table = {{"series", "dataset", s.swept.empty() ? "-" : s.swept, "metric",
                                                  "mean ± sd", "n"}};
  for (const auto& r : s.rows)
    table.push_back({r.series, r.dataset, r.value.empty() ? "-" : r.value, r.metric,
                     fmt(r.mean) + " ± " + (std::isnan(r.sd) ? std::string("-") : fmt(r.sd)), std::to_string(r.n)});
  std::vector<std::size_t> width(table[0].size(), 0);
  for (const auto& row : table)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::string out;
  for (const auto& row : table) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i)
      line += row[i] + (i + 1 < row.size() ? std::string(width[i] - row[i].size() + 2, ' ') : "");
    out += line + "\n";
  }
  return out;
}

std::string summary_tsv(const ResultsSummary& s) {
  std::string out = "series\tdataset\tmetric\t" + (s.swept.empty() ? std::string("value") : s.swept) + "\tmean\tsd\tn\n";
  for (const auto& r : s.rows)
    out += r.series + "\t" + r.dataset + "\t" + r.metric + "\t" + r.value + "\t" + fmt(r.mean, "%.8g") + "\t" +
           (std::isnan(r.sd) ? std::string("") : fmt(r.sd, "%.8g")) + "\t" + std::to_string(r.n) + "\n";
  return out;
}

}  // namespace dpf
