#include "datasets/variant.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <unordered_map>

#include "core/util/error.hpp"

namespace dpf {

namespace {

std::string base_name(const std::string& path) {
  auto s = path.find_last_of('/');
  return s == std::string::npos ? path : path.substr(s + 1);
}

bool parse_number(const std::string& s, double& out) { return parse_cell_number(s, out); }

}  // namespace

bool parse_cell_number(const std::string& s, double& out) {
  const char* b = s.data();
  const char* e = b + s.size();
  while (b != e && (*b == ' ' || *b == '\t')) ++b;  // quoted cells keep their padding
  while (e != b && (e[-1] == ' ' || e[-1] == '\t')) --e;
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e && b != e && std::isfinite(out);
}

namespace {

int find_col(const std::vector<std::string>& cols, const std::string& name) {
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == name) return static_cast<int>(i);
  return -1;
}

// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm), for the weekday.
long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

std::string derive_value(const Derivation& dv, const std::string& cell, const std::string& at) {
  auto num = [&](std::size_t pos, std::size_t len) {
    long v = 0;
    if (cell.size() < pos + len) fail(at, ": '", cell, "' is not a date YYYY-MM-DD[ HH:MM:SS]");
    for (std::size_t i = pos; i < pos + len; ++i) {
      if (cell[i] < '0' || cell[i] > '9') fail(at, ": '", cell, "' is not a date YYYY-MM-DD[ HH:MM:SS]");
      v = v * 10 + (cell[i] - '0');
    }
    return v;
  };
  long y = num(0, 4), m = num(5, 2), d = num(8, 2);
  if (dv.kind == "year") return std::to_string(y);
  if (dv.kind == "month") return std::to_string(m);
  if (dv.kind == "day") return std::to_string(d);
  if (dv.kind == "weekday") {
    long days = days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
    long wd = ((days % 7) + 7 + 3) % 7;  // 1970-01-01 was a Thursday (3 with Monday = 0)
    return std::to_string(wd);
  }
  if (dv.kind == "hour") return std::to_string(num(11, 2));
  fail(at, ": unknown derivation kind '", dv.kind, "' (year, month, day, weekday, hour)");
}

std::vector<std::string> sorted_values(const std::set<std::string>& values) {
  std::vector<std::string> v(values.begin(), values.end());
  bool numeric = std::all_of(v.begin(), v.end(), [](const std::string& s) {
    double x;
    return parse_number(s, x);
  });
  if (numeric)
    std::stable_sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) {
      double x, y;
      parse_number(a, x);
      parse_number(b, y);
      return x < y;
    });
  return v;
}

// Headerless files take the registry's column names; every file must then have the same columns.
// Ragged rows are an error naming the line, or dropped when the variant says so. Returns the raw row
// count (before ragged rows are dropped), which the registry's `shape.rows` states.
std::size_t check_tables(const std::string& name, const VariantSpec& spec, std::vector<RawTable>& tables) {
  std::size_t raw_rows = 0;
  for (RawTable& t : tables) {
    std::string file = base_name(t.source);
    if (!spec.columns.empty()) {
      if (t.columns.size() != spec.columns.size() && !spec.drop_ragged) {
        // Headerless files take their width from the widest row: name the first row that differs.
        for (std::size_t r = 0; r < t.rows.size(); ++r)
          if (t.rows[r].size() != spec.columns.size())
            fail(name, ": ", file, " line ", t.line_of_row[r], " has ", t.rows[r].size(), " fields, the registry names ",
                 spec.columns.size(), " columns");
        fail(name, ": ", file, " has ", t.columns.size(), " columns, the registry names ", spec.columns.size());
      }
      t.columns = spec.columns;
    }
    if (t.columns != tables[0].columns)
      fail(name, ": ", file, " has different columns from ", base_name(tables[0].source));
    std::size_t kept = 0;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      if (t.rows[r].size() != t.columns.size()) {
        if (!spec.drop_ragged)
          fail(name, ": ", file, " line ", t.line_of_row[r], " has ", t.rows[r].size(), " fields, expected ",
               t.columns.size());
        continue;
      }
      if (kept != r) {
        t.rows[kept] = std::move(t.rows[r]);
        t.line_of_row[kept] = t.line_of_row[r];
      }
      ++kept;
    }
    raw_rows += t.rows.size();  // counted before ragged rows are dropped
    t.rows.resize(kept);
    t.line_of_row.resize(kept);
  }
  if (spec.raw_rows >= 0 && static_cast<long>(raw_rows) != spec.raw_rows)
    fail(name, ": the file(s) hold ", raw_rows, " rows, the registry expects ", spec.raw_rows);
  if (spec.raw_columns >= 0 && static_cast<long>(tables[0].columns.size()) != spec.raw_columns)
    fail(name, ": the file(s) hold ", tables[0].columns.size(), " columns, the registry expects ", spec.raw_columns);
  return raw_rows;
}

