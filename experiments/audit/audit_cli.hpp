// dpforest audit: the command-line front of the privacy audit (audit.hpp, pairs.hpp).
#pragma once
#include <string>
#include <vector>

namespace dpf {

// Returns the exit code: 0 when the configuration passes, 6 when it is flagged (its lower bound
// exceeds the claimed epsilon) or the matrix raised an alarm, so scripts and CI can act on the verdict.
int cmd_audit(const std::vector<std::string>& args);

}  // namespace dpf
