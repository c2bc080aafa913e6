// The types every algorithm family needs to describe itself to the registry (design.md §4): its
// parameter schema, quirks, privacy status and a-priori bound, and the learner factory. Families
// include this header only; the table itself (algorithms/registry.hpp) is for experiments and python.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/common/params.hpp"
#include "core/data/schema.hpp"
#include "core/privacy/ledger.hpp"
#include "core/tree/model.hpp"

namespace dpf {

struct QuirkSpec {
  std::string name;
  std::string doc;  // what the authors' code did and where the spec records it
  // true when the quirk leaves the strict mechanism epsilon-DP at its a-priori bound (it changes a
  // reported metric, or the budget, which privacy_bound accounts for). With strict: true, any other
  // quirk withholds the epsilon-DP label: the repaired mechanism is then no longer the one run.
  bool privacy_neutral = false;
};

// The a-priori privacy guarantee of a resolved configuration: the most any fit of it may spend,
// fixed before seeing data. A fit's ledger can spend less (levels
// that are not grown, stops); the row records both. `epsilon` bounds the claimed accounting
// (PrivacyLedger::spent), `epsilon_conservative` the conservative one (claimed-parallel scopes
// summed); +inf where no data-independent bound exists. delta is 0 for every pure-epsilon algorithm.
struct PrivacyBound {
  double epsilon = 0.0;
  double epsilon_conservative = 0.0;
  double delta = 0.0;
};

// Privacy labels (README "Privacy labels"). kPureDpLabel: the whole release is epsilon-DP at the
// nominal epsilon; kApproxDpLabel: (epsilon, delta)-DP at the nominal epsilon and `delta` (privacy_bound
// gives a delta > 0), e.g. lumberjack. Every other private label starts "published, not ".
inline constexpr const char* kPureDpLabel = "epsilon-DP";
inline constexpr const char* kApproxDpLabel = "(epsilon, delta)-DP";
// True for either label above: the configuration's guarantee holds as labelled.
bool is_dp_label(const std::string& status);

// The fits of another registry entry that one fit of a meta-algorithm makes (algorithms/tuning): the
// entry, its candidate configurations (used equally often on average), and how much of the entry's
// work one fit does. The runner's validation refuses the meta-algorithm where the entry could not run
// itself (a binary-only base on a multiclass dataset), and the cost model prices it from the entry's.
struct InnerFits {
  std::string algorithm;
  std::vector<Params> candidates;
  double fits = 0;       // expected fits on a share row_share of the training rows
  double row_share = 1;  // in (0, 1]
  double full_fits = 0;  // fits on all training rows
};

struct AlgorithmInfo {
  std::string name;
  std::string summary;
  std::string papers;  // paper ids whose experiments use it
  std::vector<TaskKind> tasks;
  std::vector<ParamSpec> params;  // includes the common `strict` and `reference_quirks`
  std::vector<QuirkSpec> quirks;
  bool private_algorithm = true;  // takes `epsilon`
  // Classification on exactly two classes only (regression, where supported, is unaffected): the
  // runner refuses such an algorithm on a dataset with more classes before any work.
  bool binary_classification_only = false;
  // Privacy status of the resolved configuration: "epsilon-DP", "(epsilon, delta)-DP", "non-private",
  // or "published, not epsilon-DP: <reason>" / "published, not (epsilon, delta)-DP: <reason>" (privacy.md §6).
  // A configuration whose a-priori epsilon exceeds its nominal `epsilon` is never labelled epsilon-DP:
  // the registry rewrites that label to "published, not epsilon-DP at the nominal epsilon: ...".
  std::function<std::string(const Params&, TaskKind)> privacy_status;
  // Unset: {epsilon, epsilon, 0} for private algorithms, {0, 0, 0} for non-private ones (set by the registry).
  std::function<PrivacyBound(const Params&, TaskKind)> privacy_bound;
  // The a-priori ledger of a resolved configuration: charges that bound, at every Rényi order, what any
  // fit's ledger composes (a fit may spend less), fixed before the data are read. Set by the (epsilon,
  // delta) families so that a private selection over them (algorithms/tuning) knows its candidates'
  // Rényi-DP curve before fitting one; unset elsewhere.
  std::function<PrivacyLedger(const Params&, TaskKind)> prior_ledger;
  // The nominal delta of a resolved configuration, which the a-priori delta may not exceed (label rule 3,
  // privacy_label.hpp). Unset: the `delta` parameter, or 0 for an entry without one.
  std::function<double(const Params&)> nominal_delta;
  std::function<std::unique_ptr<Learner>(const Params&, const Schema&)> make;
  // Set for a meta-algorithm only: the other entry it fits, for a resolved configuration.
  std::function<InnerFits(const Params&)> inner;

  bool supports(TaskKind t) const;
};

// The task sets entries declare.
inline const std::vector<TaskKind> kClassificationTask{TaskKind::kClassification};
inline const std::vector<TaskKind> kBothTasks{TaskKind::kClassification, TaskKind::kRegression};

// What every entry states about itself: its name, the papers whose experiments use it, its tasks and a
// summary. The rest (schema, factory, status, bound) the family adds; see with_learner (param_set.hpp).
AlgorithmInfo describe(std::string name, std::string papers, std::vector<TaskKind> tasks, std::string summary);
// The same entry, non-private: no epsilon, privacy status "non-private".
AlgorithmInfo describe_non_private(std::string name, std::string papers, std::vector<TaskKind> tasks,
                                   std::string summary);

// Common parameters every algorithm has.
ParamSpec strict_param();
ParamSpec quirks_param(const std::vector<QuirkSpec>& quirks);

}  // namespace dpf