// Derived columns are appended to every row.
void append_derived(const std::string& name, const VariantSpec& spec, std::vector<RawTable>& tables) {
  for (const Derivation& dv : spec.derive)
    for (RawTable& t : tables) {
      std::vector<int> srcs;
      for (const auto& c : dv.sources) {
        srcs.push_back(find_col(t.columns, c));
        if (srcs.back() < 0) fail(name, ": derive: no column '", c, "'");
      }
      for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (dv.kind == "concat") {
          std::string v;
          for (int c : srcs) v += t.rows[r][c];
          t.rows[r].push_back(std::move(v));
          continue;
        }
        std::string at = name + ": " + base_name(t.source) + " line " + std::to_string(t.line_of_row[r]) +
                         ", column '" + dv.from + "'";
        t.rows[r].push_back(derive_value(dv, t.rows[r][srcs.front()], at));
      }
      t.columns.push_back(dv.name);
    }
}

// One feature of the schema: its kind and public domain or category list from the variant.
Feature feature_of(const std::string& name, const VariantSpec& spec, const std::string& fname, bool infer_public) {
  Feature f;
  f.name = fname;
  bool is_num_listed = std::find(spec.numeric.begin(), spec.numeric.end(), fname) != spec.numeric.end();
  auto cat = spec.categories.find(fname);
  f.kind = cat != spec.categories.end() ? FeatureKind::kCategorical
           : is_num_listed              ? FeatureKind::kNumeric
                                        : spec.default_kind;
  if (f.kind == FeatureKind::kCategorical && cat != spec.categories.end()) f.categories = cat->second;
  if (f.kind == FeatureKind::kNumeric) {
    auto d = spec.domains.find(fname);
    if (d != spec.domains.end()) {
      f.lo = d->second.first;
      f.hi = d->second.second;
    } else if (!infer_public) {
      fail(name, ": numeric feature '", fname, "' has no public domain in the registry (domains:)");
    }
  } else if (f.categories.empty() && !infer_public) {
    fail(name, ": categorical feature '", fname, "' has no category list in the registry");
  }
  return f;
}

Target target_of(const std::string& name, const VariantSpec& spec, bool infer_public) {
  Target target;
  target.name = spec.target;
  target.task = spec.task;
  target.classes = spec.classes;
  if (spec.task == TaskKind::kRegression) {
    auto dom = spec.domains.find(spec.target);
    if (spec.target_bounds) {
      target.lo = spec.target_bounds->first;
      target.hi = spec.target_bounds->second;
    } else if (dom != spec.domains.end()) {
      target.lo = dom->second.first;
      target.hi = dom->second.second;
    } else if (!infer_public) {
      fail(name, ": regression target '", spec.target, "' has no bounds in the registry");
    }
  } else if (spec.classes.empty() && !infer_public) {
    fail(name, ": classification target '", spec.target, "' has no class list in the registry");
  }
  return target;
}

// Which columns are the target and the features, and the public schema they are typed with.
struct Layout {
  int target_col = -1;
  std::vector<std::string> feature_names;
  std::vector<int> src;  // per feature: its column
  Schema schema;
};

Layout layout_of(const std::string& name, const VariantSpec& spec, const std::vector<std::string>& cols,
                 bool infer_public) {
  Layout l;
  l.target_col = find_col(cols, spec.target);
  if (l.target_col < 0) fail(name, ": no target column '", spec.target, "'");
  for (const auto& d : spec.drop)
    if (find_col(cols, d) < 0) fail(name, ": drop: no column '", d, "'");
  l.feature_names = spec.feature_order;
  if (l.feature_names.empty())
    for (const auto& c : cols)
      if (c != spec.target && std::find(spec.drop.begin(), spec.drop.end(), c) == spec.drop.end())
        l.feature_names.push_back(c);
  for (const auto& fname : l.feature_names) {
    int c = find_col(cols, fname);
    if (c < 0) fail(name, ": feature '", fname, "' is not a column");
    l.schema.features.push_back(feature_of(name, spec, fname, infer_public));
    l.src.push_back(c);
  }
  l.schema.target = target_of(name, spec, infer_public);
  return l;
}

