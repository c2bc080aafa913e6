#include "core/eval/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "core/util/error.hpp"

namespace dpf {
namespace {

template <typename A, typename B>
void require_paired(std::span<A> truth, std::span<B> predicted, const char* who) {
  require(!truth.empty(), who, ": no rows to score");
  require(truth.size() == predicted.size(), who, ": truth has ", truth.size(), " entries but predictions have ",
          predicted.size());
}

std::size_t count_mismatches(std::span<const int> truth, std::span<const int> predicted) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) wrong += truth[i] != predicted[i];
  return wrong;
}

}  // namespace

double accuracy(std::span<const int> truth, std::span<const int> predicted) {
  require_paired(truth, predicted, "accuracy");
  return 1.0 - static_cast<double>(count_mismatches(truth, predicted)) / static_cast<double>(truth.size());
}

double error_rate(std::span<const int> truth, std::span<const int> predicted) {
  require_paired(truth, predicted, "error_rate");
  return static_cast<double>(count_mismatches(truth, predicted)) / static_cast<double>(truth.size());
}

double mean_squared_error(std::span<const double> truth, std::span<const double> predicted) {
  require_paired(truth, predicted, "mean_squared_error");
  double sum = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) sum += (truth[i] - predicted[i]) * (truth[i] - predicted[i]);
  return sum / static_cast<double>(truth.size());
}

double l1_error(std::span<const int> truth, std::span<const double> score) {
  require_paired(truth, score, "l1_error");
  double sum = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    // The soft error is only meaningful for binary 0/1 targets; anything else is a caller bug.
    require(truth[i] == 0 || truth[i] == 1, "l1_error: truth of row ", i, " is ", truth[i], ", expected 0 or 1");
    sum += std::abs(static_cast<double>(truth[i]) - score[i]);
  }
  return sum / static_cast<double>(truth.size());
}

double roc_auc(std::span<const int> truth, std::span<const double> positive_score, int positive) {
  require_paired(truth, positive_score, "roc_auc");
  const std::size_t n = truth.size();
  for (std::size_t i = 0; i < n; ++i)
    require(!std::isnan(positive_score[i]), "roc_auc: score of row ", i, " is NaN");
  std::size_t n_pos = 0;
  for (int t : truth) n_pos += t == positive;
  const std::size_t n_neg = n - n_pos;
  if (n_pos == 0 || n_neg == 0) return std::numeric_limits<double>::quiet_NaN();

  // Mann-Whitney: AUC = (R+ - n+(n+ + 1)/2) / (n+ n-), R+ the rank sum of the positives with tied
  // scores sharing their midrank (which counts a tied positive/negative pair as 1/2).
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return positive_score[a] < positive_score[b]; });
  double rank_sum_pos = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    std::size_t pos_in_group = 0;
    while (j < n && positive_score[order[j]] == positive_score[order[i]]) pos_in_group += truth[order[j++]] == positive;
    const double midrank = 0.5 * static_cast<double>(i + 1 + j);  // mean of ranks i+1 .. j
    rank_sum_pos += midrank * static_cast<double>(pos_in_group);
    i = j;
  }
  const double np = static_cast<double>(n_pos), nn = static_cast<double>(n_neg);
  return (rank_sum_pos - np * (np + 1) / 2) / (np * nn);
}

double f1_score(std::span<const int> truth, std::span<const int> predicted, int positive) {
  require_paired(truth, predicted, "f1_score");
  std::size_t tp = 0, fp = 0, fn = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    const bool t = truth[i] == positive, p = predicted[i] == positive;
    tp += t && p;
    fp += !t && p;
    fn += t && !p;
  }
  // F1 = 2TP / (2TP + FP + FN); with no positives anywhere the ratio is 0/0 and we report 0.
  const std::size_t denom = 2 * tp + fp + fn;
  return denom == 0 ? 0.0 : static_cast<double>(2 * tp) / static_cast<double>(denom);
}

}  // namespace dpf
