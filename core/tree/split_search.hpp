// The split search every CART-style classification learner shares (CART `rf`/`ert` in
// algorithms/cart, MRF, BRF and Denil14 in algorithms/mrf|brf|denil14; multinomial-rf.md §1.4, §1.11).
//
// Two pieces:
//   RankIndex        presort once per fit: rank of every row per feature (built on first use), so a
//                    node's rows are sorted by (value, row) with a radix sort of integer keys instead
//                    of comparisons (the CART presort + radix of the foundation, moved here).
//   GiniSplitSearch  one pass over rows sorted by a feature, keeping the sums of squared class counts
//                    of both sides up to date in O(1) per row (exact integers held in doubles), so every
//                    boundary between consecutive distinct values costs O(1):
//     numeric() / numeric_sorted()  the Gini decrease of every midpoint (MRF's value draw),
//     max_gain_sorted()             only the largest decrease and the number of distinct values
//                                   (MRF's feature draw needs no more for the features not drawn),
//     best_sorted()                 the best threshold by scikit-learn's proxy among those leaving
//                                   >= min_leaf rows per side (CART, BRF, Denil14);
//   plus one_vs_rest() (categorical x == v vs x != v) and at_thresholds() (data-independent grids).
//   best_sse_sorted() is the regression analogue of best_sorted() (CART regression trees).
//
// Gain = Gini impurity decrease of paper eq. 4 (Bai et al.):
//   I = T(S) - |S_l|/|S| T(S_l) - |S_r|/|S| T(S_r),  T(S) = 1 - sum_c p_c^2,
// computed as  I = (proxy - sum_c n_c^2 / n) / n  with  proxy = sum_c n_lc^2 / n_l + sum_c n_rc^2 / n_r
// (sklearn's proxy; >= 0, rounding below 0 is clamped). Ordering candidates by I is the same as
// ordering by the proxy.
//
// Threshold convention (core/tree Tree::kThreshold): x < threshold goes to child 0 ("left").
// A midpoint that rounds down onto the lower value is replaced by the upper value, so both sides
// stay non-empty. For one_vs_rest the "threshold" is the category code and n_left counts x == code.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

// Counts the rows by their byte cell (cell[r] < n_cells) into four interleaved histograms of n_cells
// each, h[k * n_cells + j] (h must hold 4 * n_cells zeros): consecutive rows often hit the same cell,
// and one histogram would chain their increments through memory. The count of cell j is the sum of
// its four entries.
void count_byte_cells(const uint8_t* cell, std::span<const uint32_t> rows, std::size_t n_cells, uint32_t* h);

struct SplitGain {
  double threshold = 0.0;  // numeric: midpoint; one-vs-rest: the category code
  double gain = 0.0;       // Gini impurity decrease (eq. 4)
  uint32_t n_left = 0;     // rows sent to child 0 (x < threshold, or x == code)
  double proxy = 0.0;      // one_vs_rest / at_thresholds: sum_c n_lc^2/n_l + sum_c n_rc^2/n_r (empty side: 0)
};

// The running best of best_sorted() / best_sse_sorted() over the features of one node.
struct BestSplit {
  double proxy = -1.0;  // larger is better; only a strictly larger proxy replaces the best
  int feature = -1;
  double threshold = 0.0;
};

class RankIndex {
 public:
  // Writes `rows` ordered by (value of feature f, row index) into `out`: for distinct rows exactly the
  // order of sorting (value, row) pairs; copies of one row (bootstrap) stay together. Ranks of f are
  // computed on the first call for f (the index lives for one fit on one dataset). Data sets with
  // more than kMaxRankedEntries cells (HIGGS's 11M x 28 has 2^28.2) sort (value, row) pairs per call
  // instead, to bound memory.
  void sort_rows(const Dataset& data, std::span<const uint32_t> rows, int f, std::vector<uint32_t>& out);
  // The same order, written as positions in `rows` (out[k] = i where rows[i] is the k-th row): the
  // index into node-ordered copies of the rows' values (GrowOptions::node_columns).
  void sort_positions(const Dataset& data, std::span<const uint32_t> rows, int f, std::vector<uint32_t>& out);

