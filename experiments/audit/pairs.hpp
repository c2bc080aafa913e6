// Neighbouring pairs for the privacy audit (audit.hpp): a built-in library of tiny worst-case pairs,
// each aimed at one data-dependent part of a release, and a YAML file format for your own.
//
// Pair file (YAML; unknown keys are errors naming the file and key):
//   name: tie-order                       # optional, default: the file name
//   description: "..."                    # optional
//   features: [[0, 1], [0, 1]]            # public domain [lo, hi] of each numeric feature
//   classes: 2                            # number of classes (labels 0 .. classes - 1)
//   bins: 5                               # optional: equal-width bins over the domains (DP-RF, DP-DF)
//   d0: [[0.5, 0.2, 0], [0.4, 0.9, 1]]    # rows: feature values, then the class
//   d1: [[0.5, 0.2, 0], [0.4, 0.9, 1], [0.1, 0.1, 1]]
#pragma once
#include <string>
#include <vector>

#include "experiments/audit/audit.hpp"

namespace dpf {

// The built-in pairs (dpforest audit --pairs NAME): class-set, n-depth, tie-order, empty-leaf,
// occupancy, occupancy-binned, narrow-interval, smooth-label, partition-shift, median-move, block-shift
// (diffprivlib-rf), gini-noisy-n (privatree), heavy-split and count-two-three (lumberjack),
// selection-flip (private-selection).
std::vector<std::string> builtin_pair_names();
// One line per built-in pair: its name and what it targets.
std::string builtin_pair_help();
// Throws dpf::Error listing the known names.
AuditPair builtin_pair(const std::string& name);
// Reads a pair file (format above). Errors name the file and the key or row.
AuditPair load_audit_pair(const std::string& path);

}  // namespace dpf
