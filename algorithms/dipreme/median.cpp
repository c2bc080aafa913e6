#include "algorithms/dipreme/median.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

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

// Rejection rounds of numeric_median_em before it falls back to the full EM (never reached in
// practice: a round is rejected only inside a tail's bound, whose mass is tiny).
constexpr int kMaxRounds = 64;

}  // namespace

double numeric_median_em(Rng& rng, std::span<double> v, double lo, double hi, double epsilon, std::size_t window) {
  const std::size_t m = v.size();
  if (!(hi > lo)) return lo;  // degenerate domain: every interval has length 0 (dipreme.md §2.5a)
  for (double& x : v) x = std::clamp(x, lo, hi);  // monotone: sorting then clamping is the same
  thread_local std::vector<double> breaks, scores, pw;
  // [ICML] §3 / Alg. 1: EM with base measure μ = interval length, score -|#left - #right| = -|2j - M|
  // for interval j = [x_(j), x_(j+1)] (x_(0) = lo, x_(M+1) = hi), Δ = 1. The log-space mechanism of
  // core/privacy handles what the fast path below does not: ε = ∞, and ε so large that e^-ε underflows.
  auto full_em = [&]() {
    std::sort(v.begin(), v.end());
    intervals(v, lo, hi, breaks, scores);
    return interval_exponential_mechanism(rng, breaks, scores, epsilon, 1.0).value;
  };
  if (!std::isfinite(epsilon) || !(epsilon > 0) || epsilon > 60) return full_em();
  if (window == 0) window = static_cast<std::size_t>(std::min(1e9, std::ceil(20.0 / epsilon))) + 8;
  // The weight len_j exp(-(ε/2)|2j - M|) relative to the best score is len_j r^dist(j), r = e^-ε,
  // dist(j) = the number of positions j lies away from the median position(s) floor(M/2)..ceil(M/2).
  const std::size_t half = m / 2, upper = m - half;
  auto dist = [&](std::size_t j) { return j <= half ? half - j : (j >= upper ? j - upper : 0); };
  // Window jl..jr around the median; beyond it the tails stay unsorted (selection, O(M)).
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
  const double r = std::exp(-epsilon);
  const std::size_t max_dist = std::max(dist(jl), dist(jr)) + 1;
  pw.resize(max_dist + 1);
  pw[0] = 1.0;
  for (std::size_t k = 1; k <= max_dist; ++k) pw[k] = pw[k - 1] * r;
  std::vector<double>& w = scores;  // window weights
  w.resize(jr - jl + 1);
  double wsum = 0.0;
  for (std::size_t j = jl; j <= jr; ++j) wsum += (w[j - jl] = (brk(j + 1) - brk(j)) * pw[dist(j)]);
  // Tail bounds: every left-tail interval is at least dist(jl - 1) away, every right one dist(jr + 1),
  // and a tail's lengths add up to its span. The 1 + 1e-9 keeps a bound above the exact tail mass
  // whatever the rounding (a looser bound only costs rejections, never exactness).
  const double bound_left = jl > 0 ? (brk(jl) - lo) * pw[dist(jl - 1)] * (1 + 1e-9) : 0.0;
  const double bound_right = jr < m ? (hi - brk(jr + 1)) * pw[dist(jr + 1)] * (1 + 1e-9) : 0.0;
  const double total = wsum + bound_left + bound_right;
  // Mass so small that underflow could matter (lengths near 1e-250, or only empty intervals near the
  // median with e^-ε tiny): the log-space mechanism.
  if (!(total > 1e-250) || !std::isfinite(total)) return full_em();
  // A tail's exact intervals, walked outwards from the window, entered with u uniform on [0, bound):
  // accepted iff u falls under the exact cumulative mass (probability exact / bound), then
  // interval j w.p. ∝ its weight.
  auto tail = [&](bool left, double u, double& out) {
    double g = pw[dist(left ? jl - 1 : jr + 1)], acc = 0.0;
    for (std::size_t k = 0, n = left ? jl : m - jr; k < n; ++k, g *= r) {
      const std::size_t j = left ? jl - 1 - k : jr + 1 + k;
      acc += (brk(j + 1) - brk(j)) * g;
      if (u < acc) {
        out = rng.uniform(brk(j), brk(j + 1));
        return true;
      }
    }
    return false;
  };
  bool left_sorted = false, right_sorted = false;
  for (int round = 0; round < kMaxRounds; ++round) {
    double u = rng.uniform() * total;
    if (u < wsum) {
      double acc = 0.0;
      std::size_t pick = jl;
      for (std::size_t j = jl; j <= jr; ++j) {
        if (w[j - jl] <= 0.0) continue;
        acc += w[j - jl];
        pick = j;
        if (u < acc) break;
      }
      return rng.uniform(brk(pick), brk(pick + 1));
    }
    u -= wsum;
    double out = lo;
    if (u < bound_left) {
      if (!left_sorted) std::sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(first));
      left_sorted = true;
      if (tail(true, u, out)) return out;
    } else {
      if (!right_sorted) std::sort(v.begin() + static_cast<std::ptrdiff_t>(last) + 1, v.end());
      right_sorted = true;
      if (tail(false, u - bound_left, out)) return out;
    }
  }
  // Every round rejected: conditionally on that, any exact EM draw keeps the output's law.
  return full_em();
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
      return rng.uniform(breaks[j], breaks[j + 1]);
    }
    case NumericMedian::kFlipCode: {
      // [code] DiPrimeFlip*: PFM over intervals with score 2 ln(len + 1e-12) - |2j - M|, Δ = 1.
      intervals(sorted, lo, hi, breaks, scores);
      for (std::size_t j = 0; j <= m; ++j) scores[j] += 2.0 * std::log(breaks[j + 1] - breaks[j] + 1e-12);
      std::size_t j = permute_and_flip(rng, scores, epsilon, 1.0);
      return rng.uniform(breaks[j], breaks[j + 1]);
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
