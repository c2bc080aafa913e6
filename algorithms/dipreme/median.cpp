#include "algorithms/dipreme/median.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/privacy/exact.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

constexpr int kGridSize = 256;

// Breakpoints lo, x_(1..M), hi and the scores -|2j - M| of the M+1 intervals (dipreme.md §2.5a).
void intervals(std::span<const double> sorted, double lo, double hi, std::vector<double>& breaks,
               std::vector<double>& scores) {
  const std::size_t m = sorted.size();
  breaks.resize(m + 2);
  scores.resize(m + 1);
  breaks[0] = lo;
  for (std::size_t i = 0; i < m; ++i) breaks[i + 1] = std::clamp(sorted[i], lo, hi);
  breaks[m + 1] = hi;
  for (std::size_t j = 0; j <= m; ++j)
    scores[j] = -std::fabs(2.0 * static_cast<double>(j) - static_cast<double>(m));
}

}  // namespace

double numeric_median_em(Rng& rng, std::span<double> v, double lo, double hi, double epsilon, std::size_t window) {
  const std::size_t m = v.size();
  if (!(hi > lo)) return lo;  // degenerate domain: every interval has length 0 (dipreme.md §2.5a)
  for (double& x : v) x = std::clamp(x, lo, hi);  // monotone: sorting then clamping is the same
  thread_local std::vector<double> breaks, scores;
  // [ICML] §3 / Alg. 1: EM with base measure μ = interval length, score -|#left - #right| = -|2j - M|
  // for interval j = [x_(j), x_(j+1)] (x_(0) = lo, x_(M+1) = hi), Δ = 1, on the public threshold grid
  // (mechanisms.hpp). The general mechanism of core/privacy handles what the windowed path below
  // does not: ε = ∞, and a window whose intervals hold no grid point.
  auto full_em = [&]() {
    std::sort(v.begin(), v.end());
    intervals(v, lo, hi, breaks, scores);
    return interval_exponential_mechanism(rng, breaks, scores, epsilon, 1.0).value;
  };
  if (!std::isfinite(epsilon) || !(epsilon > 0)) return full_em();
  if (window == 0) window = static_cast<std::size_t>(std::min(1e9, std::ceil(20.0 / epsilon))) + 8;
  // The score -|2j - M| falls by 2 per position away from the median position(s) half..upper.
  const std::size_t half = m / 2, upper = m - half;
  // Window jl..jr around the median; beyond it the tails stay unsorted (selection, O(M)). Both tails,
  // when present, lie more than `window` positions away, further than every window interval.
  const std::size_t jl = half > window ? half - window : 0;
  const std::size_t jr = std::min(m, upper + window);
  const bool tails = jl > 0 || jr < m;
  const std::size_t first = jl > 0 ? jl - 1 : 0, last = jr < m ? jr : (m > 0 ? m - 1 : 0);
  if (!tails) {
    std::sort(v.begin(), v.end());
  } else {  // order statistics x_(jl) .. x_(jr+1) = v[jl-1] .. v[jr] in place
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(first), v.end());
    if (last > first) {
      std::nth_element(v.begin() + static_cast<std::ptrdiff_t>(first) + 1,
                       v.begin() + static_cast<std::ptrdiff_t>(last), v.end());
      std::sort(v.begin() + static_cast<std::ptrdiff_t>(first) + 1, v.begin() + static_cast<std::ptrdiff_t>(last));
    }
  }
  auto brk = [&](std::size_t j) { return j == 0 ? lo : (j == m + 1 ? hi : v[j - 1]); };
  // The grid: interval j holds the grid points (x_(j), x_(j+1)], interval 0 also lo (exactly as
  // interval_exponential_mechanism assigns them).
  const double r = threshold_grid(lo, hi), inv_r = 1.0 / r;  // powers of two: x * inv_r is exact
  const auto g_lo = static_cast<int64_t>(std::ceil(lo / r)), g_hi = static_cast<int64_t>(std::floor(hi / r));
  if (g_hi < g_lo) return lo;
  auto gfloor = [&](double x) {  // floor(x / r) clamped to [g_lo - 1, g_hi]; |x / r| < 2^53
    const double q = x * inv_r;
    const auto t = static_cast<int64_t>(q);
    return std::clamp(t - static_cast<int64_t>(static_cast<double>(t) > q), g_lo - 1, g_hi);
  };
  // Interval j holds the grid points (end(j - 1), end(j)], end(j) the last grid index <= x_(j+1).
  auto end_of = [&](std::size_t j) { return j == m ? g_hi : gfloor(v[j]); };
  auto before_of = [&](std::size_t j) { return j == 0 ? g_lo - 1 : gfloor(v[j - 1]); };
  auto count_of = [&](std::size_t j) { return std::max<int64_t>(end_of(j) - before_of(j), 0); };
  // |2j - M|: the score -|2j - M| is an integer, so its grid units are |2j - M| units(1). The best
  // score over the intervals that hold a grid point: the nearest such interval to the median (in
  // the window; every tail interval lies further out).
  auto score_abs = [&](std::size_t j) { return static_cast<uint64_t>(2 * j >= m ? 2 * j - m : m - 2 * j); };
  uint64_t best_abs = std::numeric_limits<uint64_t>::max();
  for (std::size_t d = 0; best_abs == std::numeric_limits<uint64_t>::max() && (half >= jl + d || upper + d <= jr);
       ++d) {
    if (half >= jl + d && count_of(half - d) > 0) best_abs = score_abs(half - d);
    if (upper + d <= jr && count_of(upper + d) > 0) best_abs = std::min(best_abs, score_abs(upper + d));
  }
  if (best_abs == std::numeric_limits<uint64_t>::max()) return full_em();
  // Exact exponents c (best - score_j) on the score grid (core/privacy/exact.hpp).
  const SelectionScale sc(epsilon, 1.0);
  const auto unit = static_cast<uint64_t>(sc.units(1.0, "dipreme median"));
  (void)sc.units(static_cast<double>(m), "dipreme median");  // checks that every score is in range
  auto gap_of = [&](std::size_t j) { return score_abs(j) > best_abs ? (score_abs(j) - best_abs) * unit : 0; };
  auto k_of = [&](std::size_t j) { return std::min(sc.envelope(gap_of(j)), kEnvelopeSpan); };
  // Entries of the dyadic envelope (as exact_weighted_draw, relative to the best's K = 0): runs of
  // window intervals sharing k = min(K, 60) — K grows with the distance to the median, so a run is
  // found by bisection and costs O(1) however many intervals it spans — then the two tails, each
  // weighted by its interval nearest the window. An entry's weight is its grid points times
  // 2^(60 - k); a proposal is a uniform grid point of an entry, kept with Bernoulli(exp(-x_j) 2^k) for
  // the interval j holding it (x_j >= the entry's smallest exponent, so k <= K(x_j)). A kept point has
  // probability ∝ exp(-x_j): the EM over grid points.
  enum class Part { kRun, kLeftTail, kRightTail };
  struct Entry {
    Part part;
    std::size_t a, b;  // a run's window positions
    int64_t before;    // grid index before the entry's first point
    int64_t k;
  };
  thread_local std::vector<Entry> entries;
  thread_local std::vector<u128> prefix;
  entries.clear();
  prefix.clear();
  u128 total = 0;
  auto add = [&](const Entry& en, int64_t count) {
    if (count > 0) total += static_cast<u128>(count) << (kEnvelopeSpan - en.k);
    entries.push_back(en);
    prefix.push_back(total);
  };
  // Left of the median k_of falls with j, right of it k_of rises: runs of equal k by bisection.
  const std::size_t split = std::min(half + 1, jr + 1);  // window positions jl..split-1 | split..jr
  for (std::size_t a = jl; a < split;) {
    const int64_t k = k_of(a);
    std::size_t lo_p = a, hi_p = split;  // the first position after a with k_of < k
    while (hi_p - lo_p > 1) {
      const std::size_t mid = lo_p + (hi_p - lo_p) / 2;
      (k_of(mid) >= k ? lo_p : hi_p) = mid;
    }
    add({Part::kRun, a, hi_p - 1, before_of(a), k}, end_of(hi_p - 1) - before_of(a));
    a = hi_p;
  }
  for (std::size_t a = split; a <= jr;) {
    const int64_t k = k_of(a);
    std::size_t lo_p = a, hi_p = jr + 1;  // the first position after a with k_of > k
    while (hi_p - lo_p > 1) {
      const std::size_t mid = lo_p + (hi_p - lo_p) / 2;
      (k_of(mid) <= k ? lo_p : hi_p) = mid;
    }
    add({Part::kRun, a, hi_p - 1, before_of(a), k}, end_of(hi_p - 1) - before_of(a));
    a = hi_p;
  }
  if (jl > 0) add({Part::kLeftTail, 0, 0, g_lo - 1, k_of(jl - 1)}, gfloor(brk(jl)) - g_lo + 1);
  if (jr < m) add({Part::kRightTail, 0, 0, gfloor(brk(jr + 1)), k_of(jr + 1)}, g_hi - gfloor(brk(jr + 1)));
  bool left_sorted = false, right_sorted = false;
  for (;;) {
    const u128 u = uniform_below128(rng, total);
    const auto e = static_cast<std::size_t>(std::upper_bound(prefix.begin(), prefix.end(), u) - prefix.begin());
    const Entry& en = entries[e];
    const auto off = static_cast<int64_t>((u - (e == 0 ? 0 : prefix[e - 1])) >> (kEnvelopeSpan - en.k));
    const double t = static_cast<double>(en.before + 1 + off) * r;
    // The interval holding t: j = #{x < t}.
    std::size_t j = 0;
    if (en.part == Part::kRun) {  // x_(a+1) .. x_(b) = v[a .. b-1] are sorted
      const auto rb = v.begin() + static_cast<std::ptrdiff_t>(en.a);
      j = en.a + static_cast<std::size_t>(std::lower_bound(rb, v.begin() + static_cast<std::ptrdiff_t>(en.b), t) - rb);
    } else if (en.part == Part::kLeftTail) {
      if (!left_sorted) std::sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(first));
      left_sorted = true;
      j = static_cast<std::size_t>(std::lower_bound(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(first), t) -
                                   v.begin());
    } else {
      const auto rb = v.begin() + static_cast<std::ptrdiff_t>(last) + 1;
      if (!right_sorted) std::sort(rb, v.end());
      right_sorted = true;
      j = jr + 1 + static_cast<std::size_t>(std::lower_bound(rb, v.end(), t) - rb);
    }
    if (bernoulli_exp_scaled(rng, sc.weight(gap_of(j)), en.k)) return t;
  }
}

