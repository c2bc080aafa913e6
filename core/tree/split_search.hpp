// Reusable Gini split search for CART-style classification learners (multinomial-rf.md §1.4, §1.11).
//
// numeric():     sorts the node's (value, class) pairs of one feature once and sweeps them in one
//                pass, keeping the sums of squared class counts of both sides up to date in O(1) per
//                row, so the Gini decrease of EVERY threshold (the midpoints between consecutive
//                distinct values) costs O(n log n) for the sort + O(n + C) for the sweep. The reference
//                MRF code recomputes each candidate from scratch, O(n^2) per feature.
// one_vs_rest(): per-value class counts in one pass, then the gain of every "x == v vs x != v"
//                partition in O(m C) (m distinct values present).
//
// Gain = Gini impurity decrease of paper eq. 4 (Bai et al.):
//   I = T(S) - |S_l|/|S| T(S_l) - |S_r|/|S| T(S_r),  T(S) = 1 - sum_c p_c^2,
// computed as  I = (sum_c n_lc^2 / n_l + sum_c n_rc^2 / n_r - sum_c n_c^2 / n) / n  (>= 0; rounding
// below 0 is clamped). Ordering candidates by I is the same as ordering by sklearn's proxy.
//
// Threshold convention (core/tree Tree::kThreshold): x < threshold goes to child 0 ("left").
// A midpoint that rounds down onto the lower value is replaced by the upper value, so both sides
// stay non-empty. For one_vs_rest the "threshold" is the category code and n_left counts x == code.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace dpf {

struct SplitGain {
  double threshold = 0.0;  // numeric: midpoint; one-vs-rest: the category code
  double gain = 0.0;       // Gini impurity decrease (eq. 4)
  uint32_t n_left = 0;     // rows sent to child 0 (x < threshold, or x == code)
};

class GiniSplitSearch {
 public:
  explicit GiniSplitSearch(int n_classes);

  // Every threshold between consecutive distinct values of column[rows], in increasing order.
  // labels[r] is the class of row r (0..C-1). Returns the number of distinct values (0 for no rows).
  std::size_t numeric(std::span<const double> column, std::span<const int> labels, std::span<const uint32_t> rows,
                      std::vector<SplitGain>& out);

  // As numeric(), for rows already sorted by column value (a presorted index): no sort, O(n + C).
  std::size_t numeric_sorted(std::span<const double> column, std::span<const int> labels,
                             std::span<const uint32_t> sorted_rows, std::vector<SplitGain>& out);

  // Every value v present in column[rows] (category codes), as the partition x == v vs x != v, in
  // increasing code order; with n_values > 0 every code 0..n_values-1, present or not (gain 0 when
  // absent). Returns the number of distinct values present.
  std::size_t one_vs_rest(std::span<const double> column, std::span<const int> labels, std::span<const uint32_t> rows,
                          std::vector<SplitGain>& out, std::size_t n_values = 0);

  // The given increasing thresholds (data-independent candidates, e.g. a grid over a public domain):
  // one bucketing pass + cumulative counts, O(n log T + T C). Returns the number of rows.
  std::size_t at_thresholds(std::span<const double> column, std::span<const int> labels,
                            std::span<const uint32_t> rows, std::span<const double> thresholds,
                            std::vector<SplitGain>& out);

  // Gini impurity T(S) of the rows of the last call.
  double node_gini() const { return node_gini_; }

  // Gini decrease of one partition given the class counts of the left side and of the node.
  static double gain(std::span<const double> left, std::span<const double> total, double n_left, double n);

 private:
  struct Item {
    double v;
    int c;
  };
  std::size_t sweep(std::vector<SplitGain>& out);  // items_ sorted by value
  int n_classes_;
  std::vector<Item> items_;
  std::vector<double> left_, total_;
  std::vector<double> per_value_;  // one_vs_rest: value-major class counts
  double node_gini_ = 0.0;
};

}  // namespace dpf
