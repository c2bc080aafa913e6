// Fitting a forest of trees that share one split policy and one leaf policy: how rows are given to
// trees, how the trees' budgets compose, the per-tree RNG streams, and the ledger check.
#pragma once
#include <limits>
#include <string>

#include "core/tree/forest.hpp"
#include "core/tree/grower.hpp"

namespace dpf {

enum class TreeRows {
  kAll,               // every tree sees every row: budgets compose sequentially
  kPartition,         // a random permutation cut into N_T contiguous chunks (numpy array_split):
                      //   parallel composition as the DiPriMe papers claim (dipreme.md §2.3; §4 P9)
  kRandomAssignment,  // each row to one tree uniformly at random, independently (§4 P9 repair)
  kBootstrap,         // n draws with replacement per tree (Breiman RF; non-private only)
};

struct ForestFitSpec {
  std::string algorithm;
  int n_trees = 10;
  int max_depth = 5;
  bool unlimited_depth = false;
  TreeRows rows = TreeRows::kAll;
  double epsilon = std::numeric_limits<double>::infinity();  // finite: private fit, ledger checked
  Vote vote = Vote::kSoft;
  bool drop_constant_domains = true;  // numeric features with lo == hi never split (dipreme.md §2.5a)
  bool categorical_threshold_masks = false;  // GrowOptions::categorical_threshold_masks
  bool node_columns = false;                 // GrowOptions::node_columns
  RankIndex* presort = nullptr;              // GrowOptions::presort (trees then grow on one thread)
};

std::unique_ptr<Model> fit_forest(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx,
                                  const ForestFitSpec& spec, SplitPolicy& split, LeafPolicy& leaf);

// Throws dpf::Error unless epsilon > 0 and finite, naming the algorithm.
void check_epsilon_param(const std::string& algorithm, double epsilon);

}  // namespace dpf