// The variant's missing-value and class-mapping rules over raw rows.
class RowRules {
 public:
  RowRules(const VariantSpec& spec, Layout& l) : spec_(spec), l_(l), imputable_(l.src.size(), 0) {
    // impute-train-median: a marker in a numeric feature is kept as NaN (imputed per training fold).
    const bool impute = spec.missing_rule == "impute-train-median";
    if (impute) l.schema.missing_numeric = "train-median";
    for (std::size_t f = 0; f < l.src.size(); ++f)
      imputable_[f] = impute && l.schema.features[f].kind == FeatureKind::kNumeric;
  }
  bool is_marker(const std::string& cell) const {
    return std::find(spec_.missing_markers.begin(), spec_.missing_markers.end(), cell) != spec_.missing_markers.end();
  }
  // A marker outside the columns where it is an ordinary category.
  bool is_missing(const std::string& cell, const std::string& column) const {
    if (spec_.missing_markers.empty() || !is_marker(cell)) return false;
    return std::find(spec_.missing_as_category.begin(), spec_.missing_as_category.end(), column) ==
           spec_.missing_as_category.end();
  }
  // A missing cell kept as NaN for per-fold imputation.
  bool imputed(std::size_t f, const std::string& cell) const { return imputable_[f] && is_marker(cell); }
  bool drops_row(const std::vector<std::string>& row) const {
    if (is_missing(row[l_.target_col], spec_.target)) return true;
    for (std::size_t f = 0; f < l_.src.size(); ++f)
      if (!imputable_[f] && is_missing(row[l_.src[f]], l_.feature_names[f])) return true;
    return false;
  }
  const std::string& map_class(const std::string& raw) const {
    auto m = spec_.class_map.find(raw);
    if (m != spec_.class_map.end()) return m->second;
    if (!spec_.class_others.empty()) return spec_.class_others;
    return raw;
  }

 private:
  const VariantSpec& spec_;
  const Layout& l_;
  std::vector<char> imputable_;
};

// Inference (the one-off tool only): category and class lists from the rows kept.
void infer_lists(const VariantSpec& spec, const std::vector<RawTable>& tables, const RowRules& rules, Layout& l) {
  std::vector<std::set<std::string>> seen(l.feature_names.size());
  std::set<std::string> classes;
  for (const RawTable& t : tables)
    for (const auto& row : t.rows) {
      if (rules.drops_row(row)) continue;
      for (std::size_t f = 0; f < l.src.size(); ++f)
        if (!rules.imputed(f, row[l.src[f]])) seen[f].insert(row[l.src[f]]);
      classes.insert(rules.map_class(row[l.target_col]));
    }
  for (std::size_t f = 0; f < l.src.size(); ++f)
    if (l.schema.features[f].kind == FeatureKind::kCategorical && l.schema.features[f].categories.empty())
      l.schema.features[f].categories = sorted_values(seen[f]);
  if (spec.task == TaskKind::kClassification && l.schema.target.classes.empty())
    l.schema.target.classes = sorted_values(classes);
}

// Types the kept rows into `data`, checking each value against the public schema (or, when
// inferring, recording the observed ranges instead).
class RowTyper {
 public:
  RowTyper(const std::string& name, const VariantSpec& spec, const Layout& l, const RowRules& rules, bool infer)
      : name_(name), spec_(spec), l_(l), rules_(rules), infer_(infer), codes_(l.src.size()), x_(l.src.size()),
        seen_range_(l.src.size(), {INFINITY, -INFINITY}) {
    for (std::size_t f = 0; f < l.src.size(); ++f)
      for (std::size_t c = 0; c < l.schema.features[f].categories.size(); ++c)
        codes_[f][l.schema.features[f].categories[c]] = static_cast<int>(c);
    for (std::size_t c = 0; c < l.schema.target.classes.size(); ++c)
      class_code_[l.schema.target.classes[c]] = static_cast<int>(c);
  }
  void add(const RawTable& t, Dataset& data);
  // Inference: the observed ranges become the domains of numeric features without a public one.
  void set_observed_domains(Dataset& data) const;

 private:
  std::string where(const RawTable& t, std::size_t r, const std::string& column) const {
    return name_ + ": " + base_name(t.source) + " line " + std::to_string(t.line_of_row[r]) + ", column '" + column + "'";
  }
  double feature_value(const RawTable& t, std::size_t r, std::size_t f);
  bool target_value(const RawTable& t, std::size_t r, double& y);  // false: the row's class is dropped

