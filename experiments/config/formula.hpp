// Closed-form tables (design.md §2): some tables a paper prints need no data and no fit, only a
// formula the algorithms use (smooth-rdf Table 2: the smooth sensitivity e^(-j eps)). A config with a
// top-level `formula: {name: ..., grid: {arg: [values]}}` instead of datasets and algorithms evaluates
// the library's own function at every grid point, one results row per point (columns: formula, the
// arguments, value), so `make reproduce-table-N` and check-published treat it like any experiment.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "experiments/store/results.hpp"

namespace dpf {

struct FormulaInfo {
  std::string name;
  std::string summary;            // what it is, with the paper's citation
  std::vector<std::string> args;  // the grid must give exactly these
  std::function<double(const std::map<std::string, double>&)> eval;
};

// The explicit table of formulas (one line per formula in formula.cpp).
const std::vector<FormulaInfo>& formula_table();
// Throws dpf::Error listing the known names.
const FormulaInfo& find_formula(const std::string& name);

// One row per point of the cartesian grid, in grid order (args in the order FormulaInfo lists them).
// `where` prefixes error messages (the config path).
std::vector<ResultRow> evaluate_formula(const std::string& paper, const std::string& experiment,
                                        const std::string& name,
                                        const std::map<std::string, std::vector<std::string>>& grid,
                                        const std::string& where);

}  // namespace dpf
