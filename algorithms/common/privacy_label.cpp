#include "algorithms/common/privacy_label.hpp"

#include <algorithm>

namespace dpf {

std::string apply_label_rules(const std::string& family_status, const Params& p, const PrivacyBound& b,
                              const std::vector<std::string>& neutral_quirks, double nominal_delta_given) {
  if (!is_dp_label(family_status)) return family_status;
  // An (epsilon, delta) algorithm keeps its own wording in the rewrites below.
  const std::string& label = family_status;
  if (p.has("reference_quirks"))
    for (const std::string& q : p.get_list("reference_quirks"))
      if (!q.empty() && std::find(neutral_quirks.begin(), neutral_quirks.end(), q) == neutral_quirks.end())
        return "published, not " + label + ": reference_quirks " + q +
               " reproduces the authors' code inside the mechanism, so the strict repair no longer holds";
  const double nominal = p.get_double("epsilon");
  const double nominal_delta =
      nominal_delta_given >= 0.0 ? nominal_delta_given : p.has("delta") ? p.get_double("delta") : 0.0;
  if (!(b.epsilon <= nominal * (1 + 1e-9)))
    return "published, not " + label + " at the nominal epsilon: the configuration spends up to " +
           canonical_number(b.epsilon) + " (epsilon_apriori), not the nominal " + canonical_number(nominal) +
           "; it is " + label + " at epsilon_apriori";
  if (!(b.delta <= nominal_delta * (1 + 1e-9)))
    return "published, not " + label + " at the nominal delta: the configuration's delta_apriori is " +
           canonical_number(b.delta);
  return family_status;
}

AlgorithmInfo complete_entry(AlgorithmInfo a) {
  if (!a.private_algorithm) {
    auto named = [&](const char* name) {
      return std::find_if(a.params.begin(), a.params.end(), [&](const ParamSpec& p) { return p.name == name; });
    };
    if (named("reference_quirks") == a.params.end()) a.params.push_back(quirks_param(a.quirks));
    if (named("strict") == a.params.end()) a.params.insert(named("reference_quirks"), strict_param());
  }
  if (!a.privacy_bound) {
    const bool priv = a.private_algorithm;
    a.privacy_bound = [priv](const Params& p, TaskKind) {
      const double e = priv ? p.get_double("epsilon") : 0.0;
      return PrivacyBound{e, e, 0.0};
    };
  }
  if (a.private_algorithm) {
    std::vector<std::string> neutral;
    for (const QuirkSpec& q : a.quirks)
      if (q.privacy_neutral) neutral.push_back(q.name);
    a.privacy_status = [status = a.privacy_status, bound = a.privacy_bound, neutral,
                        nominal_delta = a.nominal_delta](const Params& p, TaskKind t) {
      return apply_label_rules(status(p, t), p, bound(p, t), neutral, nominal_delta ? nominal_delta(p) : -1.0);
    };
  }
  return a;
}

std::function<std::string(const Params&, TaskKind)> dp_when_strict(std::string why) {
  return [published = "published, not epsilon-DP: " + why](const Params& p, TaskKind) -> std::string {
    return p.get_bool("strict") ? kPureDpLabel : published;
  };
}

PrivacyBound nominal_epsilon_delta(const Params& p, TaskKind) {
  const double e = p.get_double("epsilon");
  return {e, e, p.get_double("delta")};
}

PrivacyBound trees_summed_unless_strict(const Params& p, TaskKind) {
  const double e = p.get_double("epsilon");
  return {e, p.get_bool("strict") ? e : e * p.get_int("n_trees"), 0.0};
}

}  // namespace dpf
