// Selection by exponential weights, sampled exactly (mechanisms.hpp; core/privacy/exact.hpp;
// docs/exact-sampling.md): the exponential mechanism, permute-and-flip and the interval exponential
// mechanism on the public threshold grid.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/privacy/exact.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Thresholds between data points are released on a grid of 2^-kThresholdGridBits of the domain,
// the resolution of the secure Laplace (laplace_resolution).
constexpr int kThresholdGridBits = 40;

void check_inputs(std::span<const double> scores, double epsilon, double sensitivity, const char* what) {
  if (scores.empty()) fail(what, ": the candidate set is empty");
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (std::isnan(scores[i]) || scores[i] == kInf)
      fail(what, ": score ", i, " is ", scores[i], "; scores must be finite or -inf");
  if (!(epsilon > 0.0)) fail(what, ": epsilon must be > 0 (or +inf for the non-private limit), got ", epsilon);
  if (!(sensitivity > 0.0) || !std::isfinite(sensitivity))
    fail(what, ": sensitivity must be > 0 and finite, got ", sensitivity);
}

// Candidate weights: base[i] (1 without a base measure), 0 for a -inf score.
void candidate_weights(std::span<const double> scores, std::span<const uint64_t> base, std::vector<uint64_t>& w,
                       const char* what) {
  const std::size_t k = scores.size();
  if (!base.empty() && base.size() != k) fail(what, ": ", k, " scores but ", base.size(), " base weights");
  w.resize(k);
  for (std::size_t i = 0; i < k; ++i) w[i] = scores[i] == -kInf ? 0 : (base.empty() ? 1 : base[i]);
}

// Gaps best - score_i in grid units (SelectionScale) for the candidates of positive weight (0 for
// the others); the best is taken over those candidates. False when there is none.
bool gaps(const SelectionScale& sc, std::span<const double> scores, std::span<const uint64_t> w,
          std::vector<uint64_t>& g, const char* what) {
  const std::size_t k = scores.size();
  double best = -kInf;
  for (std::size_t i = 0; i < k; ++i)
    if (w[i] > 0) best = std::max(best, scores[i]);
  if (best == -kInf) return false;
  const int64_t top = sc.units(best, what);  // rounding is monotone: the best in grid units
  g.resize(k);
  for (std::size_t i = 0; i < k; ++i) g[i] = w[i] > 0 ? static_cast<uint64_t>(top - sc.units(scores[i], what)) : 0;
  return true;
}

// epsilon = +inf: the weights of the argmax candidates, 0 elsewhere. False when every weight is 0.
bool argmax_weights(std::span<const double> scores, std::vector<uint64_t>& w) {
  double best = -kInf;
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (w[i] > 0) best = std::max(best, scores[i]);
  if (best == -kInf) return false;
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (scores[i] != best) w[i] = 0;
  return true;
}

// Index with probability w[i] / sum(w) (integer weights, exact).
std::size_t pick_by_count(Rng& rng, std::span<const uint64_t> w, uint64_t& offset) {
  u128 total = 0;
  for (uint64_t v : w) total += v;
  u128 u = uniform_below128(rng, total);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (u < w[i]) {
      offset = static_cast<uint64_t>(u);
      return i;
    }
    u -= w[i];
  }
  fail("pick_by_count: no positive weight");
}

// Normalised w_i exp(-x_i) in long double (never 0 for a positive weight: x_i <= 2^11).
std::vector<double> normalise(std::span<const uint64_t> w, std::span<const uint64_t> g, const SelectionScale& sc) {
  std::vector<long double> v(w.size(), 0.0L);
  long double total = 0.0L;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] == 0) continue;
    v[i] = static_cast<long double>(w[i]) * std::exp(-static_cast<long double>(sc.weight(g[i]).x.to_double()));
    total += v[i];
  }
  std::vector<double> p(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) p[i] = static_cast<double>(v[i] / total);
  return p;
}

std::vector<double> normalise_counts(std::span<const uint64_t> w) {
  long double total = 0.0L;
  for (uint64_t v : w) total += static_cast<long double>(v);
  std::vector<double> p(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) p[i] = static_cast<double>(static_cast<long double>(w[i]) / total);
  return p;
}

}  // namespace

// ---- Exponential mechanism -------------------------------------------------------------------

std::size_t exponential_mechanism(Rng& rng, std::span<const double> scores, double epsilon, double sensitivity,
                                  std::span<const uint64_t> base) {
  const char* what = "exponential_mechanism";
  check_inputs(scores, epsilon, sensitivity, what);
  thread_local std::vector<uint64_t> w, g;
  candidate_weights(scores, base, w, what);
  uint64_t offset = 0;
  if (std::isinf(epsilon)) {
    if (!argmax_weights(scores, w)) return static_cast<std::size_t>(rng.below(scores.size()));
    return pick_by_count(rng, w, offset);
  }
  const SelectionScale sc(epsilon, sensitivity);
  if (!gaps(sc, scores, w, g, what)) return static_cast<std::size_t>(rng.below(scores.size()));
  return exact_weighted_draw(rng, w, g, sc).index;
}