 private:
  static constexpr std::size_t kMaxRankedEntries = std::size_t{1} << 29;  // 2 GiB of ranks
  const std::vector<uint32_t>& ranks(const Dataset& data, int f);
  static std::vector<uint32_t> comparison_order(std::span<const double> col);
  static std::vector<uint32_t> radix_order(std::span<const double> col);
  // Sorts rows by (value of f, row), carrying tag(i) for rows[i]; out[k] = the k-th row's tag.
  template <class Tag>
  void sort_tagged(const Dataset& data, std::span<const uint32_t> rows, int f, Tag tag, std::vector<uint32_t>& out);
  const Dataset* ranked_data_ = nullptr;
  std::vector<std::vector<uint32_t>> rank_;
  std::vector<std::pair<double, uint64_t>> pair_scratch_;
  std::vector<uint64_t> keys_, keys_tmp_;
  std::vector<std::size_t> radix_count_;
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

  // max over the thresholds of numeric_sorted() of their gain (0 when there is none), bit-identical
  // to scanning its output, without writing the candidates. Returns the number of distinct values.
  std::size_t max_gain_sorted(std::span<const double> column, std::span<const int> labels,
                              std::span<const uint32_t> sorted_rows, double& max_gain);

  // The same as max_gain_sorted() in one pass without gathering, for several features of one node:
  // begin_node() counts the node's classes once, then each call reads column and labels through
  // sorted_rows (a permutation of the rows given to begin_node).
  void begin_node(std::span<const int> labels, std::span<const uint32_t> rows);
  std::size_t max_gain_node(std::span<const double> column, std::span<const int> labels,
                            std::span<const uint32_t> sorted_rows, double& max_gain);

  // The best threshold by the proxy among those leaving >= min_leaf rows on each side (CART with
  // sklearn's rule). y[r] holds the class index of row r (Dataset::y()). Replaces `best` (with
  // feature f) only by a strictly larger proxy. Returns false when the feature is constant on the
  // rows (sklearn: such a feature does not count towards max_features).
  bool best_sorted(std::span<const double> column, std::span<const double> y, std::span<const uint32_t> sorted_rows,
                   std::size_t min_leaf, int f, BestSplit& best);

  // Regression: proxy S_l^2/n_l + S_r^2/n_r (sklearn's squared-error proxy), `total_sum` = sum of y.
  bool best_sse_sorted(std::span<const double> column, std::span<const double> y,
                       std::span<const uint32_t> sorted_rows, std::size_t min_leaf, double total_sum, int f,
                       BestSplit& best);

  // best_sorted() / best_sse_sorted() on a node's presorted list (GrowOptions::presort): `values`
  // the sorted values, `ids` the rows' ids, y_by_id[id] their targets. The same result bit for bit
  // as the sorted-rows versions on the same order.
  bool best_presorted(std::span<const double> values, std::span<const double> y_by_id,
                      std::span<const uint32_t> ids, std::size_t min_leaf, int f, BestSplit& best);
  bool best_sse_presorted(std::span<const double> values, std::span<const double> y_by_id,
                          std::span<const uint32_t> ids, std::size_t min_leaf, double total_sum, int f,
                          BestSplit& best);

  // Category codes 0..n_codes-1 (a categorical feature split by thresholds on its ordinal code):
  // the same candidates and gains as numeric() / the same best as best_sorted(), from a per-code
  // class histogram in O(n + n_codes C) without sorting. Sums of squared counts are exact integers,
  // so the values are bit-identical to the sorted sweep's.
  std::size_t codes(std::span<const double> column, std::span<const int> labels, std::span<const uint32_t> rows,
                    std::size_t n_codes, std::vector<SplitGain>& out);
  bool best_codes(std::span<const double> column, std::span<const double> y, std::span<const uint32_t> rows,
                  std::size_t n_codes, std::size_t min_leaf, int f, BestSplit& best);

  // Every value v present in column[rows] (category codes), as the partition x == v vs x != v, in
  // increasing code order; with n_values > 0 every code 0..n_values-1, present or not (gain 0 when
  // absent). Returns the number of distinct values present.
  std::size_t one_vs_rest(std::span<const double> column, std::span<const int> labels, std::span<const uint32_t> rows,
                          std::vector<SplitGain>& out, std::size_t n_values = 0);

  // As one_vs_rest() (n_values = 0) for codes and labels already laid out contiguously (a node's
  // segment of per-feature code arrays kept in step with the tree loop; codes < n_codes <= 256): the
  // same output, bit for bit.
  std::size_t one_vs_rest_codes(const uint8_t* codes, const int* labels, std::size_t n, std::size_t n_codes,
                                std::vector<SplitGain>& out);

