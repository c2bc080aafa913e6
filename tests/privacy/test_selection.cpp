// Exponential mechanism and permute-and-flip over finite sets (privacy.md §7.3 rows 3-4, §7.6 M2).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/privacy/exact.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "privacy/stat_util.hpp"

using dpf::Rng;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

struct UtilitySet {
  std::string name;
  std::vector<double> scores;
};

// The utility sets of privacy.md §7.3.
std::vector<UtilitySet> utility_sets() {
  std::vector<UtilitySet> sets;
  sets.push_back({"(2,1,0)", {2, 1, 0}});
  std::vector<double> five(10, 0.0);
  five[0] = 5;
  sets.push_back({"(5,0^9)", five});
  sets.push_back({"ties k=10", std::vector<double>(10, 0.0)});
  Rng g(0xC0FFEE);
  std::vector<double> rnd(20);
  for (double& v : rnd) v = static_cast<double>(g.below(6));
  sets.push_back({"random 0..5 k=20", rnd});
  sets.push_back({"(0,-50,-100)", {0, -50, -100}});
  return sets;
}

template <typename Sampler>
std::vector<uint64_t> histogram(std::size_t k, std::size_t n, Sampler&& draw) {
  std::vector<uint64_t> counts(k, 0);
  for (std::size_t i = 0; i < n; ++i) ++counts[draw()];
  return counts;
}