double numeric_median_split_unsorted(Rng& rng, std::span<double> values, double lo, double hi, double epsilon,
                                     NumericMedian mechanism) {
  const std::size_t m = values.size();
  if (!(hi > lo)) return lo;
  if (mechanism == NumericMedian::kExponential) return numeric_median_em(rng, values, lo, hi, epsilon);
  if (mechanism == NumericMedian::kExact) {
    // numpy.median by selection: the same value as from the sorted values.
    if (m == 0) return rng.uniform(lo, hi);
    auto mid = values.begin() + static_cast<std::ptrdiff_t>(m / 2);
    std::nth_element(values.begin(), mid, values.end());
    double med = *mid;
    if (m % 2 == 0) med = 0.5 * (*std::max_element(values.begin(), mid) + med);
    return std::clamp(med, lo, hi);
  }
  std::sort(values.begin(), values.end());
  return numeric_median_split(rng, values, lo, hi, epsilon, mechanism);
}

double numeric_median_split(Rng& rng, std::span<const double> sorted, double lo, double hi, double epsilon,
                            NumericMedian mechanism) {
  const std::size_t m = sorted.size();
  if (!(hi > lo)) return lo;  // degenerate domain: every interval has length 0 (dipreme.md §2.5a)
  thread_local std::vector<double> breaks, scores, copy;
  switch (mechanism) {
    case NumericMedian::kExact: {
      if (m == 0) return rng.uniform(lo, hi);
      double med = m % 2 ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2]);
      return std::clamp(med, lo, hi);
    }
    case NumericMedian::kExponential: {
      // [ICML] §3 / Alg. 1: EM with base measure μ = interval length, score -|#left - #right|, Δ = 1.
      copy.assign(sorted.begin(), sorted.end());
      return numeric_median_em(rng, copy, lo, hi, epsilon);
    }
    case NumericMedian::kUniformPositions: {
      // [v1] Alg. 3: EM over positions j = 0..M with P(j) ∝ exp(-(ε/2)|M - 2j|), then r uniform
      // between the j-th and (j+1)-th order statistics (domain ends for j = 0, M).
      intervals(sorted, lo, hi, breaks, scores);
      std::size_t j = exponential_mechanism(rng, scores, epsilon, 1.0);
      return uniform_threshold_between(rng, breaks[j], breaks[j + 1], lo, hi);
    }
    case NumericMedian::kFlipCode: {
      // [code] DiPrimeFlip*: PFM over intervals with score 2 ln(len + 1e-12) - |2j - M|, Δ = 1.
      intervals(sorted, lo, hi, breaks, scores);
      for (std::size_t j = 0; j <= m; ++j) scores[j] += 2.0 * std::log(breaks[j + 1] - breaks[j] + 1e-12);
      std::size_t j = permute_and_flip(rng, scores, epsilon, 1.0);
      return uniform_threshold_between(rng, breaks[j], breaks[j + 1], lo, hi);
    }
    case NumericMedian::kFlipGrid: {
      // dipreme.md §2.5c "grid": a public grid t_g = lo + (g + 1/2)(hi - lo)/G, score -|N_L - N_R|.
      scores.resize(kGridSize);
      breaks.resize(kGridSize);
      for (int g = 0; g < kGridSize; ++g) {
        double t = lo + (g + 0.5) * (hi - lo) / kGridSize;
        auto left = static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), t) - sorted.begin());
        breaks[static_cast<std::size_t>(g)] = t;
        scores[static_cast<std::size_t>(g)] = -std::fabs(2.0 * left - static_cast<double>(m));
      }
      return breaks[permute_and_flip(rng, scores, epsilon, 1.0)];
    }
  }
  return lo;
}

