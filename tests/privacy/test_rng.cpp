// Counter-based RNG (privacy.md §5, §7.2 item 5): Philox known answers, stream derivation, and the
// integer/shuffle distributions built on it.
#include <Random123/philox.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/privacy/rng.hpp"
#include "privacy/stat_util.hpp"

using dpf::Rng;

namespace {
std::array<uint32_t, 4> philox(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
  r123::Philox4x32 gen;
  r123::Philox4x32::ctr_type ctr = {{c[0], c[1], c[2], c[3]}};
  r123::Philox4x32::key_type key = {{k[0], k[1]}};
  auto out = gen(ctr, key);
  return {out[0], out[1], out[2], out[3]};
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("Philox4x32-10 matches the Random123 known-answer vectors") {
    // Random123 kat_vectors: counter[4] key[2] -> output[4].
    CHECK(philox({0, 0, 0, 0}, {0, 0}) == std::array<uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
    CHECK(philox({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
          std::array<uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
    CHECK(philox({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
          std::array<uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
  }

  TEST_CASE("Rng words are Philox blocks of (counter, key), low half first") {
    Rng r(0);
    CHECK(r.next_u64() == ((uint64_t{0xe169c58d} << 32) | 0x6627e8d5));
    CHECK(r.next_u64() == ((uint64_t{0x9b00dbd8} << 32) | 0xbc57ac4c));
    CHECK(r.draws() == 1);  // one block consumed
    const uint64_t key = 0x0123456789abcdefULL;
    Rng s(key);
    for (uint32_t c = 0; c < 3; ++c) {
      auto b = philox({c, 0, 0, 0}, {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
      CHECK(s.next_u64() == ((uint64_t{b[1]} << 32) | b[0]));
      CHECK(s.next_u64() == ((uint64_t{b[3]} << 32) | b[2]));
    }
  }

  TEST_CASE("derive is deterministic, independent of the parent's position, and tag-sensitive") {
    Rng a(42), b(42);
    a.next_u64();  // advancing the parent must not change its children
    Rng ca = a.derive(7), cb = b.derive(7);
    CHECK(ca.key() == cb.key());
    for (int i = 0; i < 10; ++i) CHECK(ca.next_u64() == cb.next_u64());
    CHECK(b.draws() == 0);
    CHECK(b.derive(7).key() != b.derive(8).key());
    CHECK(b.derive("leaf").key() == b.derive("leaf").key());
    CHECK(b.derive("leaf").key() != b.derive("split").key());
    CHECK(b.derive(1, 2, 3).key() == b.derive(1).derive(2).derive(3).key());
    CHECK(b.derive(1, 2).key() != b.derive(2, 1).key());
    CHECK(Rng(1).derive(5).key() != Rng(2).derive(5).key());
  }

  TEST_CASE("uniform helpers stay in their ranges") {
    Rng r(3);
    for (int i = 0; i < 10000; ++i) {
      const double u = r.uniform();
      CHECK_UNARY(u >= 0.0);
      CHECK_UNARY(u < 1.0);
      const double o = r.uniform_open();
      CHECK_UNARY(o > 0.0);
      CHECK_UNARY(o < 1.0);
      const double v = r.uniform(-2.0, 5.0);
      CHECK_UNARY(v >= -2.0);
      CHECK_UNARY(v < 5.0);
    }
    CHECK(r.uniform(1.0, 1.0) == 1.0);
    CHECK(r.uniform(2.0, 1.0) == 2.0);
  }

  TEST_CASE("below respects its bounds") {
    Rng r(11);
    for (int i = 0; i < 1000; ++i) CHECK(r.below(1) == 0);
    for (uint64_t n : {uint64_t{2}, uint64_t{3}, uint64_t{1000}, (uint64_t{1} << 63) + 1, ~uint64_t{0}}) {
      for (int i = 0; i < 2000; ++i) CHECK(r.below(n) < n);
    }
  }

  TEST_CASE("shuffle yields a permutation and is deterministic") {
    for (std::size_t n : {0u, 1u, 2u, 17u, 200u}) {
      std::vector<int> v(n);
      std::iota(v.begin(), v.end(), 0);
      Rng r(99);
      r.shuffle(std::span<int>(v));
      std::vector<int> w(n);
      std::iota(w.begin(), w.end(), 0);
      Rng r2(99);
      r2.shuffle(std::span<int>(w));
      CHECK(v == w);
      std::sort(v.begin(), v.end());
      for (std::size_t i = 0; i < n; ++i) CHECK(v[i] == static_cast<int>(i));
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("below(7) is uniform (chi-square, alpha = 1e-5, n = 70000)") {
    Rng r(2024);
    const std::size_t n = 70000;
    std::vector<uint64_t> counts(7, 0);
    for (std::size_t i = 0; i < n; ++i) ++counts[r.below(7)];
    const auto t = dpf::test::chi_square_test(counts, std::vector<double>(7, 1.0 / 7.0));
    INFO("X2 = " << t.statistic << ", critical " << t.critical);
    CHECK_FALSE(t.reject);
  }

  TEST_CASE("below(n) is unbiased for n = 3 * 2^62, where a modulo reduction is not (alpha = 1e-5, n = 100000)") {
    // P(below(n) < 2^62) = 1/3. Two-sided z-test at alpha = 1e-5 (z = 4.4172). The mutant
    // `next_u64() % n` gives 1/2 and must be rejected by the same statistic.
    const uint64_t n_range = uint64_t{3} << 62;
    const std::size_t n = 100000;
    const double z_crit = 4.4172;
    auto z_of = [&](std::size_t hits) {
      const double p = 1.0 / 3.0;
      return std::fabs(static_cast<double>(hits) / n - p) / std::sqrt(p * (1 - p) / n);
    };
    Rng r(5), m(5);
    std::size_t hits = 0, mutant_hits = 0;
    for (std::size_t i = 0; i < n; ++i) {
      hits += r.below(n_range) < (uint64_t{1} << 62);
      mutant_hits += (m.next_u64() % n_range) < (uint64_t{1} << 62);
    }
    CHECK(z_of(hits) < z_crit);
    CHECK(z_of(mutant_hits) > z_crit);
  }

  TEST_CASE("shuffle of 3 elements gives each of the 6 orders equally often (chi-square, alpha = 1e-5, n = 60000)") {
    Rng r(77);
    const std::size_t n = 60000;
    std::vector<uint64_t> counts(6, 0);
    std::array<int, 3> base{0, 1, 2};
    for (std::size_t i = 0; i < n; ++i) {
      std::array<int, 3> v = base;
      r.shuffle(std::span<int>(v));
      // Rank of the permutation in lexicographic order.
      std::array<int, 3> p = base;
      int rank = 0;
      do {
        if (p == v) break;
        ++rank;
      } while (std::next_permutation(p.begin(), p.end()));
      ++counts[static_cast<std::size_t>(rank)];
    }
    const auto t = dpf::test::chi_square_test(counts, std::vector<double>(6, 1.0 / 6.0));
    INFO("X2 = " << t.statistic << ", critical " << t.critical);
    CHECK_FALSE(t.reject);
  }
}