// Brute force over all k! orders: P(i) = mean over orders of p_i * prod_{j before i} (1 - p_j), with
// p_j = exp(c (s_j - max)) at the mechanism's c = epsilon / (2 (sens + grid)) (mechanisms.hpp).
std::vector<double> pf_brute_force(const std::vector<double>& scores, double eps, double sens) {
  const std::size_t k = scores.size();
  const double smax = *std::max_element(scores.begin(), scores.end());
  const double c = dpf::SelectionScale(eps, sens).c();
  std::vector<double> p(k), out(k, 0.0);
  for (std::size_t j = 0; j < k; ++j) p[j] = std::exp(c * (scores[j] - smax));
  std::vector<std::size_t> order(k);
  std::iota(order.begin(), order.end(), 0);
  double perms = 0;
  do {
    perms += 1;
    double reach = 1.0;
    for (std::size_t t = 0; t < k; ++t) {
      out[order[t]] += reach * p[order[t]];
      reach *= 1.0 - p[order[t]];
    }
  } while (std::next_permutation(order.begin(), order.end()));
  for (double& v : out) v /= perms;
  return out;
}

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("EM probabilities: closed form, log base, -inf, all -inf, epsilon = inf") {
    const std::vector<double> s{2, 1, 0};
    auto p = dpf::exponential_mechanism_probabilities(s, 1.0, 1.0);
    const double z = std::exp(1.0) + std::exp(0.5) + 1.0;
    CHECK(p[0] == doctest::Approx(std::exp(1.0) / z));
    CHECK(p[2] == doctest::Approx(1.0 / z));
    CHECK(p[0] == doctest::Approx(0.506).epsilon(1e-3));  // privacy.md §7.3
    // Base measure: integer weights multiply the exponential weights; 0 excludes.
    const std::vector<uint64_t> lb{2, 1, 0};
    p = dpf::exponential_mechanism_probabilities(s, 1.0, 1.0, lb);
    const double z2 = 2 * std::exp(1.0) + std::exp(0.5);
    CHECK(p[0] == doctest::Approx(2 * std::exp(1.0) / z2));
    CHECK(p[2] == 0.0);
    // Underflow: huge gaps keep the top candidate at probability 1 without NaN.
    p = dpf::exponential_mechanism_probabilities(std::vector<double>{1e6, 0, -1e6}, 2.0, 1.0);
    CHECK(p[0] == 1.0);
    CHECK(p[2] == 0.0);
    p = dpf::exponential_mechanism_probabilities(std::vector<double>{-kInf, 3, -kInf}, 1.0, 1.0);
    CHECK(p == std::vector<double>{0, 1, 0});
    p = dpf::exponential_mechanism_probabilities(std::vector<double>{-kInf, -kInf}, 1.0, 1.0);
    CHECK(p == std::vector<double>{0.5, 0.5});
    p = dpf::exponential_mechanism_probabilities(std::vector<double>{1, 3, 3, 2}, kInf, 1.0);
    CHECK(p == std::vector<double>{0, 0.5, 0.5, 0});
    // Monotone utilities: sensitivity/2 is exp(eps u / Delta).
    p = dpf::exponential_mechanism_probabilities(std::vector<double>{1, 0}, 1.0, 0.5);
    CHECK(p[0] == doctest::Approx(std::exp(1.0) / (std::exp(1.0) + 1)));
  }

  TEST_CASE("EM and PF samples never pick probability-0 candidates and are deterministic") {
    const std::vector<double> s{-kInf, 1, -kInf, 0};
    const std::vector<uint64_t> lb{1, 1, 1, 0};
    Rng a(17), b(17);
    for (int i = 0; i < 2000; ++i) {
      const std::size_t e = dpf::exponential_mechanism(a, s, 1.0, 1.0, lb);
      CHECK(e == 1);
      const std::size_t f = dpf::permute_and_flip(a, s, 1.0, 1.0);
      CHECK((f == 1 || f == 3));
      CHECK(dpf::exponential_mechanism(b, s, 1.0, 1.0, lb) == e);
      CHECK(dpf::permute_and_flip(b, s, 1.0, 1.0) == f);
    }
    Rng c(3);
    for (int i = 0; i < 200; ++i) {
      const std::size_t v = dpf::permute_and_flip(c, std::vector<double>{1, 5, 5, 0}, kInf, 1.0);
      CHECK((v == 1 || v == 2));
    }
  }

  TEST_CASE("PF exact probabilities agree with brute force over all orders") {
    Rng g(404);
    for (std::size_t k = 1; k <= 7; ++k) {
      for (int rep = 0; rep < 3; ++rep) {
        std::vector<double> s(k);
        for (double& v : s) v = static_cast<double>(g.below(5)) - 2.0;
        for (double eps : {0.1, 1.0, 3.0}) {
          const auto exact = dpf::permute_and_flip_probabilities(s, eps, 1.0);
          const auto brute = pf_brute_force(s, eps, 1.0);
          for (std::size_t i = 0; i < k; ++i) CHECK(exact[i] == doctest::Approx(brute[i]).epsilon(1e-12));
        }
      }
    }
    // k = 2 closed form: P(loser) = p / 2.
    const auto p2 = dpf::permute_and_flip_probabilities(std::vector<double>{1, 0}, 2.0, 1.0);
    CHECK(p2[1] == doctest::Approx(std::exp(-1.0) / 2));
  }

  TEST_CASE("PF exact probabilities are stable for k = 50") {
    Rng g(505);
    std::vector<double> s(50);
    for (double& v : s) v = g.uniform(0.0, 20.0);
    for (double eps : {0.01, 1.0, 10.0}) {
      const auto p = dpf::permute_and_flip_probabilities(s, eps, 1.0);
      CHECK(sum(p) == doctest::Approx(1.0).epsilon(1e-12));
      for (double v : p) CHECK_UNARY(v >= 0.0);
    }
    // All ties: uniform.
    const auto u = dpf::permute_and_flip_probabilities(std::vector<double>(50, 1.0), 1.0, 1.0);
    for (double v : u) CHECK(v == doctest::Approx(0.02).epsilon(1e-12));
  }

  TEST_CASE("selection mechanisms reject bad inputs") {
    Rng r(1);
    const std::vector<double> s{1, 2};
    const std::vector<double> empty;
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, empty, 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::permute_and_flip(r, empty, 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, s, 0.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, s, -1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, s, std::nan(""), 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, s, 1.0, 0.0), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, s, 1.0, kInf), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, s, 1.0, 1.0, std::vector<uint64_t>{1}), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, std::vector<double>{1, std::nan("")}, 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::exponential_mechanism(r, std::vector<double>{1, kInf}, 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(dpf::permute_and_flip_probabilities(s, 1.0, -2.0), dpf::Error);
    CHECK_THROWS_AS(dpf::permute_and_flip(r, std::vector<double>{std::nan("")}, 1.0, 1.0), dpf::Error);
    try {
      dpf::exponential_mechanism(r, empty, 1.0, 1.0);
    } catch (const dpf::Error& e) {
      CHECK(std::string(e.what()).find("empty") != std::string::npos);
    }
  }

  TEST_CASE("check_epsilon names the caller") {
    CHECK_NOTHROW(dpf::check_epsilon(0.5, "leaf"));
    for (double e : {0.0, -1.0, std::nan(""), kInf}) {
      try {
        dpf::check_epsilon(e, "leaf noise");
        FAIL("no throw for " << e);
      } catch (const dpf::Error& err) {
        CHECK(std::string(err.what()).find("leaf noise") != std::string::npos);
      }
    }
  }
}