uint64_t categorical_median_split(Rng& rng, std::span<const int> counts, uint64_t allowed, double epsilon,
                                  CategoricalMedian mechanism, bool* used_prefix) {
  std::vector<int> cats;
  for (int c = 0; c < 64; ++c)
    if ((allowed >> c) & 1u) cats.push_back(c);
  const int k = static_cast<int>(cats.size());
  require(k >= 2, "categorical median split needs at least 2 categories, got ", k);
  auto count_of = [&](int c) { return c < static_cast<int>(counts.size()) ? counts[static_cast<std::size_t>(c)] : 0; };
  int m = 0;
  for (int c : cats) m += count_of(c);

  std::vector<uint64_t> masks;
  std::vector<double> scores;
  if (used_prefix) *used_prefix = k > 22;
  if (k > 22) {
    // Ordered-prefix fallback: C = the first t allowed categories in code order, t = 1..k-1.
    uint64_t mask = 0;
    int n_c = 0;
    for (int t = 0; t + 1 < k; ++t) {
      mask |= uint64_t{1} << cats[static_cast<std::size_t>(t)];
      n_c += count_of(cats[static_cast<std::size_t>(t)]);
      masks.push_back(mask);
      scores.push_back(-std::abs(2 * n_c - m));
    }
  } else {
    // Bitmask i = 1..2^(k-1)-1 over c_2..c_k (c_1 always in the complement), walked in Gray-code order
    // so n_C changes by one category per step; candidates are stored in bitmask order.
    const uint64_t n = (uint64_t{1} << (k - 1)) - 1;
    masks.resize(n);
    scores.resize(n);
    uint64_t gray_prev = 0;
    int n_c = 0;
    uint64_t mask = 0;
    for (uint64_t i = 1; i <= n; ++i) {
      uint64_t gray = i ^ (i >> 1);
      uint64_t changed = gray ^ gray_prev;
      int bit = std::countr_zero(changed);
      int cat = cats[static_cast<std::size_t>(bit) + 1];
      if (gray & changed) { n_c += count_of(cat); mask |= uint64_t{1} << cat; }
      else { n_c -= count_of(cat); mask &= ~(uint64_t{1} << cat); }
      gray_prev = gray;
      masks[gray - 1] = mask;
      scores[gray - 1] = -std::abs(2 * n_c - m);
    }
  }
  std::size_t pick = 0;
  switch (mechanism) {
    case CategoricalMedian::kExact:
      pick = static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
      break;
    case CategoricalMedian::kExponential:
      pick = exponential_mechanism(rng, scores, epsilon, 1.0);  // dipreme.md §2.6: EM(ε_s), Δ = 1
      break;
    case CategoricalMedian::kPermuteAndFlip:
      pick = permute_and_flip(rng, scores, epsilon, 1.0);  // dipreme.md §2.6: PFM(ε_s), Δ = 1
      break;
  }
  return masks[pick];
}

}  // namespace dpf
