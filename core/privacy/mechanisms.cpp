#include "core/privacy/mechanisms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/error.hpp"

namespace dpf {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Scratch space for per-candidate weights: on the stack for the usual small candidate sets, so a
// mechanism call allocates nothing.
class Scratch {
 public:
  explicit Scratch(std::size_t n) {
    if (n <= kLocal) {
      p_ = local_;
    } else {
      heap_.resize(n);
      p_ = heap_.data();
    }
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  double& operator[](std::size_t i) { return p_[i]; }
  double* data() { return p_; }

 private:
  static constexpr std::size_t kLocal = 64;
  double local_[kLocal];
  std::vector<double> heap_;
  double* p_;
};

void check_sensitivity(double sensitivity, const char* what) {
  if (!(sensitivity > 0.0) || !std::isfinite(sensitivity))
    fail(what, ": sensitivity must be > 0 and finite, got ", sensitivity);
}

// epsilon > 0; +inf is the non-private limit (see the header).
void check_epsilon_or_inf(double epsilon, const char* what) {
  if (!(epsilon > 0.0))
    fail(what, ": epsilon must be > 0 (or +inf for the non-private limit), got ", epsilon);
}

// ---- geometric sampling ----------------------------------------------------------------------

// Bits of the magnitude G (P(G = g) ∝ e^{-lambda g}) are independent: bit i is 1 with probability
// 1 / (1 + e^{lambda 2^i}) (memorylessness; google/differential-privacy distributions.cc). The low
// `low_bits` digits together form L with P(L = l) ∝ e^{-lambda l} on [0, 2^low_bits), which is
// within a factor e^{-2^-6} of uniform, so it is drawn by rejection from a uniform word (one word
// and one exp instead of ~40 Bernoullis). The remaining digits use 64-bit thresholds.
struct GeometricTable {
  double lambda = -1.0;
  int low_bits = 0;
  int high_bits = 0;
  uint64_t threshold[64] = {};
};

constexpr int kMaxMagnitudeBits = 62;
constexpr double kMinLambda = 0x1p-50;

void build_table(GeometricTable& t, double lambda) {
  t.lambda = lambda;
  t.low_bits = 0;
  while (t.low_bits < kMaxMagnitudeBits && std::ldexp(lambda, t.low_bits + 1) <= 0x1p-5) ++t.low_bits;
  const double mu = std::ldexp(lambda, t.low_bits);  // parameter of the high part G >> low_bits
  t.high_bits = 0;
  while (t.low_bits + t.high_bits < kMaxMagnitudeBits) {
    const long double x = static_cast<long double>(std::ldexp(mu, t.high_bits));
    // Beyond x = 45 the probability is below 2^-64: its threshold would be 0.
    if (x > 45.0L) break;
    const long double p = 1.0L / (2.0L + std::expm1(x));  // 1 / (1 + e^x), accurate near 1/2
    t.threshold[t.high_bits++] = static_cast<uint64_t>(p * 0x1p64L);
  }
}

const GeometricTable& geometric_table(double lambda) {
  // Pure function of lambda; cached per thread because callers repeat one scale many times.
  thread_local GeometricTable table;
  if (table.lambda != lambda) build_table(table, lambda);
  return table;
}

uint64_t sample_geometric(Rng& rng, const GeometricTable& t) {
  uint64_t low = 0;
  if (t.low_bits > 0) {
    for (;;) {
      low = rng.next_u64() >> (64 - t.low_bits);
      if (rng.uniform() < std::exp(-t.lambda * static_cast<double>(low))) break;
    }
  }
  uint64_t high = 0;
  for (int j = 0; j < t.high_bits; ++j)
    if (rng.next_u64() < t.threshold[j]) high |= uint64_t{1} << j;
  return (high << t.low_bits) | low;
}

int64_t sample_two_sided(Rng& rng, const GeometricTable& t) {
  for (;;) {
    const bool negative = (rng.next_u64() >> 63) != 0;
    const uint64_t g = sample_geometric(rng, t);
    if (negative && g == 0) continue;  // otherwise 0 would get twice its mass
    return negative ? -static_cast<int64_t>(g) : static_cast<int64_t>(g);
  }
}

void check_lambda(double lambda) {
  if (!(lambda >= kMinLambda) || !std::isfinite(lambda))
    fail("two-sided geometric: lambda must be finite and >= 2^-50, got ", lambda);
}

void check_scale(double scale, const char* what) {
  if (!(scale > 0.0) || !std::isfinite(scale)) fail(what, ": scale must be > 0 and finite, got ", scale);
  if (scale < 0x1p-1000 || scale > 0x1p1000)
    fail(what, ": scale ", scale, " is outside [2^-1000, 2^1000]; rescale the query");
}

// ---- selection helpers -----------------------------------------------------------------------

void check_scores(std::span<const double> scores, const char* what) {
  if (scores.empty()) fail(what, ": the candidate set is empty");
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (std::isnan(scores[i]) || scores[i] == kInf)
      fail(what, ": score ", i, " is ", scores[i], "; scores must be finite or -inf");
}

// Log-weights epsilon * score / (2 sensitivity) + log_base into lw; returns their max (-inf if all
// are -inf). epsilon = +inf gives the limit: log_base on the argmax of the scores among candidates
// with a finite log-base, -inf elsewhere.
double em_log_weights(std::span<const double> scores, double epsilon, double sensitivity,
                      std::span<const double> log_base, double* lw, const char* what) {
  check_scores(scores, what);
  check_epsilon_or_inf(epsilon, what);
  check_sensitivity(sensitivity, what);
  const std::size_t k = scores.size();
  if (!log_base.empty()) {
    if (log_base.size() != k) fail(what, ": ", k, " scores but ", log_base.size(), " log base weights");
    for (std::size_t i = 0; i < k; ++i)
      if (std::isnan(log_base[i]) || log_base[i] == kInf)
        fail(what, ": log base weight ", i, " is ", log_base[i], "; it must be finite or -inf");
  }
  auto base = [&](std::size_t i) { return log_base.empty() ? 0.0 : log_base[i]; };
  double mx = -kInf;
  if (std::isinf(epsilon)) {
    double smax = -kInf;
    for (std::size_t i = 0; i < k; ++i)
      if (base(i) > -kInf) smax = std::max(smax, scores[i]);
    for (std::size_t i = 0; i < k; ++i) {
      lw[i] = (smax > -kInf && scores[i] == smax) ? base(i) : -kInf;
      mx = std::max(mx, lw[i]);
    }
    return mx;
  }
  const double c = epsilon / (2.0 * sensitivity);
  for (std::size_t i = 0; i < k; ++i) {
    const double v = scores[i] == -kInf ? -kInf : c * scores[i] + base(i);
    if (std::isnan(v) || v == kInf)
      fail(what, ": epsilon * score / (2 * sensitivity) overflows for candidate ", i,
           " (score ", scores[i], ", epsilon ", epsilon, ", sensitivity ", sensitivity, ")");
    lw[i] = v;
    mx = std::max(mx, v);
  }
  return mx;
}

// Exponentiates lw - mx in place and returns the total.
double exponentiate(double* w, std::size_t k, double mx) {
  double total = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    w[i] = std::exp(w[i] - mx);
    total += w[i];
  }
  return total;
}

// Index i with probability w[i] / total (w >= 0, total > 0).
std::size_t pick(Rng& rng, const double* w, std::size_t k, double total) {
  const double u = rng.uniform() * total;
  double acc = 0.0;
  std::size_t last = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (w[i] <= 0.0) continue;
    acc += w[i];
    last = i;
    if (u < acc) return i;
  }
  return last;  // rounding left u just above the accumulated total
}

}  // namespace

