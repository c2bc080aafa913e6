#include "experiments/config/formula.hpp"

#include <cstdlib>

#include "algorithms/common/leaf_label.hpp"
#include "core/util/error.hpp"
#include "core/util/named.hpp"

namespace dpf {

namespace {

int64_t as_gap(double j, const char* what) {
  // Checked before the conversion: a double at or above 2^63 (or infinite) has no int64_t value, and
  // converting it is undefined behaviour (found by tests/fuzz, config j: 5.8e37).
  require(j >= 0 && j < 9223372036854775808.0 && j == static_cast<double>(static_cast<int64_t>(j)), what,
          ": j must be a non-negative integer below 2^63, got ", j);
  return static_cast<int64_t>(j);
}

}  // namespace

const std::vector<FormulaInfo>& formula_table() {
  static const std::vector<FormulaInfo> table = {
      {"smooth-sensitivity",
       "S*(u, x) = e^(-j eps), the smooth sensitivity of the majority-label utility at a leaf whose top two class "
       "counts differ by j (smooth-rdf: Theorem 1, Table 2)",
       {"j", "epsilon"},
       [](const std::map<std::string, double>& a) {
         return smooth_sensitivity(as_gap(a.at("j"), "smooth-sensitivity"), a.at("epsilon"));
       }},
      {"smooth-em-exponent",
       "the exponent eps / (2 S*) the smooth-sensitivity exponential mechanism gives the majority label, with the "
       "authors' cap of 50 (smooth-rdf §4.1, Theorem 1; smooth-rdf.md §1.6); global sensitivity gives eps / 2",
       {"j", "epsilon"},
       [](const std::map<std::string, double>& a) {
         return smooth_em_exponent(as_gap(a.at("j"), "smooth-em-exponent"), a.at("epsilon"));
       }},
  };
  return table;
}

const FormulaInfo& find_formula(const std::string& name) { return find_named(formula_table(), name, "formula"); }

std::vector<ResultRow> evaluate_formula(const std::string& paper, const std::string& experiment,
                                        const std::string& name,
                                        const std::map<std::string, std::vector<std::string>>& grid,
                                        const std::string& where) {
  const FormulaInfo& f = find_formula(name);
  for (const auto& [k, v] : grid) {
    bool known = false;
    for (const auto& a : f.args) known = known || a == k;
    require(known, where, ": formula.grid.", k, ": '", name, "' takes no argument '", k, "'");
  }
  // Cartesian product over the formula's arguments, the first argument varying slowest.
  std::vector<std::map<std::string, std::string>> points{{}};
  for (const std::string& a : f.args) {
    require(grid.count(a) > 0, where, ": formula.grid: '", name, "' needs a value or list for '", a, "'");
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& p : points)
      for (const std::string& v : grid.at(a)) {
        auto q = p;
        q[a] = v;
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  std::vector<ResultRow> rows;
  for (const auto& p : points) {
    std::map<std::string, double> args;
    ResultRow r;
    r.set("paper", paper);
    r.set("experiment", experiment);
    r.set("formula", name);
    for (const std::string& a : f.args) {
      const std::string& text = p.at(a);
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      require(!text.empty() && end == text.c_str() + text.size(), where, ": formula.grid.", a, ": '", text,
              "' is not a number");
      args[a] = v;
      r.set(a, text);
    }
    try {
      r.set("value", f.eval(args));
    } catch (const Error& e) {
      fail(where, ": formula ", name, ": ", e.what());
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace dpf