std::vector<double> exponential_mechanism_probabilities(std::span<const double> scores, double epsilon,
                                                        double sensitivity, std::span<const uint64_t> base) {
  const char* what = "exponential_mechanism_probabilities";
  check_inputs(scores, epsilon, sensitivity, what);
  std::vector<uint64_t> w, g;
  candidate_weights(scores, base, w, what);
  const SelectionScale sc(std::isinf(epsilon) ? 1.0 : epsilon, sensitivity);
  const bool any = std::isinf(epsilon) ? argmax_weights(scores, w) : gaps(sc, scores, w, g, what);
  if (!any) return std::vector<double>(scores.size(), 1.0 / static_cast<double>(scores.size()));
  return std::isinf(epsilon) ? normalise_counts(w) : normalise(w, g, sc);
}

// ---- Permute-and-flip ------------------------------------------------------------------------

std::size_t permute_and_flip(Rng& rng, std::span<const double> scores, double epsilon, double sensitivity) {
  const char* what = "permute_and_flip";
  check_inputs(scores, epsilon, sensitivity, what);
  const std::size_t k = scores.size();
  const double smax = *std::max_element(scores.begin(), scores.end());
  if (smax == -kInf) return static_cast<std::size_t>(rng.below(k));
  const bool argmax = std::isinf(epsilon);
  const SelectionScale sc(argmax ? 1.0 : epsilon, sensitivity);
  const int64_t top = sc.units(smax, what);
  // Lazy Fisher-Yates: position t of the random order is fixed only when it is visited.
  constexpr std::size_t kLocal = 64;
  std::size_t local[kLocal];
  std::vector<std::size_t> heap;
  std::size_t* order = local;
  if (k > kLocal) {
    heap.resize(k);
    order = heap.data();
  }
  for (std::size_t i = 0; i < k; ++i) order[i] = i;
  for (std::size_t t = 0; t < k; ++t) {
    const std::size_t j = t + static_cast<std::size_t>(rng.below(k - t));
    std::swap(order[t], order[j]);
    const std::size_t cand = order[t];
    if (scores[cand] == -kInf) continue;  // weight 0: never accepted
    if (argmax) {
      if (scores[cand] == smax) return cand;
      continue;
    }
    // McKenna & Sheldon 2020, Alg. 1: accept with exp(-c (best - score)), exactly (exact.hpp).
    const auto gap = static_cast<uint64_t>(top - sc.units(scores[cand], what));
    if (gap == 0 || bernoulli_exp_scaled(rng, sc.weight(gap), 0)) return cand;
  }
  fail("permute_and_flip: no candidate accepted (the best one always is)");
}

std::vector<double> permute_and_flip_probabilities(std::span<const double> scores, double epsilon, double sensitivity) {
  const char* what = "permute_and_flip_probabilities";
  check_inputs(scores, epsilon, sensitivity, what);
  const std::size_t k = scores.size();
  std::vector<double> out(k, 0.0);
  const double smax = *std::max_element(scores.begin(), scores.end());
  if (smax == -kInf) {
    std::fill(out.begin(), out.end(), 1.0 / static_cast<double>(k));
    return out;
  }
  // Acceptance p_j = exp(-x_j) and rejection 1 - p_j = -expm1(-x_j); -inf scores are always rejected.
  std::vector<long double> acc(k, 0.0L), q(k, 1.0L), e(k), binom(k);
  const bool argmax = std::isinf(epsilon);
  const SelectionScale sc(argmax ? 1.0 : epsilon, sensitivity);
  const int64_t top = sc.units(smax, what);
  for (std::size_t j = 0; j < k; ++j) {
    if (scores[j] == -kInf) continue;
    const auto gap = static_cast<uint64_t>(top - sc.units(scores[j], what));
    const long double xj = argmax ? (gap == 0 ? 0.0L : kInf) : static_cast<long double>(sc.weight(gap).x.to_double());
    acc[j] = std::exp(-xj);
    q[j] = -std::expm1(-xj);
  }
  // P(i) = p_i (1/k) sum_m e_m({1 - p_j}_{j != i}) / C(k-1, m)  (privacy.md §7.3): i sits at a
  // uniform position m, its m predecessors are a uniform m-subset of the others, all rejected.
  // Every term is non-negative, so the DP over subset sizes has no cancellation; long double keeps
  // e_m and C(k-1, m) in range for k up to a few hundred.
  binom[0] = 1.0L;
  for (std::size_t m = 1; m < k; ++m)
    binom[m] = binom[m - 1] * static_cast<long double>(k - m) / static_cast<long double>(m);
  for (std::size_t i = 0; i < k; ++i) {
    if (acc[i] == 0.0L) continue;
    std::fill(e.begin(), e.end(), 0.0L);
    e[0] = 1.0L;
    std::size_t n = 0;  // number of elements folded in so far
    for (std::size_t j = 0; j < k; ++j) {
      if (j == i) continue;
      ++n;
      for (std::size_t m = n; m >= 1; --m) e[m] += e[m - 1] * q[j];
    }
    long double sum = 0.0L;
    for (std::size_t m = 0; m < k; ++m) sum += e[m] / binom[m];
    out[i] = static_cast<double>(acc[i] * sum / static_cast<long double>(k));
  }
  return out;
}

