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

bool parse_number(const std::string& s, double& out) {
  const char* b = s.data();
  const char* e = b + s.size();
  while (b != e && (*b == ' ' || *b == '\t')) ++b;  // quoted cells keep their padding
  while (e != b && (e[-1] == ' ' || e[-1] == '\t')) --e;
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e && b != e && std::isfinite(out);
}

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

}  // namespace

Dataset build_dataset(const std::string& name, const VariantSpec& spec, std::vector<RawTable>& tables,
                      const BuildOptions& options) {
  require(!tables.empty(), name, ": no tables to build from");
  std::size_t raw_rows = 0;
  // Column names: the registry's, else the first file's header.
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

  // Derived columns are appended to every row.
  for (const Derivation& dv : spec.derive) {
    for (RawTable& t : tables) {
      std::vector<int> srcs;
      for (const auto& c : dv.sources) {
        srcs.push_back(find_col(t.columns, c));
        if (srcs.back() < 0) fail(name, ": derive: no column '", c, "'");
      }
      int src = srcs.front();
      for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (dv.kind == "concat") {
          std::string v;
          for (int c : srcs) v += t.rows[r][c];
          t.rows[r].push_back(std::move(v));
          continue;
        }
        std::string at = name + ": " + base_name(t.source) + " line " + std::to_string(t.line_of_row[r]) +
                         ", column '" + dv.from + "'";
        t.rows[r].push_back(derive_value(dv, t.rows[r][src], at));
      }
      t.columns.push_back(dv.name);
    }
  }
  const std::vector<std::string>& cols = tables[0].columns;
  int target_col = find_col(cols, spec.target);
  if (target_col < 0) fail(name, ": no target column '", spec.target, "'");
  for (const auto& d : spec.drop)
    if (find_col(cols, d) < 0) fail(name, ": drop: no column '", d, "'");
  std::vector<std::string> feature_names = spec.feature_order;
  if (feature_names.empty())
    for (const auto& c : cols)
      if (c != spec.target && std::find(spec.drop.begin(), spec.drop.end(), c) == spec.drop.end())
        feature_names.push_back(c);

  Schema schema;
  std::vector<int> src;
  for (const auto& fname : feature_names) {
    int c = find_col(cols, fname);
    if (c < 0) fail(name, ": feature '", fname, "' is not a column");
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
      } else if (!options.infer_public) {
        fail(name, ": numeric feature '", fname, "' has no public domain in the registry (domains:)");
      }
    } else if (f.categories.empty() && !options.infer_public) {
      fail(name, ": categorical feature '", fname, "' has no category list in the registry");
    }
    schema.features.push_back(std::move(f));
    src.push_back(c);
  }
  schema.target.name = spec.target;
  schema.target.task = spec.task;
  schema.target.classes = spec.classes;
  if (spec.task == TaskKind::kRegression) {
    auto dom = spec.domains.find(spec.target);
    if (spec.target_bounds) {
      schema.target.lo = spec.target_bounds->first;
      schema.target.hi = spec.target_bounds->second;
    } else if (dom != spec.domains.end()) {
      schema.target.lo = dom->second.first;
      schema.target.hi = dom->second.second;
    } else if (!options.infer_public) {
      fail(name, ": regression target '", spec.target, "' has no bounds in the registry");
    }
  } else if (spec.classes.empty() && !options.infer_public) {
    fail(name, ": classification target '", spec.target, "' has no class list in the registry");
  }

  auto is_marker = [&](const std::string& cell) {
    return std::find(spec.missing_markers.begin(), spec.missing_markers.end(), cell) != spec.missing_markers.end();
  };
  auto is_missing = [&](const std::string& cell, const std::string& column) {
    if (spec.missing_markers.empty()) return false;
    if (!is_marker(cell)) return false;
    return std::find(spec.missing_as_category.begin(), spec.missing_as_category.end(), column) ==
           spec.missing_as_category.end();
  };
  // impute-train-median: a marker in a numeric feature is kept as NaN (imputed per training fold).
  const bool impute = spec.missing_rule == "impute-train-median";
  if (impute) schema.missing_numeric = "train-median";
  std::vector<char> imputable(src.size(), 0);
  for (std::size_t f = 0; f < src.size(); ++f)
    imputable[f] = impute && schema.features[f].kind == FeatureKind::kNumeric;
  auto drops_row = [&](const std::vector<std::string>& row) {
    if (is_missing(row[target_col], spec.target)) return true;
    for (std::size_t f = 0; f < src.size(); ++f)
      if (!imputable[f] && is_missing(row[src[f]], feature_names[f])) return true;
    return false;
  };
  auto map_class = [&](const std::string& raw) -> const std::string& {
    auto m = spec.class_map.find(raw);
    if (m != spec.class_map.end()) return m->second;
    if (!spec.class_others.empty()) return spec.class_others;
    return raw;
  };

  // Inference pass (tool only): category and class lists from the rows kept.
  if (options.infer_public) {
    std::vector<std::set<std::string>> seen(feature_names.size());
    std::set<std::string> classes;
    for (const RawTable& t : tables)
      for (const auto& row : t.rows) {
        if (drops_row(row)) continue;
        for (std::size_t f = 0; f < src.size(); ++f)
          if (!(imputable[f] && is_marker(row[src[f]]))) seen[f].insert(row[src[f]]);
        classes.insert(map_class(row[target_col]));
      }
    for (std::size_t f = 0; f < src.size(); ++f)
      if (schema.features[f].kind == FeatureKind::kCategorical && schema.features[f].categories.empty())
        schema.features[f].categories = sorted_values(seen[f]);
    if (spec.task == TaskKind::kClassification && schema.target.classes.empty())
      schema.target.classes = sorted_values(classes);
  }

  std::vector<std::unordered_map<std::string, int>> codes(src.size());
  for (std::size_t f = 0; f < src.size(); ++f)
    for (std::size_t c = 0; c < schema.features[f].categories.size(); ++c)
      codes[f][schema.features[f].categories[c]] = static_cast<int>(c);
  std::unordered_map<std::string, int> class_code;
  for (std::size_t c = 0; c < schema.target.classes.size(); ++c) class_code[schema.target.classes[c]] = static_cast<int>(c);

  Dataset data(name, schema);
  data.reserve(raw_rows);
  std::vector<double> x(src.size());
  bool infer_num = options.infer_public;
  std::vector<std::pair<double, double>> seen_range(src.size(), {INFINITY, -INFINITY});
  std::pair<double, double> target_range{INFINITY, -INFINITY};
  for (const RawTable& t : tables) {
    std::string file = base_name(t.source);
    auto where = [&](std::size_t r, const std::string& column) {
      return name + ": " + file + " line " + std::to_string(t.line_of_row[r]) + ", column '" + column + "'";
    };
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const auto& row = t.rows[r];
      if (drops_row(row)) continue;
      for (std::size_t f = 0; f < src.size(); ++f) {
        const std::string& cell = row[src[f]];
        const Feature& feat = schema.features[f];
        if (imputable[f] && is_marker(cell)) {
          x[f] = std::numeric_limits<double>::quiet_NaN();
        } else if (feat.kind == FeatureKind::kNumeric) {
          if (!parse_number(cell, x[f])) fail(where(r, feat.name), ": '", cell, "' is not a number");
          if (infer_num) {
            seen_range[f].first = std::min(seen_range[f].first, x[f]);
            seen_range[f].second = std::max(seen_range[f].second, x[f]);
          } else if (x[f] < feat.lo || x[f] > feat.hi) {
            fail(where(r, feat.name), ": ", cell, " is outside the registry domain [", feat.lo, ", ", feat.hi, "]");
          }
        } else {
          auto it = codes[f].find(cell);
          if (it == codes[f].end()) fail(where(r, feat.name), ": '", cell, "' is not one of its categories");
          x[f] = it->second;
        }
      }
      double y;
      const std::string& cell = row[target_col];
      if (spec.task == TaskKind::kClassification) {
        auto it = class_code.find(map_class(cell));
        if (it == class_code.end() && spec.drop_other_classes) continue;
        if (it == class_code.end()) fail(where(r, spec.target), ": '", cell, "' is not one of the classes");
        y = it->second;
      } else {
        if (!parse_number(cell, y)) fail(where(r, spec.target), ": '", cell, "' is not a number");
        target_range.first = std::min(target_range.first, y);
        target_range.second = std::max(target_range.second, y);
        if (!infer_num && (y < schema.target.lo || y > schema.target.hi))
          fail(where(r, spec.target), ": ", cell, " is outside the registry bounds [", schema.target.lo, ", ",
               schema.target.hi, "]");
      }
      data.add_row(x, y);
    }
  }
  if (infer_num) {
    Schema& s = data.mutable_schema();
    for (std::size_t f = 0; f < src.size(); ++f)
      if (s.features[f].kind == FeatureKind::kNumeric && !spec.domains.count(s.features[f].name)) {
        s.features[f].lo = seen_range[f].first;
        s.features[f].hi = seen_range[f].second;
      }
    if (spec.task == TaskKind::kRegression && !spec.target_bounds && !spec.domains.count(spec.target)) {
      s.target.lo = target_range.first;
      s.target.hi = target_range.second;
    }
    s.domains_source = "from-data";
  }
  if (spec.rows >= 0 && static_cast<long>(data.n_rows()) != spec.rows)
    fail(name, ": ", data.n_rows(), " rows after missing-value handling, the registry expects ", spec.rows);
  if (spec.features >= 0 && static_cast<long>(data.n_features()) != spec.features)
    fail(name, ": ", data.n_features(), " features, the registry expects ", spec.features);
  return data;
}

}  // namespace dpf
