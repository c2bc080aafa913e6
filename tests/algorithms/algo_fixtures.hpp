// Shared helpers of the algorithm tests: synthetic datasets, fitting through the registry, exact
// binomial tails for the statistical tests, and the banknote loader with a skip message.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <algorithm>

#include "algorithms/registry.hpp"
#include "core/util/error.hpp"
#include "core/data/dataset.hpp"
#include "core/privacy/rng.hpp"
#include "core/tree/forest.hpp"
#include "datasets/registry.hpp"

namespace dpf::test {

// n rows; features: f0..f3 numeric on [0, 1] (public domain), c4 categorical with 4 categories.
// Classification: y = [f0 + 0.5 f1 + noise > 0.75]; regression: y = clip(0.6 f0 + 0.4 f2 + noise) in [0, 1].
inline Dataset synthetic(std::size_t n, TaskKind task, uint64_t seed = 1) {
  Schema s;
  for (int f = 0; f < 4; ++f) s.features.push_back(Feature{"f" + std::to_string(f), FeatureKind::kNumeric, 0.0, 1.0, {}});
  s.features.push_back(Feature{"c4", FeatureKind::kCategorical, 0.0, 0.0, {"a", "b", "c", "d"}});
  s.target.name = "y";
  s.target.task = task;
  if (task == TaskKind::kClassification) s.target.classes = {"0", "1"};
  s.target.lo = 0.0;
  s.target.hi = 1.0;
  Dataset d("synthetic", s);
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    double x[5];
    for (int f = 0; f < 4; ++f) x[f] = rng.uniform();
    x[4] = static_cast<double>(rng.below(4));
    const double noise = 0.2 * (rng.uniform() - 0.5);
    double y = task == TaskKind::kClassification ? (x[0] + 0.5 * x[1] + noise > 0.75 ? 1.0 : 0.0)
                                                 : std::clamp(0.6 * x[0] + 0.4 * x[2] + noise, 0.0, 1.0);
    d.add_row(x, y);
  }
  d.validate();
  return d;
}

// y = [x0 > 0.5] XOR [x1 > 0.5] on two uniform features: a depth-1 tree is at chance, a depth-3 tree
// nearly perfect (the tuning tests' data, where the grid's depth decides).
inline Dataset xor_data(std::size_t n, uint64_t seed) {
  Schema s;
  for (int f = 0; f < 2; ++f) s.features.push_back(Feature{"x" + std::to_string(f), FeatureKind::kNumeric, 0.0, 1.0, {}});
  s.target.name = "y";
  s.target.classes = {"0", "1"};
  Dataset d("xor", s);
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    const double x[2] = {rng.uniform(), rng.uniform()};
    d.add_row(x, (x[0] > 0.5) != (x[1] > 0.5) ? 1.0 : 0.0);
  }
  d.validate();
  return d;
}

// One numeric feature x on [0, 1], classes {0, 1}: a row per (x, class) pair.
inline Dataset one_feature(const std::vector<std::pair<double, int>>& rows) {
  Schema s;
  s.features.push_back(Feature{"x", FeatureKind::kNumeric, 0.0, 1.0, {}});
  s.target.name = "y";
  s.target.task = TaskKind::kClassification;
  s.target.classes = {"0", "1"};
  Dataset d("one-feature", s);
  for (const auto& [x, y] : rows) {
    const double v[1] = {x};
    d.add_row(v, y);
  }
  d.validate();
  return d;
}

struct Fitted {
  std::unique_ptr<Model> model;
  PrivacyLedger ledger;
  Params params;
  const ForestModel* forest() const { return dynamic_cast<const ForestModel*>(model.get()); }
};

inline Fitted fit_registry(const std::string& algorithm, const std::map<std::string, std::string>& given,
                           const Dataset& data, std::span<const uint32_t> rows, uint64_t seed = 5, int threads = 1) {
  const AlgorithmInfo& info = find_algorithm(algorithm);
  Fitted f;
  f.params = resolve_params(algorithm, info.params, given, "test");
  std::unique_ptr<Learner> learner = info.make(f.params, data.schema());
  FitContext ctx{Rng(seed), PrivacyLedger(), threads};
  f.model = learner->fit(data, rows, ctx);
  f.ledger = std::move(ctx.ledger);
  return f;
}

inline Fitted fit_registry(const std::string& algorithm, const std::map<std::string, std::string>& given,
                           const Dataset& data, uint64_t seed = 5) {
  std::vector<uint32_t> rows = all_rows(data.n_rows());
  return fit_registry(algorithm, given, data, rows, seed);
}

// ---- Exact binomial tails (summed in log space; n up to a few 10^5) ---------------------------
inline double binom_log_pmf(uint64_t n, uint64_t k, double p) {
  const double nd = static_cast<double>(n), kd = static_cast<double>(k);
  if (p <= 0) return k == 0 ? 0.0 : -INFINITY;
  if (p >= 1) return k == n ? 0.0 : -INFINITY;
  return std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1) + kd * std::log(p) +
         (nd - kd) * std::log1p(-p);
}
// P(X <= k) for X ~ Binomial(n, p).
inline double binom_cdf(uint64_t n, uint64_t k, double p) {
  double s = 0;
  for (uint64_t i = 0; i <= k; ++i) s += std::exp(binom_log_pmf(n, i, p));
  return std::min(1.0, s);
}
// P(X >= k).
inline double binom_sf(uint64_t n, uint64_t k, double p) {
  double s = 0;
  for (uint64_t i = k; i <= n; ++i) s += std::exp(binom_log_pmf(n, i, p));
  return std::min(1.0, s);
}

// Banknote from the mirror/cache, or nullopt with a MESSAGE (the reproduction tests then skip).
inline std::optional<Dataset> banknote() {
  DataOptions o = DataOptions::from_environment();
  o.allow_download = false;
  try {
    return load_dataset("banknote", o);
  } catch (const MissingInput& e) {
    MESSAGE("banknote not available (mirror: '", o.mirror, "'): ", e.what(), "; skipped");
    return std::nullopt;
  }
}

}  // namespace dpf::test
