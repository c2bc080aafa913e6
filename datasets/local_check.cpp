// `dpforest dataset check FILE --schema S`: every row of an own CSV file against its schema, with
// every problem named by line and column (loading stops at the first one).
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "core/data/loaders.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "datasets/local.hpp"

namespace dpf {

namespace {

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

// Column -> how its cells are checked.
struct ColumnRule {
  enum class Kind { kNumeric, kCategorical, kClass, kTarget } kind = Kind::kNumeric;
  std::string name;
  bool bounded = false;
  double lo = 0, hi = 0;
  std::set<std::string> allowed;  // categories or classes (empty: not listed, from-data)
};

std::vector<std::pair<int, ColumnRule>> column_rules(const LocalDataset& d, const std::vector<std::string>& cols) {
  const VariantSpec& s = d.spec;
  std::vector<std::pair<int, ColumnRule>> rules;
  auto col = [&](const std::string& name) {
    return static_cast<int>(std::find(cols.begin(), cols.end(), name) - cols.begin());
  };
  for (const auto& f : d.features) {
    ColumnRule r;
    r.name = f;
    if (auto c = s.categories.find(f); c != s.categories.end()) {
      r.kind = ColumnRule::Kind::kCategorical;
      r.allowed.insert(c->second.begin(), c->second.end());
    } else if (auto b = s.domains.find(f); b != s.domains.end()) {
      r.bounded = true, r.lo = b->second.first, r.hi = b->second.second;
    }
    rules.emplace_back(col(f), r);
  }
  ColumnRule t;
  t.name = s.target;
  if (s.task == TaskKind::kClassification) {
    t.kind = ColumnRule::Kind::kClass;
    t.allowed.insert(s.classes.begin(), s.classes.end());
  } else {
    t.kind = ColumnRule::Kind::kTarget;
    if (s.target_bounds) t.bounded = true, t.lo = s.target_bounds->first, t.hi = s.target_bounds->second;
  }
  rules.emplace_back(col(s.target), t);
  return rules;
}

// "" when the cell fits its column's rule, else why not.
std::string cell_problem(const ColumnRule& r, const std::string& cell) {
  using Kind = ColumnRule::Kind;
  if (r.kind == Kind::kCategorical || r.kind == Kind::kClass) {
    if (r.allowed.empty() || r.allowed.count(cell)) return "";
    return "'" + clip(cell) + "' is not one of the schema's " + (r.kind == Kind::kClass ? "classes" : "categories");
  }
  double x = 0;
  if (!parse_cell_number(cell, x)) return "'" + clip(cell) + "' is not a finite number";
  if (r.bounded && (x < r.lo || x > r.hi))
    return cell + " is outside the schema's " + (r.kind == Kind::kTarget ? "target_bounds" : "bounds") + " [" + num(r.lo) +
           ", " + num(r.hi) + "]";
  return "";
}

std::string describe_schema(const LocalDataset& d) {
  const VariantSpec& s = d.spec;
  std::size_t categorical = 0;
  for (const auto& f : d.features) categorical += s.categories.count(f);
  std::string out = std::to_string(d.features.size()) + " features (" + std::to_string(d.features.size() - categorical) +
                    " numeric, " + std::to_string(categorical) + " categorical), target '" + s.target + "' (" +
                    to_string(s.task);
  if (s.task == TaskKind::kClassification)
    out += s.classes.empty() ? ", classes from the data" : ", " + std::to_string(s.classes.size()) + " classes";
  out += ")";
  if (d.domains_from_data) out += "; domains: from-data (not differentially private)";
  return out;
}

// Columns missing from the header, and columns the schema does not declare.
std::vector<std::string> header_problems(const LocalDataset& d, const std::vector<std::string>& cols,
                                         const std::vector<std::pair<int, ColumnRule>>& rules) {
  std::vector<std::string> out;
  for (const auto& [c, r] : rules)
    if (c >= static_cast<int>(cols.size())) out.push_back("no column '" + r.name + "' in the header");
  for (const auto& col : cols) {
    const bool declared = col == d.spec.target ||
                          std::find(d.features.begin(), d.features.end(), col) != d.features.end() ||
                          std::find(d.spec.drop.begin(), d.spec.drop.end(), col) != d.spec.drop.end();
    if (!declared) out.push_back("column '" + col + "' is not in the schema (declare it under features or drop)");
  }
  return out;
}

class Problems {
 public:
  Problems(LocalCheck& out, std::size_t max) : out_(out), max_(max) {}
  void add(const std::string& e) {
    if (out_.errors.size() < max_) out_.errors.push_back(e);
    ++out_.error_count;
  }

 private:
  LocalCheck& out_;
  std::size_t max_;
};

void check_rows(const LocalDataset& d, const RawTable& t, const std::vector<std::pair<int, ColumnRule>>& rules,
                LocalCheck& out, Problems& problems) {
  const auto& markers = d.spec.missing_markers;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    const std::string line = d.csv + " line " + std::to_string(t.line_of_row[r]);
    if (row.size() != t.columns.size()) {
      problems.add(line + ": " + std::to_string(row.size()) + " fields, the header has " + std::to_string(t.columns.size()));
      continue;
    }
    const bool missing = std::any_of(rules.begin(), rules.end(), [&](const auto& cr) {
      return std::find(markers.begin(), markers.end(), row[static_cast<std::size_t>(cr.first)]) != markers.end();
    });
    if (missing) {
      ++out.dropped;
      continue;
    }
    for (const auto& [c, rule] : rules)
      if (const std::string why = cell_problem(rule, row[static_cast<std::size_t>(c)]); !why.empty())
        problems.add(line + ", column '" + rule.name + "': " + why);
  }
}

}  // namespace

LocalCheck check_local_dataset(const LocalDataset& d, std::size_t max_errors) {
  LocalCheck out;
  const RawTable t = read_table(d.csv, d.spec.format);  // a missing file: read_table names it
  const std::vector<std::pair<int, ColumnRule>> rules = column_rules(d, t.columns);
  Problems problems(out, max_errors);
  out.rows = t.rows.size();
  const std::vector<std::string> header = header_problems(d, t.columns, rules);
  for (const auto& e : header) problems.add(d.csv + ": " + e);
  if (header.empty()) check_rows(d, t, rules, out, problems);
  out.summary = d.csv + ": " + std::to_string(out.rows) + " rows" +
                (out.dropped ? " (" + std::to_string(out.dropped) + " dropped for a missing value)" : "") + ", " +
                describe_schema(d) + "; " +
                (out.error_count == 0 ? std::string("every row fits the schema")
                                      : std::to_string(out.error_count) + " problem" + (out.error_count == 1 ? "" : "s"));
  return out;
}

}  // namespace dpf