TEST_SUITE("statistical") {
  // 5 utility sets x epsilon {0.1, 1, 2} x sensitivity {1, 1/2 (monotone form)} = 30 chi-square
  // tests per mechanism, each at alpha = 1e-5 with n = 200000 draws (privacy.md §7.3). Bins with
  // expectation < 5 are pooled; the critical value is the exact chi-square(df) 1 - 1e-5 quantile.
  TEST_CASE("EM samples match the exact probabilities (30 chi-square tests, alpha = 1e-5 each, n = 200000)") {
    const std::size_t n = 200000;
    uint64_t seed = 10000;
    for (const auto& set : utility_sets()) {
      for (double eps : {0.1, 1.0, 2.0}) {
        for (double sens : {1.0, 0.5}) {
          const auto probs = dpf::exponential_mechanism_probabilities(set.scores, eps, sens);
          Rng r(seed++);
          const auto counts = histogram(set.scores.size(), n, [&] { return dpf::exponential_mechanism(r, set.scores, eps, sens); });
          const auto t = dpf::test::chi_square_test(counts, probs);
          INFO(set.name << " eps " << eps << " sens " << sens << ": X2 = " << t.statistic << " df " << t.df
                        << " critical " << t.critical);
          CHECK_FALSE(t.reject);
        }
      }
    }
  }

  TEST_CASE("EM with a base measure and -inf entries matches (chi-square, alpha = 1e-5, n = 200000)") {
    const std::vector<double> s{2, 1, 0, 3, -kInf};
    const std::vector<uint64_t> lb{2, 6, 0, 1, 2};
    const auto probs = dpf::exponential_mechanism_probabilities(s, 1.0, 1.0, lb);
    Rng r(11000);
    const auto counts = histogram(s.size(), 200000, [&] { return dpf::exponential_mechanism(r, s, 1.0, 1.0, lb); });
    CHECK(counts[2] == 0);
    CHECK(counts[4] == 0);
    CHECK_FALSE(dpf::test::chi_square_test(counts, probs).reject);
  }

  TEST_CASE("PF samples match the exact probabilities (30 chi-square tests, alpha = 1e-5 each, n = 200000)") {
    const std::size_t n = 200000;
    uint64_t seed = 20000;
    for (const auto& set : utility_sets()) {
      for (double eps : {0.1, 1.0, 2.0}) {
        for (double sens : {1.0, 0.5}) {
          const auto probs = dpf::permute_and_flip_probabilities(set.scores, eps, sens);
          Rng r(seed++);
          const auto counts = histogram(set.scores.size(), n, [&] { return dpf::permute_and_flip(r, set.scores, eps, sens); });
          const auto t = dpf::test::chi_square_test(counts, probs);
          INFO(set.name << " eps " << eps << " sens " << sens << ": X2 = " << t.statistic << " df " << t.df
                        << " critical " << t.critical);
          CHECK_FALSE(t.reject);
        }
      }
    }
  }

  TEST_CASE("EM/PF without the factor 2 (mutant M2) are rejected by the same statistic (alpha = 1e-5, n = 200000)") {
    // Dropping the 2 is the same as halving the sensitivity. On (2,1,0): at eps = 1 P(top) moves
    // .506 -> .665 (n ~ 600 suffices), at eps = 0.1 .350 -> .367 (n ~ 4.8e4; privacy.md §7.3).
    const std::size_t n = 200000;
    const std::vector<double> s{2, 1, 0};
    uint64_t seed = 30000;
    for (double eps : {0.1, 1.0}) {
      Rng r(seed++), q(seed++);
      const auto em = histogram(3, n, [&] { return dpf::exponential_mechanism(r, s, eps, 0.5); });
      const auto tem = dpf::test::chi_square_test(em, dpf::exponential_mechanism_probabilities(s, eps, 1.0));
      INFO("EM mutant eps " << eps << ": X2 = " << tem.statistic << " critical " << tem.critical);
      CHECK(tem.reject);
      const auto pf = histogram(3, n, [&] { return dpf::permute_and_flip(q, s, eps, 0.5); });
      const auto tpf = dpf::test::chi_square_test(pf, dpf::permute_and_flip_probabilities(s, eps, 1.0));
      INFO("PF mutant eps " << eps << ": X2 = " << tpf.statistic << " critical " << tpf.critical);
      CHECK(tpf.reject);
    }
  }
}
