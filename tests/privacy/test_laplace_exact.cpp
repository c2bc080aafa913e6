// The exact secure Laplace (core/privacy/mechanisms.cpp, geometric_exact, exp_bounds;
// docs/exact-sampling.md §7): rigorous bounds of e^-x against an independent high-precision value
// (Boost.Multiprecision), scripted words that put a uniform in the window only further bits decide,
// the digits the floating-point sampler could never set, and bit-identity with that sampler.
#include <doctest/doctest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/privacy/exp_bounds.hpp"
#include "core/privacy/mechanisms.hpp"

using dpf::Rng;
using dpf::u128;
namespace mp = boost::multiprecision;
using Big = mp::number<mp::cpp_bin_float<600>>;

namespace {

// ---- the floating-point sampler this replaced, kept verbatim as the bit-identity reference ----
namespace float_sampler_reference {
struct GeometricTable {
  double lambda = -1.0;
  int low_bits = 0;
  int high_bits = 0;
  uint64_t threshold[64] = {};
};
constexpr int kMaxMagnitudeBits = 62;
void build_table(GeometricTable& t, double lambda) {
  t.lambda = lambda;
  t.low_bits = 0;
  while (t.low_bits < kMaxMagnitudeBits && std::ldexp(lambda, t.low_bits + 1) <= 0x1p-5) ++t.low_bits;
  const double mu = std::ldexp(lambda, t.low_bits);
  t.high_bits = 0;
  while (t.low_bits + t.high_bits < kMaxMagnitudeBits) {
    const long double x = static_cast<long double>(std::ldexp(mu, t.high_bits));
    if (x > 45.0L) break;
    const long double p = 1.0L / (2.0L + std::expm1(x));
    t.threshold[t.high_bits++] = static_cast<uint64_t>(p * 0x1p64L);
  }
}
const GeometricTable& geometric_table(double lambda) {
  thread_local GeometricTable table;
  if (table.lambda != lambda) build_table(table, lambda);
  return table;
}
uint64_t sample_geometric(Rng& rng, const GeometricTable& t) {
  uint64_t low = 0;
  if (t.low_bits > 0) {
    for (;;) {
      low = rng.next_u64() >> (64 - t.low_bits);
      if (rng.uniform() < std::exp(-t.lambda * static_cast<double>(low))) break;
    }
  }
  uint64_t high = 0;
  for (int j = 0; j < t.high_bits; ++j)
    if (rng.next_u64() < t.threshold[j]) high |= uint64_t{1} << j;
  return (high << t.low_bits) | low;
}
int64_t sample_two_sided(Rng& rng, const GeometricTable& t) {
  for (;;) {
    const bool negative = (rng.next_u64() >> 63) != 0;
    const uint64_t g = sample_geometric(rng, t);
    if (negative && g == 0) continue;
    return negative ? -static_cast<int64_t>(g) : static_cast<int64_t>(g);
  }
}
double sample_laplace(Rng& rng, double scale) {
  const double r = dpf::laplace_resolution(scale);
  return static_cast<double>(sample_two_sided(rng, geometric_table(r / scale))) * r;
}
double laplace_mechanism(Rng& rng, double value, double sensitivity, double epsilon) {
  const double scale = sensitivity / epsilon;
  const double r = dpf::laplace_resolution(scale);
  const double rounded = std::fabs(value) < std::ldexp(r, 52) ? std::round(value / r) * r : value;
  const double lambda = r * epsilon / (sensitivity + r);
  return rounded + static_cast<double>(sample_two_sided(rng, geometric_table(lambda))) * r;
}
int64_t sample_two_sided_geometric(Rng& rng, double lambda) { return sample_two_sided(rng, geometric_table(lambda)); }
}  // namespace float_sampler_reference

// ---- scripted words ----------------------------------------------------------------------------

struct Script {
  std::vector<uint64_t> words;
  uint64_t rest = 0;  // every word after the list
};
uint64_t script_word(const void* ctx, uint64_t, uint64_t counter) {
  const auto* s = static_cast<const Script*>(ctx);
  return counter < s->words.size() ? s->words[counter] : s->rest;
}

// The n words of floor(c 2^(64 n)) for c in [0, 1), most significant first.
std::vector<uint64_t> words_of(const Big& c, int n) {
  const mp::cpp_int v = static_cast<mp::cpp_int>(mp::floor(mp::ldexp(c, 64 * n)));
  std::vector<uint64_t> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    out[static_cast<std::size_t>(n - 1 - i)] = static_cast<uint64_t>((v >> (64 * i)) & mp::cpp_int(~uint64_t{0}));
  return out;
}
// The same number plus one unit in the last word (no carry in the cases used).
std::vector<uint64_t> plus_one(std::vector<uint64_t> w) {
  REQUIRE(w.back() != ~uint64_t{0});
  ++w.back();
  return w;
}
void append(std::vector<uint64_t>& a, const std::vector<uint64_t>& b) { a.insert(a.end(), b.begin(), b.end()); }

Big logistic(const Big& x) { return 1 / (1 + mp::exp(x)); }
Big dyadic_value(const dpf::Dyadic& x) { return mp::ldexp(Big(mp::cpp_int(x.mant)), x.exp); }

int64_t scripted_geometric(const Script& s, double lambda) {
  Rng r = Rng::scripted(script_word, &s);
  return dpf::sample_two_sided_geometric(r, lambda);
}

constexpr uint64_t kOnes = ~uint64_t{0};
constexpr uint64_t kHalf = uint64_t{1} << 63;

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("one-word bounds: |Y - (1 - e^-y) 2^W| <= 4 for y <= 2^-5 (W = 64, 128; against 600-bit values)") {
    Rng r(71);
    for (int i = 0; i < 3000; ++i) {
      // y from 0 to 2^-5, many magnitudes
      const int shift = 5 + static_cast<int>(r.below(59));
      const uint64_t X64 = r.next_u64() >> shift;
      const u128 X128 = ((static_cast<u128>(r.next_u64()) << 64) | r.next_u64()) >> shift;
      const Big y64 = mp::ldexp(Big(X64), -64), y128 = mp::ldexp(Big(mp::cpp_int(X128)), -128);
      const Big e64 = mp::ldexp(1 - mp::exp(-y64), 64) - Big(dpf::expb::one_minus_exp_neg(X64));
      const Big e128 = mp::ldexp(1 - mp::exp(-y128), 128) - Big(mp::cpp_int(dpf::expb::one_minus_exp_neg(X128)));
      INFO("shift " << shift);
      CHECK(mp::abs(e64) <= 4);
      CHECK(mp::abs(e128) <= 4);
    }
  }

