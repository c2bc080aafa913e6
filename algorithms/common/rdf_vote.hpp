// The vote of a forest of random decision trees (smooth-rdf.md §1.7): rdf_scores, shared by the
// fitted forest (rdf_forest.cpp, which sums each row's votes over row blocks) and a saved one
// (rdf_saved.cpp, through rdf_vote) so that both predict bit-identically.
#pragma once
#include <algorithm>
#include <span>
#include <vector>

#include "core/tree/model.hpp"

namespace dpf {

// tree_vote(t, row, acc, tmp) adds tree t's vote for `row` to acc (one per class of `classes`: +1 to
// the leaf's label, or JPW original's noisy counts), or leaves acc alone when the tree abstains (a
// value outside its domain); tmp is scratch of the same size. Majority vote (or largest summed noisy
// count), ties to the lowest class (§1.7); the scores are the positive parts of acc, normalised.
// One row's label and scores from its summed votes acc (one per class of `classes`): majority vote
// (or largest summed noisy count), ties to the lowest class (§1.7); the scores, written to
// out[classes[c]], are the positive parts of acc, normalised (uniform when none is positive).
inline int rdf_scores(const std::vector<double>& acc, const std::vector<int>& classes, double* out) {
  const std::size_t K = classes.size();
  const std::size_t best = static_cast<std::size_t>(std::max_element(acc.begin(), acc.end()) - acc.begin());
  double total = 0.0;
  for (double a : acc) total += std::max(0.0, a);
  for (std::size_t c = 0; c < K; ++c)
    out[classes[c]] = total > 0 ? std::max(0.0, acc[c]) / total : 1.0 / static_cast<double>(K);
  return classes[best];
}

template <class TreeVote>
Predictions rdf_vote(std::span<const uint32_t> rows, std::size_t n_trees, const std::vector<int>& classes,
                     int n_classes_all, const TreeVote& tree_vote) {
  Predictions p;
  p.task = TaskKind::kClassification;
  p.n_classes = n_classes_all;
  p.value.assign(rows.size() * static_cast<std::size_t>(n_classes_all), 0.0);
  p.label.assign(rows.size(), 0);
  const std::size_t K = classes.size();
  std::vector<double> acc(K), tmp(K);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (std::size_t t = 0; t < n_trees; ++t) tree_vote(t, rows[i], acc, tmp);
    p.label[i] = rdf_scores(acc, classes, p.value.data() + i * static_cast<std::size_t>(n_classes_all));
  }
  return p;
}

}  // namespace dpf
