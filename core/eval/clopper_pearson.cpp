#include "core/eval/clopper_pearson.hpp"

#include <boost/math/special_functions/beta.hpp>
#include <cmath>

#include "core/util/error.hpp"

namespace dpf {
namespace {

void check(int64_t k, int64_t n, double alpha, const char* who) {
  require(n >= 1 && k >= 0 && k <= n, who, ": need 0 <= k <= n and n >= 1, got k = ", k, ", n = ", n);
  require(alpha > 0 && alpha < 1, who, ": alpha must be in (0, 1), got ", alpha);
}

}  // namespace

double cp_lower(int64_t k, int64_t n, double alpha) {
  check(k, n, alpha, "cp_lower");
  if (k == 0) return 0.0;
  return boost::math::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), alpha);
}

double cp_upper(int64_t k, int64_t n, double alpha) {
  check(k, n, alpha, "cp_upper");
  if (k == n) return 1.0;
  return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k), 1.0 - alpha);
}

}  // namespace dpf
