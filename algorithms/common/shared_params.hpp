// The parameters every family shares, declared once: one name, type, range and documentation each
// (design.md §6: one name per shared parameter, so one config sweeps every method). Where the papers
// differ in a default (10 trees for DiPriMe, 100 for Breiman's forest) the builder takes it; a family
// maps its paper's name onto the shared one in `doc` (diffprivlib's n_estimators is n_trees).
// Privacy budgets have ONE default: epsilon = 1 for every private algorithm.
#pragma once
#include <string>
#include <vector>

#include "algorithms/common/params.hpp"

namespace dpf::param {

inline constexpr const char* kEpsilonDefault = "1";

ParamSpec epsilon(std::string doc = "total privacy budget ε");             // number > 0, default 1
ParamSpec delta(std::string default_value, std::string doc);              // number in (0, 0.1]
ParamSpec n_trees(int default_value, std::string doc = "number of trees"); // int in [1, 100000]
ParamSpec max_depth(int default_value, std::string doc, int min = 1, int max = 40);
ParamSpec min_leaf(int default_value, std::string doc);                   // int >= 1
ParamSpec max_features(std::string doc);                                  // int >= 0, default 0 (a family rule)
ParamSpec partition_rate(std::string doc = "r = |S|/|E|");               // number > 0, default 1
ParamSpec vote(std::string default_value, std::vector<std::string> choices, std::string doc);
ParamSpec max_bins(int default_value, std::string doc, int min = 2, int max = 255);
ParamSpec strict();  // bool, default false: the repaired, epsilon-DP variant where the published one is not

// A family's own parameters, one line each. A number's default is its canonical text, as `dpforest list`
// shows it.
ParamSpec real(std::string name, std::string default_value, double min, double max, std::string doc);  // [min, max]
ParamSpec number(std::string name, std::string default_value, std::string doc);                        // any number
ParamSpec positive(std::string name, std::string default_value, double max, std::string doc);         // (0, max]
ParamSpec probability(std::string name, std::string default_value, std::string doc);                  // [0, 1]
ParamSpec share(std::string name, std::string default_value, std::string doc);                        // (0, 1]
ParamSpec count(std::string name, int default_value, double min, double max, std::string doc);        // int
ParamSpec flag(std::string name, bool default_value, std::string doc);                                // bool
// A string whose choices the ParamSet fills from its mapping (ParamSet::add with values).
ParamSpec choice(std::string name, std::string default_value, std::string doc);
// A string read as it is, one of `choices`.
ParamSpec choice(std::string name, std::string default_value, std::vector<std::string> choices, std::string doc);
ParamSpec text(std::string name, std::string doc);  // any string, empty by default (a family parses it)

}  // namespace dpf::param
