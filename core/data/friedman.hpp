// Friedman's three regression benchmarks (J. H. Friedman, "Multivariate adaptive regression splines",
// Ann. Statist. 19(1), 1991, §4.3 and §4.4; also L. Breiman, "Bagging predictors", 1996, §4.2), as
// synthetic dataset specs "synthetic:friedman1|friedman2|friedman3:n=N,d=D,seed=S,noise=s":
//   friedman1: x_j ~ U[0, 1] (d >= 5); y = 10 sin(pi x0 x1) + 20 (x2 - 1/2)^2 + 10 x3 + 5 x4 + e;
//   friedman2: x0 ~ U[0, 100], x1 ~ U[40 pi, 560 pi], x2 ~ U[0, 1], x3 ~ U[1, 11] (d >= 4; further
//              features U[0, 1], unused); y = sqrt(x0^2 + (x1 x2 - 1 / (x1 x3))^2) + e;
//   friedman3: the same x; y = atan((x1 x2 - 1 / (x1 x3)) / x0) + e;
// e = noise * c * z, z ~ N(0, 1) clamped to [-6, 6], with c = 1, 125, 0.1 (Friedman's and Breiman's
// noise levels for noise = 1: a signal-to-noise ratio of about 3 for the second and third).
// Feature domains and the target bounds follow from the formulas and `noise` (public, never read from
// the rows): friedman1 y in [-10 - 6 e_max, 30 + 6 e_max] with e_max = noise * c, friedman2 in
// [0, sqrt(100^2 + (560 pi)^2)] widened likewise, friedman3 in [-pi/2, pi/2] widened likewise.
// Row r draws from its own stream, so the first m rows of n = M are the rows of n = m.
#pragma once
#include <string>

#include "core/data/dataset.hpp"
#include "core/data/synthetic.hpp"

namespace dpf {

bool is_friedman_kind(const std::string& kind);
Dataset make_friedman_dataset(const SyntheticSpec& s, const std::string& name);

}  // namespace dpf
