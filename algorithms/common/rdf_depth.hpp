// Tree depth of the smooth-sensitivity random decision forest (Fletcher & Islam 2017, §4.3,
// Theorem 2 plus r/2 for discrete features "as per Fan et al. (2003)"), in the form of the authors'
// calc_tree_depth that reproduces all 14 rows of Table 4 (smooth-rdf.md §1.3): with s continuous
// and r discrete features,
//   s = 0: d = floor(r / 2);
//   s > 0: k* = smallest k >= 0 with s ((s-1)/s)^k <= s/2 (k* = 1 for s = 1),
//          d = min(15, floor(k* + 1 + r/2)).
// The literal reading of Theorem 2 (smallest d with E[X|d] < s/2, no "+1") is one shallower for
// every dataset with continuous features; it is available as `literal` for comparison.
#pragma once
#include <string>

namespace dpf {

int smooth_rdf_depth(int continuous, int discrete);
int smooth_rdf_depth_literal(int continuous, int discrete);
// Expected number of the s continuous features never tested on a path of length d (Theorem 2).
double untested_continuous(int continuous, int depth);
// Fig. 6 depths "m/2" and "m" (m = s + r); the paper does not say how odd m/2 rounds (§1.3, §7.2).
int half_m_depth(int m, bool round_up);

// The depth a configuration uses for a schema with s continuous and r discrete features: rule
// theorem2, literal, half-m, m, or fixed (then `fixed_depth`).
int rdf_depth_for(const std::string& rule, int fixed_depth, bool round_up, int continuous, int discrete);

}  // namespace dpf
