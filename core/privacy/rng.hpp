// Counter-based random numbers (design.md §5, privacy.md §5): Philox4x32-10 from Random123.
//
// A stream is a 64-bit key; its outputs are philox(counter, key) for counter = 0, 1, 2, ... so any
// stream is a pure function of its key. Keys are derived by hashing the task's coordinates
// (master seed, paper, experiment, cell, repetition, fold, tree, node, purpose), which makes
// results independent of thread count, scheduling, sharding and resumption.
//
// All distributions are our own code on raw 64-bit words: never the <random> distributions, whose
// algorithms are implementation-defined.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

namespace dpf {

// SplitMix64 finaliser: a bijective 64-bit mixer.
constexpr uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr uint64_t hash_combine(uint64_t h, uint64_t v) { return mix64(h ^ mix64(v + 0x632be59bd9b4e019ULL)); }

// FNV-1a over the bytes, then mixed: stable across platforms and runs (unlike std::hash).
constexpr uint64_t hash_string(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return mix64(h);
}

class Rng {
 public:
  explicit Rng(uint64_t key = 0) : key_(key) {}

  // Test hook: a stream whose words are fn(ctx, key, counter) instead of Philox output, and whose
  // derived streams use the same function under their own keys. Tests use it to show that a given
  // sequence of words reaches an outcome (a sampler's support), which no seed search can show for
  // outcomes of probability e^-700. Never used outside tests.
  using WordFn = uint64_t (*)(const void* ctx, uint64_t key, uint64_t counter);
  static Rng scripted(WordFn fn, const void* ctx, uint64_t key = 0) {
    Rng r(key);
    r.script_ = fn;
    r.script_ctx_ = ctx;
    return r;
  }

  // An independent child stream; the parent is not advanced.
  Rng derive(uint64_t tag) const { return child(hash_combine(key_, tag)); }
  Rng derive(std::string_view tag) const { return child(hash_combine(key_, hash_string(tag))); }
  template <typename... Tags>
  Rng derive(uint64_t first, Tags... rest) const {
    Rng r = derive(first);
    ((r = r.derive(static_cast<uint64_t>(rest))), ...);
    return r;
  }

  uint64_t key() const { return key_; }
  uint64_t draws() const { return counter_; }

  uint64_t next_u64();
  uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }

  // Uniform on [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform on (0, 1): never 0, so log() is safe.
  double uniform_open() { return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53; }
  // Uniform on [lo, hi]; returns lo when hi <= lo.
  double uniform(double lo, double hi);
  // Unbiased integer in [0, n) (Lemire's multiply-and-reject); n must be > 0.
  uint64_t below(uint64_t n);
  bool bernoulli(double p) { return uniform() < p; }

  // Fisher-Yates shuffle.
  template <typename T>
  void shuffle(std::span<T> v) {
    for (size_t i = v.size(); i > 1; --i) {
      size_t j = static_cast<size_t>(below(i));
      std::swap(v[i - 1], v[j]);
    }
  }

 private:
  Rng child(uint64_t key) const {
    Rng r(key);
    r.script_ = script_;
    r.script_ctx_ = script_ctx_;
    return r;
  }

  uint64_t key_;
  uint64_t counter_ = 0;
  uint64_t buffer_ = 0;
  bool have_buffer_ = false;
  WordFn script_ = nullptr;
  const void* script_ctx_ = nullptr;
};

}  // namespace dpf