  const std::string& name_;
  const VariantSpec& spec_;
  const Layout& l_;
  const RowRules& rules_;
  const bool infer_;
  std::vector<std::unordered_map<std::string, int>> codes_;
  std::unordered_map<std::string, int> class_code_;
  std::vector<double> x_;
  std::vector<std::pair<double, double>> seen_range_;
  std::pair<double, double> target_range_{INFINITY, -INFINITY};
};

double RowTyper::feature_value(const RawTable& t, std::size_t r, std::size_t f) {
  const std::string& cell = t.rows[r][l_.src[f]];
  const Feature& feat = l_.schema.features[f];
  if (rules_.imputed(f, cell)) return std::numeric_limits<double>::quiet_NaN();
  if (feat.kind != FeatureKind::kNumeric) {
    auto it = codes_[f].find(cell);
    if (it == codes_[f].end()) fail(where(t, r, feat.name), ": '", cell, "' is not one of its categories");
    return it->second;
  }
  double x;
  if (!parse_number(cell, x)) fail(where(t, r, feat.name), ": '", cell, "' is not a number");
  if (infer_) {
    seen_range_[f].first = std::min(seen_range_[f].first, x);
    seen_range_[f].second = std::max(seen_range_[f].second, x);
  } else if (x < feat.lo || x > feat.hi) {
    fail(where(t, r, feat.name), ": ", cell, " is outside the registry domain [", feat.lo, ", ", feat.hi, "]");
  }
  return x;
}

bool RowTyper::target_value(const RawTable& t, std::size_t r, double& y) {
  const std::string& cell = t.rows[r][l_.target_col];
  if (spec_.task == TaskKind::kClassification) {
    auto it = class_code_.find(rules_.map_class(cell));
    if (it == class_code_.end() && spec_.drop_other_classes) return false;
    if (it == class_code_.end()) fail(where(t, r, spec_.target), ": '", cell, "' is not one of the classes");
    y = it->second;
    return true;
  }
  if (!parse_number(cell, y)) fail(where(t, r, spec_.target), ": '", cell, "' is not a number");
  target_range_.first = std::min(target_range_.first, y);
  target_range_.second = std::max(target_range_.second, y);
  const Target& tg = l_.schema.target;
  if (!infer_ && (y < tg.lo || y > tg.hi))
    fail(where(t, r, spec_.target), ": ", cell, " is outside the registry bounds [", tg.lo, ", ", tg.hi, "]");
  return true;
}

void RowTyper::add(const RawTable& t, Dataset& data) {
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (rules_.drops_row(t.rows[r])) continue;
    for (std::size_t f = 0; f < l_.src.size(); ++f) x_[f] = feature_value(t, r, f);
    double y;
    if (!target_value(t, r, y)) continue;
    data.add_row(x_, y);
  }
}

void RowTyper::set_observed_domains(Dataset& data) const {
  Schema& s = data.mutable_schema();
  for (std::size_t f = 0; f < l_.src.size(); ++f)
    if (s.features[f].kind == FeatureKind::kNumeric && !spec_.domains.count(s.features[f].name)) {
      s.features[f].lo = seen_range_[f].first;
      s.features[f].hi = seen_range_[f].second;
    }
  if (spec_.task == TaskKind::kRegression && !spec_.target_bounds && !spec_.domains.count(spec_.target)) {
    s.target.lo = target_range_.first;
    s.target.hi = target_range_.second;
  }
  s.domains_source = "from-data";
}

}  // namespace

Dataset build_dataset(const std::string& name, const VariantSpec& spec, std::vector<RawTable>& tables,
                      const BuildOptions& options) {
  require(!tables.empty(), name, ": no tables to build from");
  const std::size_t raw_rows = check_tables(name, spec, tables);
  append_derived(name, spec, tables);
  Layout layout = layout_of(name, spec, tables[0].columns, options.infer_public);
  const RowRules rules(spec, layout);
  if (options.infer_public) infer_lists(spec, tables, rules, layout);

  Dataset data(name, layout.schema);
  data.reserve(raw_rows);
  RowTyper typer(name, spec, layout, rules, options.infer_public);
  for (const RawTable& t : tables) typer.add(t, data);
  if (options.infer_public) typer.set_observed_domains(data);
  if (spec.rows >= 0 && static_cast<long>(data.n_rows()) != spec.rows)
    fail(name, ": ", data.n_rows(), " rows after missing-value handling, the registry expects ", spec.rows);
  if (spec.features >= 0 && static_cast<long>(data.n_features()) != spec.features)
    fail(name, ": ", data.n_features(), " features, the registry expects ", spec.features);
  return data;
}

}  // namespace dpf
