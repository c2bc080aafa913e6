#include "algorithms/dipreme/median.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

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

double numeric_median_split(Rng& rng, std::span<const double> sorted, double lo, double hi, double epsilon,
                            NumericMedian mechanism) {
  const std::size_t m = sorted.size();
  if (!(hi > lo)) return lo;  // degenerate domain: every interval has length 0 (dipreme.md §2.5a)
  thread_local std::vector<double> breaks, scores;
  switch (mechanism) {
    case NumericMedian::kExact: {
      if (m == 0) return rng.uniform(lo, hi);
      double med = m % 2 ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2]);
      return std::clamp(med, lo, hi);
    }
    case NumericMedian::kExponential: {
      // [ICML] §3 / Alg. 1: EM with base measure μ = interval length, score -|#left - #right|, Δ = 1.
      intervals(sorted, lo, hi, breaks, scores);
      return interval_exponential_mechanism(rng, breaks, scores, epsilon, 1.0).value;
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