// ---- The public threshold grid ---------------------------------------------------------------

double threshold_grid(double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo) || !std::isfinite(hi - lo))
    fail("threshold_grid: the domain [", lo, ", ", hi, "] must be finite and non-empty");
  int e = 0;
  const double m = std::frexp(hi - lo, &e);  // hi - lo = m 2^e, m in [0.5, 1)
  const int ceil_log2 = (m == 0.5) ? e - 1 : e;
  int eb = 0;
  std::frexp(std::max(std::fabs(lo), std::fabs(hi)), &eb);  // max(|lo|, |hi|) < 2^eb
  // 2^(eb - 53) is at least the spacing of doubles below 2^eb: every multiple of r in [lo, hi]
  // is a double, and |t / r| < 2^53.
  return std::ldexp(1.0, std::max(ceil_log2 - kThresholdGridBits, eb - 53));
}

namespace {
struct Grid {
  double r, inv_r;                       // a power of two and its inverse: v * inv_r is exact
  int64_t lo, hi;                        // grid indices: the points r lo .. r hi lie in [lo, hi]
  int64_t index_floor(double v) const {  // floor(v / r); |v / r| < 2^53
    const double q = v * inv_r;
    const auto t = static_cast<int64_t>(q);
    return t - static_cast<int64_t>(static_cast<double>(t) > q);
  }
};
Grid make_grid(double lo, double hi) {
  const double r = threshold_grid(lo, hi);
  return {r, 1.0 / r, static_cast<int64_t>(std::ceil(lo / r)), static_cast<int64_t>(std::floor(hi / r))};
}
}  // namespace

double uniform_threshold_between(Rng& rng, double a, double b, double lo, double hi) {
  if (!(hi > lo)) return lo;
  const Grid g = make_grid(lo, hi);
  a = std::clamp(a, lo, hi);
  b = std::clamp(b, lo, hi);
  const int64_t first = a <= lo ? g.lo : g.index_floor(a) + 1;
  const int64_t last = std::min(g.hi, g.index_floor(b));
  if (last >= first)
    return static_cast<double>(first + static_cast<int64_t>(rng.below(static_cast<uint64_t>(last - first + 1)))) * g.r;
  const double below = static_cast<double>(g.index_floor(b)) * g.r;  // no grid point in (a, b]
  return below >= lo ? below : lo;
}

// ---- Interval exponential mechanism ----------------------------------------------------------

namespace {
void check_breaks(std::span<const double> breaks, std::span<const double> scores, double epsilon, double sensitivity,
                  const char* what) {
  if (breaks.size() < 2) fail(what, ": need at least 2 breaks (1 interval), got ", breaks.size());
  const std::size_t m = breaks.size() - 1;
  if (scores.size() != m) fail(what, ": ", m, " intervals but ", scores.size(), " scores");
  check_inputs(scores, epsilon, sensitivity, what);
  for (std::size_t j = 0; j <= m; ++j) {
    if (!std::isfinite(breaks[j])) fail(what, ": break ", j, " is ", breaks[j], "; breaks must be finite");
    if (j > 0 && breaks[j] < breaks[j - 1])
      fail(what, ": breaks must be non-decreasing, but break ", j, " = ", breaks[j], " < break ", j - 1, " = ",
           breaks[j - 1]);
  }
  if (!std::isfinite(breaks[m] - breaks[0]))
    fail(what, ": the range [", breaks[0], ", ", breaks[m], "] overflows; rescale the domain");
}

// The grid points of each interval: interval j holds (breaks[j], breaks[j+1]], the first also
// breaks[0]. A threshold t there sends exactly the values < t below it, which is what score_j counts.
struct IntervalGrid {
  Grid grid;
  std::vector<int64_t> first;
  std::vector<uint64_t> count;
};
void interval_grid(std::span<const double> breaks, IntervalGrid& ig) {
  const std::size_t m = breaks.size() - 1;
  ig.grid = make_grid(breaks[0], breaks[m]);
  ig.first.resize(m);
  ig.count.resize(m);
  int64_t prev = ig.grid.lo - 1;  // the last grid index already assigned
  for (std::size_t j = 0; j < m; ++j) {
    const int64_t end = j + 1 == m ? ig.grid.hi : std::clamp(ig.grid.index_floor(breaks[j + 1]), prev, ig.grid.hi);
    ig.first[j] = prev + 1;
    ig.count[j] = static_cast<uint64_t>(std::max<int64_t>(end - prev, 0));
    prev = std::max(prev, end);
  }
}

// Interval weights (grid points, 0 for a -inf score) and their gaps. Returns 0 when some
// interval has positive weight and a finite epsilon, 1 for epsilon = +inf (w restricted to the
// argmax), 2 when no interval has positive weight (uniform over the grid).
int interval_weights(const IntervalGrid& ig, std::span<const double> scores, double epsilon, const SelectionScale& sc,
                     std::vector<uint64_t>& w, std::vector<uint64_t>& g, const char* what) {
  candidate_weights(scores, ig.count, w, what);
  if (std::isinf(epsilon)) return argmax_weights(scores, w) ? 1 : 2;
  return gaps(sc, scores, w, g, what) ? 0 : 2;
}
}  // namespace

