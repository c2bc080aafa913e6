// The DiPriMe theorems of dipreme.md §5 as statistical tests, each with a stated false-alarm rate.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "algorithms/dipreme/median.hpp"
#include "algorithms/algo_fixtures.hpp"
#include "core/privacy/mechanisms.hpp"

using namespace dpf;

namespace {

constexpr double kAlpha = 1e-5;  // false-alarm rate of every test below (privacy.md §7.1)

// Left-child fractions of the binary internal nodes with at least `min_count` rows.
std::vector<double> left_fractions(const ForestModel& m, int min_count) {
  std::vector<double> out;
  for (const Tree& t : m.trees())
    for (const Node& n : t.nodes())
      if (n.kind != SplitKind::kLeaf && n.n_children == 2 && n.count >= min_count)
        out.push_back(static_cast<double>(t.nodes()[static_cast<std::size_t>(n.first_child)].count) / n.count);
  return out;
}

double share_within(const std::vector<double>& v, double lo, double hi) {
  std::size_t k = 0;
  for (double x : v) k += x >= lo && x <= hi;
  return v.empty() ? 0.0 : static_cast<double>(k) / static_cast<double>(v.size());
}

}  // namespace

TEST_SUITE("statistical") {
  TEST_CASE("[ICML] Thm 3: the EM median's smaller child holds >= t points with at least the stated probability") {
    // N = 100 evenly spaced points x_i = (i + 1/2)/N in [0, R], R = 1. The N - 2t central points span
    // d = (N - 2t - 1)/N, and Thm 3 says P(smaller child >= t) >= d / (R e^-ε + d (1 - e^-ε)).
    // Monte Carlo, n = 20,000 draws per (ε, t), 9 cases. One-sided exact binomial test: fail if
    // P(Binomial(n, bound) <= observed) < α = 1e-5 (equivalently, the one-sided Clopper-Pearson
    // upper limit at level 1 - α lies below the bound). A correct sampler fails a case w.p. <= 1e-5.
    const int kN = 100;
    const double kR = 1.0;
    std::vector<double> xs(kN);
    for (int i = 0; i < kN; ++i) xs[static_cast<std::size_t>(i)] = (i + 0.5) / kN;
    const uint64_t n = 20000;
    for (double eps : {0.02, 0.1, 0.5})
      for (int t : {10, 25, 40}) {
        CAPTURE(eps);
        CAPTURE(t);
        const double d = static_cast<double>(kN - 2 * t - 1) / kN;
        const double bound = d / (kR * std::exp(-eps) + d * (1 - std::exp(-eps)));
        CHECK(bound >= d / kR);  // Cor 3.1: at least as balanced as a uniform threshold
        Rng rng(1000 + static_cast<uint64_t>(t) + static_cast<uint64_t>(eps * 1000));
        uint64_t hits = 0;
        for (uint64_t i = 0; i < n; ++i) {
          const double r = numeric_median_split(rng, xs, 0.0, kR, eps, NumericMedian::kExponential);
          const auto left = static_cast<int>(std::lower_bound(xs.begin(), xs.end(), r) - xs.begin());
          hits += std::min(left, kN - left) >= t;
        }
        const double p_low = dpf::test::binom_cdf(n, hits, bound);
        CAPTURE(static_cast<double>(hits) / static_cast<double>(n));
        CAPTURE(bound);
        CHECK(p_low >= kAlpha);
      }
  }

  TEST_CASE("[ICML] Thm 2: two unclamped Laplace(1/ε) leaf counts with gap Δ flip w.p. (εΔ/4 + 1/2) e^-εΔ") {
    // The leaf's noise (sample_laplace with scale 1/ε_ℓ, as ClassCountLeaf draws it) before clamping:
    // counts c and c + Δ flip when the noisy smaller count exceeds the noisy larger one.
    // n = 100,000 pairs per (ε, Δ), 6 cases; two-sided exact binomial test at α = 1e-5 per case
    // (fail if either tail probability of the observed count is below α/2).
    const uint64_t n = 100000;
    for (double eps : {0.5, 1.0, 2.0})
      for (double gap : {1.0, 3.0}) {
        CAPTURE(eps);
        CAPTURE(gap);
        const double p = (eps * gap / 4 + 0.5) * std::exp(-eps * gap);
        Rng rng(77 + static_cast<uint64_t>(eps * 10 + gap));
        uint64_t flips = 0;
        for (uint64_t i = 0; i < n; ++i) {
          const double low = 10.0 + sample_laplace(rng, 1.0 / eps);
          const double high = 10.0 + gap + sample_laplace(rng, 1.0 / eps);
          flips += low > high;
        }
        CAPTURE(static_cast<double>(flips) / static_cast<double>(n));
        CAPTURE(p);
        CHECK(dpf::test::binom_cdf(n, flips, p) >= kAlpha / 2);
        CHECK(dpf::test::binom_sf(n, flips, p) >= kAlpha / 2);
      }
  }

  TEST_CASE("balance: DiPriMe's left-child fractions concentrate near 1/2, DP-ERT's random splits do not") {
    // [ICML] Fig. 4 setting (dipreme.md §6.3): not partitioned, depth 5, ε = 1 per tree, ρ = 0.5, K = 1;
    // 40 trees each on banknote (1372 rows). Statistic: the share of binary internal nodes holding
    // >= 40 rows whose left-child fraction lies in [0.3, 0.7]. With seed 11 it is 0.85 of 1234 nodes for
    // DiPriMe and 0.22 of 553 for DP-ERT; the thresholds leave room for other seeds.
    auto data = dpf::test::banknote();
    if (!data) return;
    auto dp = dpf::test::fit_registry("dipreme",
                                      {{"epsilon", "40"}, {"n_trees", "40"}, {"max_depth", "5"}, {"partition", "false"}},
                                      *data, 11);
    auto ert = dpf::test::fit_registry("dp-ert", {{"epsilon", "40"}, {"n_trees", "40"}, {"max_depth", "5"}}, *data, 11);
    const auto fd = left_fractions(*dp.forest(), 40), fe = left_fractions(*ert.forest(), 40);
    const double sd = share_within(fd, 0.3, 0.7), se = share_within(fe, 0.3, 0.7);
    CAPTURE(fd.size());
    CAPTURE(fe.size());
    CAPTURE(sd);
    CAPTURE(se);
    MESSAGE("balanced share (left fraction in [0.3, 0.7]): DiPriMe ", sd, " of ", fd.size(), " nodes, DP-ERT ", se,
            " of ", fe.size());
    REQUIRE(fd.size() >= 200);
    REQUIRE(fe.size() >= 100);
    CHECK(sd >= 0.75);
    CHECK(se <= 0.4);
    CHECK(sd - se >= 0.4);
  }
}
