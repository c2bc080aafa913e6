// Mechanism-level audit cases (audit.hpp ReleaseSampler): one draw of a mechanism on the two inputs of
// a neighbouring pair, for the flaws a model-level release hides — a leaf value clamped to its bounds
// hides the tail where an N-dependent noise scale leaks; a vote over many trees hides the sum that
// reveals per-tree budgets composing — and for bugs planted in correct mechanisms. Each case names its
// claim and whether a correct implementation must pass it (expect_flag = false) or is known not to
// be epsilon-DP at the claim (expect_flag = true). A case with claimed_delta > 0 is audited in the
// (epsilon, delta) mode (audit.hpp). Used by make audit and tests/audit.
#pragma once
#include <string>
#include <vector>

#include "experiments/audit/audit.hpp"

namespace dpf {

struct MechanismCase {
  std::string name, description;
  double claimed_epsilon = 1.0;
  double resolution = 0.0;
  bool expect_flag = false;
  ReleaseSampler sample;
  double claimed_delta = 0.0;
};

std::vector<MechanismCase> mechanism_cases();
// The smallest standard deviation (to a relative 1e-9) whose discrete Gaussian N_Z(0, sigma^2) on one
// count of sensitivity 1 is (epsilon, delta)-DP by the exact profile (discrete_gaussian_profile.hpp).
double discrete_gaussian_sigma_for(double epsilon, double delta);
const MechanismCase& mechanism_case(const std::string& name);  // throws dpf::Error listing the names

}  // namespace dpf