  TEST_CASE("exp_neg brackets e^-x at any precision, a few units wide") {
    for (double xd : {0x1p-60, 1e-3, 0.02, 0.7, 1.0, 5.625, 45.0, 90.3, 700.5, 4095.0}) {
      int e = 0;
      const double f = std::frexp(xd, &e);
      const dpf::Dyadic x{static_cast<u128>(std::ldexp(f, 53)), e - 53};
      REQUIRE(dyadic_value(x) == Big(xd));
      for (int P : {64, 200, 1000, 6200}) {
        const dpf::expb::Interval b = dpf::expb::exp_neg(x, P);
        mp::cpp_int lo = 0, hi = 0;
        for (std::size_t i = b.lo.size(); i-- > 0;) lo = (lo << 64) | b.lo[i];
        for (std::size_t i = b.hi.size(); i-- > 0;) hi = (hi << 64) | b.hi[i];
        INFO("x = " << xd << ", P = " << P);
        CHECK(hi - lo <= 4);
        if (P > 1000) continue;  // beyond the reference's ~1990 bits
        const Big ref = mp::ldexp(mp::exp(-Big(xd)), P);
        CHECK(Big(lo) <= ref);
        CHECK(ref <= Big(hi));
      }
    }
  }

  TEST_CASE("natural-number arithmetic agrees with 128-bit arithmetic") {
    using namespace dpf::expb;
    Rng r(72);
    for (int i = 0; i < 2000; ++i) {
      const u128 a = r.next_u64() >> r.below(64), b = r.next_u64() >> r.below(64);
      const auto to128 = [](const Nat& n) {
        u128 v = 0;
        for (std::size_t k = n.size(); k-- > 0;) v = (v << 64) | n[k];
        return v;
      };
      CHECK(to128(add(nat(a), nat(b))) == a + b);
      CHECK(to128(mul(nat(a), nat(b))) == a * b);
      if (a >= b) CHECK(to128(sub(nat(a), nat(b))) == a - b);
      const int s = static_cast<int>(r.below(70));
      CHECK(to128(shr(nat(a * b), s, false)) == ((a * b) >> s));
      CHECK(to128(shr(nat(a * b), s, true)) == ((a * b) >> s) + (((a * b) & ((u128{1} << s) - 1)) != 0 ? 1 : 0));
      if (s < 60) CHECK(to128(shl(nat(a), s)) == (a << s));
      const uint64_t d = 1 + r.below(1000);
      CHECK(to128(div_small(nat(a * b), d)) == (a * b) / d);
      CHECK(cmp(nat(a), nat(b)) == (a < b ? -1 : a > b ? 1 : 0));
    }
  }

