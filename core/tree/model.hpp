// Learner / Model separation (design.md §4, as in YDF): a Learner fits on a training view under a
// FitContext (RNG stream, PrivacyLedger, thread budget) and returns a Model that predicts and
// describes itself as JSON.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/privacy/ledger.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/json.hpp"

namespace dpf {

struct Predictions {
  TaskKind task = TaskKind::kClassification;
  int n_classes = 0;
  std::vector<double> value;  // regression: one per row; classification: n_classes scores per row (row-major)
  std::vector<int> label;     // classification: predicted class per row

  std::size_t n_rows() const { return task == TaskKind::kRegression ? value.size() : label.size(); }
  // Class-c score of every row (classification).
  std::vector<double> class_score(int c) const;
};

struct ModelStats {
  std::size_t n_trees = 0;
  std::size_t n_leaves = 0;
  double empty_leaf_fraction = 0.0;  // leaves that received no training row (diagnostic)
  double mean_depth = 0.0;
};

// The released output of a fit: what a model publishes and an adversary sees (structure, split
// features, thresholds or masks, leaf values), and nothing else (no occupancies, no diagnostics, no
// ledger). Discrete parts (structure, features, masks, labels) are exact; continuous parts
// (thresholds, noisy leaf values) are kept apart so that a privacy audit can discretise them, which is
// post-processing. Two fits release the same output iff both vectors are equal.
struct Release {
  std::vector<int64_t> discrete;
  std::vector<double> continuous;
  bool operator==(const Release&) const = default;
};

class Model {
 public:
  virtual ~Model() = default;
  virtual Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const = 0;
  virtual ModelStats stats() const = 0;
  // JSON: structure, leaf values, true occupancies (diagnostics) and the ledger summary.
  virtual std::string describe() const = 0;
  // Extra result columns (name, value) written after the standard ones, so a model whose predict()
  // releases private output (matrix-rf batch prediction) can report the epsilon it spent there and
  // algorithm-specific diagnostics. Default: none (existing algorithms' rows are unchanged).
  virtual std::vector<std::pair<std::string, std::string>> extra_columns() const { return {}; }
  // A model whose private release happens in predict(): the ledger of its last release (nullptr
  // before the first predict(), and for every other model: their fit's ledger holds everything).
  virtual const PrivacyLedger* release_ledger() const { return nullptr; }
  // The full released output (see Release). Default: throws dpf::Error naming the model, for models
  // that do not expose it yet (the privacy audit cannot read them).
  virtual Release released() const;
  // Writes the model for a saved file (algorithms/saved_model.hpp) as one JSON object whose "kind"
  // names its loader (algorithms/model_io.cpp): exactly what predict() needs of the release (structure,
  // split features, thresholds or masks, leaf values, the vote rule), never training rows, true counts,
  // RNG keys or diagnostics, with doubles written to read back bit-identically (JsonWriter::exact).
  // Default: throws dpf::Error saying this model cannot be saved.
  virtual void save(JsonWriter& w) const;
};

struct FitContext {
  Rng rng;                 // the fit's stream; learners derive purpose-tagged children from it
  PrivacyLedger ledger;    // what the fit spent
  int threads = 1;         // budget for tree-level parallelism (used when tasks are fewer than threads)
};

class Learner {
 public:
  virtual ~Learner() = default;
  virtual std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const = 0;
};

}  // namespace dpf
