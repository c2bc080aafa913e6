#include "core/tree/split_search.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

namespace dpf {

// ---------------------------------------------------------------------------------------------
// RankIndex

const std::vector<uint32_t>& RankIndex::ranks(const Dataset& data, int f) {
  if (ranked_data_ != &data) {
    ranked_data_ = &data;
    rank_.assign(data.n_features(), {});
  }
  std::vector<uint32_t>& rank = rank_[static_cast<std::size_t>(f)];
  if (rank.empty()) {
    std::span<const double> col = data.column(static_cast<std::size_t>(f));
    const bool has_nan = std::any_of(col.begin(), col.end(), [](double x) { return std::isnan(x); });
    std::vector<uint32_t> order = has_nan ? comparison_order(col) : radix_order(col);
    rank.resize(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<uint32_t>(i);
  }
  return rank;
}

// The order of std::pair<double, uint32_t>'s operator<: by value, ties by row index.
std::vector<uint32_t> RankIndex::comparison_order(std::span<const double> col) {
  std::vector<uint32_t> order(col.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return col[a] < col[b] || (!(col[b] < col[a]) && a < b);
  });
  return order;
}

// The same order for a column without NaN, by a stable LSD radix sort of the values' bit patterns
// mapped to unsigned integers in value order (-0.0 taken as +0.0, which compares equal to it), 11
// bits per pass; a pass whose digit is the same for every row is skipped. Linear in the rows,
// where the comparison sort of ten million rows takes seconds per feature.
std::vector<uint32_t> RankIndex::radix_order(std::span<const double> col) {
  const std::size_t n = col.size();
  struct Item {
    uint64_t key;
    uint32_t row;
  };
  std::vector<Item> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = col[i] == 0.0 ? 0.0 : col[i];
    const auto bits = std::bit_cast<uint64_t>(x);
    a[i] = {bits >> 63 ? ~bits : bits | (uint64_t{1} << 63), static_cast<uint32_t>(i)};
  }
  constexpr int kBits = 11;
  std::vector<std::size_t> count((std::size_t{1} << kBits) + 1);
  for (int shift = 0; shift < 64; shift += kBits) {
    const uint64_t mask = (uint64_t{1} << kBits) - 1;
    std::fill(count.begin(), count.end(), 0);
    for (const Item& it : a) ++count[((it.key >> shift) & mask) + 1];
    if (std::any_of(count.begin(), count.end(), [n](std::size_t c) { return c == n; })) continue;
    for (std::size_t k = 0; k + 1 < count.size(); ++k) count[k + 1] += count[k];
    for (const Item& it : a) b[count[(it.key >> shift) & mask]++] = it;
    a.swap(b);
  }
  std::vector<uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = a[i].row;
  return order;
}

