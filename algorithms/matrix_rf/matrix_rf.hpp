// Matrix random forests (Tajima, Wu & Houmansadr 2025; matrix-rf.md): random multiway trees over
// discrete domains, the matrix mechanism with HDMM strategies, DP batch training (Alg. 1), DP batch
// prediction (Alg. 2), optimised subsample-and-aggregate ([A] Alg. 2), the Laplace baselines and the
// full framework over q ensembles (Alg. 3).
//
// Mapping onto Learner/Model: fit() builds the trees, fits the leaf counts and, for the training
// methods, releases the noisy leaf counts (charging the fit's ledger). The prediction methods
// (mrf-predict, mrf-subsample, mrf-subsample-lm) release noisy votes for a *batch* of queries: their
// Model::predict() is that release, on the test rows as the batch; it draws the noise, charges the
// model's own ledger (one release per model; a second predict() is an error) and extra_columns()
// reports the composed epsilon_spent of that ledger in the result row. With query_batch = b > 0 the
// rows are answered by ⌈rows/b⌉ independent releases of b queries (Fig. 3b, App. Fig. 4), each with
// its own ledger and budget ε; the row reports one release's epsilon_spent and query_releases.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "algorithms/matrix_rf/forest.hpp"
#include "algorithms/common/algorithm_info.hpp"
#include "core/util/json_read.hpp"

namespace dpf::mrf {

enum class Method {
  kTrain,        // DP batch training, Alg. 1: C̃ = TD + T·A⁺·Z, hard voting
  kPredict,      // DP batch prediction, Alg. 2: Ṽ = QTᵀTD + QTᵀT·A⁺·Z, weight voting
  kSubsample,    // optimised subsample-and-aggregate ([A] Alg. 2): Ṽ = QTᵀC + QTᵀA⁺Z, disjoint trees
  kTrainLM,      // "DP batch train – LM": Lap(qτ_i/ε) on every leaf count, hard voting
  kDisjointLM,   // "DP disj. train – LM": disjoint trees, Lap(q/ε) on every leaf count, hard voting
  kSubsampleLM,  // "Subs. & aggr. – LM": disjoint trees, per-query budget ε/b on the votes
  kTrees,        // the same random trees without noise, hard voting ("Non-DP" in Table 1)
};

struct MrfParams {
  std::string name;
  Method method = Method::kTrain;
  int n_trees = 16, max_depth = 3, n_ensembles = 1, ensemble_features = 0;
  double epsilon = 1.0;
  std::string strategy = "identity";  // identity | hdmm | hdmm-full
  int p = 1;
  PIdentityStart start;  // p-Identity starting points (investigation; the authors: one Uniform[0,1) start)
  bool weight_vote = true;  // subsample methods: weight (true) or hard voting
  // Prediction releases: queries per release b (0: the rows passed to predict() are one batch).
  int query_batch = 0;
  bool strict = false;      // disjoint methods: each row to one tree uniformly at random (not array_split)
  std::string cutoffs;
  // Per-dataset settings "dataset{key=value, ...} dataset2{...}" (keys n_trees, max_depth,
  // n_ensembles, ensemble_features, cutoffs, p): one config can hold a figure whose panels use
  // different hyper-parameters (Fig. 2). Applied at fit time to the dataset of that name.
  std::string per_dataset;
  uint64_t domain_limit = uint64_t{1} << 24;
};

bool is_prediction_release(Method m);
bool is_disjoint(Method m);

std::unique_ptr<Learner> make_learner(const MrfParams& p);
// p with the per_dataset entry of `dataset` (name as in the config, e.g. "heart:upload") applied.
MrfParams resolve_for_dataset(const MrfParams& p, const std::string& dataset);

std::vector<AlgorithmInfo> matrix_rf_algorithms();

// A model written by MrfModel::save (model_io.cpp), checked against the schema it predicts on.
std::unique_ptr<Model> load_matrix_rf_model(const JsonIn& in, const Schema& schema);

}  // namespace dpf::mrf

namespace dpf {
using mrf::load_matrix_rf_model;
using mrf::matrix_rf_algorithms;
}