  // As one_vs_rest(column, labels, rows, out, n_values) with n_values > 0, from one byte per dataset
  // row, cell[r] = code(r) * n_classes + class(r) < n_values * n_classes (a packed copy of a
  // categorical column and the labels, an eighth of the column's bytes to gather): the same output,
  // bit for bit.
  std::size_t one_vs_rest_cells(const uint8_t* cell, std::span<const uint32_t> rows, std::size_t n_values,
                                std::vector<SplitGain>& out);

  // The given increasing thresholds (data-independent candidates, e.g. a grid over a public domain):
  // one bucketing pass + cumulative counts, O(n log T + T C). Returns the number of rows.
  std::size_t at_thresholds(std::span<const double> column, std::span<const int> labels,
                            std::span<const uint32_t> rows, std::span<const double> thresholds,
                            std::vector<SplitGain>& out);

  // Gini impurity T(S) of the rows of the last call (not set by best_sorted / best_sse_sorted).
  double node_gini() const { return node_gini_; }

  // Gini decrease of one partition given the class counts of the left side and of the node.
  static double gain(std::span<const double> left, std::span<const double> total, double n_left, double n);
  // The proxy sum_c n_lc^2/n_l + sum_c n_rc^2/n_r of one partition (an empty side adds 0).
  static double proxy_of(std::span<const double> left, std::span<const double> total, double n_left, double n);

  // Midpoint between consecutive distinct sorted values a < b (b when the midpoint rounds onto a).
  static double midpoint(double a, double b) {
    const double t = 0.5 * (a + b);
    return t > a ? t : b;
  }

 private:
  // Gathers xs_[i] = column[rows[i]] and cls_[i] = class of rows[i]; counts total_; returns sum n_c^2.
  template <class Labels>
  double gather(std::span<const double> column, Labels labels, std::span<const uint32_t> rows);
  // Visits every boundary i (rows [0, i] left, xs[i + 1] > xs[i]) with first <= i <= last as
  // visit(i, sl, sr), sl/sr = sums of squared class counts of the left/right side.
  template <class Visit>
  void sweep_boundaries(const double* xs, std::size_t first, std::size_t last, double st, Visit&& visit);
  // best_sorted() after the gather: sorted values xs[0..n), their classes in cls_, totals in total_.
  bool best_gathered(const double* xs, std::size_t n, double st, std::size_t min_leaf, int f, BestSplit& best);
  // inv_[k] = 1 / k for k = 1..n (inv_[0] = 0), grown on demand.
  const double* reciprocals(std::size_t n);
  bool best_sse_gathered(const double* xs, const double* ys, std::size_t n, std::size_t min_leaf, double total_sum,
                         int f, BestSplit& best);
  std::size_t sweep_all(std::vector<SplitGain>& out);  // numeric / numeric_sorted on xs_, cls_
  // Per-code class counts of rows into per_value_ (code-major) and total_; returns sum_c n_c^2.
  template <class Labels>
  double histogram(std::span<const double> column, Labels labels, std::span<const uint32_t> rows, std::size_t n_codes);
  // Visits the boundary between consecutive present codes a < b as visit(a, b, n_left, sl, sr).
  template <class Visit>
  std::size_t sweep_codes(std::size_t n_codes, double st, Visit&& visit);
  // The one_vs_rest*() output from the four interleaved (code, class) histograms of m codes in
  // code_counts_ over n rows; n_values as in one_vs_rest().
  std::size_t one_vs_rest_from_counts(std::size_t m, std::size_t n_values, std::size_t n, std::vector<SplitGain>& out);

  int n_classes_;
  std::vector<double> xs_;
  std::vector<uint32_t> cls_;
  std::vector<std::pair<double, uint32_t>> items_;  // numeric(): (value, class) pairs to sort
  std::vector<double> left_, total_;
  std::vector<double> inv_;  // reciprocals()
  std::vector<uint32_t> counts_;  // gather(): integer class counts
  std::vector<uint32_t> code_counts_;  // one_vs_rest*(), at_thresholds(): interleaved (code, class) histograms
  std::vector<double> per_value_;  // one_vs_rest: value-major class counts
  double node_gini_ = 0.0;
  double node_st_ = 0.0;  // begin_node(): sum_c n_c^2
};

}  // namespace dpf
