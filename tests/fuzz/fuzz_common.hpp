// The part every libFuzzer target shares: run one input through a code path of fuzz_paths.hpp and
// treat dpf::Error (the project's answer to bad input) as an expected outcome. Any other exception
// escaping is also a finding when DPF_FUZZ_STRICT=1 is set (the CLI turns it into exit 1, but its
// message may not name the file and key); without it, std::exception is accepted and only crashes,
// sanitizer reports, timeouts and out-of-memory are findings.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/util/error.hpp"

namespace dpf::fuzz {

inline bool strict_exceptions() {
  static const bool strict = [] {
    const char* v = std::getenv("DPF_FUZZ_STRICT");
    return v && *v && std::string(v) != "0";
  }();
  return strict;
}

template <typename F>
int run_one(const uint8_t* data, size_t size, F&& f) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  try {
    f(input);
  } catch (const dpf::Error&) {
  } catch (const std::exception& e) {
    if (strict_exceptions()) {
      std::fprintf(stderr, "non-dpf::Error exception: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}

}  // namespace dpf::fuzz
