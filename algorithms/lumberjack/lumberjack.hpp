// Lumberjack (Lebeda, Erb, Cebere & Bellet, "Lumberjack: Better Differentially Private Random Forests
// through Heavy Hitter Detection in Trees", arXiv 2605.22756; spec ../shared/specs/lumberjack.md,
// authors' code daviderb/Lumberjack b613fe7). Deep data-independent random trees, every tree on all
// rows, pruned to the nodes a Gaussian sparse-histogram heavy-hitter test keeps (an (eps_s, delta_s)-DP
// release for the whole forest, §3.2), leaves labelled by noisy class counts (rho-zCDP per tree, §3.3),
// majority vote over the one-hot leaves. The fit is (epsilon, delta)-DP under add/remove-one by basic
// composition of the two parts (§3 item 3).
#pragma once
#include <memory>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

std::vector<AlgorithmInfo> lumberjack_algorithms();  // lumberjack
// The model written by its save() (the loader table, algorithms/model_io.cpp).
std::unique_ptr<Model> load_lumberjack_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf
