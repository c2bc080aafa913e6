// Metrics (design.md §7). Classification metrics take integer labels; AUC takes a score for the
// positive class (higher means more positive) and handles ties by the Mann-Whitney midrank rule.
// Every metric requires non-empty inputs of equal length and throws dpf::Error otherwise.
#pragma once
#include <span>

namespace dpf {

double accuracy(std::span<const int> truth, std::span<const int> predicted);
double error_rate(std::span<const int> truth, std::span<const int> predicted);
double mean_squared_error(std::span<const double> truth, std::span<const double> predicted);
// Mean |truth - score| for 0/1 truth and a class-1 score in [0, 1]: the unthresholded "soft" error
// the DiPriMe notebooks reported for DP-ERT (dipreme.md §3.6).
double l1_error(std::span<const int> truth, std::span<const double> score);
// Area under the ROC curve for class `positive` (every other label is a negative), O(n log n); NaN
// when truth has no positive or no negative row. NaN scores are an error.
double roc_auc(std::span<const int> truth, std::span<const double> positive_score, int positive);
// F1 of class `positive`; 0 when it is never predicted and never present.
double f1_score(std::span<const int> truth, std::span<const int> predicted, int positive);

}  // namespace dpf
