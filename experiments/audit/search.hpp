// Randomised search for a worst-case neighbouring pair (in the spirit of DP-Auditorium's dataset
// generators and StatDP's input search, privacy.md §4.2, §4.4): draw many tiny random pairs (D of
// 1..max_rows rows on a grid of one numeric feature, two classes; D' = D plus one random row at a random
// position), screen each with a short audit, and keep the pair with the largest screened lower bound.
// The pair is then audited afresh with new seeds (dpforest audit --search), so choosing it does not
// touch the samples that bound it: the false-alarm guarantee of the final audit stands.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "experiments/audit/audit.hpp"

namespace dpf {

struct SearchOptions {
  int candidates = 200;          // random pairs screened
  int64_t screen_samples = 4000; // fits per dataset in each screening audit
  int max_rows = 4;              // rows of D (1 .. max_rows)
  uint64_t seed = 1;
  int threads = 1;
  double resolution = 0.0;
  int keep_continuous = -1;
};

struct SearchResult {
  AuditPair pair;
  double screened_lb = 0.0;  // the best screening bound (alpha 0.05 per screen: an estimate, not a test)
  int screened = 0;
};

SearchResult search_pair(const std::string& algorithm, const std::map<std::string, std::string>& params,
                         const SearchOptions& opt);

}  // namespace dpf
