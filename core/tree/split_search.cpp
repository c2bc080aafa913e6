#include "core/tree/split_search.hpp"

#include <algorithm>
#include <cmath>

namespace dpf {

GiniSplitSearch::GiniSplitSearch(int n_classes) : n_classes_(n_classes) {
  left_.assign(static_cast<std::size_t>(n_classes), 0.0);
  total_.assign(static_cast<std::size_t>(n_classes), 0.0);
}

double GiniSplitSearch::gain(std::span<const double> left, std::span<const double> total, double nl, double n) {
  if (n <= 0) return 0.0;
  const double nr = n - nl;
  double sl = 0, sr = 0, st = 0;
  for (std::size_t c = 0; c < total.size(); ++c) {
    sl += left[c] * left[c];
    const double r = total[c] - left[c];
    sr += r * r;
    st += total[c] * total[c];
  }
  double g = ((nl > 0 ? sl / nl : 0.0) + (nr > 0 ? sr / nr : 0.0) - st / n) / n;
  return g > 0 ? g : 0.0;
}

std::size_t GiniSplitSearch::numeric(std::span<const double> column, std::span<const int> labels,
                                     std::span<const uint32_t> rows, std::vector<SplitGain>& out) {
  items_.clear();
  for (uint32_t r : rows) items_.push_back({column[r], labels[r]});
  std::sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) { return a.v < b.v; });
  return sweep(out);
}

std::size_t GiniSplitSearch::numeric_sorted(std::span<const double> column, std::span<const int> labels,
                                            std::span<const uint32_t> sorted_rows, std::vector<SplitGain>& out) {
  items_.clear();
  for (uint32_t r : sorted_rows) items_.push_back({column[r], labels[r]});
  return sweep(out);
}

std::size_t GiniSplitSearch::sweep(std::vector<SplitGain>& out) {
  out.clear();
  std::fill(total_.begin(), total_.end(), 0.0);
  for (const Item& it : items_) total_[static_cast<std::size_t>(it.c)] += 1;
  const std::size_t n = items_.size();
  const double dn = static_cast<double>(n);
  double st = 0;
  for (double t : total_) st += t * t;
  node_gini_ = n ? 1.0 - st / (dn * dn) : 0.0;
  if (n == 0) return 0;

  // Running sums of squared class counts: moving one row of class c from right to left changes
  // n_lc^2 by 2 n_lc + 1 and n_rc^2 by -(2 n_rc - 1).
  std::fill(left_.begin(), left_.end(), 0.0);
  double sl = 0, sr = st;
  std::size_t distinct = 1;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const auto c = static_cast<std::size_t>(items_[i].c);
    const double r = total_[c] - left_[c];
    sl += 2 * left_[c] + 1;
    sr -= 2 * r - 1;
    left_[c] += 1;
    if (!(items_[i + 1].v > items_[i].v)) continue;
    ++distinct;
    const double nl = static_cast<double>(i + 1), nr = dn - nl;
    double g = (sl / nl + sr / nr - st / dn) / dn;
    double thr = 0.5 * (items_[i].v + items_[i + 1].v);
    if (!(thr > items_[i].v)) thr = items_[i + 1].v;
    out.push_back({thr, g > 0 ? g : 0.0, static_cast<uint32_t>(i + 1)});
  }
  return distinct;
}

std::size_t GiniSplitSearch::one_vs_rest(std::span<const double> column, std::span<const int> labels,
                                         std::span<const uint32_t> rows, std::vector<SplitGain>& out,
                                         std::size_t n_values) {
  out.clear();
  std::fill(total_.begin(), total_.end(), 0.0);
  const auto C = static_cast<std::size_t>(n_classes_);
  per_value_.assign(n_values * C, 0.0);
  for (uint32_t r : rows) {
    const auto v = static_cast<std::size_t>(column[r]);
    if (per_value_.size() < (v + 1) * C) per_value_.resize((v + 1) * C, 0.0);
    per_value_[v * C + static_cast<std::size_t>(labels[r])] += 1;
    total_[static_cast<std::size_t>(labels[r])] += 1;
  }
  const double dn = static_cast<double>(rows.size());
  double st = 0;
  for (double t : total_) st += t * t;
  node_gini_ = rows.empty() ? 0.0 : 1.0 - st / (dn * dn);
  const std::size_t m = per_value_.size() / (C ? C : 1);
  std::size_t distinct = 0;
  for (std::size_t v = 0; v < m; ++v) {
    std::span<const double> cnt(per_value_.data() + v * C, C);
    double nv = 0;
    for (double x : cnt) nv += x;
    if (nv == 0 && n_values == 0) continue;
    distinct += nv > 0;
    out.push_back({static_cast<double>(v), gain(cnt, total_, nv, dn), static_cast<uint32_t>(nv)});
  }
  return distinct;
}

std::size_t GiniSplitSearch::at_thresholds(std::span<const double> column, std::span<const int> labels,
                                           std::span<const uint32_t> rows, std::span<const double> thresholds,
                                           std::vector<SplitGain>& out) {
  out.clear();
  const auto C = static_cast<std::size_t>(n_classes_);
  const std::size_t T = thresholds.size();
  // Bucket b holds the rows with thresholds[b-1] <= x < thresholds[b].
  per_value_.assign((T + 1) * C, 0.0);
  std::fill(total_.begin(), total_.end(), 0.0);
  for (uint32_t r : rows) {
    const auto b = static_cast<std::size_t>(std::upper_bound(thresholds.begin(), thresholds.end(), column[r]) -
                                            thresholds.begin());
    per_value_[b * C + static_cast<std::size_t>(labels[r])] += 1;
    total_[static_cast<std::size_t>(labels[r])] += 1;
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
    out.push_back({thresholds[t], gain(left_, total_, nl, dn), static_cast<uint32_t>(nl)});
  }
  return rows.size();
}

}  // namespace dpf
