// libFuzzer target (a): experiment configs, dpf::parse_experiment + expand_cells (make fuzz).
#include "fuzz/fuzz_common.hpp"
#include "fuzz/fuzz_paths.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return dpf::fuzz::run_one(data, size, dpf::fuzz::config_input);
}