  // lambda = 3 2^-12: the low digits are the 5 with lambda 2^(i+1) <= 2^-5; words: sign (positive,
  // tail bits nonzero), the low word, then the uniform of the acceptance test.
  TEST_CASE("low digits: a uniform whose first word straddles e^-(lambda l) is decided by its next words, exactly") {
    const double lambda = 3.0 * 0x1p-12;
    const int low_bits = 5;
    for (uint64_t l : {1U, 9U, 31U}) {
      const Big p = mp::exp(-Big(lambda) * l);
      const std::vector<uint64_t> w = words_of(p, 2);  // floor(p 2^128)
      Script below{{1, l << (64 - low_bits)}, 0}, above = below;
      append(below.words, w);
      append(above.words, plus_one(w));
      // Accepted: the magnitude's low digits are l (zeros after: every further digit is set, V = 0).
      // Rejected: the next low word is 0, so the low digits are 0.
      INFO("l = " << l);
      CHECK((scripted_geometric(below, lambda) & 31) == static_cast<int64_t>(l));
      CHECK((scripted_geometric(above, lambda) & 31) == 0);
    }
  }

  // lambda = 45/32: no low digits; digit j has exponent 45 2^(j-5): digit 5 has p = 1/(1+e^45), below
  // 2^-64 (the old 64-bit threshold was 0: never set); digits 6..11 (exponents 90 .. 2880) are the tail.
  TEST_CASE("high digits: set with their exact probability, also below 2^-64 (scripted words)") {
    const double lambda = 45.0 / 32.0;
    for (int j : {2, 5}) {
      const Big p = logistic(Big(lambda) * (1 << j));
      const std::vector<uint64_t> w = words_of(p, 3);
      Script set{{1}, 0}, unset{{1}, 0};
      for (int i = 0; i < j; ++i) set.words.push_back(kOnes), unset.words.push_back(kOnes);
      append(set.words, w);
      set.words.push_back(0);  // V = floor(p 2^192) 2^-192 exactly: below p
      append(unset.words, plus_one(w));
      set.rest = unset.rest = kOnes;  // no later digit set, and no tail (the sign word's tail bits are 1)
      INFO("digit " << j << ", p = " << p.convert_to<double>());
      CHECK(scripted_geometric(set, lambda) == (int64_t{1} << j));
      CHECK(scripted_geometric(unset, lambda) == 0);
    }
  }

