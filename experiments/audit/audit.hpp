// The engine of the statistical privacy audit (privacy.md §4.1, §7.4; design.md §10): fit one
// registry configuration many times on each of two neighbouring datasets, read the whole released
// output of every fit (Model::released: structure, features, thresholds, leaf values), and bound the
// privacy loss from below with exact Clopper-Pearson intervals.
//
// Protocol. samples fits per dataset, seeds hashed from (seed, side, index), so the result does not
// depend on the thread count. Continuous release values are discretised as floor(v / resolution)
// (post-processing, which cannot raise the loss) or kept exact. The first half of each side's fits
// chooses the event: outputs ranked by (count on one side + 1) / (count on the other + 1), the prefix
// of that ranking with the best bound on the first half. The second half, untouched by the choice,
// bounds it. Both directions are tried; the four intervals of the second half each get alpha / 4, so
// with probability at least 1 - alpha every interval holds and the bound is below the truth:
//  * pure epsilon (claimed_delta = 0): eps_lb = ln(cp_lower(k_num) / cp_upper(k_den)); a configuration
//    that is epsilon-DP at its claim is flagged (eps_lb > claim) with probability at most alpha;
//  * (epsilon, delta) (claimed_delta > 0): at the claimed epsilon, delta_lb = cp_lower(k_num) -
//    e^eps cp_upper(k_den) (a lower bound on P[E | D] - e^eps P[E | D'], which (eps, delta)-DP keeps
//    <= delta for every event E and both orders); a configuration that is (eps, delta)-DP at its claim
//    is flagged (delta_lb > delta) with probability at most alpha. The event that maximises the
//    hockey-stick divergence is a likelihood-ratio level set, which the ranking's prefixes are; the
//    selection half picks the prefix, so choosing among many events costs nothing on the bounding half.
//    The pure-epsilon bound is still computed, for information (it may exceed epsilon on delta-mass
//    events without any violation). With n fits per side the delta bound resolves about
//    4.4 (1 + e^eps) sqrt(p / (n / 2)) for an event of probability p: a few 1e-2 at n = 10^5, so it
//    catches gross failures (a released bit that one neighbour can never produce), not a delta of 1e-6.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/data/dataset.hpp"
#include "core/tree/model.hpp"

namespace dpf {

struct AuditPair {
  std::string name, description;
  Dataset d0, d1;  // neighbouring datasets (under add/remove-one: d1 = d0 plus one row, in any position)
};

struct AuditOptions {
  int64_t samples = 100000;  // fits per dataset (split in two halves: event selection, then bounding)
  double alpha = 1e-5;       // probability of a false alarm of the whole audit (all intervals, both directions)
  int threads = 1;
  uint64_t seed = 1;
  double resolution = 0.0;   // > 0: continuous values as floor(v / resolution) (post-processing); 0: exact
  double claimed_epsilon = std::numeric_limits<double>::quiet_NaN();  // NaN: the largest ledger.spent() seen
  int keep_continuous = -1;  // >= 0: read only the first k continuous values (a projection: post-processing),
                             // e.g. 1 = the root threshold of a ForestModel; -1: all
  double claimed_delta = 0.0;  // > 0: (epsilon, delta) mode at claimed_epsilon (which must then be given)
};

struct AuditResult {
  double epsilon_lb = 0;       // lower bound on the privacy loss (max over the two directions; 0 if none)
  double epsilon_claimed = 0;
  bool delta_mode = false;     // (epsilon, delta) mode: the verdict is on delta_lb
  double delta_lb = 0;         // lower bound on P[E | D] - e^eps P[E | D'] at epsilon_claimed (max over events and orders; >= 0)
  double delta_claimed = 0;
  bool flagged = false;        // pure mode: epsilon_lb > epsilon_claimed; delta mode: delta_lb > delta_claimed
  // The verdict's event (the delta event in delta mode):
  std::string direction;       // "d1 vs d0" (the event is likelier on d1) or "d0 vs d1"
  std::string event;           // the distinguishing event in words
  int64_t k_num = 0, k_den = 0, n_half = 0;  // the event's counts on the bounding half
  int64_t distinct_outputs = 0;
  double seconds = 0, fits_per_second = 0;
};

// Model level: a registry configuration (params resolved against its schema) ...
AuditResult run_audit(const std::string& algorithm, const std::map<std::string, std::string>& params,
                      const AuditPair& pair, const AuditOptions& opt);
// ... or any Learner (tests plant bugs this way), fitted on every row of each dataset; with threads > 1
// its fit() must be safe to call concurrently (the registry overload makes one learner per thread).
AuditResult run_audit(const Learner& learner, const AuditPair& pair, const AuditOptions& opt);
// Mechanism level: one draw of a mechanism on side 0 (d0's input) or side 1 (d1's input), from an RNG
// seeded with `seed`; `spent`, when not null, is raised to the epsilon the draw charged. Must be safe to
// call from several threads at once.
using ReleaseSampler = std::function<Release(int side, uint64_t seed, double* spent)>;
AuditResult run_audit(const ReleaseSampler& sample, const AuditOptions& opt);

// A tiny dataset in memory: numeric features x0, x1, ... with public domains [lo, hi], classes "0" ..
// "n_classes - 1"; each row is its feature values then the class index.
Dataset tiny_dataset(const std::vector<std::pair<double, double>>& numeric_domains, int n_classes,
                     const std::vector<std::vector<double>>& rows, const std::string& name = "audit");

}  // namespace dpf
