// The registry's privacy-label rules (README "Privacy labels"), applied to every private entry on top
// of the family's own status. A family says what its mechanism is ("epsilon-DP", "(epsilon, delta)-DP",
// or "published, not ...: <reasons>"); these rules withhold a DP label when the resolved configuration
// breaks the guarantee in a way no family should have to re-check:
//   1. a reference quirk that is not privacy_neutral reproduces the authors' code inside the
//      mechanism, so the strict repair no longer holds;
//   2. the a-priori epsilon (PrivacyBound::epsilon) exceeds the nominal `epsilon`;
//   3. the a-priori delta exceeds the nominal `delta` (0 when the algorithm has no delta).
// Rules 1-3 are tried in that order and the first that applies rewrites the label.
#pragma once
#include <string>
#include <vector>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

// nominal_delta: rule 3's bound; negative (the default) reads the `delta` parameter (0 without one).
std::string apply_label_rules(const std::string& family_status, const Params& params, const PrivacyBound& bound,
                              const std::vector<std::string>& neutral_quirks, double nominal_delta = -1.0);

// Completes a family's entry the same way for every algorithm: non-private entries accept the common
// `strict` and `reference_quirks` keys (so one config sets them uniformly; strict goes just before
// reference_quirks), an unset privacy_bound
// becomes {epsilon, epsilon, 0} (private) or {0, 0, 0}, and a private entry's privacy_status is
// wrapped in apply_label_rules (with the entry's nominal_delta where it sets one).
AlgorithmInfo complete_entry(AlgorithmInfo a);

// Statuses and bounds several families share.
// "epsilon-DP" with strict: true, otherwise "published, not epsilon-DP: " + why.
std::function<std::string(const Params&, TaskKind)> dp_when_strict(std::string why);
// {epsilon, epsilon, delta}: an (epsilon, delta) algorithm whose a-priori bound is its nominal budget.
PrivacyBound nominal_epsilon_delta(const Params& p, TaskKind);
// Claimed epsilon; conservatively the n_trees trees' budgets summed (as published they claim parallel
// composition over trees that share rows), epsilon under strict: true.
PrivacyBound trees_summed_unless_strict(const Params& p, TaskKind);

}  // namespace dpf
