#include "core/data/friedman.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

constexpr double kPi = std::numbers::pi;

double normal(Rng& rng) {  // Box-Muller, one value per call (a pure function of the stream position)
  const double r = std::sqrt(-2.0 * std::log(rng.uniform_open()));
  return r * std::cos(2.0 * kPi * rng.uniform());
}

}  // namespace

bool is_friedman_kind(const std::string& kind) {
  return kind == "friedman1" || kind == "friedman2" || kind == "friedman3";
}

Dataset make_friedman_dataset(const SyntheticSpec& s, const std::string& name) {
  const int which = s.kind.back() - '0';
  const int min_d = which == 1 ? 5 : 4;
  require(s.d >= min_d, "dataset '", name, "': ", s.kind, " needs d >= ", min_d, ", got ", s.d);
  const double c = which == 1 ? 1.0 : which == 2 ? 125.0 : 0.1;
  const double e_max = 6.0 * s.noise * c;
  Schema schema;
  for (int j = 0; j < s.d; ++j) {
    Feature f{"x" + std::to_string(j), FeatureKind::kNumeric, 0.0, 1.0, {}};
    if (which != 1 && j == 0) f.hi = 100.0;
    if (which != 1 && j == 1) f.lo = 40.0 * kPi, f.hi = 560.0 * kPi;
    if (which != 1 && j == 3) f.lo = 1.0, f.hi = 11.0;
    schema.features.push_back(std::move(f));
  }
  schema.target.name = "y";
  schema.target.task = TaskKind::kRegression;
  const double top = which == 1 ? 30.0 : which == 2 ? std::hypot(100.0, 560.0 * kPi) : kPi / 2;
  const double bottom = which == 1 ? -10.0 : which == 2 ? 0.0 : -kPi / 2;
  schema.target.lo = bottom - e_max;
  schema.target.hi = top + e_max;
  schema.domains_source = "registry";  // fixed by the generator: public

  Dataset data(name, schema);
  data.reserve(s.n);
  const Rng rows = Rng(mix64(s.seed)).derive("synthetic").derive(s.kind).derive("rows");
  std::vector<double> x(static_cast<std::size_t>(s.d));
  for (std::size_t r = 0; r < s.n; ++r) {
    Rng g = rows.derive(static_cast<uint64_t>(r));
    for (int j = 0; j < s.d; ++j) {
      const Feature& f = schema.features[static_cast<std::size_t>(j)];
      x[static_cast<std::size_t>(j)] = f.lo + (f.hi - f.lo) * g.uniform_open();
    }
    double y;
    if (which == 1) {
      y = 10 * std::sin(kPi * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) + 10 * x[3] + 5 * x[4];
    } else {
      const double inner = x[1] * x[2] - 1.0 / (x[1] * x[3]);
      y = which == 2 ? std::sqrt(x[0] * x[0] + inner * inner) : std::atan(inner / x[0]);
    }
    y += s.noise * c * std::clamp(normal(g), -6.0, 6.0);
    data.add_row(x, std::clamp(y, schema.target.lo, schema.target.hi));
  }
  return data;
}

}  // namespace dpf
