#include "core/privacy/rdp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/error.hpp"

namespace dpf {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kNumOrders = kRdpMaxOrder - kRdpMinOrder + 1;

// log(k!) for k = 0 .. kRdpMaxOrder.
const std::vector<double>& log_factorials() {
  static const std::vector<double> table = [] {
    std::vector<double> t(kRdpMaxOrder + 1, 0.0);
    for (int k = 2; k <= kRdpMaxOrder; ++k) t[static_cast<std::size_t>(k)] = std::lgamma(k + 1.0);
    return t;
  }();
  return table;
}

// log(expm1(x)) for x > 0, accurate at both ends.
double log_expm1(double x) { return x > 30.0 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x)); }

// The SGM's log A_alpha from precomputed pieces: lem[j] = log expm1(j (j - 1) mu) for j >= 2.
double sgm_rdp_from(const std::vector<double>& lem, double lq, double l1q, int alpha, std::vector<double>& scratch) {
  const std::vector<double>& lf = log_factorials();
  const auto a = static_cast<std::size_t>(alpha);
  scratch.resize(a + 1);
  double top = -kInf;
  for (std::size_t j = 2; j <= a; ++j) {
    // log[C(alpha, j) (1 - q)^(alpha - j) q^j expm1(j (j - 1) mu)]
    const double t = lf[a] - lf[j] - lf[a - j] + static_cast<double>(a - j) * l1q + static_cast<double>(j) * lq + lem[j];
    scratch[j] = t;
    top = std::max(top, t);
  }
  if (top == -kInf) return 0.0;
  double sum = 0.0;
  for (std::size_t j = 2; j <= a; ++j) sum += std::exp(scratch[j] - top);
  const double log_s = top + std::log(sum);  // log of A_alpha - 1
  const double log_a = log_s < 0.0 ? std::log1p(std::exp(log_s)) : log_s + std::log1p(std::exp(-log_s));
  return log_a / (alpha - 1.0);
}

void check_sgm(double q, double mu, const char* who) {
  if (!(q >= 0.0 && q <= 1.0)) fail(who, ": sampling rate q must be in [0, 1], got ", q);
  if (!(mu >= 0.0) || !std::isfinite(mu)) fail(who, ": mu must be >= 0 and finite, got ", mu);
}

std::vector<double> log_expm1_table(double mu, int max_j) {
  std::vector<double> lem(static_cast<std::size_t>(max_j) + 1, -kInf);
  for (int j = 2; j <= max_j; ++j) lem[static_cast<std::size_t>(j)] = log_expm1(static_cast<double>(j) * (j - 1.0) * mu);
  return lem;
}

void check_delta(double delta, const char* who) {
  if (!(delta > 0.0 && delta < 1.0)) fail(who, ": delta must be in (0, 1), got ", delta);
}

}  // namespace

double sgm_rdp(double q, double mu, int alpha) {
  check_sgm(q, mu, "sgm_rdp");
  if (alpha < kRdpMinOrder || alpha > kRdpMaxOrder)
    fail("sgm_rdp: order alpha must be an integer in [", kRdpMinOrder, ", ", kRdpMaxOrder, "], got ", alpha);
  if (q == 0.0 || mu == 0.0) return 0.0;
  if (q == 1.0) return alpha * mu;  // no subsampling: the Gaussian mechanism's alpha mu
  std::vector<double> scratch;
  return sgm_rdp_from(log_expm1_table(mu, alpha), std::log(q), std::log1p(-q), alpha, scratch);
}

RdpCurve::RdpCurve(std::vector<double> values) : v_(std::move(values)) {
  if (v_.size() != kNumOrders)
    fail("RdpCurve: needs one value per order ", kRdpMinOrder, "..", kRdpMaxOrder, " (", kNumOrders, "), got ", v_.size());
  for (std::size_t i = 0; i < v_.size(); ++i)
    if (!(v_[i] >= 0.0)) fail("RdpCurve: the value at order ", i + kRdpMinOrder, " must be >= 0 or +inf, got ", v_[i]);
  for (std::size_t i = v_.size() - 1; i-- > 0;) v_[i] = std::min(v_[i], v_[i + 1]);
}

RdpCurve RdpCurve::subsampled_gaussian(double q, double mu) {
  check_sgm(q, mu, "RdpCurve::subsampled_gaussian");
  std::vector<double> v(kNumOrders, 0.0);
  if (q == 0.0 || mu == 0.0) return RdpCurve(std::move(v));
  if (q == 1.0) {
    for (std::size_t i = 0; i < kNumOrders; ++i) v[i] = static_cast<double>(i + kRdpMinOrder) * mu;
    return RdpCurve(std::move(v));
  }
  const std::vector<double> lem = log_expm1_table(mu, kRdpMaxOrder);
  const double lq = std::log(q), l1q = std::log1p(-q);
  std::vector<double> scratch;
  for (int a = kRdpMinOrder; a <= kRdpMaxOrder; ++a)
    v[static_cast<std::size_t>(a - kRdpMinOrder)] = sgm_rdp_from(lem, lq, l1q, a, scratch);
  return RdpCurve(std::move(v));
}