void check_epsilon(double epsilon, const char* what) {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon))
    fail(what, ": epsilon must be > 0 and finite, got ", epsilon);
}

// ---- Laplace ---------------------------------------------------------------------------------

double laplace_resolution(double scale) {
  check_scale(scale, "laplace_resolution");
  int e = 0;
  const double m = std::frexp(scale, &e);  // scale = m 2^e, m in [0.5, 1)
  const int ceil_log2 = (m == 0.5) ? e - 1 : e;
  return std::ldexp(1.0, ceil_log2 - 40);
}

double sample_laplace(Rng& rng, double scale) {
  check_scale(scale, "sample_laplace");
  const double r = laplace_resolution(scale);
  const int64_t k = sample_two_sided(rng, geometric_table(r / scale));  // lambda in [2^-40, 2^-39)
  return static_cast<double>(k) * r;  // exact: |k| < 2^53 and r is a power of two
}

double laplace_cdf(double x, double scale) {
  check_scale(scale, "laplace_cdf");
  if (std::isnan(x)) fail("laplace_cdf: x is NaN");
  return x < 0.0 ? 0.5 * std::exp(x / scale) : 1.0 - 0.5 * std::exp(-x / scale);
}

double laplace_mechanism(Rng& rng, double value, double sensitivity, double epsilon) {
  check_epsilon(epsilon, "laplace_mechanism");
  check_sensitivity(sensitivity, "laplace_mechanism");
  if (!std::isfinite(value)) fail("laplace_mechanism: the value to release is ", value, "; it must be finite");
  const double scale = sensitivity / epsilon;
  check_scale(scale, "laplace_mechanism");
  const double r = laplace_resolution(scale);
  // Values at least r 2^52 in magnitude are already multiples of r.
  const double rounded = std::fabs(value) < std::ldexp(r, 52) ? std::round(value / r) * r : value;
  const double lambda = r * epsilon / (sensitivity + r);
  return rounded + static_cast<double>(sample_two_sided(rng, geometric_table(lambda))) * r;
}

