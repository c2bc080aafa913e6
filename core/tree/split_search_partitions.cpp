// GiniSplitSearch's fixed-candidate partitions (core/tree/split_search.hpp): one-vs-rest on category
// codes (from a column, packed cells or a node's code segment) and a given grid of thresholds. Counts
// are integers in interleaved histograms, summed into exact double counts, so every gain is the one
// per-row double increments would give.
#include "core/tree/split_search.hpp"

#include <algorithm>
#include <cmath>

namespace dpf {

std::size_t GiniSplitSearch::one_vs_rest(std::span<const double> column, std::span<const int> labels,
                                         std::span<const uint32_t> rows, std::vector<SplitGain>& out,
                                         std::size_t n_values) {
  const auto C = static_cast<std::size_t>(n_classes_);
  // Integer counts in four interleaved (code, class) histograms (consecutive rows often hit the same
  // cell: one histogram would chain their increments through memory), widened when a code reaches
  // past the declared n_values.
  std::size_t m = std::max<std::size_t>(n_values, 1);
  std::size_t cells = m * C;
  code_counts_.assign(4 * cells, 0);
  auto widen = [&](std::size_t v) {
    const std::size_t m2 = std::max(v + 1, 2 * m), cells2 = m2 * C;
    std::vector<uint32_t> wider(4 * cells2, 0);
    for (std::size_t k = 0; k < 4; ++k)
      std::copy(code_counts_.begin() + static_cast<std::ptrdiff_t>(k * cells),
                code_counts_.begin() + static_cast<std::ptrdiff_t>((k + 1) * cells),
                wider.begin() + static_cast<std::ptrdiff_t>(k * cells2));
    code_counts_.swap(wider);
    m = m2;
    cells = cells2;
  };
  const std::size_t n = rows.size();
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    std::size_t v[4];
    for (std::size_t k = 0; k < 4; ++k) {
      v[k] = static_cast<std::size_t>(column[rows[i + k]]);
      if (v[k] >= m) widen(v[k]);
    }
    for (std::size_t k = 0; k < 4; ++k)
      ++code_counts_[k * cells + v[k] * C + static_cast<std::size_t>(labels[rows[i + k]])];
  }
  for (; i < n; ++i) {
    const auto v = static_cast<std::size_t>(column[rows[i]]);
    if (v >= m) widen(v);
    ++code_counts_[v * C + static_cast<std::size_t>(labels[rows[i]])];
  }
  return one_vs_rest_from_counts(m, n_values, n, out);
}

void count_byte_cells(const uint8_t* cell, std::span<const uint32_t> rows, std::size_t n_cells, uint32_t* h) {
  const std::size_t n = rows.size();
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (std::size_t k = 0; k < 4; ++k) ++h[k * n_cells + cell[rows[i + k]]];
  for (; i < n; ++i) ++h[cell[rows[i]]];
}

std::size_t GiniSplitSearch::one_vs_rest_cells(const uint8_t* cell, std::span<const uint32_t> rows,
                                               std::size_t n_values, std::vector<SplitGain>& out) {
  const std::size_t m = std::max<std::size_t>(n_values, 1), cells = m * static_cast<std::size_t>(n_classes_);
  code_counts_.assign(4 * cells, 0);
  count_byte_cells(cell, rows, cells, code_counts_.data());
  return one_vs_rest_from_counts(m, n_values, rows.size(), out);
}

std::size_t GiniSplitSearch::one_vs_rest_codes(const uint8_t* codes, const int* labels, std::size_t n,
                                               std::size_t n_codes, std::vector<SplitGain>& out) {
  const auto C = static_cast<std::size_t>(n_classes_);
  const std::size_t m = std::max<std::size_t>(n_codes, 1), cells = m * C;
  code_counts_.assign(4 * cells, 0);
  uint32_t* h = code_counts_.data();
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (std::size_t k = 0; k < 4; ++k)
      ++h[k * cells + codes[i + k] * C + static_cast<std::size_t>(labels[i + k])];
  for (; i < n; ++i) ++h[codes[i] * C + static_cast<std::size_t>(labels[i])];
  return one_vs_rest_from_counts(m, 0, n, out);
}

