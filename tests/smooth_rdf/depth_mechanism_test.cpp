// smooth-rdf: the depth rule (Table 4), Table 2's smooth sensitivities, the leaf-label mechanisms
// (exact exponents and their sampled distributions) and JPW's depth.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "algorithms/jpw/jpw.hpp"
#include "algorithms/common/rdf_depth.hpp"
#include "algorithms/common/leaf_label.hpp"
#include "core/privacy/mechanisms.hpp"
#include "privacy/stat_util.hpp"

using namespace dpf;

TEST_SUITE("unit") {
  TEST_CASE("smooth-rdf depth rule gives Table 4's depth for all 14 rows") {
    struct Row { const char* name; int s, r, depth; };
    // Paper Table 4 (continuous / discrete / depth), transcribed in smooth-rdf.md §1.3 and §5.3.
    const std::vector<Row> table4 = {
        {"SynthA", 5, 0, 5},      {"SynthB", 10, 0, 8},    {"SynthC", 15, 0, 12},   {"SynthD", 15, 0, 12},
        {"SynthE", 15, 0, 12},    {"SynthF", 10, 0, 8},    {"SynthG", 20, 0, 15},   {"WallSensor", 4, 0, 4},
        {"PenWritten", 16, 0, 12}, {"GammaTele", 10, 0, 8}, {"Adult", 6, 8, 9},      {"Mushroom", 0, 22, 11},
        {"Claves", 0, 16, 8},     {"Nursery", 0, 8, 4}};
    for (const Row& r : table4) {
      CAPTURE(r.name);
      CHECK(smooth_rdf_depth(r.s, r.r) == r.depth);
      // The literal Theorem 2 is one shallower wherever there are continuous features (§1.3).
      CHECK(smooth_rdf_depth_literal(r.s, r.r) == r.depth - (r.s > 0 ? 1 : 0));
    }
    CHECK(untested_continuous(5, 4) == doctest::Approx(2.048));
    CHECK(half_m_depth(15, false) == 7);
    CHECK(half_m_depth(15, true) == 8);
  }

  TEST_CASE("Table 2: smooth sensitivity e^(-j eps) to the printed precision") {
    // Printed values (truncated, not rounded, by the paper: smooth-rdf.md §5.3).
    struct Cell { int j; double eps, printed, abs_tol; };
    const std::vector<Cell> t2 = {
        {1, 0.01, 0.99004, 2e-5}, {1, 0.1, 0.90483, 1e-5}, {1, 1.0, 0.36788, 1e-5}, {5, 0.01, 0.95122, 1e-5},
        {5, 0.1, 0.60653, 1e-5},  {5, 1.0, 0.00674, 1e-5}, {10, 0.01, 0.90483, 1e-5}, {10, 0.1, 0.36788, 1e-5},
        {10, 1.0, 0.00005, 1e-5}, {50, 0.01, 0.60653, 1e-5}, {50, 0.1, 0.00674, 1e-5}, {100, 0.01, 0.36788, 1e-5},
        {100, 0.1, 0.00005, 1e-5}, {500, 0.01, 0.00674, 1e-5}, {0, 1.0, 1.0, 0.0}};
    for (const Cell& c : t2) {
      CAPTURE(c.j);
      CAPTURE(c.eps);
      CHECK(std::abs(smooth_sensitivity(c.j, c.eps) - c.printed) <= c.abs_tol);
    }
    // The very small entries, relative to their printed significant digits.
    CHECK(smooth_sensitivity(50, 1.0) == doctest::Approx(1.93e-22).epsilon(0.01));
    CHECK(smooth_sensitivity(100, 1.0) == doctest::Approx(3.72e-44).epsilon(0.01));
    CHECK(smooth_sensitivity(500, 1.0) == doctest::Approx(7.12e-218).epsilon(0.01));
    CHECK(smooth_sensitivity(500, 0.1) == doctest::Approx(1.93e-22).epsilon(0.01));
  }

  TEST_CASE("smooth EM exponent and closed-form probabilities (smooth-rdf.md §1.6 example)") {
    CHECK(majority_gap(std::vector<int32_t>{3, 7, 2}) == 4);
    CHECK(majority_gap(std::vector<int32_t>{5, 5}) == 0);
    CHECK(majority_gap(std::vector<int32_t>{0, 1}) == 1);
    CHECK(smooth_em_exponent(0, 1.0) == doctest::Approx(0.5));
    CHECK(smooth_em_exponent(1, 1.0) == doctest::Approx(1.359).epsilon(1e-3));
    CHECK(smooth_em_exponent(2, 1.0) == doctest::Approx(3.69).epsilon(1e-3));
    CHECK(smooth_em_exponent(5, 1.0) == 50.0);   // the cap binds once e^(j eps) > 100 / eps
    CHECK(smooth_em_exponent(30, 1.0) == 50.0);  // S < 1e-10 shortcut
    auto pmaj = [](int64_t j) {
      const double a = smooth_em_exponent(j, 1.0);
      return std::exp(a) / (std::exp(a) + 1.0);
    };
    CHECK(pmaj(1) == doctest::Approx(0.796).epsilon(1e-3));
    CHECK(pmaj(2) == doctest::Approx(0.976).epsilon(1e-3));
    // The privacy caveat of privacy.md §6.1: (0,1) vs (0,2) minority probabilities 0.204 vs 0.0243.
    CHECK(1.0 - pmaj(1) == doctest::Approx(0.204).epsilon(2e-3));
    CHECK(1.0 - pmaj(2) == doctest::Approx(0.0243).epsilon(5e-3));
    CHECK(std::log((1.0 - pmaj(1)) / (1.0 - pmaj(2))) > 2.0);
  }

  TEST_CASE("JPW depth min(m/2, log_b n - 1) for smooth-rdf.md §2.1's examples (n = 27,000)") {
    auto cont = [](int m) { return std::vector<int>(static_cast<std::size_t>(m), 2); };
    CHECK(jpw_depth(cont(5), 27000, false) == 2);
    CHECK(jpw_depth(cont(10), 27000, false) == 5);
    CHECK(jpw_depth(cont(15), 27000, false) == 7);
    CHECK(jpw_depth(cont(15), 27000, true) == 8);
    CHECK(jpw_depth(cont(20), 27000, false) == 10);
    CHECK(jpw_depth({3, 5, 4, 4, 3, 2, 3, 3}, 11664, false) == 4);  // Nursery
    std::vector<int> adult = cont(6);
    for (int v : {7, 16, 7, 14, 6, 5, 2, 41}) adult.push_back(v);
    CHECK(jpw_depth(adult, 27146, false) == 3);  // log_b n - 1 = 3.95 binds
    CHECK(jpw_depth(adult, 27146, true) == 4);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("leaf-label samplers match their exact distributions (alpha = 1e-5 each, 20,000 draws)") {
    const std::vector<std::vector<int32_t>> leaves = {{0, 1}, {3, 1, 3}, {2, 0, 1, 0}, {4, 4}};
    for (const auto& counts : leaves) {
      for (LeafMechanism m : {LeafMechanism::kSmooth, LeafMechanism::kGlobal, LeafMechanism::kPermuteAndFlip,
                              LeafMechanism::kEmCounts}) {
        CAPTURE(to_string(m));
        const std::size_t k = counts.size();
        std::vector<double> u(k), probs;
        const int32_t top = *std::max_element(counts.begin(), counts.end());
        if (m == LeafMechanism::kSmooth || m == LeafMechanism::kGlobal) {
          for (std::size_t c = 0; c < k; ++c) u[c] = counts[c] == top;
          const double a = m == LeafMechanism::kSmooth ? smooth_em_exponent(majority_gap(counts), 1.0) : 0.5;
          double z = 0.0;
          for (double s : u) z += std::exp(a * s);
          for (double s : u) probs.push_back(std::exp(a * s) / z);  // Pr(c) ∝ exp(a u(c)), §1.6
        } else {
          for (std::size_t c = 0; c < k; ++c) u[c] = counts[c];
          probs = m == LeafMechanism::kPermuteAndFlip ? permute_and_flip_probabilities(u, 1.0, 0.5)
                                                      : exponential_mechanism_probabilities(u, 1.0, 0.5);
        }
        Rng rng(42);
        std::vector<uint64_t> hist(k, 0);
        const int n = 20000;
        for (int i = 0; i < n; ++i) ++hist[static_cast<std::size_t>(release_leaf_label(m, counts, 1.0, rng))];
        const auto r = test::chi_square_test(hist, probs);
        CHECK_FALSE(r.reject);
      }
    }
  }
}