RdpCurve RdpCurve::single_order(int alpha, double rho) {
  if (alpha < kRdpMinOrder || alpha > kRdpMaxOrder)
    fail("RdpCurve::single_order: order must be in [", kRdpMinOrder, ", ", kRdpMaxOrder, "], got ", alpha);
  std::vector<double> v(kNumOrders, kInf);
  v[static_cast<std::size_t>(alpha - kRdpMinOrder)] = rho;
  return RdpCurve(std::move(v));
}

RdpCurve RdpCurve::summand(std::vector<double> values) {
  RdpCurve c(std::vector<double>(kNumOrders, 0.0));
  if (values.size() != kNumOrders)
    fail("RdpCurve::summand: needs one value per order ", kRdpMinOrder, "..", kRdpMaxOrder, " (", kNumOrders, "), got ",
         values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!(values[i] >= 0.0))
      fail("RdpCurve::summand: the value at order ", i + kRdpMinOrder, " must be >= 0 or +inf, got ", values[i]);
  c.v_ = std::move(values);
  return c;
}

RandomStoppingOverhead random_stopping_overhead(const RdpCurve& candidate, double gamma) {
  if (!(gamma > 0.0 && gamma <= 1.0)) fail("random_stopping_overhead: gamma must be in (0, 1], got ", gamma);
  RandomStoppingOverhead out;
  std::vector<double> v(kNumOrders, 0.0);
  if (gamma == 1.0) {  // K = 1: the selection is the candidate itself
    out.curve = std::make_shared<const RdpCurve>(RdpCurve::summand(std::move(v)));
    return out;
  }
  const double log_k = -std::log(gamma);  // log(1/gamma) = log E[K] for eta = 1
  out.constant = kInf;
  for (int lh = kRdpMinOrder; lh <= kRdpMaxOrder; ++lh) {
    // Papernot & Steinke 2022 Thm 2, eta = 1: (1 + eta) (1 - 1/lambda_hat) eps_hat + (1 + eta) log(1/gamma) / lambda_hat.
    const double l = static_cast<double>(lh);
    const double c = 2.0 * (1.0 - 1.0 / l) * candidate.at(lh) + 2.0 * log_k / l;
    if (c < out.constant) {
      out.constant = c;
      out.lambda_hat = lh;
    }
  }
  if (!std::isfinite(out.constant))
    fail("random_stopping_overhead: the candidate's Renyi-DP curve is +inf at every order ", kRdpMinOrder, "..",
         kRdpMaxOrder);
  // Thm 2's last term, log(E[K]) / (lambda - 1), at each integer order lambda.
  for (int a = kRdpMinOrder; a <= kRdpMaxOrder; ++a)
    v[static_cast<std::size_t>(a - kRdpMinOrder)] = out.constant + log_k / (a - 1.0);
  out.curve = std::make_shared<const RdpCurve>(RdpCurve::summand(std::move(v)));
  return out;
}

double RdpCurve::at(int alpha) const {
  if (alpha > kRdpMaxOrder) return kInf;
  return v_[static_cast<std::size_t>(std::max(alpha, kRdpMinOrder) - kRdpMinOrder)];
}

double RdpCurve::at_real(double alpha) const {
  if (!(alpha > 1.0)) fail("RdpCurve::at_real: order must be > 1, got ", alpha);
  if (alpha > kRdpMaxOrder) return kInf;
  return at(static_cast<int>(std::ceil(alpha)));
}

double rdp_epsilon_cks(double rho, double alpha, double delta) {
  check_delta(delta, "rdp_epsilon_cks");
  if (!(alpha > 1.0)) fail("rdp_epsilon_cks: order must be > 1, got ", alpha);
  if (rho == kInf) return kInf;
  const double e = rho + std::log1p(-1.0 / alpha) - (std::log(delta) + std::log(alpha)) / (alpha - 1.0);
  return std::max(0.0, e);
}

double rdp_epsilon_mironov(double rho, double alpha, double delta) {
  check_delta(delta, "rdp_epsilon_mironov");
  if (!(alpha > 1.0)) fail("rdp_epsilon_mironov: order must be > 1, got ", alpha);
  if (rho == kInf) return kInf;
  return std::max(0.0, rho + std::log(1.0 / delta) / (alpha - 1.0));
}