template <class Tag>
void RankIndex::sort_tagged(const Dataset& data, std::span<const uint32_t> rows, int f, Tag tag,
                            std::vector<uint32_t>& out) {
  const std::size_t n = rows.size();
  out.resize(n);
  const std::size_t n_data = data.n_rows();
  if (n_data * data.n_features() > kMaxRankedEntries || n_data > (std::size_t{1} << 32) - 1) {
    std::span<const double> col = data.column(static_cast<std::size_t>(f));
    pair_scratch_.clear();
    for (std::size_t i = 0; i < n; ++i)
      pair_scratch_.emplace_back(col[rows[i]], (static_cast<uint64_t>(rows[i]) << 32) | tag(i));
    std::sort(pair_scratch_.begin(), pair_scratch_.end());
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<uint32_t>(pair_scratch_[i].second);
    return;
  }
  // Keys rank << 32 | tag: distinct rows have distinct ranks, so sorting the keys sorts by
  // (value, row); bootstrap copies of a row have equal ranks and stay together.
  const std::vector<uint32_t>& rank = ranks(data, f);
  keys_.resize(n);
  for (std::size_t i = 0; i < n; ++i) keys_[i] = (static_cast<uint64_t>(rank[rows[i]]) << 32) | tag(i);
  if (n < 256) {
    std::sort(keys_.begin(), keys_.end());
  } else {
    // LSD radix sort on the rank bits (stable, so earlier passes keep their order), in as few
    // passes of at most 11 bits as the ranks need (17-bit ranks: two passes of 9 and 8 bits).
    const int rank_bits = std::max(1, static_cast<int>(std::bit_width(n_data - 1)));
    const int passes = (rank_bits + 10) / 11;
    keys_tmp_.resize(n);
    for (int p = 0, shift = 32; p < passes; ++p) {
      const int bits = (rank_bits - (shift - 32) + (passes - p) - 1) / (passes - p);
      const uint64_t mask = (uint64_t{1} << bits) - 1;
      radix_count_.assign((std::size_t{1} << bits) + 1, 0);
      std::size_t* count = radix_count_.data();
      for (uint64_t k : keys_) ++count[((k >> shift) & mask) + 1];
      for (std::size_t b = 0; b + 1 < radix_count_.size(); ++b) count[b + 1] += count[b];
      for (uint64_t k : keys_) keys_tmp_[count[(k >> shift) & mask]++] = k;
      keys_.swap(keys_tmp_);
      shift += bits;
    }
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<uint32_t>(keys_[i]);
}

void RankIndex::sort_rows(const Dataset& data, std::span<const uint32_t> rows, int f, std::vector<uint32_t>& out) {
  sort_tagged(data, rows, f, [&](std::size_t i) { return rows[i]; }, out);
}

void RankIndex::sort_positions(const Dataset& data, std::span<const uint32_t> rows, int f, std::vector<uint32_t>& out) {
  sort_tagged(data, rows, f, [](std::size_t i) { return static_cast<uint32_t>(i); }, out);
}

// ---------------------------------------------------------------------------------------------
// GiniSplitSearch

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

double GiniSplitSearch::proxy_of(std::span<const double> left, std::span<const double> total, double nl, double n) {
  const double nr = n - nl;
  double sl = 0, sr = 0;
  for (std::size_t c = 0; c < total.size(); ++c) {
    sl += left[c] * left[c];
    const double r = total[c] - left[c];
    sr += r * r;
  }
  return (nl > 0 ? sl / nl : 0.0) + (nr > 0 ? sr / nr : 0.0);
}

template <class Labels>
double GiniSplitSearch::gather(std::span<const double> column, Labels labels, std::span<const uint32_t> rows) {
  const std::size_t n = rows.size();
  xs_.resize(n);
  cls_.resize(n);
  counts_.assign(total_.size(), 0);  // integer counts: no chain of dependent adds through memory
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t r = rows[i];
    xs_[i] = column[r];
    const auto c = static_cast<uint32_t>(labels[r]);
    cls_[i] = c;
    ++counts_[c];
  }
  for (std::size_t c = 0; c < total_.size(); ++c) total_[c] = static_cast<double>(counts_[c]);
  double st = 0;
  for (double t : total_) st += t * t;
  return st;
}

template <class Visit>
void GiniSplitSearch::sweep_boundaries(const double* xs, std::size_t first, std::size_t last, double st,
                                       Visit&& visit) {
  // Moving one row of class c from right to left changes n_lc^2 by 2 n_lc + 1 and n_rc^2 by
  // -(2 n_rc - 1); the sums stay exact integers.
  std::fill(left_.begin(), left_.end(), 0.0);
  double sl = 0, sr = st;
  const uint32_t* cls = cls_.data();
  double* left = left_.data();
  const double* total = total_.data();
  if (total_.size() == 2 && last < (std::size_t{1} << 26)) {
    // Two classes: only the count of class 1 on the left is carried from row to row (one integer
    // addition); both sums of squares are computed from the counts at each boundary. Below 2^26
    // rows they are integers below 2^53, so converted to double they are exactly the sums the
    // row-by-row updates in doubles produce.
    const auto t0 = static_cast<int64_t>(total[0]), t1 = static_cast<int64_t>(total[1]);
    int64_t l1 = 0;
    std::size_t i = 0;
    for (; i < first && i <= last; ++i) l1 += cls[i];
    for (; i <= last; ++i) {
      l1 += cls[i];
      if (!(xs[i + 1] > xs[i])) continue;
      const int64_t l0 = static_cast<int64_t>(i + 1) - l1, r0 = t0 - l0, r1 = t1 - l1;
      visit(i, static_cast<double>(l0 * l0 + l1 * l1), static_cast<double>(r0 * r0 + r1 * r1));
    }
    left[0] = static_cast<double>(static_cast<int64_t>(last + 1) - l1);
    left[1] = static_cast<double>(l1);
    return;
  }
  for (std::size_t i = 0; i <= last; ++i) {
    const uint32_t c = cls[i];
    const double r = total[c] - left[c];
    sl += 2 * left[c] + 1;
    sr -= 2 * r - 1;
    left[c] += 1;
    if (i < first || !(xs[i + 1] > xs[i])) continue;
    visit(i, sl, sr);
  }
}

