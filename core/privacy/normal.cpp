#include "core/privacy/normal.hpp"

#include <cmath>

#include "core/util/error.hpp"

namespace dpf {

double sample_standard_normal(Rng& rng) {
  const double u1 = rng.uniform_open();
  const double u2 = rng.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

double sample_normal(Rng& rng, double sd) {
  if (!(sd >= 0.0) || !std::isfinite(sd)) fail("sample_normal: standard deviation must be >= 0 and finite, got ", sd);
  if (sd == 0.0) return 0.0;
  return sd * sample_standard_normal(rng);
}

}  // namespace dpf
