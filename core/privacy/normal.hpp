// Continuous Gaussian noise N(0, sd^2) from the counter-based Rng (design.md §5: our own distribution
// code, never the standard library's distributions). For mechanisms whose privacy analysis is the continuous
// Gaussian's, e.g. the Poisson-subsampled Gaussian leaves of S-BDT (s-bdt.md §3.4 step 6, §10.2):
// the tight subsampled RDP bound (core/privacy/rdp.hpp) is derived for the continuous Gaussian and is
// not re-derived here for the discrete one (gaussian_mechanism in mechanisms.hpp).
//
// Box-Muller (cosine branch): sqrt(-2 ln U1) cos(2 pi U2), U1 uniform on (0, 1) with 53 bits, U2 uniform
// on [0, 1). Double-precision floating point: the output is supported on |z| <= 8.66 sd (U1 >= 2^-54),
// a tail mass below 1e-17 per draw, and its low-order bits are not hardened against the floating-point
// attacks that the secure Laplace of mechanisms.hpp defends against (Mironov 2012); the same holds for
// the authors' standard-library normal sampler and for the DP-SGD libraries this accountant comes from.
#pragma once
#include "core/privacy/rng.hpp"

namespace dpf {

// One standard normal draw (two 64-bit words).
double sample_standard_normal(Rng& rng);
// N(0, sd^2); sd must be >= 0 and finite (dpf::Error otherwise). sd = 0 returns 0.
double sample_normal(Rng& rng, double sd);

}  // namespace dpf