IntervalDraw interval_exponential_mechanism(Rng& rng, std::span<const double> breaks, std::span<const double> scores,
                                            double epsilon, double sensitivity) {
  const char* what = "interval_exponential_mechanism";
  check_breaks(breaks, scores, epsilon, sensitivity, what);
  if (!(breaks.back() > breaks.front())) return {0, breaks.front()};
  thread_local IntervalGrid ig;
  thread_local std::vector<uint64_t> w, g;
  interval_grid(breaks, ig);
  if (ig.grid.hi < ig.grid.lo) return {0, breaks.front()};  // no grid point in the domain
  const SelectionScale sc(std::isinf(epsilon) ? 1.0 : epsilon, sensitivity);
  uint64_t offset = 0;
  std::size_t j = 0;
  switch (interval_weights(ig, scores, epsilon, sc, w, g, what)) {
    case 0: {
      const WeightedDraw d = exact_weighted_draw(rng, w, g, sc);
      j = d.index;
      offset = d.offset;
      break;
    }
    case 1:
      j = pick_by_count(rng, w, offset);
      break;
    default:
      j = pick_by_count(rng, ig.count, offset);
      break;  // every interval -inf: uniform on the grid
  }
  return {j, static_cast<double>(ig.first[j] + static_cast<int64_t>(offset)) * ig.grid.r};
}

std::vector<double> interval_exponential_mechanism_probabilities(std::span<const double> breaks,
                                                                 std::span<const double> scores, double epsilon,
                                                                 double sensitivity) {
  const char* what = "interval_exponential_mechanism_probabilities";
  check_breaks(breaks, scores, epsilon, sensitivity, what);
  std::vector<double> p(scores.size(), 0.0);
  if (!(breaks.back() > breaks.front())) {
    p[0] = 1.0;
    return p;
  }
  IntervalGrid ig;
  std::vector<uint64_t> w, g;
  interval_grid(breaks, ig);
  if (ig.grid.hi < ig.grid.lo) {
    p[0] = 1.0;
    return p;
  }
  const SelectionScale sc(std::isinf(epsilon) ? 1.0 : epsilon, sensitivity);
  switch (interval_weights(ig, scores, epsilon, sc, w, g, what)) {
    case 0:
      return normalise(w, g, sc);
    case 1:
      return normalise_counts(w);
    default:
      return normalise_counts(ig.count);
  }
}

double interval_exponential_mechanism_cdf(std::span<const double> breaks, std::span<const double> scores,
                                          double epsilon, double sensitivity, double v) {
  if (std::isnan(v)) fail("interval_exponential_mechanism_cdf: the value is NaN");
  const std::vector<double> p = interval_exponential_mechanism_probabilities(breaks, scores, epsilon, sensitivity);
  if (v < breaks.front()) return 0.0;
  if (v >= breaks.back()) return 1.0;
  IntervalGrid ig;
  interval_grid(breaks, ig);
  const int64_t at = ig.grid.index_floor(v);  // grid points <= v
  long double acc = 0.0L;
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (ig.count[j] == 0) continue;
    const int64_t in = std::clamp<int64_t>(at - ig.first[j] + 1, 0, static_cast<int64_t>(ig.count[j]));
    acc += static_cast<long double>(p[j]) * static_cast<long double>(in) / static_cast<long double>(ig.count[j]);
  }
  return std::min(1.0, static_cast<double>(acc));
}

}  // namespace dpf