  TEST_CASE("tail digits: magnitudes beyond 45 scales are reached with their exact probability (scripted words)") {
    const double lambda = 45.0 / 32.0;
    // P(some digit of 6..11 set) = 1 - prod (1 - q_i), about e^-90.
    Big none = 1;
    for (int i = 6; i <= 11; ++i) none *= 1 - logistic(Big(lambda) * (1 << i));
    const Big any = 1 - none;
    // The sign word is 0 (positive, tail bits 0): V' = 0.(63 zero bits)(the next words); 2 more
    // words put V' at floor(any 2^191) or one unit above.
    const std::vector<uint64_t> w = words_of(mp::ldexp(any, 63), 2);
    CHECK(w[0] == 0);
    Script hit{{0, kOnes, kOnes, kOnes, kOnes, kOnes, kOnes}, kOnes}, miss = hit;
    append(hit.words, w);
    hit.words.push_back(0);            // V' = floor(any 2^191) 2^-191 exactly: below `any`
    hit.words.push_back(kHalf);        // digit 6 given some set: V = 1/2, set (P ~ 1 - e^-90)
    append(miss.words, plus_one(w));   // V' above `any`: no tail digit
    CHECK(scripted_geometric(hit, lambda) == 64);  // 64 lambda = 90 scales; the old maximum was 63
    CHECK(scripted_geometric(miss, lambda) == 0);
    // The lowest set digit given some set: digit 6 with probability R = q_6 / any (about 1 - e^-90).
    const Big R = logistic(Big(lambda) * 64) / any;
    const std::vector<uint64_t> rw = words_of(R, 3);
    CHECK(rw[0] == kOnes);
    Script at6{{0, kOnes, kOnes, kOnes, kOnes, kOnes, kOnes, 0, 0}, kOnes}, at7 = at6;
    append(at6.words, rw);
    at6.words.push_back(0);  // V = floor(R 2^192) 2^-192 < R: digit 6; digits 7..11 get kOnes: unset
    append(at7.words, plus_one(rw));
    at7.words.push_back(kHalf);  // digit 7 given 6 unset and some of 7..11 set: V = 1/2, set
    CHECK(scripted_geometric(at6, lambda) == 64);
    CHECK(scripted_geometric(at7, lambda) == 128);
  }

  TEST_CASE("lambda above 45: digits in (45, 2^12) are reachable, digits from 2^12 on are not drawn") {
    // lambda = 100: every digit is a tail digit (exponents 100 .. 3200); P(some set) ~ e^-100 ~ 2^-144,
    // so the sign word 0 and two zero words decide it; V = 1/2 sets digit 0 (given some set,
    // probability ~ 1 - e^-100), the other digits see words of ones. The old sampler always gave 0.
    CHECK(scripted_geometric(Script{{0, 0, 0, kHalf}, kOnes}, 100.0) == 1);
    // lambda = 4096: no digit is drawn, even on words that would set every digit.
    CHECK(scripted_geometric(Script{{}, 0}, 4096.0) == 0);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("bit-identical to the floating-point sampler it replaced (10^6 draws per function)") {
    namespace ref = float_sampler_reference;
    const std::size_t n = 250000;
    uint64_t seed = 90;
    for (double scale : {1.0, 0.37, 1e4, 3e-3}) {
      Rng a(seed), b(seed++);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < n; ++i) differ += dpf::sample_laplace(a, scale) != ref::sample_laplace(b, scale);
      INFO("sample_laplace scale " << scale);
      CHECK(differ == 0);
      CHECK(a.draws() == b.draws());
    }
    const double mech[4][3] = {{0.3, 1.0, 0.5}, {17.25, 3.0, 0.1}, {-2.5e6, 1.0, 2.0}, {0.0, 0.125, 1e-3}};
    for (const auto& m : mech) {
      Rng a(seed), b(seed++);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < n; ++i)
        differ += dpf::laplace_mechanism(a, m[0], m[1], m[2]) != ref::laplace_mechanism(b, m[0], m[1], m[2]);
      INFO("laplace_mechanism " << m[0] << " " << m[1] << " " << m[2]);
      CHECK(differ == 0);
      CHECK(a.draws() == b.draws());
    }
    for (double lambda : {0x1p-50, 1e-6, 0.3, 45.0 / 32.0}) {
      Rng a(seed), b(seed++);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < n; ++i)
        differ += dpf::sample_two_sided_geometric(a, lambda) != ref::sample_two_sided_geometric(b, lambda);
      INFO("geometric lambda " << lambda);
      CHECK(differ == 0);
      CHECK(a.draws() == b.draws());
    }
  }
}
