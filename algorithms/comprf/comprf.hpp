// Comparison-based random forests (Haghiri, Garreau, von Luxburg, "Comparison-based random forests",
// ICML 2018) as baselines of the multinomial-rf paper (spec multinomial-rf.md §2.4). Read in
// Haghiri's MATLAB code (SiavashCS/CompRF, [H]) unless marked:
//   split: two pivot points p, q of the node; every point goes to the closer pivot (Euclidean distance
//     on the raw feature vector, categorical codes as numbers, no scaling; equal distances go to p);
//     a split with an empty side is redrawn [H];
//   CompRF-I (supervised pivots): up to 5 draws for a pair with different labels, then any pair;
//     a pure node takes any pair [H];
//   CompRF-C (unsupervised pivots, the variant of the consistency theorem [M]): pivots uniform; the
//     node also stops when its points have collapsed: mean over features of the per-feature std
//     < 0.01 x the mean of all its feature values [H];
//   stop: a node with <= n0 points is a leaf; MRF's "minimum leaf size 5" read as n0 = 5 ([R]; Haghiri
//     tuned n0 = 1); every tree uses the whole training set, no bootstrap, no S/E partition (whether the
//     MRF authors gave CompRF-C a partition is unknown; not done here) [H][R];
//   prediction: labels -1/+1; the forest output is the mean label of all training points in the leaves
//     x reaches, pooled over the trees; its sign is the class [H]. Multiclass: one-vs-one — a binary
//     forest per class pair a < b (a -> -1, b -> +1) gives s_ab(x); M = S - S^T; the class with the
//     smallest row sum wins [H].
//   "sqrt(D) candidate features" has no meaning here: distances use all features (the spec's default).
// Redraws are capped (20 per node); a node whose pivots cannot separate its points becomes a leaf.
#pragma once
#include <memory>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

std::vector<AlgorithmInfo> comprf_algorithms();  // comprf-c, comprf-i
// The model written by its save() (the loader table, algorithms/model_io.cpp).
std::unique_ptr<Model> load_comprf_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf
