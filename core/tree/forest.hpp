// A forest of flat trees and its vote (dipreme.md §2.3 and the baselines' rules):
//   kSoft     classification: average the trees' leaf class distributions, predict the argmax
//             (binary: class 1 iff mean class-1 score >= 0.5, as the DiPriMe code does);
//   kHard     classification: each tree votes its leaf's argmax, majority wins (ties: lowest class, or
//             uniformly at random when set_random_ties() was called);
//   kWeighted classification: each tree votes its argmax with weight = its leaf's top score;
//   kMean     regression: average of the trees' leaf values.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/privacy/rng.hpp"

#include "core/tree/model.hpp"
#include "core/tree/route.hpp"
#include "core/tree/tree.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

enum class Vote { kSoft, kHard, kWeighted, kMean };
Vote parse_vote(const std::string& s);  // "soft" | "hard" | "weighted" | "mean"
const char* to_string(Vote v);

class ForestModel : public Model {
 public:
  ForestModel(std::string algorithm, TaskKind task, int n_classes, Vote vote)
      : algorithm_(std::move(algorithm)), task_(task), n_classes_(n_classes), vote_(vote) {}

  void add_tree(Tree t);
  const std::vector<Tree>& trees() const { return trees_; }
  void set_ledger_summary(std::string s) { ledger_summary_ = std::move(s); }
  void set_n_train(std::size_t n) { n_train_ = n; }
  // Hard vote: a tied vote goes to one of the tied classes uniformly at random, drawn from
  // rng.derive(row index), so a prediction stays a pure function of the model and the row.
  void set_random_ties(const Rng& rng) { tie_rng_ = rng; }

  Predictions predict(const Dataset& data, std::span<const uint32_t> rows) const override;
  ModelStats stats() const override;
  std::string describe() const override;
  Release released() const override;
  // {"kind": "forest", algorithm, task, n_classes, vote, trees: per tree the node arrays in storage
  // order (kind and depth of every node; feature, first child and child count of every split;
  // threshold of every threshold split; mask of every subset split) and the leaf values in leaf-node
  // order}. Node counts are diagnostics and are not written. Refuses a forest with random vote ties:
  // their stream is keyed by the fit's seed, and its key would reveal every noise draw of the fit.
  void save(JsonWriter& w) const override;
  // Balance diagnostics (dipreme.md §8): every leaf's training count / n_train, and per binary
  // internal node with rows the fraction of them sent to child 0.
  std::vector<double> leaf_occupancy() const;
  std::vector<double> left_fraction() const;

 private:
  std::string algorithm_;
  TaskKind task_;
  int n_classes_;
  Vote vote_;
  std::vector<Tree> trees_;
  std::vector<RouteMirror> mirrors_;  // per tree, for predict(): stop codes are leaf indices
  std::string ledger_summary_;
  std::size_t n_train_ = 0;
  std::optional<Rng> tie_rng_;
};

// The forest written by ForestModel::save, checked against the schema it predicts on (feature
// indices and kinds, class count, a child index after its parent so routing ends).
std::unique_ptr<ForestModel> load_forest_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf
