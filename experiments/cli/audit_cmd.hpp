// dpforest audit: the command-line front of the privacy audit (audit.hpp, pairs.hpp).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "experiments/audit/audit.hpp"

namespace dpf {

// Returns the exit code: 0 when the configuration passes, 6 when it is flagged (its lower bound
// exceeds the claimed epsilon) or the matrix raised an alarm, so scripts and CI can act on the verdict.
int cmd_audit(const std::vector<std::string>& args);

// One configuration audited on one pair, as `dpforest audit --algorithm` does it: the claim is the
// configuration's a-priori epsilon (0 for non-private algorithms), set into `opt.claimed_epsilon`.
// Shared by the CLI and the Python binding (dpforest.audit).
struct AuditOutcome {
  AuditResult result;
  std::string canonical_params;  // the resolved parameters, "k1=v1;k2=v2"
  std::string privacy_status;
  std::string pair_name, pair_description;
};
AuditOutcome audit_configuration(const std::string& algorithm, const std::map<std::string, std::string>& params,
                                 const AuditPair& pair, AuditOptions opt);

}  // namespace dpf
