// A forest of flat trees and its vote (dipreme.md §2.3 and the baselines' rules):
//   kSoft     classification: average the trees' leaf class distributions, predict the argmax
//             (binary: class 1 iff mean class-1 score >= 0.5, as the DiPriMe code does);
//   kHard     classification: each tree votes its leaf's argmax, majority wins (ties: lowest class, or
//             uniformly at random when set_random_ties() was called);
//   kWeighted classification: each tree votes its argmax with weight = its leaf's top score;
//   kMean     regression: average of the trees' leaf values.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/privacy/rng.hpp"

#include "core/tree/model.hpp"
#include "core/tree/route.hpp"
#include "core/tree/tree.hpp"

namespace dpf {

enum class Vote { kSoft, kHard, kWeighted, kMean };
Vote parse_vote(const std::string& s);  // "soft" | "hard" | "weighted" | "mean"

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

}  // namespace dpf