int64_t sample_two_sided_geometric(Rng& rng, double lambda) {
  check_lambda(lambda);
  return sample_two_sided(rng, geometric_table(lambda));
}

double two_sided_geometric_pmf(int64_t k, double lambda) {
  check_lambda(lambda);
  const double q = std::exp(-lambda);
  // (1 - q) / (1 + q) = -expm1(-lambda) / (1 + q), accurate for small lambda.
  return -std::expm1(-lambda) / (1.0 + q) * std::exp(-lambda * std::fabs(static_cast<double>(k)));
}

// ---- Exponential mechanism -------------------------------------------------------------------

std::size_t exponential_mechanism(Rng& rng, std::span<const double> scores, double epsilon, double sensitivity,
                                  std::span<const double> log_base) {
  const std::size_t k = scores.size();
  Scratch w(k);
  const double mx = em_log_weights(scores, epsilon, sensitivity, log_base, w.data(), "exponential_mechanism");
  if (mx == -kInf) return static_cast<std::size_t>(rng.below(k));
  const double total = exponentiate(w.data(), k, mx);
  return pick(rng, w.data(), k, total);
}

std::vector<double> exponential_mechanism_probabilities(std::span<const double> scores, double epsilon,
                                                        double sensitivity, std::span<const double> log_base) {
  const std::size_t k = scores.size();
  std::vector<double> p(std::max<std::size_t>(k, 1));
  const double mx = em_log_weights(scores, epsilon, sensitivity, log_base, p.data(),
                                   "exponential_mechanism_probabilities");
  if (mx == -kInf) {
    std::fill(p.begin(), p.end(), 1.0 / static_cast<double>(k));
    return p;
  }
  const double total = exponentiate(p.data(), k, mx);
  for (double& v : p) v /= total;
  return p;
}

// ---- Permute-and-flip ------------------------------------------------------------------------

