// Runs the authors' S-BDT (kirschte/sbdt, code/cpp_gbdt) on the Adult training file with one
// configuration, k-fold cross-validation repeated R times with a fresh shuffle each, and prints one JSON
// line per fold: the authors' AUC (0.005-step ROC, loss.cpp), the rank AUC, accuracy at p = 0.5, the fit
// time and the accountant's sigma, alpha and epsilon. Used by experiments/tools/compare_sbdt.py, which
// compiles it against a checkout of the authors' sources. Not part of the dpforest build (the .cc suffix keeps it
// out of CMake's *.cpp glob).
//
// usage: sbdt_driver FOLDS REPEATS key=value...   (run in a directory holding datasets/real/adult.data)
// keys: eps T depth Q w G H lambda eta isc newton filter extra stream border_hi seed
// Settings not given follow the authors' rerun.cpp for the published Adult runs: Gaussian leaves, random
// grid splits (split_method RAND), cyclic features, ADD lambda, leaf clamp 2, initial score 0.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "data.h"
#include "dataset_parser.h"
#include "gbdt/dp_ensemble.h"
#include "logging.h"
#include "parameters.h"

std::ofstream avgleakage;  // defined by the authors' main.cpp, which is not linked

namespace {

double rank_auc(const std::vector<double>& y, const std::vector<double>& p) {
  std::vector<std::size_t> idx(y.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  double rank_sum = 0.0, pos = 0.0;
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i;
    while (j < idx.size() && p[idx[j]] == p[idx[i]]) ++j;
    const double mid = 0.5 * (static_cast<double>(i) + static_cast<double>(j - 1)) + 1.0;  // average rank
    for (std::size_t k = i; k < j; ++k)
      if (y[idx[k]] == 1.0) {
        rank_sum += mid;
        pos += 1.0;
      }
    i = j;
  }
  const double neg = static_cast<double>(y.size()) - pos;
  return (rank_sum - pos * (pos + 1) / 2) / (pos * neg);
}

using Settings = std::map<std::string, double>;

// key=value arguments over the defaults; false on an unknown key.
bool parse(int argc, char** argv, Settings& kv) {
  kv = {{"eps", 0.5},   {"T", 200},     {"depth", 6},  {"Q", 1},       {"w", 0.04},   {"G", 0.8},
        {"H", 0.1},     {"lambda", 5},  {"eta", 0.1},  {"isc", 1},     {"newton", 1}, {"filter", 0},
        {"extra", 0},   {"stream", 0},  {"border_hi", 100}, {"seed", 1}};
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    const std::size_t eq = a.find('=');
    if (eq == std::string::npos || !kv.count(a.substr(0, eq))) {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return false;
    }
    kv[a.substr(0, eq)] = std::atof(a.c_str() + eq + 1);
  }
  return true;
}

// rerun.cpp L274-320 (the published IID and stream runs) on top of the parser's dataset settings.
void configure(ModelParams& p, Settings& kv) {
  p.cyclical_feature_interactions = true;
  p.newton_boosting = kv["newton"] != 0;
  p.ignore_split_constraints = kv["isc"] != 0;
  p.refine_splits = false;
  p.random_splits_from_candidates = true;
  p.lambda_reg_mode = ADD;
  p.cut_off_leaf_denom = true;
  p.privacy_budget = kv["eps"];
  p.nb_trees = static_cast<int>(kv["T"]);
  p.max_depth = static_cast<int>(kv["depth"]);
  p.scale_y = true;
  p.leaf_noise = GAUSS;
  p.use_dp = true;
  p.subsampling_ratio = kv["Q"];
  p.l2_lambda = kv["lambda"];
  p.feature_val_border = {0.0, kv["border_hi"]};
  p.l2_threshold = kv["G"];
  p.hess_l2_threshold = kv["H"];
  p.balance_partition = false;
  p.gradient_filtering = false;
  p.leaf_clipping = false;
  p.min_samples_split = 0;
  p.learning_rate = kv["eta"];
  p.max_features = RAND;  // rerun.cpp leaves split_method uninitialised; RAND is what hpsearch.cpp sets
  p.max_feature_values = RAND;
  p.criterion = XGBOOST;
  p.privacy_budget_init_score_ratio = 0.0;
  p.init_score_threshold = 0.0;
  p.privacy_budget_gain_ratio = 0.0;
  p.leaf_denom_noise_weight = kv["w"];
  p.reg_delta = 2.0;
  p.continuous_learning = kv["stream"] != 0;
  p.use_privacy_filter = kv["filter"] != 0;
  p.approximate_privacy_filter = true;
  p.pf_additional_nb_trees = p.use_privacy_filter ? static_cast<int>(kv["extra"]) : 0;
  p.additional_nb_trees = p.use_privacy_filter ? 0 : static_cast<int>(kv["extra"]);
  p.pf_l2_threshold = p.l2_threshold;
  p.pf_hess_l2_threshold = p.hess_l2_threshold;
  p.pf_subsampling_ratio_factor = 1.0;
}

// One fold: train, predict, score; prints one JSON line.
void run_fold(const ModelParams& p, TrainTestSplit* s, int repeat, std::size_t fold) {
  ModelParams run = p;
  if (run.scale_y) s->train.scale_y(run, -1, 1);
  DPEnsemble ensemble(&run);
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  ensemble.train(&s->train);
  const double cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double fit_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> pred = ensemble.predict(s->test.X);
  for (double& v : pred) v = 1.0 / (1.0 + std::exp(-v));  // rerun.cpp L413-415
  const double auc = run.task->compute_score(s->test.y, pred, AUC);
  const double acc = run.task->compute_score(s->test.y, pred, UNTUNED_ACC) / 100.0;
  std::printf(
      "{\"repeat\": %d, \"fold\": %zu, \"auc_authors\": %.6f, \"auc_rank\": %.6f, \"accuracy\": %.6f, "
      "\"fit_seconds\": %.4f, \"cpu_seconds\": %.4f, \"sigma\": %.6g, \"alpha\": %.0f, \"real_eps\": %.6g, "
      "\"n_train\": %d}\n",
      repeat, fold, auc, rank_auc(s->test.y, pred), acc, fit_s, cpu_s, ensemble.leaf_sigma, ensemble.alpha,
      ensemble.real_eps, s->train.length);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Settings kv;
  if (argc < 3 || !parse(argc, argv, kv)) {
    std::fprintf(stderr, "usage: %s FOLDS REPEATS key=value...\n", argv[0]);
    return 2;
  }
  const int folds = std::atoi(argv[1]), repeats = std::atoi(argv[2]);
  setup_logging(static_cast<unsigned int>(spdlog::level::err));
  std::srand(static_cast<unsigned>(kv["seed"]));
  std::vector<ModelParams> parameters(1);
  DataSet* data = Parser::get_adult(parameters, 50000, false);
  ModelParams p = parameters[0];
  configure(p, kv);
  for (int r = 0; r < repeats; ++r) {
    data->shuffle_dataset();
    std::vector<TrainTestSplit*> splits = create_cross_validation_inputs(data, folds);
    for (std::size_t f = 0; f < splits.size(); ++f) {
      run_fold(p, splits[f], r, f);
      delete splits[f];
    }
  }
  delete data;
  return 0;
}