std::size_t GiniSplitSearch::one_vs_rest_from_counts(std::size_t m, std::size_t n_values, std::size_t n,
                                                     std::vector<SplitGain>& out) {
  // The four histograms summed into exact double counts: the gains are those of per-row double
  // increments, bit for bit.
  out.clear();
  const auto C = static_cast<std::size_t>(n_classes_);
  const std::size_t cells = m * C;
  const uint32_t* h = code_counts_.data();
  per_value_.assign(cells, 0.0);
  std::fill(total_.begin(), total_.end(), 0.0);
  std::size_t present = 0;  // 1 + the largest code present
  for (std::size_t v = 0; v < m; ++v)
    for (std::size_t c = 0; c < C; ++c) {
      const uint32_t k = h[v * C + c] + h[cells + v * C + c] + h[2 * cells + v * C + c] + h[3 * cells + v * C + c];
      per_value_[v * C + c] = static_cast<double>(k);
      total_[c] += static_cast<double>(k);
      if (k > 0) present = std::max(present, v + 1);
    }
  const double dn = static_cast<double>(n);
  double st = 0;
  for (double t : total_) st += t * t;
  node_gini_ = n == 0 ? 0.0 : 1.0 - st / (dn * dn);
  const std::size_t last = std::max(present, n_values);  // every declared code, and any present beyond
  std::size_t distinct = 0;
  for (std::size_t v = 0; v < last; ++v) {
    std::span<const double> cnt(per_value_.data() + v * C, C);
    double nv = 0;
    for (double x : cnt) nv += x;
    if (nv == 0 && n_values == 0) continue;
    distinct += nv > 0;
    out.push_back({static_cast<double>(v), gain(cnt, total_, nv, dn), static_cast<uint32_t>(nv),
                   proxy_of(cnt, total_, nv, dn)});
  }
  return distinct;
}

std::size_t GiniSplitSearch::at_thresholds(std::span<const double> column, std::span<const int> labels,
                                           std::span<const uint32_t> rows, std::span<const double> thresholds,
                                           std::vector<SplitGain>& out) {
  out.clear();
  const auto C = static_cast<std::size_t>(n_classes_);
  const std::size_t T = thresholds.size();
  // Bucket b holds the rows with thresholds[b-1] <= x < thresholds[b]: b = the number of thresholds
  // t with !(x < t), which for increasing thresholds is std::upper_bound's index (NaN: T). A search's
  // branches are unpredictable on node data; instead the bucket is guessed from the thresholds' mean
  // spacing (exact for an even grid up to rounding) and corrected by comparisons, so the result is
  // the comparisons' for any increasing thresholds.
  // Integer counts in four interleaved histograms, summed into the exact double counts.
  const std::size_t cells = (T + 1) * C;
  code_counts_.assign(4 * cells, 0);
  uint32_t* h = code_counts_.data();
  const double* th = thresholds.data();
  const double t0 = T > 0 ? th[0] : 0.0;
  double inv_step = T > 1 ? static_cast<double>(T - 1) / (th[T - 1] - th[0]) : 0.0;
  if (!std::isfinite(inv_step)) inv_step = 0.0;
  const double top = static_cast<double>(T);
  auto bucket = [&](double x) {
    if (std::isnan(x)) return T;
    const double q = (x - t0) * inv_step;  // truncation = floor for q >= 0
    std::size_t b = q >= 0.0 ? static_cast<std::size_t>(std::min(q + 1.0, top)) : 0;
    while (b < T && !(x < th[b])) ++b;
    while (b > 0 && x < th[b - 1]) --b;
    return b;
  };
  const std::size_t n = rows.size();
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (std::size_t k = 0; k < 4; ++k)
      ++h[k * cells + bucket(column[rows[i + k]]) * C + static_cast<std::size_t>(labels[rows[i + k]])];
  for (; i < n; ++i) ++h[bucket(column[rows[i]]) * C + static_cast<std::size_t>(labels[rows[i]])];
  per_value_.assign(cells, 0.0);
  std::fill(total_.begin(), total_.end(), 0.0);
  for (std::size_t b = 0; b <= T; ++b)
    for (std::size_t c = 0; c < C; ++c) {
      const uint32_t k = h[b * C + c] + h[cells + b * C + c] + h[2 * cells + b * C + c] + h[3 * cells + b * C + c];
      per_value_[b * C + c] = static_cast<double>(k);
      total_[c] += static_cast<double>(k);
    }
  const double dn = static_cast<double>(rows.size());
  double st = 0;
  for (double t : total_) st += t * t;
  node_gini_ = rows.empty() ? 0.0 : 1.0 - st / (dn * dn);
  std::fill(left_.begin(), left_.end(), 0.0);
  double nl = 0;
  for (std::size_t t = 0; t < T; ++t) {
    for (std::size_t c = 0; c < C; ++c) {
      left_[c] += per_value_[t * C + c];
      nl += per_value_[t * C + c];
    }
    out.push_back({thresholds[t], gain(left_, total_, nl, dn), static_cast<uint32_t>(nl), proxy_of(left_, total_, nl, dn)});
  }
  return rows.size();
}

}  // namespace dpf
