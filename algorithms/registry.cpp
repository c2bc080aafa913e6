// The one explicit algorithm table (design.md §4). To add an algorithm: write its policies and a
// function returning its AlgorithmInfo entries in its own folder, then add one line below.
#include "algorithms/registry.hpp"

#include <algorithm>

#include "algorithms/cart/cart.hpp"
#include "algorithms/dipreme/dipreme.hpp"
#include "algorithms/dp_ert/dp_ert.hpp"
#include "algorithms/dp_rf/dp_rf.hpp"
#include "algorithms/dp_df/dp_df.hpp"
#include "algorithms/diffprivlib_rf/diffprivlib_rf.hpp"
#include "algorithms/privatree/privatree.hpp"
#include "algorithms/lumberjack/lumberjack.hpp"
#include "algorithms/smooth_rdf/smooth_rdf.hpp"
#include "algorithms/rgv/rgv.hpp"
#include "algorithms/matrix_rf/matrix_rf.hpp"
#include "algorithms/mrf/mrf.hpp"
#include "core/util/error.hpp"

namespace dpf {

bool is_dp_label(const std::string& status) { return status == kPureDpLabel || status == kApproxDpLabel; }

bool AlgorithmInfo::supports(TaskKind t) const {
  for (TaskKind k : tasks)
    if (k == t) return true;
  return false;
}

ParamSpec strict_param() {
  return {"strict", ParamType::kBool, "false", 0, 1, false, {},
          "use the repaired, genuinely epsilon-DP variant where the published mechanism is not DP"};
}

ParamSpec quirks_param(const std::vector<QuirkSpec>& quirks) {
  ParamSpec p{"reference_quirks", ParamType::kStringList, "", 0, 0, false, {},
              "documented deviations of the authors' code to reproduce (none by default)"};
  for (const auto& q : quirks) p.choices.push_back(q.name);
  if (p.choices.empty()) p.choices.push_back("none-defined");
  return p;
}

namespace {

std::vector<AlgorithmInfo> build_table() {
  std::vector<AlgorithmInfo> t;
  auto add = [&](std::vector<AlgorithmInfo> v) {
    for (auto& a : v) {
      if (!a.private_algorithm) {
        // Every algorithm accepts the common fidelity keys, so configs can set them uniformly.
        bool has_strict = false;
        for (const auto& p : a.params) has_strict = has_strict || p.name == "strict";
        if (!has_strict) {
          a.params.push_back(strict_param());
          a.params.push_back(quirks_param(a.quirks));
        }
      }
      if (!a.privacy_bound) {
        const bool priv = a.private_algorithm;
        a.privacy_bound = [priv](const Params& p, TaskKind) {
          const double e = priv ? p.get_double("epsilon") : 0.0;
          return PrivacyBound{e, e, 0.0};
        };
      }
      if (a.private_algorithm) {
        // One rule for every family: a label of epsilon-DP must hold at the nominal epsilon.
        auto status = a.privacy_status;
        auto bound = a.privacy_bound;
        std::vector<std::string> neutral;
        for (const QuirkSpec& q : a.quirks)
          if (q.privacy_neutral) neutral.push_back(q.name);
        a.privacy_status = [status, bound, neutral](const Params& p, TaskKind t) -> std::string {
          std::string s = status(p, t);
          // An (epsilon, delta) algorithm keeps its own wording in the rewrites below.
          const std::string label = s;
          if (is_dp_label(s) && p.has("reference_quirks"))
            for (const std::string& q : p.get_list("reference_quirks"))
              if (!q.empty() && std::find(neutral.begin(), neutral.end(), q) == neutral.end())
                return "published, not " + label + ": reference_quirks " + q +
                       " reproduces the authors' code inside the mechanism, so the strict repair no longer holds";
          const double nominal = p.get_double("epsilon");
          const double nominal_delta = p.has("delta") ? p.get_double("delta") : 0.0;
          const PrivacyBound b = bound(p, t);
          if (is_dp_label(s) && !(b.epsilon <= nominal * (1 + 1e-9)))
            s = "published, not " + label + " at the nominal epsilon: the configuration spends up to " +
                canonical_number(b.epsilon) + " (epsilon_apriori), not the nominal " + canonical_number(nominal) +
                "; it is " + label + " at epsilon_apriori";
          else if (is_dp_label(s) && !(b.delta <= nominal_delta * (1 + 1e-9)))
            s = "published, not " + label + " at the nominal delta: the configuration's delta_apriori is " +
                canonical_number(b.delta);
          return s;
        };
      }
      t.push_back(std::move(a));
    }
  };
  add(cart_algorithms());       // rf, ert
  add(dipreme_algorithms());    // dipreme, dipreme-exp, dipreme-flip, median-forest
  add(dp_ert_algorithms());     // dp-ert
  add(dp_rf_algorithms());      // dp-rf
  add(dp_df_algorithms());      // dp-df
  add(lumberjack_algorithms()); // lumberjack ((epsilon, delta)-DP; lumberjack.md)
  add(smooth_rdf_algorithms()); // smooth-rdf, rdf-nonprivate, jpw
  add(rgv_algorithms());        // rgv (reconstructed from Fletcher & Islam §5.2)
  add(matrix_rf_algorithms());  // mrf-train, mrf-predict, mrf-subsample, mrf-*-lm, mrf-trees
  add(multinomial_rf_algorithms());  // multinomial-rf, multinomial-rf-dp, brf, denil14
  add(diffprivlib_rf_algorithms());  // diffprivlib-rf (IBM diffprivlib v0.6, issue 16)
  add(privatree_algorithms());       // privatree (HEAD "fixed" variant), privatree-v2 (arXiv v2 code), issue 16
  return t;
}

}  // namespace

const std::vector<AlgorithmInfo>& algorithm_table() {
  static const std::vector<AlgorithmInfo> table = build_table();
  return table;
}

const AlgorithmInfo& find_algorithm(const std::string& name) {
  std::string known;
  for (const auto& a : algorithm_table()) {
    if (a.name == name) return a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  fail("unknown algorithm '", name, "' (known: ", known, ")");
}

}  // namespace dpf
