#include "experiments/cost/cost_model.hpp"

#include "algorithms/registry.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "algorithms/common/occupancy.hpp"
#include "algorithms/common/rdf_depth.hpp"
#include "core/data/make_classification.hpp"
#include "core/data/schema.hpp"
#include "datasets/registry.hpp"

namespace dpf {

namespace {

#include "experiments/cost/cost_table.inc"

// "n=123" style fields of a synthetic spec ("synthetic:classification:n=N,d=D,seed=S"); -1 if absent.
long spec_field(const std::string& spec, const std::string& key) {
  const std::string k = key + "=";
  for (std::size_t pos = spec.find(k); pos != std::string::npos; pos = spec.find(k, pos + 1)) {
    if (pos > 0 && spec[pos - 1] != ':' && spec[pos - 1] != ',') continue;
    try {
      return std::stol(spec.substr(pos + k.size()));
    } catch (const std::exception&) {
      return -1;
    }
  }
  return -1;
}

int int_param(const Cell& cell, const char* name, int otherwise) {
  if (!cell.params.has(name)) return otherwise;
  try {
    return cell.params.get_int(name);
  } catch (const std::exception&) {
    return otherwise;
  }
}

// matrix-rf's per_dataset setting ("car{max_depth=4, n_trees=128} iris{...}"): the value of `key` in
// the entry of `dataset`, or "" (its fit applies the same entry: MrfParams::per_dataset).
std::string per_dataset_value(const Cell& cell, const std::string& key) {
  if (!cell.params.has("per_dataset")) return "";
  const std::string& s = cell.params.text("per_dataset");
  const std::string head = cell.dataset + "{";
  for (std::size_t pos = s.find(head); pos != std::string::npos; pos = s.find(head, pos + 1)) {
    if (pos > 0 && !std::isspace(static_cast<unsigned char>(s[pos - 1])) && s[pos - 1] != '}') continue;
    const std::size_t open = pos + cell.dataset.size(), close = s.find('}', open);
    if (close == std::string::npos) return "";
    const std::string body = "," + s.substr(open + 1, close - open - 1);
    for (std::size_t k = body.find(key + "="); k != std::string::npos; k = body.find(key + "=", k + 1)) {
      std::size_t b = k;
      while (b > 0 && body[b - 1] == ' ') --b;
      if (b == 0 || body[b - 1] != ',') continue;
      const std::size_t v = k + key.size() + 1, end = body.find(',', v);
      return body.substr(v, end == std::string::npos ? std::string::npos : end - v);
    }
    return "";
  }
  return "";
}

bool bool_param(const Cell& cell, const char* name) {
  try {
    return cell.params.has(name) && cell.params.get_bool(name);
  } catch (const std::exception&) {
    return false;
  }
}

// The categorical features of a registry variant or a local schema, before the data are read: those
// listed under `categories:` (the target excepted), or all but the `numeric:` list where categorical is
// the default kind (the typing rule of datasets/variant.cpp feature_of).
double categorical_features(const VariantSpec& v, double features) {
  double n = 0;
  if (v.default_kind == FeatureKind::kCategorical) {
    n = features - static_cast<double>(v.numeric.size());
  } else {
    for (const auto& [name, values] : v.categories)
      if (name != v.target && std::find(v.drop.begin(), v.drop.end(), name) == v.drop.end()) ++n;
  }
  return std::clamp(n, 0.0, features);
}

int int_setting(const Cell& cell, const char* name, int otherwise) {
  const std::string v = per_dataset_value(cell, name);
  if (!v.empty()) try {
      return std::stoi(v);
    } catch (const std::exception&) {
    }
  return int_param(cell, name, otherwise);
}

}  // namespace

namespace {

// The dataset's part of the shape: rows (all of them, before the protocol's split), features, the
// categorical ones among them, task kind and classes, from the registry or the config alone.
void dataset_shape(const ExperimentSpec& spec, const Cell& cell, TaskShape& s, double& rows) {
  double features = -1, categorical = 0;
  if (cell.dataset.rfind("synthetic:", 0) == 0) {
    rows = static_cast<double>(spec_field(cell.dataset, "n"));
    features = static_cast<double>(spec_field(cell.dataset, "d"));
    if (cell.dataset.rfind("synthetic:regression", 0) == 0) s.task = "regression", s.classes = 1;
  } else if (is_synthetic_spec(cell.dataset)) {
    // smooth-rdf's SynthA-G: 30,000 generated rows unless n=... (make_classification.hpp), all numeric.
    const long n = spec_field(cell.dataset, "n");
    rows = n > 0 ? static_cast<double>(n) : 30000.0;
    features = synthetic_params(cell.dataset[6]).n_features;
    s.classes = synthetic_params(cell.dataset[6]).n_classes;
  } else if (const LocalDataset* local = spec.local_dataset(cell.dataset)) {
    // An own CSV file: its schema gives the features and classes; its row count is not read before
    // the run (1,000 rows are assumed below).
    features = static_cast<double>(local->features.size());
    categorical = categorical_features(local->spec, features);
    s.task = to_string(local->spec.task);
    s.classes = local->spec.task == TaskKind::kRegression ? 1 : std::max<double>(2, static_cast<double>(local->spec.classes.size()));
  } else {
    try {
      const auto [id, variant] = split_dataset_spec(cell.dataset);
      s.mirrored = dataset_entry(id).mirrored;
      const VariantSpec& v = variant_spec(cell.dataset);
      rows = static_cast<double>(v.rows > 0 ? v.rows : v.raw_rows);
      features = static_cast<double>(v.features > 0 ? v.features : v.raw_columns - 1);
      categorical = categorical_features(v, features);
      s.task = to_string(v.task);
      if (v.task == TaskKind::kRegression) s.classes = 1;
      else if (!v.classes.empty()) s.classes = static_cast<double>(v.classes.size());
    } catch (const std::exception&) {
      s.known = false;  // unknown to the registry: the run names it; the plan only needs some number
    }
  }
  if (!(rows > 0)) rows = 1000, s.known = false;
  if (!(features > 0)) features = 10, categorical = 0;
  s.features = features;
  s.numeric_features = features - categorical;
}

// The depth the cell's trees grow to (TaskShape::depth).
double tree_depth(const Cell& cell, const TaskShape& s, double train_rows) {
  // The random decision forests (smooth-rdf, rdf-nonprivate) fix their depth from the numbers of
  // continuous and discrete features (Fletcher & Islam 2017 §4.3; algorithms/common/rdf_depth.hpp,
  // smooth-rdf.md §1.3), whatever the rows: SynthF (10 features) grows depth 8 on 3,000 rows or 3 million.
  if (cell.params.has("depth_rule")) try {
      const std::string rule = cell.params.get_string("depth_rule");
      const int d = rdf_depth_for(rule, int_param(cell, "depth", 0), bool_param(cell, "round_up"),
                                  static_cast<int>(s.numeric_features), static_cast<int>(s.features - s.numeric_features));
      return std::max(1, d);
    } catch (const std::exception&) {
      // another family's rule (jpw's reads a noisy n): the generic depth below
    }
  const double full = std::log2(train_rows);
  double max_depth = int_setting(cell, "max_depth", 0);
  // The occupancy rule of the DiPriMe family and DP-ERT/RF/DF (dipreme.md §6.1) replaces max_depth:
  // the algorithms' own occupancy_depth (base 5 for DP-RF and DP-DF's 5-ary splits, else 2; per
  // tree's share of the rows when DiPriMe partitions), on the exact n where a strict fit reads a noisy one.
  if (const int occ = int_param(cell, "occupancy", 0); occ > 0) {
    const bool five = cell.algorithm == "dp-rf" || cell.algorithm == "dp-df";
    max_depth = occupancy_depth(train_rows, occ, five ? 5.0 : 2.0, bool_param(cell, "partition") ? static_cast<int>(s.trees) : 1);
  }
  return std::max(1.0, max_depth > 0 ? std::min(max_depth, full) : full);
}

}  // namespace

TaskShape task_shape(const ExperimentSpec& spec, const Cell& cell) {
  TaskShape s;
  double rows = -1;
  dataset_shape(spec, cell, s, rows);
  const Protocol& p = spec.protocol;
  const double train = p.type == "kfold" ? rows * (p.folds - 1) / p.folds
                       : p.type == "holdout" ? rows * (1 - p.test_fraction)
                                             : rows;
  s.trees = std::max(1, int_setting(cell, "n_trees", 1));
  const double all_rows = std::max(train, 2.0);
  s.depth = tree_depth(cell, s, all_rows);
  // The DiPriMe family's `partition` gives each tree its own 1 / n_trees of the training rows, so a
  // forest costs about one tree on all rows, not n_trees of them (dipreme.md §2.3).
  s.train_rows = bool_param(cell, "partition") ? std::max(all_rows / s.trees, 2.0) : all_rows;
  return s;
}

const std::vector<AlgorithmCost>& cost_table() {
  static const std::vector<AlgorithmCost> t(std::begin(kAlgorithmCosts), std::end(kAlgorithmCosts));
  return t;
}

const AlgorithmCost& shared_cost() { return kSharedCost; }

const AlgorithmCost& cost_row(const std::string& algorithm, const std::string& task) {
  const AlgorithmCost* other = nullptr;
  for (const AlgorithmCost& c : cost_table())
    if (algorithm == c.algorithm) {
      if (task == c.task) return c;
      other = &c;
    }
  return other ? *other : kSharedCost;
}

std::string cost_key(const Cell& cell) {
  if (cell.algorithm == "rgv") {
    bool strict = true;
    try {
      strict = cell.params.get_bool("strict");
    } catch (const std::exception&) {
    }
    if (!strict) return "rgv/published";
  }
  // The matrix-rf forests with an HDMM strategy first optimise the strategy matrix over the query
  // domain (matrix-rf.md §4), work that the data's rows and the forest's trees do not scale.
  if (cell.params.has("strategy") && cell.params.text("strategy").rfind("hdmm", 0) == 0) return cell.algorithm + "/hdmm";
  return cell.algorithm;
}

namespace {

// The registry entry named `name`, or null for a name the cost table alone knows (rgv/published).
const AlgorithmInfo* registry_entry(const std::string& name) {
  for (const AlgorithmInfo& a : algorithm_table())
    if (a.name == name) return &a;
  return nullptr;
}

// A meta-algorithm (AlgorithmInfo::inner, e.g. the tuning entries) fits another entry `fits` times on a
// share q of the training rows and `full_fits` times on all of them, each fit a candidate drawn evenly
// (the candidates' mean cost is used). A fit on a share q costs q^r times the full one, r the inner
// entry's row exponent.
double inner_task_seconds(const ExperimentSpec& spec, const Cell& cell, const InnerFits& inner, const TaskShape& shape) {
  double mean = 0.0;
  Cell base = cell;
  base.algorithm = inner.algorithm;
  for (const Params& p : inner.candidates) {
    base.params = p;
    mean += estimated_task_seconds(spec, base) / static_cast<double>(inner.candidates.size());
  }
  const double row_exponent = cost_row(cost_key(base), shape.task).rows;
  return mean * (inner.fits * std::pow(inner.row_share, row_exponent) + inner.full_fits);
}

}  // namespace

double estimated_task_seconds(const ExperimentSpec& spec, const Cell& cell) {
  const TaskShape s = task_shape(spec, cell);
  const AlgorithmInfo* info = registry_entry(cell.algorithm);
  if (s.mirrored && info && info->inner) return inner_task_seconds(spec, cell, info->inner(cell.params), s);
  if (!s.mirrored) return 1e-6;  // its cells are skipped with a message
  const AlgorithmCost& c = cost_row(cost_key(cell), s.task);
  return std::exp(c.log_factor + c.trees * std::log(s.trees) + c.rows * std::log(s.train_rows) +
                  c.depth * std::log(s.depth) + c.features * std::log(s.features) +
                  c.numeric * std::log(1 + s.numeric_features) + c.classes * std::log(s.classes));
}

ExperimentEstimate estimate_experiment(const ExperimentSpec& spec) {
  ExperimentEstimate e;
  if (!spec.formula.empty()) return e;
  const std::vector<Cell> cells = expand_cells(spec);
  const std::size_t per_cell = static_cast<std::size_t>(spec.protocol.repetitions * spec.protocol.n_folds());
  e.cells = cells.size();
  e.tasks = cells.size() * per_cell;
  for (const Cell& c : cells) {
    const double t = estimated_task_seconds(spec, c);
    e.cpu_seconds += t * static_cast<double>(per_cell);
    e.largest_task_seconds = std::max(e.largest_task_seconds, t);
  }
  return e;
}

double estimated_wall_seconds(double cpu_seconds, double largest_task_seconds, std::size_t tasks, int threads) {
  if (tasks == 0) return 0;
  const int t = std::max(1, threads);
  // With fewer tasks than threads the runner grows each fit's trees in parallel instead.
  const double longest = tasks < static_cast<std::size_t>(t) ? largest_task_seconds / t : largest_task_seconds;
  return std::max(cpu_seconds / t, longest);
}

std::string human_seconds(double s) {
  char buf[32];
  if (s < 0.05)
    return "<0.1 s";
  if (s < 10)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 90)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 5400)
    std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
  else if (s < 2 * 86400)
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  else
    std::snprintf(buf, sizeof buf, "%.1f days", s / 86400);
  return buf;
}

double EtaEstimator::seconds_left(double elapsed) const {
  const double left = std::max(0.0, total_ - done_);
  if (done_ <= 0) return left / threads_;
  return left * elapsed / done_;
}

}  // namespace dpf