namespace {
// Acceptance probabilities p_j = exp(epsilon (s_j - s*) / (2 sensitivity)) (McKenna & Sheldon 2020,
// Alg. 1). smax = -inf means every score is -inf (uniform fallback).
struct PfSetup {
  double smax;
  double c;  // epsilon / (2 sensitivity); +inf for epsilon = +inf
};
PfSetup pf_setup(std::span<const double> scores, double epsilon, double sensitivity, const char* what) {
  check_scores(scores, what);
  check_epsilon_or_inf(epsilon, what);
  check_sensitivity(sensitivity, what);
  double smax = -kInf;
  for (double s : scores) smax = std::max(smax, s);
  const double c = std::isinf(epsilon) ? kInf : epsilon / (2.0 * sensitivity);
  return {smax, c};
}
double pf_accept(const PfSetup& s, double score) {
  if (score == s.smax) return 1.0;
  if (score == -kInf || std::isinf(s.c)) return 0.0;
  return std::exp(s.c * (score - s.smax));
}
// 1 - p, accurate when p is close to 1.
double pf_reject(const PfSetup& s, double score) {
  if (score == s.smax) return 0.0;
  if (score == -kInf || std::isinf(s.c)) return 1.0;
  return -std::expm1(s.c * (score - s.smax));
}
}  // namespace

std::size_t permute_and_flip(Rng& rng, std::span<const double> scores, double epsilon, double sensitivity) {
  const PfSetup s = pf_setup(scores, epsilon, sensitivity, "permute_and_flip");
  const std::size_t k = scores.size();
  if (s.smax == -kInf) return static_cast<std::size_t>(rng.below(k));
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
    if (scores[cand] == s.smax) return cand;  // accepted with probability 1
    const double p = pf_accept(s, scores[cand]);
    if (p > 0.0 && rng.uniform() < p) return cand;
  }
  return order[k - 1];  // unreachable: the argmax is always accepted
}

std::vector<double> permute_and_flip_probabilities(std::span<const double> scores, double epsilon,
                                                   double sensitivity) {
  const PfSetup s = pf_setup(scores, epsilon, sensitivity, "permute_and_flip_probabilities");
  const std::size_t k = scores.size();
  std::vector<double> out(k);
  if (s.smax == -kInf) {
    std::fill(out.begin(), out.end(), 1.0 / static_cast<double>(k));
    return out;
  }
  // P(i) = p_i (1/k) sum_m e_m({1 - p_j}_{j != i}) / C(k-1, m)  (privacy.md §7.3): i sits at a
  // uniform position m, its m predecessors are a uniform m-subset of the others, all rejected.
  // Every term is non-negative, so the DP over subset sizes has no cancellation; long double keeps
  // e_m and C(k-1, m) in range for k up to a few hundred.
  std::vector<long double> q(k), e(k), binom(k);
  for (std::size_t j = 0; j < k; ++j) q[j] = static_cast<long double>(pf_reject(s, scores[j]));
  binom[0] = 1.0L;
  for (std::size_t m = 1; m < k; ++m)
    binom[m] = binom[m - 1] * static_cast<long double>(k - m) / static_cast<long double>(m);
  for (std::size_t i = 0; i < k; ++i) {
    const double pi = pf_accept(s, scores[i]);
    if (pi == 0.0) continue;
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
    out[i] = static_cast<double>(static_cast<long double>(pi) * sum / static_cast<long double>(k));
  }
  return out;
}

// ---- Interval exponential mechanism ----------------------------------------------------------

