// libFuzzer target (b): the CSV, ARFF, LIBSVM and whitespace readers, gzip included; the first two
// bytes of an input choose the format (dpf::fuzz::table_format), the rest is the file (make fuzz).
#include "fuzz/fuzz_common.hpp"
#include "fuzz/fuzz_paths.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return dpf::fuzz::run_one(data, size, dpf::fuzz::table_input);
}