std::size_t GiniSplitSearch::sweep_all(std::vector<SplitGain>& out) {
  out.clear();
  const std::size_t n = xs_.size();
  double st = 0;
  for (double t : total_) st += t * t;
  const double dn = static_cast<double>(n);
  node_gini_ = n ? 1.0 - st / (dn * dn) : 0.0;
  if (n < 2) return n;
  std::size_t distinct = 1;
  sweep_boundaries(xs_.data(), 0, n - 2, st, [&](std::size_t i, double sl, double sr) {
    ++distinct;
    const double nl = static_cast<double>(i + 1), nr = dn - nl;
    const double g = (sl / nl + sr / nr - st / dn) / dn;
    out.push_back({midpoint(xs_[i], xs_[i + 1]), g > 0 ? g : 0.0, static_cast<uint32_t>(i + 1)});
  });
  return distinct;
}

std::size_t GiniSplitSearch::numeric(std::span<const double> column, std::span<const int> labels,
                                     std::span<const uint32_t> rows, std::vector<SplitGain>& out) {
  items_.clear();
  for (uint32_t r : rows) items_.emplace_back(column[r], static_cast<uint32_t>(labels[r]));
  std::sort(items_.begin(), items_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::size_t n = items_.size();
  xs_.resize(n);
  cls_.resize(n);
  std::fill(total_.begin(), total_.end(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    xs_[i] = items_[i].first;
    cls_[i] = items_[i].second;
    total_[cls_[i]] += 1;
  }
  return sweep_all(out);
}

std::size_t GiniSplitSearch::numeric_sorted(std::span<const double> column, std::span<const int> labels,
                                            std::span<const uint32_t> sorted_rows, std::vector<SplitGain>& out) {
  gather(column, labels, sorted_rows);
  return sweep_all(out);
}

std::size_t GiniSplitSearch::max_gain_sorted(std::span<const double> column, std::span<const int> labels,
                                             std::span<const uint32_t> sorted_rows, double& max_gain) {
  const double st = gather(column, labels, sorted_rows);
  const std::size_t n = xs_.size();
  const double dn = static_cast<double>(n);
  node_gini_ = n ? 1.0 - st / (dn * dn) : 0.0;
  max_gain = 0.0;
  if (n < 2) return n;
  std::size_t distinct = 1;
  double best = 0.0;
  sweep_boundaries(xs_.data(), 0, n - 2, st, [&](std::size_t i, double sl, double sr) {
    ++distinct;
    const double nl = static_cast<double>(i + 1), nr = dn - nl;
    const double g = (sl / nl + sr / nr - st / dn) / dn;
    best = std::max(best, g > 0 ? g : 0.0);
  });
  max_gain = best;
  return distinct;
}

void GiniSplitSearch::begin_node(std::span<const int> labels, std::span<const uint32_t> rows) {
  std::fill(total_.begin(), total_.end(), 0.0);
  for (uint32_t r : rows) total_[static_cast<std::size_t>(labels[r])] += 1;
  node_st_ = 0;
  for (double t : total_) node_st_ += t * t;
  const double dn = static_cast<double>(rows.size());
  node_gini_ = rows.empty() ? 0.0 : 1.0 - node_st_ / (dn * dn);
}

std::size_t GiniSplitSearch::max_gain_node(std::span<const double> column, std::span<const int> labels,
                                           std::span<const uint32_t> sorted_rows, double& max_gain) {
  const std::size_t n = sorted_rows.size();
  max_gain = 0.0;
  if (n < 2) return n;
  const double st = node_st_, dn = static_cast<double>(n);
  std::fill(left_.begin(), left_.end(), 0.0);
  double* left = left_.data();
  const double* total = total_.data();
  double sl = 0, sr = st, best = 0.0, prev = column[sorted_rows[0]];
  std::size_t distinct = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t r = sorted_rows[i];
    const double x = column[r];
    if (x > prev) {  // the boundary after row i - 1, with rows [0, i) on the left
      ++distinct;
      const double nl = static_cast<double>(i), nr = dn - nl;
      const double g = (sl / nl + sr / nr - st / dn) / dn;
      best = std::max(best, g > 0 ? g : 0.0);
    }
    const auto c = static_cast<std::size_t>(labels[r]);
    const double rc = total[c] - left[c];
    sl += 2 * left[c] + 1;
    sr -= 2 * rc - 1;
    left[c] += 1;
    prev = x;
  }
  max_gain = best;
  return distinct;
}

bool GiniSplitSearch::best_sorted(std::span<const double> column, std::span<const double> y,
                                  std::span<const uint32_t> sorted_rows, std::size_t min_leaf, int f,
                                  BestSplit& best) {
  const std::size_t n = sorted_rows.size();
  if (n == 0) return false;
  const double st = gather(column, y, sorted_rows);
  return best_gathered(xs_.data(), n, st, min_leaf, f, best);
}

bool GiniSplitSearch::best_presorted(std::span<const double> values, std::span<const double> y_by_id,
                                     std::span<const uint32_t> ids, std::size_t min_leaf, int f, BestSplit& best) {
  const std::size_t n = ids.size();
  if (n == 0) return false;
  cls_.resize(n);
  counts_.assign(total_.size(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<uint32_t>(y_by_id[ids[i]]);
    cls_[i] = c;
    ++counts_[c];
  }
  double st = 0;
  for (std::size_t c = 0; c < total_.size(); ++c) {
    total_[c] = static_cast<double>(counts_[c]);
    st += total_[c] * total_[c];
  }
  return best_gathered(values.data(), n, st, min_leaf, f, best);
}

bool GiniSplitSearch::best_gathered(const double* xs, std::size_t n, double st, std::size_t min_leaf, int f,
                                    BestSplit& best) {
  if (!(xs[n - 1] > xs[0])) return false;  // constant at this node
  if (min_leaf == 0) min_leaf = 1;
  if (n < 2 * min_leaf) return true;
  // A threshold after position i leaves i + 1 rows left and n - i - 1 right: only i in
  // [min_leaf - 1, n - min_leaf - 1] can be a split; rows before only add to the left side.
  // The two divisions per boundary dominated the sweep. A bound from reciprocals decides first
  // whether the boundary can beat the best at all: with u = 2^-53, the proxy as computed is at
  // most (1 + u)^2 (sl/nl + sr/nr) and the product form below at least (1 - u)^3 times it, so
  // (1 + 1e-12) times the product form bounds the proxy from above. Only boundaries within that
  // margin of the best compute the proxy as before, which alone decides: the same splits, bit for bit.
  const double* inv = reciprocals(n);
  sweep_boundaries(xs, min_leaf - 1, n - min_leaf - 1, st, [&](std::size_t i, double sl, double sr) {
    const double bound = (sl * inv[i + 1] + sr * inv[n - i - 1]) * (1.0 + 1e-12);
    if (!(bound > best.proxy)) return;
    const double proxy = sl / static_cast<double>(i + 1) + sr / static_cast<double>(n - i - 1);
    if (proxy > best.proxy) best = {proxy, f, midpoint(xs[i], xs[i + 1])};
  });
  return true;
}

const double* GiniSplitSearch::reciprocals(std::size_t n) {
  for (std::size_t k = inv_.size(); k <= n; ++k) inv_.push_back(k == 0 ? 0.0 : 1.0 / static_cast<double>(k));
  return inv_.data();
}

bool GiniSplitSearch::best_sse_sorted(std::span<const double> column, std::span<const double> y,
                                      std::span<const uint32_t> sorted_rows, std::size_t min_leaf, double total_sum,
                                      int f, BestSplit& best) {
  const std::size_t n = sorted_rows.size();
  if (n == 0) return false;
  xs_.resize(n);
  std::vector<double>& ys = per_value_;
  ys.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs_[i] = column[sorted_rows[i]];
    ys[i] = y[sorted_rows[i]];
  }
  return best_sse_gathered(xs_.data(), ys.data(), n, min_leaf, total_sum, f, best);
}

bool GiniSplitSearch::best_sse_presorted(std::span<const double> values, std::span<const double> y_by_id,
                                         std::span<const uint32_t> ids, std::size_t min_leaf, double total_sum,
                                         int f, BestSplit& best) {
  const std::size_t n = ids.size();
  if (n == 0) return false;
  std::vector<double>& ys = per_value_;
  ys.resize(n);
  for (std::size_t i = 0; i < n; ++i) ys[i] = y_by_id[ids[i]];
  return best_sse_gathered(values.data(), ys.data(), n, min_leaf, total_sum, f, best);
}

bool GiniSplitSearch::best_sse_gathered(const double* xs, const double* ys, std::size_t n, std::size_t min_leaf,
                                        double total_sum, int f, BestSplit& best) {
  if (!(xs[n - 1] > xs[0])) return false;
  if (min_leaf == 0) min_leaf = 1;
  if (n < 2 * min_leaf) return true;
  const std::size_t first = min_leaf - 1, last = n - min_leaf - 1;
  double sum_left = 0;
  for (std::size_t i = 0; i <= last; ++i) {
    sum_left += ys[i];
    if (i < first || !(xs[i + 1] > xs[i])) continue;
    const double nl = static_cast<double>(i + 1), nr = static_cast<double>(n - i - 1);
    const double r = total_sum - sum_left;
    const double proxy = sum_left * sum_left / nl + r * r / nr;
    if (proxy > best.proxy) best = {proxy, f, midpoint(xs[i], xs[i + 1])};
  }
  return true;
}

template <class Labels>
double GiniSplitSearch::histogram(std::span<const double> column, Labels labels, std::span<const uint32_t> rows,
                                  std::size_t n_codes) {
  const auto C = static_cast<std::size_t>(n_classes_);
  per_value_.assign(n_codes * C, 0.0);
  std::fill(total_.begin(), total_.end(), 0.0);
  for (uint32_t r : rows) {
    const auto c = static_cast<std::size_t>(labels[r]);
    per_value_[static_cast<std::size_t>(column[r]) * C + c] += 1;
    total_[c] += 1;
  }
  double st = 0;
  for (double t : total_) st += t * t;
  return st;
}

template <class Visit>
std::size_t GiniSplitSearch::sweep_codes(std::size_t n_codes, double st, Visit&& visit) {
  const auto C = static_cast<std::size_t>(n_classes_);
  std::fill(left_.begin(), left_.end(), 0.0);
  double nl = 0, sl = 0, sr = st;
  std::size_t distinct = 0, prev = 0;
  for (std::size_t v = 0; v < n_codes; ++v) {
    const double* cnt = per_value_.data() + v * C;
    double nv = 0;
    for (std::size_t c = 0; c < C; ++c) nv += cnt[c];
    if (nv == 0) continue;
    if (distinct++ > 0) visit(prev, v, nl, sl, sr);
    sl = 0;
    sr = 0;
    for (std::size_t c = 0; c < C; ++c) {
      left_[c] += cnt[c];
      sl += left_[c] * left_[c];
      const double r = total_[c] - left_[c];
      sr += r * r;
    }
    nl += nv;
    prev = v;
  }
  return distinct;
}

std::size_t GiniSplitSearch::codes(std::span<const double> column, std::span<const int> labels,
                                   std::span<const uint32_t> rows, std::size_t n_codes, std::vector<SplitGain>& out) {
  out.clear();
  const double st = histogram(column, labels, rows, n_codes);
  const double dn = static_cast<double>(rows.size());
  node_gini_ = rows.empty() ? 0.0 : 1.0 - st / (dn * dn);
  return sweep_codes(n_codes, st, [&](std::size_t a, std::size_t b, double nl, double sl, double sr) {
    const double g = (sl / nl + sr / (dn - nl) - st / dn) / dn;
    out.push_back({midpoint(static_cast<double>(a), static_cast<double>(b)), g > 0 ? g : 0.0,
                   static_cast<uint32_t>(nl)});
  });
}

bool GiniSplitSearch::best_codes(std::span<const double> column, std::span<const double> y,
                                 std::span<const uint32_t> rows, std::size_t n_codes, std::size_t min_leaf, int f,
                                 BestSplit& best) {
  const std::size_t n = rows.size();
  if (n == 0) return false;
  const double st = histogram(column, y, rows, n_codes);
  if (min_leaf == 0) min_leaf = 1;
  const double lo = static_cast<double>(min_leaf), hi = static_cast<double>(n - std::min(n, min_leaf));
  const bool room = n >= 2 * min_leaf;
  const std::size_t distinct = sweep_codes(n_codes, st, [&](std::size_t a, std::size_t b, double nl, double sl, double sr) {
    if (!room || nl < lo || nl > hi) return;
    const double proxy = sl / nl + sr / (static_cast<double>(n) - nl);
    if (proxy > best.proxy) best = {proxy, f, midpoint(static_cast<double>(a), static_cast<double>(b))};
  });
  return distinct >= 2;
}

}  // namespace dpf
