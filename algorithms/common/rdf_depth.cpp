#include "algorithms/common/rdf_depth.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/util/error.hpp"

namespace dpf {

double untested_continuous(int continuous, int depth) {
  // Theorem 2: E[X | d] = s ((s - 1) / s)^d for features drawn uniformly with replacement.
  const double s = continuous;
  return s * std::pow((s - 1.0) / s, depth);
}

namespace {

// Smallest k >= 0 with E[X | k] <= s / 2 (the authors' loop condition, smooth-rdf.md §1.3).
int smallest_half_covered(int s) {
  if (s == 1) return 1;
  int k = 0;
  while (untested_continuous(s, k) > s / 2.0 + 1e-12 * s) ++k;
  return k;
}

}  // namespace

int smooth_rdf_depth(int continuous, int discrete) {
  require(continuous >= 0 && discrete >= 0 && continuous + discrete > 0,
          "smooth-rdf depth: need at least one feature (got ", continuous, " continuous, ", discrete, " discrete)");
  if (continuous == 0) return discrete / 2;
  // "+1": the code evaluates E[X|.] before incrementing (smooth-rdf.md §1.3); 15 is its memory cap.
  const int d = static_cast<int>(std::floor(smallest_half_covered(continuous) + 1 + discrete / 2.0));
  return std::min(15, d);
}

int smooth_rdf_depth_literal(int continuous, int discrete) {
  require(continuous >= 0 && discrete >= 0 && continuous + discrete > 0, "smooth-rdf depth: need at least one feature");
  if (continuous == 0) return discrete / 2;
  int d = 0;  // smallest d with E[X|d] < s/2, the literal Theorem 2
  while (untested_continuous(continuous, d) >= continuous / 2.0) ++d;
  return d + discrete / 2;
}

int half_m_depth(int m, bool round_up) { return round_up ? (m + 1) / 2 : m / 2; }

int rdf_depth_for(const std::string& rule, int fixed_depth, bool round_up, int continuous, int discrete) {
  if (rule == "theorem2") return smooth_rdf_depth(continuous, discrete);          // Table 4 (§1.3)
  if (rule == "literal") return smooth_rdf_depth_literal(continuous, discrete);   // Theorem 2 as printed
  if (rule == "half-m") return half_m_depth(continuous + discrete, round_up);      // Fig. 6 "m/2"
  if (rule == "m") return continuous + discrete;                                   // Fig. 6 "m"
  if (rule == "fixed") return fixed_depth;
  fail("depth_rule: unknown value '", rule, "' (known: theorem2, literal, half-m, m, fixed)");
}

}  // namespace dpf
