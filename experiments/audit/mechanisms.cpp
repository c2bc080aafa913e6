#include "experiments/audit/mechanisms.hpp"

#include <cmath>

#include "core/privacy/discrete_gaussian_profile.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "core/util/named.hpp"

namespace dpf {
namespace {

Release value(double v) {
  Release r;
  r.continuous.push_back(v);
  return r;
}

// A Laplace count of n = 3 (side 0) vs 4 (side 1) with noise scale factor / eps (eps = 1).
ReleaseSampler count(double scale) {
  return [scale](int side, uint64_t seed, double*) {
    Rng rng(seed);
    return value((side == 0 ? 3.0 : 4.0) + sample_laplace(rng, scale));
  };
}

// The median EM over 10 public cut points, utility -|#left - #right| (not monotone, sensitivity 1):
// D = {.2, .2, .9, .9}, D' adds .1. `sensitivity` 0.5 drops the factor 2 (exact loss 1.98 vs 0.97).
ReleaseSampler median(double sensitivity) {
  return [sensitivity](int side, uint64_t seed, double*) {
    std::vector<double> data{0.2, 0.2, 0.9, 0.9};
    if (side == 1) data.push_back(0.1);
    std::vector<double> score;
    for (int c = 0; c < 10; ++c) {
      const double cut = 0.05 + c / 10.0;
      double left = 0;
      for (double x : data) left += x <= cut;
      score.push_back(-std::fabs(left - (static_cast<double>(data.size()) - left)));
    }
    Rng rng(seed);
    Release r;
    r.discrete.push_back(static_cast<int64_t>(exponential_mechanism(rng, score, 1.0, sensitivity)));
    return r;
  };
}

// Two trees on disjoint parts, a noisy count each at the full eps (parallel composition), summed; the
// bug routes the added row into both parts.
ReleaseSampler partition(bool shared) {
  return [shared](int side, uint64_t seed, double*) {
    Rng rng(seed);
    const double a = 2.0 + (side == 1 ? 1.0 : 0.0), b = 2.0 + (side == 1 && shared ? 1.0 : 0.0);
    return value(laplace_mechanism(rng, a, 1.0, 1.0) + laplace_mechanism(rng, b, 1.0, 1.0));
  };
}

// A discrete Gaussian count of n = 3 (side 0) vs 4 (side 1) with standard deviation sigma (CKS20).
ReleaseSampler gaussian_count(double sigma) {
  return [sigma](int side, uint64_t seed, double*) {
    Rng rng(seed);
    Release r;
    r.discrete.push_back((side == 0 ? 3 : 4) + sample_discrete_gaussian(rng, sigma * sigma));
    return r;
  };
}

}  // namespace

double discrete_gaussian_sigma_for(double epsilon, double delta) {
  require(epsilon > 0 && std::isfinite(epsilon) && delta > 0 && delta < 1,
          "discrete_gaussian_sigma_for: needs epsilon > 0 and delta in (0, 1)");
  auto holds = [&](double sigma) {
    DiscreteGaussianProfile p(discrete_gaussian_sigma2_used(sigma * sigma));
    return p.delta(epsilon, 1).hi <= delta;
  };
  double lo = 0.05, hi = 1.0;  // delta(eps) falls as sigma grows; keep lo failing and hi holding
  while (!holds(hi)) hi *= 2.0;
  while (holds(lo) && lo > 1e-2) lo *= 0.5;
  for (int it = 0; it < 100 && hi - lo > 1e-9 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (holds(mid)) hi = mid; else lo = mid;
  }
  return hi;
}

std::vector<MechanismCase> mechanism_cases() {
  std::vector<MechanismCase> v;
  v.push_back({"rgv-per-tree-epsilon",
               "RGV: each of tau = 5 trees spends the full eps on all rows (Fletcher & Islam §5.2); their root counts of "
               "n = 3 vs 4, averaged. At the model level the release is a vote over trees, which hides this sum",
               1.0, 0.25, true, [](int side, uint64_t seed, double*) {
                 Rng rng(seed);
                 double sum = 0;
                 for (int t = 0; t < 5; ++t) sum += laplace_mechanism(rng, side == 0 ? 3.0 : 4.0, 1.0, 1.0);
                 return value(sum / 5);
               }});
  v.push_back({"leaf-mean-n-scale",
               "DiPriMe's published regression leaf: mean + Lap((B_U - B_L) / (N eps)) with the private N (privacy.md §6.2); "
               "N = 1 vs 2, y = 1 in [0, 1]. The model clamps the value to [B_L, B_U], hiding the tail",
               1.0, 0.5, true, [](int side, uint64_t seed, double*) {
                 Rng rng(seed);
                 return value(1.0 + sample_laplace(rng, side == 0 ? 1.0 : 0.5));
               }});
  v.push_back({"leaf-mean-sum-count",
               "the strict repair: noisy sum and noisy count at eps / 2 each (divided afterwards), same pair", 1.0, 0.5,
               false, [](int side, uint64_t seed, double*) {
                 Rng rng(seed);
                 const double n = side == 0 ? 1.0 : 2.0;
                 Release r;
                 r.continuous = {laplace_mechanism(rng, n, 1.0, 0.5), laplace_mechanism(rng, n, 1.0, 0.5)};
                 return r;
               }});
  v.push_back({"double-spend", "a Laplace count run at 2 eps and claimed at eps (double_epsilon_sweep at the nominal "
               "claim; equally a halved scale, a planted bug)", 1.0, 0.25, true, count(0.5)});
  v.push_back({"laplace-count", "the correct Laplace count (scale 1 / eps)", 1.0, 0.25, false, count(1.0)});
  v.push_back({"median-em-no-factor-2", "planted: the median EM without its factor 2", 1.0, 0.0, true, median(0.5)});
  v.push_back({"median-em", "the correct median EM", 1.0, 0.0, false, median(1.0)});
  v.push_back({"partition-shared-row", "planted: a partitioned forest whose two trees both count the added row", 1.0,
               0.25, true, partition(true)});
  v.push_back({"partition", "the correct partitioned forest", 1.0, 0.25, false, partition(false)});
  // (epsilon, delta) mode: a discrete Gaussian count claimed (1, 0.01)-DP. Calibrated by the exact profile
  // (sigma 1.854; delta(1) = 0.01) it must pass; planted with half that sigma (delta(1) = 0.16) it must be flagged.
  const double sigma = discrete_gaussian_sigma_for(1.0, 0.01);
  v.push_back({"gaussian-sigma-half", "planted: a discrete Gaussian count (3 vs 4) with half the sigma its claim "
               "(epsilon 1, delta 0.01) needs: delta(1) = 0.16", 1.0, 0.0, true, gaussian_count(sigma / 2), 0.01});
  v.push_back({"gaussian-calibrated", "the discrete Gaussian count calibrated for (1, 0.01) by the exact profile", 1.0,
               0.0, false, gaussian_count(sigma), 0.01});
  return v;
}

const MechanismCase& mechanism_case(const std::string& name) {
  static const std::vector<MechanismCase> cases = mechanism_cases();
  return find_named(cases, name, "mechanism case");
}

}  // namespace dpf