RdpEpsilon rdp_best_epsilon(const std::function<double(int)>& rho_at, double delta) {
  check_delta(delta, "rdp_best_epsilon");
  RdpEpsilon best{kInf, kRdpMinOrder};
  for (int a = kRdpMinOrder; a <= kRdpMaxOrder; ++a) {
    const double e = rdp_epsilon_cks(rho_at(a), a, delta);
    if (e < best.epsilon) best = {e, a};
  }
  return best;
}

namespace {

// A fast upper bound on the calibration's full scan at one sigma: a geometric grid of orders, then an
// integer ternary search between the neighbours of the best grid point (the converted epsilon is
// unimodal in alpha in every case we tried; if not, this only overestimates, which errs on the side
// of more noise, and the final full scan is exact).
class FastEpsilon {
 public:
  FastEpsilon(double q, double c, int rounds, double delta) : q_(q), c_(c), rounds_(rounds), delta_(delta) {
    for (int a = kRdpMinOrder; a <= 16; ++a) grid_.push_back(a);
    for (double a = 16.0 * 1.15; a < kRdpMaxOrder; a *= 1.15) grid_.push_back(static_cast<int>(std::ceil(a)));
    grid_.push_back(kRdpMaxOrder);
  }
  double operator()(double sigma) {
    const double mu = c_ / (sigma * sigma);
    if (q_ < 1.0) {
      lem_ = log_expm1_table(mu, kRdpMaxOrder);
      lq_ = std::log(q_);
      l1q_ = std::log1p(-q_);
    }
    auto eps = [&](int a) {
      const double rho = q_ == 1.0 ? a * mu : sgm_rdp_from(lem_, lq_, l1q_, a, scratch_);
      return rdp_epsilon_cks(rounds_ * rho, a, delta_);
    };
    std::size_t bi = 0;
    double best = kInf;
    for (std::size_t i = 0; i < grid_.size(); ++i) {
      const double e = eps(grid_[i]);
      if (e < best) {
        best = e;
        bi = i;
      }
    }
    int lo = grid_[bi > 0 ? bi - 1 : 0], hi = grid_[std::min(bi + 1, grid_.size() - 1)];
    while (hi - lo > 4) {
      const int m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      const double e1 = eps(m1), e2 = eps(m2);
      best = std::min(best, std::min(e1, e2));
      if (e1 <= e2) hi = m2; else lo = m1;
    }
    for (int a = lo; a <= hi; ++a) best = std::min(best, eps(a));
    return best;
  }

 private:
  double q_, c_;
  int rounds_;
  double delta_;
  std::vector<int> grid_;
  std::vector<double> lem_, scratch_;
  double lq_ = 0.0, l1q_ = 0.0;
};

}  // namespace

SgmCalibration calibrate_subsampled_gaussian(double q, double c, int rounds, double target_epsilon, double delta) {
  if (!(q > 0.0 && q <= 1.0)) fail("calibrate_subsampled_gaussian: sampling rate q must be in (0, 1], got ", q);
  if (!(c > 0.0) || !std::isfinite(c)) fail("calibrate_subsampled_gaussian: c must be > 0 and finite, got ", c);
  if (rounds < 1) fail("calibrate_subsampled_gaussian: rounds must be >= 1, got ", rounds);
  if (!(target_epsilon > 0.0) || !std::isfinite(target_epsilon))
    fail("calibrate_subsampled_gaussian: target epsilon must be > 0 and finite, got ", target_epsilon);
  check_delta(delta, "calibrate_subsampled_gaussian");
  FastEpsilon fast(q, c, rounds, delta);
  // s-bdt.md §4.2 step 1: the authors' starting guess sqrt(2 ln(1.25 / delta)) sqrt(T) q / epsilon.
  const double guess = std::sqrt(2.0 * std::log(1.25 / delta)) * std::sqrt(static_cast<double>(rounds)) * q / target_epsilon;
  double lo = guess, hi = guess;
  for (int i = 0; fast(hi) > target_epsilon; ++i) {
    if (i > 200) fail("calibrate_subsampled_gaussian: no noise level reaches epsilon ", target_epsilon);
    lo = hi;
    hi *= 2.0;
  }
  if (lo == hi) {
    for (int i = 0; fast(lo) <= target_epsilon; ++i) {
      if (i > 200) break;  // any noise at all meets the target
      hi = lo;
      lo *= 0.5;
    }
  }
  for (int it = 0; it < 200 && hi - lo > 1e-10 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (fast(mid) <= target_epsilon) hi = mid; else lo = mid;
  }
  SgmCalibration out;
  out.sigma = hi;
  out.per_round = RdpCurve::subsampled_gaussian(q, c / (hi * hi));
  const RdpEpsilon best = rdp_best_epsilon([&](int a) { return rounds * out.per_round.at(a); }, delta);
  out.alpha = best.alpha;
  out.epsilon = best.epsilon;
  out.rho = rounds * out.per_round.at(best.alpha);
  return out;
}

}  // namespace dpf
