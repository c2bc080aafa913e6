// Errors a user can act on (design.md §6): every message names the file, key or row at fault and
// what was expected. One catch in main turns them into a non-zero exit code.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace dpf {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// A required input (dataset file, config) is absent or fails verification. Experiments catch this
// per cell, report it and go on with the other cells.
class MissingInput : public Error {
 public:
  explicit MissingInput(const std::string& what) : Error(what) {}
};

template <typename... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  throw Error(os.str());
}

template <typename... Parts>
void require(bool ok, const Parts&... parts) {
  if (!ok) fail(parts...);
}

}  // namespace dpf
