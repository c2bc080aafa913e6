#include "core/data/make_classification.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "core/util/error.hpp"

namespace dpf {

double standard_normal(Rng& rng) {
  // Marsaglia polar method: (u, v) uniform in the unit disc, x = u sqrt(-2 ln s / s).
  for (;;) {
    const double u = 2.0 * rng.uniform() - 1.0, v = 2.0 * rng.uniform() - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

Dataset make_classification(const MakeClassificationParams& p, Rng& rng, const std::string& name) {
  const int F = p.n_features, I = p.n_informative, R = p.n_redundant, P = p.n_repeated, K = p.n_classes;
  const int Q = p.n_clusters_per_class;
  require(I >= 1 && R >= 0 && P >= 0 && I + R + P <= F, name, ": make_classification needs n_informative + "
          "n_redundant + n_repeated <= n_features (got ", I, " + ", R, " + ", P, " > ", F, ")");
  require(K >= 2 && Q >= 1 && I <= 62, name, ": make_classification needs n_classes >= 2, n_clusters_per_class >= 1 "
          "and n_informative <= 62");
  require(static_cast<double>(K) * Q <= std::ldexp(1.0, I), name, ": n_classes * n_clusters_per_class must be <= 2^n_informative");
  require(p.n_samples >= 1, name, ": n_samples must be >= 1");
  const std::size_t N = p.n_samples;
  const int G = K * Q;
  const int U = F - I - R - P;

  // Step 2: cluster sizes floor(N w / Q), remainder one at a time to clusters 0, 1, ...
  std::vector<std::size_t> size(static_cast<std::size_t>(G), N / static_cast<std::size_t>(K) / static_cast<std::size_t>(Q));
  for (int k = 0; k < G; ++k)
    size[static_cast<std::size_t>(k)] = static_cast<std::size_t>(std::floor(static_cast<double>(N) / K / Q));
  std::size_t assigned = std::accumulate(size.begin(), size.end(), std::size_t{0});
  for (std::size_t i = 0; assigned < N; ++i, ++assigned) ++size[i % static_cast<std::size_t>(G)];

  // Step 3: G distinct hypercube vertices, bit of feature 0 = most significant bit.
  std::vector<uint64_t> vertex;
  std::set<uint64_t> seen;
  while (vertex.size() < static_cast<std::size_t>(G)) {
    uint64_t v = rng.below(uint64_t{1} << I);
    if (seen.insert(v).second) vertex.push_back(v);
  }
  std::vector<double> centroid(static_cast<std::size_t>(G * I));
  for (int k = 0; k < G; ++k)
    for (int f = 0; f < I; ++f) {
      const uint64_t bit = (vertex[static_cast<std::size_t>(k)] >> (I - 1 - f)) & 1u;
      centroid[static_cast<std::size_t>(k * I + f)] = (2.0 * static_cast<double>(bit) - 1.0) * p.class_sep;
    }
  if (!p.hypercube) {
    for (int k = 0; k < G; ++k) {
      const double r = rng.uniform();
      for (int f = 0; f < I; ++f) centroid[static_cast<std::size_t>(k * I + f)] *= r;
    }
    for (int f = 0; f < I; ++f) {
      const double c = rng.uniform();
      for (int k = 0; k < G; ++k) centroid[static_cast<std::size_t>(k * I + f)] *= c;
    }
  }

  // Row-major work matrix.
  std::vector<double> X(N * static_cast<std::size_t>(F), 0.0);
  std::vector<int> y(N, 0);
  auto at = [&](std::size_t r, int f) -> double& { return X[r * static_cast<std::size_t>(F) + static_cast<std::size_t>(f)]; };
  // Step 4: informative block N(0, 1).
  for (std::size_t r = 0; r < N; ++r)
    for (int f = 0; f < I; ++f) at(r, f) = standard_normal(rng);
  // Step 5: per cluster, x <- x A_k + centroid_k with A_k ~ Uniform(-1, 1)^(I x I).
  std::vector<double> A(static_cast<std::size_t>(I * I)), tmp(static_cast<std::size_t>(I));
  std::size_t start = 0;
  for (int k = 0; k < G; ++k) {
    for (auto& a : A) a = 2.0 * rng.uniform() - 1.0;
    for (std::size_t r = start; r < start + size[static_cast<std::size_t>(k)]; ++r) {
      y[r] = k % K;
      for (int j = 0; j < I; ++j) {
        double s = 0.0;
        for (int i = 0; i < I; ++i) s += at(r, i) * A[static_cast<std::size_t>(i * I + j)];
        tmp[static_cast<std::size_t>(j)] = s;
      }
      for (int j = 0; j < I; ++j) at(r, j) = tmp[static_cast<std::size_t>(j)] + centroid[static_cast<std::size_t>(k * I + j)];
    }
    start += size[static_cast<std::size_t>(k)];
  }
  // Step 6: redundant = informative B, B ~ Uniform(-1, 1)^(I x R); repeated copies.
  if (R > 0) {
    std::vector<double> B(static_cast<std::size_t>(I * R));
    for (auto& b : B) b = 2.0 * rng.uniform() - 1.0;
    for (std::size_t r = 0; r < N; ++r)
      for (int j = 0; j < R; ++j) {
        double s = 0.0;
        for (int i = 0; i < I; ++i) s += at(r, i) * B[static_cast<std::size_t>(i * R + j)];
        at(r, I + j) = s;
      }
  }
  if (P > 0) {
    std::vector<int> src(static_cast<std::size_t>(P));
    for (auto& s : src) s = static_cast<int>(static_cast<double>(I + R - 1) * rng.uniform() + 0.5);
    for (std::size_t r = 0; r < N; ++r)
      for (int j = 0; j < P; ++j) at(r, I + R + j) = at(r, src[static_cast<std::size_t>(j)]);
  }
  // Step 7: useless features N(0, 1).
  for (std::size_t r = 0; r < N; ++r)
    for (int j = 0; j < U; ++j) at(r, I + R + P + j) = standard_normal(rng);
  // Step 8: label noise (the new label may equal the old one).
  for (std::size_t r = 0; r < N; ++r)
    if (rng.uniform() < p.flip_y) y[r] = static_cast<int>(rng.below(static_cast<uint64_t>(K)));
  // Step 10: shuffle rows, then columns.
  std::vector<uint32_t> row_order(N);
  std::iota(row_order.begin(), row_order.end(), 0u);
  std::vector<int> col_order(static_cast<std::size_t>(F));
  std::iota(col_order.begin(), col_order.end(), 0);
  if (p.shuffle) {
    rng.shuffle(std::span<uint32_t>(row_order));
    rng.shuffle(std::span<int>(col_order));
  }

  Schema schema;
  for (int f = 0; f < F; ++f) {
    Feature feat;
    feat.name = "f" + std::to_string(f);
    feat.kind = FeatureKind::kNumeric;
    schema.features.push_back(feat);
  }
  schema.target.name = "class";
  schema.target.task = TaskKind::kClassification;
  for (int k = 0; k < K; ++k) schema.target.classes.push_back(std::to_string(k));
  schema.domains_source = "registry";
  Dataset d(name, schema);
  d.reserve(N);
  std::vector<double> row(static_cast<std::size_t>(F));
  for (std::size_t i = 0; i < N; ++i) {
    const std::size_t r = row_order[i];
    for (int f = 0; f < F; ++f) row[static_cast<std::size_t>(f)] = at(r, col_order[static_cast<std::size_t>(f)]);
    d.add_row(row, static_cast<double>(y[r]));
  }
  // Public domains: the [min, max] of each generated column (the registry's convention of domains
  // computed once from the full data).
  for (int f = 0; f < F; ++f) {
    auto col = d.column(static_cast<std::size_t>(f));
    auto [lo, hi] = std::minmax_element(col.begin(), col.end());
    d.mutable_schema().features[static_cast<std::size_t>(f)].lo = *lo;
    d.mutable_schema().features[static_cast<std::size_t>(f)].hi = *hi;
  }
  return d;
}

MakeClassificationParams synthetic_params(char letter) {
  // smooth-rdf.md §4.1 / paper Table 1: (n_informative, useless) per dataset.
  static const int table[7][2] = {{5, 0}, {10, 0}, {15, 0}, {10, 5}, {5, 10}, {5, 5}, {10, 10}};
  require(letter >= 'a' && letter <= 'g', "synthetic dataset letter must be a..g, got '", letter, "'");
  const int* t = table[letter - 'a'];
  MakeClassificationParams p;
  p.n_samples = 30000;
  p.n_informative = t[0];
  p.n_features = t[0] + t[1];
  p.n_redundant = 0;  // §4.1: n_informative + n_random = m (Table 4), not the default 2
  p.n_repeated = 0;
  return p;
}


Dataset make_synthetic(const std::string& spec) {
  require(is_synthetic_spec(spec), "'", spec, "' is not a synthetic dataset spec (synth-a .. synth-g[:n=N,seed=S])");
  MakeClassificationParams p = synthetic_params(spec[6]);
  uint64_t seed = 0;
  if (spec.size() > 7) {
    std::string rest = spec.substr(8);
    std::size_t pos = 0;
    while (pos <= rest.size()) {
      std::size_t comma = rest.find(',', pos);
      std::string kv = rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      std::size_t eq = kv.find('=');
      require(eq != std::string::npos, "dataset '", spec, "': expected key=value, got '", kv, "'");
      const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
      char* end = nullptr;
      const unsigned long long val = std::strtoull(v.c_str(), &end, 10);
      require(!v.empty() && end && *end == '\0', "dataset '", spec, "': '", k, "' needs a non-negative integer, got '", v, "'");
      if (k == "n") p.n_samples = static_cast<std::size_t>(val);
      else if (k == "seed") seed = val;
      else fail("dataset '", spec, "': unknown key '", k, "' (known: n, seed)");
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  require(p.n_samples >= 10 && p.n_samples <= 100000000, "dataset '", spec, "': n must be in 10..1e8");
  Rng rng = Rng(mix64(seed)).derive("make_classification").derive(spec.substr(0, 7));
  return make_classification(p, rng, spec);
}

}  // namespace dpf
