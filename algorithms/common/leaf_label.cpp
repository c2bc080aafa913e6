#include "algorithms/common/leaf_label.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "core/util/named.hpp"

namespace dpf {

namespace {

constexpr NamedValue<LeafMechanism> kLeafMechanisms[] = {{"smooth", LeafMechanism::kSmooth},
                                                         {"global", LeafMechanism::kGlobal},
                                                         {"pf", LeafMechanism::kPermuteAndFlip},
                                                         {"em-counts", LeafMechanism::kEmCounts},
                                                         {"majority", LeafMechanism::kMajority}};

}  // namespace

LeafMechanism parse_leaf_mechanism(const std::string& s) {
  if (const LeafMechanism* m = value_named(kLeafMechanisms, s)) return *m;
  fail("leaf_mechanism: unknown value '", s,
       "' (known: ", join_names(kLeafMechanisms, [](const auto& n) { return n.name; }), ")");
}

const char* to_string(LeafMechanism m) { return name_of(kLeafMechanisms, m); }

int64_t majority_gap(std::span<const int32_t> counts) {
  int64_t first = -1, second = 0;
  for (int32_t c : counts) {
    if (c > first) {
      second = std::max<int64_t>(first, 0);
      first = c;
    } else if (c > second) {
      second = c;
    }
  }
  return counts.size() < 2 ? std::max<int64_t>(first, 0) : first - second;
}

double smooth_sensitivity(int64_t gap, double epsilon) { return std::exp(-static_cast<double>(gap) * epsilon); }

double smooth_em_exponent(int64_t gap, double epsilon) {
  // Paper §4.1 / Theorem 1: exponent eps u / (2 S), S = e^(-j eps). The authors' code: a = 50 when
  // S < 1e-10 (j eps > ln 1e10), otherwise min(50, eps / (2 S)) (smooth-rdf.md §1.6).
  const double je = static_cast<double>(gap) * epsilon;
  if (je > 10.0 * std::log(10.0)) return 50.0;
  return std::min(50.0, std::exp(std::log(epsilon / 2.0) + je));
}

int release_leaf_label(LeafMechanism m, std::span<const int32_t> counts, double epsilon, Rng& rng) {
  const std::size_t k = counts.size();
  require(k >= 1, "leaf label: no classes");
  const int32_t top = *std::max_element(counts.begin(), counts.end());
  std::vector<double> score(k);
  switch (m) {
    case LeafMechanism::kMajority:
      return static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
    case LeafMechanism::kSmooth:
    case LeafMechanism::kGlobal: {
      // Score u(c) = 1 for every (tied) maximum, else 0 (§4.1). Pr(c) ∝ exp(a u(c)) with
      // a = eps/(2 S): smooth S = e^(-j eps) (Theorem 1, the published rule), global S = Δu = 1
      // (Fig. 4). exponential_mechanism computes exp(eps' u / (2 Δ)): pass eps' = 2a, Δ = 1.
      for (std::size_t c = 0; c < k; ++c) score[c] = counts[c] == top ? 1.0 : 0.0;
      const double a = m == LeafMechanism::kSmooth ? smooth_em_exponent(majority_gap(counts), epsilon) : epsilon / 2.0;
      return static_cast<int>(exponential_mechanism(rng, score, 2.0 * a, 1.0));
    }
    case LeafMechanism::kPermuteAndFlip:
    case LeafMechanism::kEmCounts: {
      // Raw counts: add/remove-one changes one count by 1 and only upwards (monotone), so the
      // factor 2 is dropped: pass Δ/2 = 0.5 (McKenna & Sheldon 2020 Alg. 1; McSherry & Talwar 2007;
      // diffprivlib's monotonic PF, smooth-rdf.md §3.1).
      for (std::size_t c = 0; c < k; ++c) score[c] = counts[c];
      return static_cast<int>(m == LeafMechanism::kPermuteAndFlip ? permute_and_flip(rng, score, epsilon, 0.5)
                                                                  : exponential_mechanism(rng, score, epsilon, 0.5));
    }
  }
  return 0;
}

}  // namespace dpf
