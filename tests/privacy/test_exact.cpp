// Exact sampling for selection by exponential weights (core/privacy/exact.hpp, docs/exact-sampling.md):
// the arithmetic (ln 2 bits, envelope exponents, the score grid), the support of the samplers (no
// candidate of positive weight has probability 0, shown with scripted random words), the laws of the
// coins, and the public threshold grid.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "core/privacy/exact.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"
#include "privacy/stat_util.hpp"

using dpf::Dyadic;
using dpf::Rng;

namespace {

// Words of a scripted stream: all ones at counters that are multiples of `period`, zero elsewhere.
// A zero word is a uniform in [0, 2^-64) (every coin "heads"), an all-ones word one in
// [1 - 2^-64, 1) ("tails"). Every stream derived from it follows the same pattern from its own
// counter 0. More than `limit` words aborts the attempt.
struct Pattern {
  uint64_t period;
  uint64_t limit = 1000000;
};
uint64_t pattern_word(const void* ctx, uint64_t /*key*/, uint64_t counter) {
  const auto* p = static_cast<const Pattern*>(ctx);
  if (counter > p->limit) throw std::runtime_error("scripted stream exhausted");
  return counter % p->period == 0 ? ~uint64_t{0} : 0;
}

// The smallest period in 1..max_period whose scripted stream makes draw() return `want` (0: none).
template <typename Draw>
uint64_t period_reaching(std::size_t want, uint64_t max_period, Draw&& draw) {
  for (uint64_t period = 1; period <= max_period; ++period) {
    Pattern p{period};
    Rng rng = Rng::scripted(pattern_word, &p, 7);
    try {
      if (draw(rng) == want) return period;
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}

// Words from a list, then all ones.
uint64_t listed_word(const void* ctx, uint64_t /*key*/, uint64_t counter) {
  const auto* w = static_cast<const std::vector<uint64_t>*>(ctx);
  return counter < w->size() ? (*w)[counter] : ~uint64_t{0};
}

long double dyadic_value(const Dyadic& x) { return std::ldexp(static_cast<long double>(x.mant), x.exp); }

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("ln 2 to any precision: the series agrees with the known 128 bits and stays consistent") {
    // ln 2 = 0.b17217f7d1cf79ab c9e3b39803f2f6af ... (hex digits; a lower bound within 2 ulps).
    auto l1 = dpf::ln2_limbs(1);
    CHECK((l1[0] == 0xB17217F7D1CF79ABULL || l1[0] == 0xB17217F7D1CF79AAULL));
    auto l2 = dpf::ln2_limbs(2);
    CHECK(l2[1] == 0xB17217F7D1CF79ABULL);
    CHECK((l2[0] == 0xC9E3B39803F2F6AFULL || l2[0] == 0xC9E3B39803F2F6AEULL));
    // A longer expansion starts with the shorter one (up to the last limb's bound).
    const std::vector<uint64_t> l9(dpf::ln2_limbs(9).begin(), dpf::ln2_limbs(9).end());
    auto l4 = dpf::ln2_limbs(4);
    for (int i = 1; i < 4; ++i) CHECK(l9[static_cast<std::size_t>(5 + i)] == l4[static_cast<std::size_t>(i)]);
  }

  TEST_CASE("envelope exponents: K ln 2 <= x < K ln 2 + 1 over random exponents up to 2^20") {
    Rng g(123);
    const long double ln2 = 0.693147180559945309417232121458176568L;
    for (int i = 0; i < 200000; ++i) {
      // Mantissas of 1 to 117 bits, scaled so that x lies anywhere in [2^-60, 2^20).
      const dpf::u128 full = (static_cast<dpf::u128>(g.next_u64() >> 11) << 64) | g.next_u64();
      const dpf::u128 mant = (full >> g.below(117)) | 1;
      int bits = 0;
      for (dpf::u128 m = mant; m != 0; m >>= 1) ++bits;
      const int exp = static_cast<int>(g.below(80)) - 60 - bits;
      const Dyadic x{mant, exp};
      const long double xv = dyadic_value(x);
      const int64_t K = dpf::envelope_exponent(x);
      INFO("x = " << static_cast<double>(xv) << " K = " << K);
      CHECK(static_cast<long double>(K) * ln2 <= xv);
      CHECK(xv - static_cast<long double>(K) * ln2 < 1.0L);
    }
    // Right at the multiples of ln 2: the nearest doubles on either side.
    for (int k = 1; k < 2000; ++k) {
      const double near = static_cast<double>(static_cast<long double>(k) * ln2);
      for (double x : {std::nextafter(near, 0.0), near, std::nextafter(near, 1e9)}) {
        int e = 0;
        const double f = std::frexp(x, &e);
        const Dyadic d{static_cast<dpf::u128>(std::ldexp(f, 53)), e - 53};
        const int64_t K = dpf::envelope_exponent(d);
        CHECK(static_cast<long double>(K) * ln2 <= dyadic_value(d));
        CHECK(dyadic_value(d) - static_cast<long double>(K) * ln2 < 1.0L);
      }
    }
  }

  TEST_CASE("the selection scale: grid, inflated sensitivity, c rounded down, the cap") {
    for (double sens : {0.5, 1.0, 3.0, 1e-3, 7.25e5}) {
      for (double eps : {1e-4, 0.1, 1.0, 3.7, 1e4}) {
        const dpf::SelectionScale sc(eps, sens);
        INFO("eps " << eps << " sens " << sens);
        CHECK(sc.grid() <= sens * 0x1p-20);
        CHECK(sc.grid() > sens * 0x1p-22);
        CHECK(sc.sensitivity_used() >= sens + sc.grid());
        CHECK(std::fma(sc.c(), 2.0 * sc.sensitivity_used(), -eps) <= 0.0);  // c 2 Delta' <= epsilon exactly
        CHECK(sc.c() > eps / (2.0 * sens) * (1.0 - 0x1p-19));               // and barely below epsilon / (2 Delta)
        // Exponents are exact c gap gamma below the cap, and exactly 2^10 from it on.
        for (uint64_t gap : {uint64_t{1}, uint64_t{3} << 20, uint64_t{1} << 40, uint64_t{1} << 62}) {
          const dpf::ExpWeight w = sc.weight(gap);
          const long double exact = static_cast<long double>(sc.c()) * static_cast<long double>(gap) * sc.grid();
          if (exact < 1024.0L) {
            CHECK(dyadic_value(w.x) == doctest::Approx(static_cast<double>(exact)).epsilon(1e-15));
          } else {
            CHECK(dyadic_value(w.x) == 1024.0L);
          }
          CHECK(w.K == dpf::envelope_exponent(w.x));
        }
      }
    }
    // Integer scores are on the grid; a score past 2^42 times the sensitivity is an error.
    const dpf::SelectionScale sc(1.0, 1.0);
    CHECK(sc.units(746.0, "t") == int64_t{746} << 20);
    CHECK(sc.units(-3.0, "t") == -(int64_t{3} << 20));
    CHECK_THROWS_AS(sc.units(0x1p43, "t"), dpf::Error);
  }

  // The defect: with exp() in doubles, a candidate 746 or more below the best has weight exp(-746) = 0
  // and can never be chosen, while on a neighbouring dataset it can: an infinite privacy loss. The
  // issue's example is a leaf of 746 class-0 rows (permute-and-flip on the counts, epsilon = 1,
  // monotone). Here a scripted stream of words shows the exact samplers DO choose such a candidate:
  // no sequence of words can do that when its weight is 0.
  TEST_CASE("permute-and-flip: a candidate exp(-746) below the best is reachable (its probability is not 0)") {
    const std::vector<double> counts{746, 0};
    const uint64_t period = period_reaching(1, 200, [&](Rng& r) { return dpf::permute_and_flip(r, counts, 1.0, 0.5); });
    CHECK(period > 0);
    // Far beyond: 10^6 below the best is capped at weight e^-1024 relative, still reachable.
    const std::vector<double> far{1e6, 0};
    CHECK(period_reaching(1, 200, [&](Rng& r) { return dpf::permute_and_flip(r, far, 1.0, 0.5); }) > 0);
  }

  TEST_CASE("exponential mechanism: a candidate exp(-746) below the best is reachable (its probability is not 0)") {
    const std::vector<double> scores{746, 0};
    CHECK(period_reaching(1, 200, [&](Rng& r) { return dpf::exponential_mechanism(r, scores, 2.0, 1.0); }) > 0);
    const std::vector<double> far{0, -1e7, -2e7};
    CHECK(period_reaching(2, 200, [&](Rng& r) { return dpf::exponential_mechanism(r, far, 2.0, 1.0); }) > 0);
  }

  TEST_CASE("interval EM: an interval exp(-746) below the best is reachable (its probability is not 0)") {
    // A domain whose grid has 9 points (doubles near 2^52 are 1 apart), so the envelope total stays
    // below 2^64 and an all-ones word picks the last grid point; the right interval is 1492 below.
    const double lo = 0x1p52;
    const std::vector<double> breaks{lo, lo + 4, lo + 8}, scores{0.0, -1492.0};
    REQUIRE(dpf::threshold_grid(lo, lo + 8) == 1.0);
    CHECK(period_reaching(1, 200, [&](Rng& r) {
            return dpf::interval_exponential_mechanism(r, breaks, scores, 1.0, 1.0).interval;
          }) > 0);
  }

  TEST_CASE("comparisons the first 64 bits cannot decide continue with more bits of U and of ln 2") {
    // x = 1/2 + 2^-100, K = 0: the first coin [U < x] with U's first word 2^63 (U in [1/2, 1/2 + 2^-64))
    // is decided by the second word; then CKS20's J is odd (accept) iff that first coin is tails.
    const Dyadic half_plus{(dpf::u128{1} << 99) + 1, -100};
    for (const auto& [second, accept] : {std::pair<uint64_t, bool>{0, false}, {~uint64_t{0}, true}}) {
      const std::vector<uint64_t> words{uint64_t{1} << 63, second};
      Rng r = Rng::scripted(listed_word, &words);
      CHECK(dpf::bernoulli_exp_scaled(r, dpf::exp_weight(half_plus), 0) == accept);
      CHECK(r.draws() >= 2);
    }
    // x = (floor(ln 2 2^64) + 2^62 + 1) 2^-64, K = 1: the first coin [U + ln 2 < x] with U's first word
    // 2^62 holds iff U's second word is below (1 - frac(ln 2 2^64)) 2^64 = 0.21137... 2^64, which
    // needs the second 64 bits of ln 2 (0xc9e3b398...). Heads there means J = 2: rejected.
    const Dyadic x{static_cast<dpf::u128>(0xB17217F7D1CF79ABULL) + (uint64_t{1} << 62) + 1, -64};
    REQUIRE(dpf::envelope_exponent(x) == 1);
    for (const auto& [second, accept] : {std::pair<double, bool>{0.2113, false}, {0.2114, true}}) {
      const std::vector<uint64_t> words{uint64_t{1} << 62, static_cast<uint64_t>(second * 0x1p64)};
      Rng r = Rng::scripted(listed_word, &words);
      INFO("second word " << second);
      CHECK(dpf::bernoulli_exp_scaled(r, dpf::exp_weight(x), 1) == accept);
    }
  }

  TEST_CASE("Bernoulli(2^-d) and the scripted stream hook") {
    Pattern p{3};
    Rng a = Rng::scripted(pattern_word, &p, 1);
    CHECK(a.next_u64() == ~uint64_t{0});
    CHECK(a.next_u64() == 0);
    CHECK(a.derive("x").next_u64() == ~uint64_t{0});  // derived streams follow the script from their own 0
    Pattern zeros{1000000000};
    Rng z = Rng::scripted(pattern_word, &zeros, 1);
    z.next_u64();
    CHECK(dpf::bernoulli_pow2(z, 200));  // 200 zero bits
    Rng o = Rng::scripted(pattern_word, &p, 1);
    CHECK_FALSE(dpf::bernoulli_pow2(o, 1));  // the first bit is 1
  }

  TEST_CASE("thresholds between data points are points of the public grid") {
    // The grid of [lo, hi]: a power of two, about 2^-40 of the domain, every point an exact double.
    CHECK(dpf::threshold_grid(0.0, 1.0) == 0x1p-40);
    CHECK(dpf::threshold_grid(-3.0, 5.0) == 0x1p-37);
    CHECK(dpf::threshold_grid(1e6, 1e6 + 1) >= 0x1p-33);  // doubles near 1e6 are 2^-33 apart
    // The old draw a + u (b - a) keeps the low bits of the data points a, b; the grid draw does not:
    // every released value is a multiple of the grid (a deterministic check over many draws).
    const double a = 0.3 + 0x1p-50, b = 0.3 + 0x1p-45;  // a data interval far finer than the grid...
    const std::vector<double> breaks{0.0, 0.1 + 0x1p-52, a, 0.7 + 0x1p-51, 1.0}, scores{-2, 0, -1, -3};
    const double r = dpf::threshold_grid(0.0, 1.0);
    Rng rng(99);
    for (int i = 0; i < 20000; ++i) {
      const dpf::IntervalDraw d = dpf::interval_exponential_mechanism(rng, breaks, scores, 1.0, 1.0);
      CHECK(std::fmod(d.value, r) == 0.0);
      CHECK(d.value > breaks[d.interval] - (d.interval == 0 ? 1.0 : 0.0));
      CHECK(d.value <= breaks[d.interval + 1]);
      const double u = dpf::uniform_threshold_between(rng, a, 0.7 + 0x1p-51, 0.0, 1.0);
      CHECK(std::fmod(u, r) == 0.0);
      CHECK((u > a && u <= 0.7));
    }
    // ...and an interval holding no grid point is never drawn, whatever its score.
    const std::vector<double> fine{0.0, a, b, 1.0}, best_fine{-1, 0, -1};
    const auto p = dpf::interval_exponential_mechanism_probabilities(fine, best_fine, 1.0, 1.0);
    CHECK(p[1] == 0.0);
    CHECK(dpf::uniform_threshold_between(rng, a, b, 0.0, 1.0) == std::floor(b / r) * r);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("exact Bernoulli(exp(-x) 2^k) matches its probability (12 binomial tests, alpha = 1e-5 each, n = 200000)") {
    // x from 0 to 40 with k from 0 to the envelope exponent; two-sided exact binomial test per case.
    const std::size_t n = 200000;
    uint64_t seed = 61000;
    const double cases[][2] = {{0.0, 0},  {0.1, 0},   {0.5, 0},   {1.0, 0},   {2.5, 0},  {2.5, 3},
                               {7.0, 10}, {10.0, 14}, {20.0, 28}, {40.0, 57}, {0.69, 0}, {0.7, 1}};
    for (const auto& c : cases) {
      int e = 0;
      const double f = std::frexp(c[0], &e);
      const Dyadic x{static_cast<dpf::u128>(std::ldexp(f, 53)), e - 53};
      const auto k = static_cast<int64_t>(c[1]);
      const dpf::ExpWeight w = dpf::exp_weight(x);
      REQUIRE(k <= w.K);
      const double p = std::exp(-c[0] + static_cast<double>(k) * std::log(2.0));
      Rng r(seed++);
      uint64_t hits = 0;
      for (std::size_t i = 0; i < n; ++i) hits += dpf::bernoulli_exp_scaled(r, w, k);
      const double z = (static_cast<double>(hits) - static_cast<double>(n) * p) /
                       std::sqrt(static_cast<double>(n) * p * (1 - p) + 1e-300);
      INFO("x " << c[0] << " k " << k << ": p " << p << " observed " << static_cast<double>(hits) / n << " z " << z);
      if (p == 1.0) {
        CHECK(hits == n);
      } else {
        CHECK(std::fabs(z) < 4.42);  // two-sided normal quantile at alpha = 1e-5 (n p (1 - p) > 100 here)
      }
    }
  }

  TEST_CASE("exact weighted draws with counts match count_j exp(-x_j) (chi-square, alpha = 1e-5, n = 200000)") {
    const dpf::SelectionScale sc(1.3, 1.0);
    const std::vector<uint64_t> count{3, 1, 0, 1000000, 7, 1};
    const std::vector<uint64_t> gap{uint64_t{2} << 20,   0, 0, uint64_t{12} << 20, uint64_t{1} << 19,
                                    uint64_t{3000} << 20};
    std::vector<double> probs(count.size());
    long double z = 0;
    for (std::size_t j = 0; j < count.size(); ++j)
      z += static_cast<long double>(count[j]) * std::exp(-dyadic_value(sc.weight(gap[j]).x));
    for (std::size_t j = 0; j < count.size(); ++j)
      probs[j] =
          static_cast<double>(static_cast<long double>(count[j]) * std::exp(-dyadic_value(sc.weight(gap[j]).x)) / z);
    Rng r(62000);
    std::vector<uint64_t> hist(count.size(), 0);
    for (int i = 0; i < 200000; ++i) {
      const dpf::WeightedDraw d = dpf::exact_weighted_draw(r, count, gap, sc);
      REQUIRE(d.offset < count[d.index]);
      ++hist[d.index];
    }
    CHECK(hist[2] == 0);
    const auto t = dpf::test::chi_square_test(hist, probs);
    INFO("X2 = " << t.statistic << " df " << t.df << " critical " << t.critical);
    CHECK_FALSE(t.reject);
  }
}
