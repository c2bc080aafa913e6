// DP-EBM: InterpretML's differentially private Explainable Boosting Machine (Nori, Caruana, Bu, Shen &
// Kulkarni, "Accuracy, Interpretability, and Differential Privacy via Explainable Boosting", ICML 2021,
// arXiv 2106.09680; spec ../shared/specs/dp-ebm.md, read from interpretml/interpret 560f8dd). An additive
// model of one shape function per feature: private binning on public bounds (§5), then max_rounds cyclic
// passes of single-feature random-cut trees with Gaussian leaf sums (§6), composed in Gaussian DP (§4.1),
// centred into an intercept (§7). Binary classification (logit link) and regression (identity link).
#pragma once
#include <memory>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"
#include "core/util/json_read.hpp"

namespace dpf {

std::vector<AlgorithmInfo> dp_ebm_algorithms();  // dp-ebm
// The model written by its save() (the loader table, algorithms/model_io.cpp).
std::unique_ptr<Model> load_dp_ebm_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf
