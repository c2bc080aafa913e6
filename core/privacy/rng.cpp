#include "core/privacy/rng.hpp"

#include <Random123/philox.h>

namespace dpf {

uint64_t Rng::next_u64() {
  if (script_ != nullptr) [[unlikely]]
    return script_(script_ctx_, key_, counter_++);
  // Each Philox block gives 128 bits: hand out the two halves in turn.
  if (have_buffer_) {
    have_buffer_ = false;
    return buffer_;
  }
  r123::Philox4x32 gen;
  r123::Philox4x32::ctr_type ctr = {{static_cast<uint32_t>(counter_), static_cast<uint32_t>(counter_ >> 32), 0u, 0u}};
  r123::Philox4x32::key_type key = {{static_cast<uint32_t>(key_), static_cast<uint32_t>(key_ >> 32)}};
  ++counter_;
  auto out = gen(ctr, key);
  buffer_ = (static_cast<uint64_t>(out[3]) << 32) | out[2];
  have_buffer_ = true;
  return (static_cast<uint64_t>(out[1]) << 32) | out[0];
}

double Rng::uniform(double lo, double hi) {
  if (!(hi > lo)) return lo;
  double r = lo + (hi - lo) * uniform();
  return r < hi ? r : lo;  // guard against rounding up to hi
}

uint64_t Rng::below(uint64_t n) {
  // Lemire 2019, "Fast random integer generation in an interval".
  __uint128_t m = static_cast<__uint128_t>(next_u64()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<__uint128_t>(next_u64()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

}  // namespace dpf
