// Random multiway decision trees over discrete domains and the implicit matrices of
// Tajima, Wu & Houmansadr (2025) (matrix-rf.md §1–§2):
//   domain X = X_1 × … × X_d̄ in mixed radix, last attribute fastest (§1.1);
//   T (o × n): one row per leaf, the indicator of its region, stored as per-leaf codes (ALL or a
//     value per attribute, §1.4) and, when the domain is small enough, as a cell → leaf map per tree;
//   Q (b × n): one-hot rows of the query tuples, stored as their leaf in every tree;
//   D (n × k): never formed; leaf counts C = TD come from routing the records (§2.2).
// Workload Gram operators (G = WᵀW) for T, QTᵀT and QTᵀ are applied by routing, never materialised.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/matrix_rf/strategy.hpp"
#include "core/data/dataset.hpp"
#include "core/privacy/rng.hpp"

namespace dpf::mrf {

// Integer coding of every feature (spec §5.1): categorical features keep their code; numeric
// features are binned with right-closed cut-offs (−∞,c₁], (c₁,c₂], …, (c_last,∞) → 0..len.
class Discretiser {
 public:
  // `cutoffs`: "name=c1/c2/... name2=..." (';' or blanks between features; the authors' cut-offs). Every numeric
  // feature must have an entry; an unknown name or a categorical feature listed is an error.
  Discretiser(const Schema& schema, const std::string& cutoffs);
  // A saved one (model_io.cpp): per feature its code count and cut-offs (none: a categorical code).
  Discretiser(std::vector<int> sizes, std::vector<std::vector<double>> cuts) : sizes_(std::move(sizes)), cuts_(std::move(cuts)) {}
  std::size_t n_features() const { return sizes_.size(); }
  int size(std::size_t f) const { return sizes_[f]; }
  const std::vector<double>& cuts(std::size_t f) const { return cuts_[f]; }
  // Codes of the given rows: rows.size() × n_features, row-major.
  std::vector<int> encode(const Dataset& data, std::span<const uint32_t> rows) const;

 private:
  std::vector<int> sizes_;
  std::vector<std::vector<double>> cuts_;
};

// One tree: node i is a leaf when attr[i] < 0 (child[i] = its leaf index within the tree), else it
// tests local attribute attr[i] and its children are child[i] + v for v = 0..n_attr−1.
struct MTree {
  std::vector<int> attr, child;
  int n_leaves = 0;
  int leaf(const int* codes) const {
    int node = 0;
    while (attr[static_cast<std::size_t>(node)] >= 0)
      node = child[static_cast<std::size_t>(node)] + codes[attr[static_cast<std::size_t>(node)]];
    return child[static_cast<std::size_t>(node)];
  }
};

// τ_i trees over d̄ features (Alg. 3 lines 2–3).
struct Ensemble {
  std::vector<int> features;  // dataset feature indices (d̄)
  std::vector<int> sizes;     // their domain sizes
  std::vector<MTree> trees;
  std::vector<int> leaf_offset;  // first global leaf of each tree
  int n_leaves = 0;              // o
  std::vector<int> leaf_codes;   // o × d̄, −1 = ALL (the implicit T)

  std::size_t d() const { return sizes.size(); }
  // ∏ n_i, or 0 if it exceeds `limit`.
  uint64_t domain_size(uint64_t limit = UINT64_MAX) const;
  // Local codes of one encoded row (all dataset features) into `out` (d̄).
  void project(const int* row_codes, int* out) const;
  KronWorkload workload() const { return {sizes, leaf_codes}; }
};

// BUILDTREE (spec §2.1, [A] Alg. 1): data-independent, attribute uniform from those not yet on the
// path, children in value order, leaves numbered in DFS order; stops at depth h or when none is left.
Ensemble build_ensemble(std::vector<int> features, std::vector<int> sizes, int n_trees, int depth, Rng& rng);

// Cell → global leaf map of every tree over the ensemble's domain (τ_i × n), for the implicit
// products with T and Tᵀ. The domain must be at most `limit` cells.
struct DomainMap {
  uint64_t n = 0;
  int n_trees = 0, n_leaves = 0;
  std::vector<uint32_t> leaf_of;  // tree-major: leaf_of[t·n + x]
  std::vector<uint32_t> cell_start, cells;  // CSR: cells of each global leaf
};
DomainMap map_domain(const Ensemble& e, uint64_t limit);

// T·Y (o × k) for Y (n × k): leaf sums over regions (Alg. 1 line 2: T·A⁺·Z).
Eigen::MatrixXd leaf_sums(const DomainMap& m, const Eigen::MatrixXd& y);
// Tᵀ·U (n × c) for U (o × c).
Eigen::MatrixXd cell_sums(const DomainMap& m, const Eigen::MatrixXd& u);

// Leaves reached by b queries: b × τ_i global leaf indices (the implicit Q·Tᵀ).
std::vector<uint32_t> query_leaves(const Ensemble& e, const std::vector<int>& codes, std::size_t n_rows);

// Gram operators of the three workloads.
GramOperator gram_training(const DomainMap& m);                                        // W = T
GramOperator gram_prediction(const DomainMap& m, const std::vector<uint32_t>& qleaf);  // W = QTᵀT
GramOperator gram_subsample(int n_leaves, int n_trees, const std::vector<uint32_t>& qleaf);  // W = QTᵀ

}  // namespace dpf::mrf
