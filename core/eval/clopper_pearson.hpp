// Exact one-sided Clopper-Pearson bounds for a binomial proportion (Clopper & Pearson 1934), the
// interval the privacy audit uses (privacy.md §4.1, §7.4): with k successes in n trials,
//   P_p(cp_lower(k, n, alpha) > p) <= alpha   and   P_p(cp_upper(k, n, alpha) < p) <= alpha
// for every true p. Lower = Beta^-1(alpha; k, n - k + 1) (0 when k = 0); upper =
// Beta^-1(1 - alpha; k + 1, n - k) (1 when k = n).
#pragma once
#include <cstdint>

namespace dpf {

double cp_lower(int64_t k, int64_t n, double alpha);
double cp_upper(int64_t k, int64_t n, double alpha);

}  // namespace dpf