namespace {
// Log-weights log len_j + epsilon score_j / (2 sensitivity) (dipreme.md §2.5a). Returns the max;
// -inf means no interval has both positive length and a finite score.
double interval_log_weights(std::span<const double> breaks, std::span<const double> scores, double epsilon,
                            double sensitivity, double* lw, const char* what) {
  if (breaks.size() < 2) fail(what, ": need at least 2 breaks (1 interval), got ", breaks.size());
  const std::size_t m = breaks.size() - 1;
  if (scores.size() != m) fail(what, ": ", m, " intervals but ", scores.size(), " scores");
  check_scores(scores, what);
  check_epsilon_or_inf(epsilon, what);
  check_sensitivity(sensitivity, what);
  for (std::size_t j = 0; j <= m; ++j) {
    if (!std::isfinite(breaks[j])) fail(what, ": break ", j, " is ", breaks[j], "; breaks must be finite");
    if (j > 0 && breaks[j] < breaks[j - 1])
      fail(what, ": breaks must be non-decreasing, but break ", j, " = ", breaks[j], " < break ", j - 1, " = ",
           breaks[j - 1]);
  }
  if (!std::isfinite(breaks[m] - breaks[0]))
    fail(what, ": the range [", breaks[0], ", ", breaks[m], "] overflows; rescale the domain");
  double mx = -kInf;
  if (std::isinf(epsilon)) {
    double smax = -kInf;
    for (std::size_t j = 0; j < m; ++j)
      if (breaks[j + 1] > breaks[j]) smax = std::max(smax, scores[j]);
    for (std::size_t j = 0; j < m; ++j) {
      const double len = breaks[j + 1] - breaks[j];
      lw[j] = (len > 0.0 && smax > -kInf && scores[j] == smax) ? std::log(len) : -kInf;
      mx = std::max(mx, lw[j]);
    }
    return mx;
  }
  const double c = epsilon / (2.0 * sensitivity);
  for (std::size_t j = 0; j < m; ++j) {
    const double len = breaks[j + 1] - breaks[j];
    const double v = (len > 0.0 && scores[j] > -kInf) ? std::log(len) + c * scores[j] : -kInf;
    if (std::isnan(v) || v == kInf)
      fail(what, ": epsilon * score / (2 * sensitivity) overflows for interval ", j);
    lw[j] = v;
    mx = std::max(mx, v);
  }
  return mx;
}

// Fallback when every positive-length interval has score -inf: weights proportional to length.
// Returns false when every interval has zero length.
bool length_weights(std::span<const double> breaks, double* w, double& total) {
  total = 0.0;
  const std::size_t m = breaks.size() - 1;
  for (std::size_t j = 0; j < m; ++j) {
    w[j] = breaks[j + 1] - breaks[j];
    total += w[j];
  }
  return total > 0.0;
}

// Interval probabilities into w; returns false for the all-zero-length case.
bool interval_weights(std::span<const double> breaks, std::span<const double> scores, double epsilon,
                      double sensitivity, double* w, double& total, const char* what) {
  const double mx = interval_log_weights(breaks, scores, epsilon, sensitivity, w, what);
  if (mx == -kInf) return length_weights(breaks, w, total);
  total = exponentiate(w, scores.size(), mx);
  return true;
}
}  // namespace

IntervalDraw interval_exponential_mechanism(Rng& rng, std::span<const double> breaks, std::span<const double> scores,
                                            double epsilon, double sensitivity) {
  Scratch w(scores.size());
  double total = 0.0;
  if (!interval_weights(breaks, scores, epsilon, sensitivity, w.data(), total, "interval_exponential_mechanism"))
    return {0, breaks[0]};
  const std::size_t j = pick(rng, w.data(), scores.size(), total);
  return {j, rng.uniform(breaks[j], breaks[j + 1])};
}

std::vector<double> interval_exponential_mechanism_probabilities(std::span<const double> breaks,
                                                                 std::span<const double> scores, double epsilon,
                                                                 double sensitivity) {
  std::vector<double> p(std::max<std::size_t>(scores.size(), 1));
  double total = 0.0;
  if (!interval_weights(breaks, scores, epsilon, sensitivity, p.data(), total,
                        "interval_exponential_mechanism_probabilities")) {
    std::fill(p.begin(), p.end(), 0.0);
    p[0] = 1.0;
    return p;
  }
  for (double& v : p) v /= total;
  return p;
}

double interval_exponential_mechanism_cdf(std::span<const double> breaks, std::span<const double> scores,
                                          double epsilon, double sensitivity, double x) {
  if (std::isnan(x)) fail("interval_exponential_mechanism_cdf: x is NaN");
  const std::vector<double> p = interval_exponential_mechanism_probabilities(breaks, scores, epsilon, sensitivity);
  const std::size_t m = scores.size();
  if (x < breaks[0]) return 0.0;
  if (x >= breaks[m]) return 1.0;
  double acc = 0.0;
  for (std::size_t j = 0; j < m; ++j) {
    const double lo = breaks[j], hi = breaks[j + 1];
    if (x >= hi) {
      acc += p[j];
    } else {
      if (x > lo) acc += p[j] * (x - lo) / (hi - lo);
      break;
    }
  }
  return std::min(acc, 1.0);
}

}  // namespace dpf
