#include "core/data/synthetic.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <vector>

#include "core/data/friedman.hpp"
#include "core/privacy/rng.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

constexpr const char* kPrefix = "synthetic:";
constexpr const char* kKeys = "n, d, seed, informative, noise";

// Box-Muller on one stream: each uniform pair gives two normals, handed out in turn.
class Gaussian {
 public:
  explicit Gaussian(Rng rng) : rng_(rng) {}
  double next() {
    if (have_spare_) {
      have_spare_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2.0 * std::log(rng_.uniform_open()));
    const double theta = 2.0 * std::numbers::pi * rng_.uniform();
    spare_ = r * std::sin(theta);
    have_spare_ = true;
    return r * std::cos(theta);
  }

 private:
  Rng rng_;
  double spare_ = 0.0;
  bool have_spare_ = false;
};

uint64_t parse_count(const std::string& spec, const std::string& key, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  require(!v.empty() && v[0] != '-' && end && *end == '\0' && errno == 0, "dataset '", spec, "': '", key,
          "' needs a non-negative integer, got '", v, "'");
  return static_cast<uint64_t>(x);
}

}  // namespace

bool is_synthetic_dataset(const std::string& spec) { return spec.rfind(kPrefix, 0) == 0; }

SyntheticSpec parse_synthetic_spec(const std::string& spec) {
  require(is_synthetic_dataset(spec), "'", spec, "' is not a synthetic spec (synthetic:classification:n=N,d=D,seed=S)");
  SyntheticSpec s;
  const std::string rest = spec.substr(std::char_traits<char>::length(kPrefix));
  const auto colon = rest.find(':');
  s.kind = rest.substr(0, colon);
  require(s.kind == "classification" || is_friedman_kind(s.kind), "dataset '", spec, "': unknown synthetic kind '",
          s.kind, "' (known: classification, friedman1, friedman2, friedman3)");
  if (colon != std::string::npos) {
    const std::string args = rest.substr(colon + 1);
    std::size_t pos = 0;
    while (pos < args.size()) {
      std::size_t comma = args.find(',', pos);
      if (comma == std::string::npos) comma = args.size();
      const std::string kv = args.substr(pos, comma - pos);
      pos = comma + 1;
      const auto eq = kv.find('=');
      require(eq != std::string::npos && eq > 0, "dataset '", spec, "': expected key=value, got '", kv, "' (keys: ",
              kKeys, ")");
      const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
      if (k == "n") {
        s.n = static_cast<std::size_t>(parse_count(spec, k, v));
      } else if (k == "d") {
        s.d = static_cast<int>(std::min<uint64_t>(parse_count(spec, k, v), 1u << 20));
      } else if (k == "seed") {
        s.seed = parse_count(spec, k, v);
      } else if (k == "informative") {
        s.informative = static_cast<int>(std::min<uint64_t>(parse_count(spec, k, v), 1u << 20));
      } else if (k == "noise") {
        char* end = nullptr;
        s.noise = std::strtod(v.c_str(), &end);
        require(!v.empty() && end && *end == '\0' && std::isfinite(s.noise) && s.noise >= 0, "dataset '", spec,
                "': 'noise' needs a finite number >= 0, got '", v, "'");
      } else {
        fail("dataset '", spec, "': unknown key '", k, "' (keys: ", kKeys, ")");
      }
    }
  }
  require(s.n >= 2 && s.n <= 100000000, "dataset '", spec, "': n must be in 2..1e8, got ", s.n);
  require(s.d >= 1 && s.d <= 100000, "dataset '", spec, "': d must be in 1..100000, got ", s.d);
  if (s.informative < 0) s.informative = std::min(s.d, 5);
  require(s.informative >= 1 && s.informative <= s.d, "dataset '", spec, "': informative must be in 1..d, got ",
          s.informative);
  return s;
}

Dataset make_synthetic_dataset(const std::string& spec) { return make_synthetic_dataset(parse_synthetic_spec(spec), spec); }

Dataset make_synthetic_dataset(const SyntheticSpec& s, const std::string& name) {
  if (is_friedman_kind(s.kind)) return make_friedman_dataset(s, name);  // regression (friedman.hpp)
  const auto d = static_cast<std::size_t>(s.d);
  const Rng base = Rng(mix64(s.seed)).derive("synthetic").derive(s.kind);

  // Weights of the rule, normalised so that w.x ~ N(0, 1) before clamping.
  std::vector<double> w(d, 0.0);
  Gaussian wg(base.derive("weights"));
  double norm2 = 0.0;
  for (std::size_t j = 0; j < static_cast<std::size_t>(s.informative); ++j) {
    w[j] = wg.next();
    norm2 += w[j] * w[j];
  }
  const double norm = std::sqrt(norm2);
  for (double& v : w) v /= norm;

  Schema schema;
  for (std::size_t j = 0; j < d; ++j) {
    Feature f;
    f.name = "x" + std::to_string(j);
    f.kind = FeatureKind::kNumeric;
    f.lo = -kSyntheticDomain;
    f.hi = kSyntheticDomain;
    schema.features.push_back(std::move(f));
  }
  schema.target.name = "y";
  schema.target.task = TaskKind::kClassification;
  schema.target.classes = {"0", "1"};
  schema.domains_source = "registry";  // fixed by the generator, independent of the rows: public

  Dataset data(name, std::move(schema));
  data.reserve(s.n);
  const Rng rows = base.derive("rows");
  std::vector<double> x(d);
  for (std::size_t r = 0; r < s.n; ++r) {
    Gaussian g(rows.derive(static_cast<uint64_t>(r)));
    double score = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      x[j] = std::clamp(g.next(), -kSyntheticDomain, kSyntheticDomain);
      score += w[j] * x[j];
    }
    score += s.noise * g.next();
    data.add_row(x, score > 0.0 ? 1.0 : 0.0);
  }
  return data;
}

}  // namespace dpf
