#include "experiments/publish/claims.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

#include "core/eval/stats.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

using namespace published_detail;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One claim entry being read: its file, its key prefix (claims[i]) and typed accessors.
struct Entry {
  const YAML::Node& n;
  std::string path, where;

  // An optional key: absent or null (`by: null`) counts as not given.
  bool given(const char* key) const { return n[key] && !n[key].IsNull(); }

  [[noreturn]] void bad(const std::string& key, const std::string& what) const {
    fail(path, ": ", where, key.empty() ? "" : ".", key, ": ", what);
  }
  std::string text(const std::string& key, const YAML::Node& v) const {
    if (!v || !v.IsScalar()) bad(key, "expected a scalar");
    return v.as<std::string>();
  }
  double number(const std::string& key, const YAML::Node& v) const {
    try {
      if (v && v.IsScalar()) return v.as<double>();
    } catch (const YAML::Exception&) {
    }
    bad(key, "expected a number");
  }
  // A scalar or a list of scalars.
  std::vector<std::string> texts(const std::string& key, const YAML::Node& v) const {
    std::vector<std::string> out;
    if (v && v.IsScalar()) out.push_back(v.as<std::string>());
    else if (v && v.IsSequence())
      for (const auto& x : v) out.push_back(text(key, x));
    else
      bad(key, "expected a value or a list of values");
    return out;
  }
  // A number x (the range [x, x]) or [lo, hi].
  std::pair<double, double> range(const std::string& key, const YAML::Node& v) const {
    if (v && v.IsSequence()) {
      if (v.size() != 2) bad(key, "expected a number or [low, high]");
      double lo = number(key, v[0]), hi = number(key, v[1]);
      if (lo > hi) bad(key, "expected low <= high");
      return {lo, hi};
    }
    double x = number(key, v);
    return {x, x};
  }
};

// Differences with three decimals (+0.156, i.e. 15.6 points of accuracy); sizes in sds with two; p with
// two significant digits.
std::string signed_fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1e-3 || v == 0 ? "%+.3f" : "%+.2g", v);
  return buf;
}
std::string fmt2(double v, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string range_text(std::pair<double, double> r) {
  return r.first == r.second ? fmt(r.first) : "[" + fmt(r.first) + ", " + fmt(r.second) + "]";
}

bool in_range(double x, std::pair<double, double> r) { return x >= r.first && x <= r.second; }

double numeric(const std::string& s) {
  char* e = nullptr;
  double x = std::strtod(s.c_str(), &e);
  return (!s.empty() && *e == '\0') ? x : kNaN;
}

// Orders by-values and over-values numerically where both are numbers, else as text.
bool value_less(const std::string& a, const std::string& b) {
  double x = numeric(a), y = numeric(b);
  if (!std::isnan(x) && !std::isnan(y)) return x < y;
  return a < b;
}

// Where the values come from: one (experiment, metric) per entry of the zipped lists.
struct Source {
  std::string experiment, metric;
};

std::vector<Source> sources(const Entry& e) {
  if (!e.n["experiment"]) e.bad("", "missing 'experiment'");
  if (!e.n["metric"]) e.bad("", "missing 'metric'");
  auto ex = e.texts("experiment", e.n["experiment"]);
  auto me = e.texts("metric", e.n["metric"]);
  if (ex.size() != me.size() && ex.size() != 1 && me.size() != 1)
    e.bad("metric", "experiment and metric lists must have the same length (or one of them a single value)");
  std::vector<Source> out;
  for (std::size_t i = 0; i < std::max(ex.size(), me.size()); ++i)
    out.push_back({ex[ex.size() == 1 ? 0 : i], me[me.size() == 1 ? 0 : i]});
  return out;
}

// One compared group: a dataset (and metric, and by-value) with its paired fold results.
struct Group {
  std::string dataset, metric, by;
  std::vector<double> a, b;
  double diff = kNaN, sd = kNaN, effect = kNaN, p = kNaN;
  std::string label(bool show_metric) const {
    std::string s = dataset;
    if (show_metric) s += " " + metric;
    if (!by.empty()) s += " @" + by;
    return s;
  }
};

void compute(Group& g) {
  const Summary sa = summarize(g.a), sb = summarize(g.b);
  std::vector<double> d(g.a.size()), zero(g.a.size(), 0.0);
  // Differences rounded to 1e-12 so that equal fold differences (k/n_test in theory) tie in the ranks.
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = std::round((g.a[i] - g.b[i]) * 1e12) / 1e12;
  g.diff = summarize(d).mean;
  g.sd = g.a.size() > 1 ? std::max(sa.std, sb.std) : kNaN;
  g.effect = g.sd > 0 ? g.diff / g.sd : (g.diff == 0 ? 0.0 : kNaN);
  g.p = wilcoxon_signed_rank(d, zero).p_value;
}

struct Outcome {
  std::string measured, missing;  // missing: groups short of data (then the claim has no data)
  std::vector<std::string> failed, held;
  double effect = kNaN, p = kNaN;  // paired: the smallest effect and the largest p over the groups
};

// Key of a row within a series: repetition, fold and the `match` columns.
std::string pair_key(const ResultRow& r, const std::vector<std::string>& match) {
  std::string k = r.get("repetition") + "/" + r.get("fold");
  for (const auto& c : match) k += "/" + r.get(c);
  return k;
}

const std::set<std::string> kPairedRules = {"min_difference", "max_difference", "largest_difference", "min_effect",
                                             "max_p", "tie_sd", "wins", "ties", "losses", "wins_on", "ties_on",
                                             "losses_on", "trend"};

// A paired claim's keys: the two series, the columns rows are paired on, the swept column.
struct PairedSpec {
  Selector a, b;
  std::vector<std::string> match;
  std::string by;
  YAML::Node expect;
};

PairedSpec paired_spec(const Entry& e) {
  for (const char* k : {"a", "b"})
    if (!e.n[k]) e.bad("", std::string("missing '") + k + "' (a series selector: label and parameters)");
  PairedSpec ps;
  ps.a = selector(e.n["a"], e.where + ".a", e.path);
  ps.b = selector(e.n["b"], e.where + ".b", e.path);
  ps.match = e.given("match") ? e.texts("match", e.n["match"]) : std::vector<std::string>{};
  ps.by = e.given("by") ? e.text("by", e.n["by"]) : "";
  const YAML::Node ex = e.n["expect"];
  for (const auto& kv : ex)
    if (!kPairedRules.count(kv.first.as<std::string>())) e.bad("expect." + kv.first.as<std::string>(), "unknown rule for a paired claim");
  ps.expect = ex;
  if (ex["trend"] && ps.by.empty()) e.bad("expect.trend", "needs 'by' (the column the trend runs over)");
  return ps;
}

// dataset -> by-value ("" = serves every by-value) -> pair key -> value, of one series.
using SeriesValues = std::map<std::string, std::map<std::string, std::map<std::string, double>>>;

// The values of series a and b in one source's rows.
struct PairedRows {
  SeriesValues a, b;
  std::set<std::string> by_values, present;  // present: datasets where a has rows
  bool any = false;
};

PairedRows paired_rows(const Entry& e, const PairedSpec& ps, Tables& tables, const Source& s) {
  PairedRows out;
  const std::string csv = tables.csv(s.experiment);
  check_columns(tables.rows(s.experiment), s.metric, {}, e.where, e.path, csv);
  check_columns(tables.rows(s.experiment), "", ps.a, e.where + ".a", e.path, csv);
  check_columns(tables.rows(s.experiment), "", ps.b, e.where + ".b", e.path, csv);
  for (const ResultRow& r : tables.rows(s.experiment)) {
    const bool in_a = selected(r, ps.a), in_b = selected(r, ps.b);
    if (in_a && in_b) e.bad("b", "selects the same rows as 'a'");
    if (!in_a && !in_b) continue;
    const double x = metric_of(r, s.metric);
    if (std::isnan(x)) continue;
    const std::string bv = ps.by.empty() ? "" : r.get(ps.by);
    if (!bv.empty()) out.by_values.insert(bv);
    auto& slot = (in_a ? out.a : out.b)[r.get("dataset")][bv];
    if (!slot.emplace(pair_key(r, ps.match), x).second)
      e.bad(in_a ? "a" : "b", "selects several rows per (dataset, repetition, fold" + std::string(ps.match.empty() ? "" : ", match") +
                                   ") in " + tables.csv(s.experiment) +
                                   ": name the swept column in the selector, in 'match' or in 'by'");
    if (in_a) out.present.insert(r.get("dataset"));
    out.any = true;
  }
  return out;
}

// The series' values on dataset d at by-value bv (or the ones that serve every by-value).
const std::map<std::string, double>* series_at(const SeriesValues& v, const std::string& d, const std::string& bv) {
  auto it = v.find(d);
  if (it == v.end()) return nullptr;
  auto jt = it->second.find(bv);
  if (jt == it->second.end()) jt = it->second.find("");
  return jt == it->second.end() ? nullptr : &jt->second;
}

// The groups of one source (dataset x by-value), each with its paired folds; a group with fewer than
// min_folds pairs is named in `missing` instead.
void paired_groups(const PairedRows& rows, const Source& s, const std::vector<std::string>& datasets, std::size_t min_folds,
                   bool show_metric, std::vector<Group>& groups, std::vector<std::string>& missing) {
  std::vector<std::string> bys(rows.by_values.begin(), rows.by_values.end());
  std::sort(bys.begin(), bys.end(), value_less);
  if (bys.empty()) bys.push_back("");
  const std::vector<std::string> ds =
      datasets.empty() ? std::vector<std::string>(rows.present.begin(), rows.present.end()) : datasets;
  for (const auto& d : ds)
    for (const auto& bv : bys) {
      Group g{d, s.metric, bv, {}, {}};
      const auto *A = series_at(rows.a, d, bv), *B = series_at(rows.b, d, bv);
      if (A && B)
        for (const auto& [k, x] : *A)
          if (auto it = B->find(k); it != B->end()) g.a.push_back(x), g.b.push_back(it->second);
      if (g.a.size() < std::max<std::size_t>(min_folds, 1)) {
        missing.push_back(g.label(show_metric) + " (" + std::to_string(g.a.size()) + " pairs in " + s.experiment + ")");
        continue;
      }
      compute(g);
      groups.push_back(std::move(g));
    }
}

std::string short_list(const std::vector<std::string>& items) {
  std::string t;
  for (std::size_t i = 0; i < items.size() && i < 6; ++i) t += (i ? "; " : "") + items[i];
  return t + (items.size() > 6 ? "; ..." : "");
}

std::string join(const std::vector<std::string>& v) {
  std::string t;
  for (const auto& x : v) t += (t.empty() ? "" : ", ") + x;
  return t;
}

// The groups classified: wins / ties / losses of a over b, and the extreme groups the rules read.
struct PairedTally {
  std::vector<std::string> wins, ties, losses;
  std::set<std::string> win_ds, tie_ds, loss_ds;
  const Group *lo, *hi, *lo_eff, *hi_p;  // smallest and largest difference, smallest effect, largest p
  std::string measured;
};

PairedTally tally(const std::vector<Group>& groups, double tie_sd, bool show_metric) {
  PairedTally t;
  t.lo = t.hi = t.lo_eff = t.hi_p = &groups[0];
  for (const Group& g : groups) {
    t.measured += (t.measured.empty() ? "" : "; ") + g.label(show_metric) + " " + signed_fmt(g.diff) + " (" +
                  fmt2(g.effect, "%.2f") + " sd, p " + fmt2(g.p, "%.2g") + ")";
    if (g.diff < t.lo->diff) t.lo = &g;
    if (g.diff > t.hi->diff) t.hi = &g;
    // An undefined effect or p (NaN: no spread, or identical series) is the worst case and stays chosen:
    // a later group must not overwrite it, or min_effect / max_p would hold on the groups after it.
    if (!std::isnan(t.lo_eff->effect) && !(g.effect >= t.lo_eff->effect)) t.lo_eff = &g;
    if (!std::isnan(t.hi_p->p) && !(g.p <= t.hi_p->p)) t.hi_p = &g;
    if (std::fabs(g.diff) <= tie_sd * (std::isnan(g.sd) ? 0.0 : g.sd)) t.ties.push_back(g.label(show_metric)), t.tie_ds.insert(g.dataset);
    else if (g.diff > 0) t.wins.push_back(g.label(show_metric)), t.win_ds.insert(g.dataset);
    else t.losses.push_back(g.label(show_metric)), t.loss_ds.insert(g.dataset);
  }
  t.measured = "a − b in " + std::to_string(groups.size()) + " groups: " + t.measured;
  return t;
}

// Each rule's verdict goes to the outcome's held or failed list, in the order the rules are checked.
struct Rules {
  const Entry& e;
  const YAML::Node& ex;
  Outcome& o;
  bool show_metric;
  void operator()(bool ok, const std::string& what) const { (ok ? o.held : o.failed).push_back(what); }
};

void difference_rules(const Rules& rule, const PairedTally& t) {
  const Entry& e = rule.e;
  const YAML::Node& ex = rule.ex;
  const bool sm = rule.show_metric;
  if (ex["min_difference"]) {
    double x = e.number("expect.min_difference", ex["min_difference"]);
    rule(t.lo->diff >= x, "smallest difference " + signed_fmt(t.lo->diff) + " (" + t.lo->label(sm) + ") >= " + fmt(x));
  }
  if (ex["max_difference"]) {
    double x = e.number("expect.max_difference", ex["max_difference"]);
    rule(t.hi->diff <= x, "largest difference " + signed_fmt(t.hi->diff) + " (" + t.hi->label(sm) + ") <= " + fmt(x));
  }
  if (ex["largest_difference"]) {
    auto r = e.range("expect.largest_difference", ex["largest_difference"]);
    rule(in_range(t.hi->diff, r), "largest difference " + signed_fmt(t.hi->diff) + " (" + t.hi->label(sm) + ") in " + range_text(r));
  }
  if (ex["min_effect"]) {
    double x = e.number("expect.min_effect", ex["min_effect"]);
    rule(t.lo_eff->effect >= x,
         "smallest difference in sds " + fmt2(t.lo_eff->effect, "%.2f") + " (" + t.lo_eff->label(sm) + ") >= " + fmt(x));
  }
  if (ex["max_p"]) {
    double x = e.number("expect.max_p", ex["max_p"]);
    rule(t.hi_p->p < x, "largest Wilcoxon p " + fmt2(t.hi_p->p, "%.2g") + " (" + t.hi_p->label(sm) + ") < " + fmt(x));
  }
}

// wins / ties / losses: how many groups (a range), and on which datasets (`*_on`).
void count_rules(const Rules& rule, const PairedTally& t) {
  const std::vector<std::tuple<const char*, const std::vector<std::string>*, const std::set<std::string>*>> counts = {
      {"wins", &t.wins, &t.win_ds}, {"ties", &t.ties, &t.tie_ds}, {"losses", &t.losses, &t.loss_ds}};
  for (const auto& [k, list, set] : counts) {
    const std::string key = k;
    if (rule.ex[key]) {
      auto r = rule.e.range("expect." + key, rule.ex[key]);
      rule(in_range(static_cast<double>(list->size()), r),
           key + " " + std::to_string(list->size()) + (list->empty() ? "" : " (" + join(*list) + ")") + " = " + range_text(r));
    }
    if (rule.ex[key + "_on"]) {
      auto want = rule.e.texts("expect." + key + "_on", rule.ex[key + "_on"]);
      std::set<std::string> w(want.begin(), want.end());
      rule(w == *set, key + " on {" + join(std::vector<std::string>(set->begin(), set->end())) + "} = {" + join(want) + "}");
    }
  }
}

// a − b moves one way along `by` within each dataset (and metric).
void trend_rule(const Rules& rule, const std::vector<Group>& groups, const std::string& by) {
  if (!rule.ex["trend"]) return;
  const std::string t = rule.e.text("expect.trend", rule.ex["trend"]);
  if (t != "decreasing" && t != "increasing") rule.e.bad("expect.trend", "expected decreasing or increasing");
  std::vector<std::string> breaks;
  for (std::size_t i = 0; i + 1 < groups.size(); ++i) {
    const Group &g = groups[i], &h = groups[i + 1];
    if (g.dataset != h.dataset || g.metric != h.metric) continue;
    if (t == "decreasing" ? h.diff > g.diff : h.diff < g.diff)
      breaks.push_back(g.label(rule.show_metric) + " → " + h.by + " (" + signed_fmt(g.diff) + " → " + signed_fmt(h.diff) + ")");
  }
  rule(breaks.empty(), "a − b " + t + " in " + by + (breaks.empty() ? "" : "; breaks: " + join(breaks)));
}

Outcome paired(const Entry& e, Tables& tables, const std::vector<std::string>& datasets, std::size_t min_folds) {
  const PairedSpec ps = paired_spec(e);
  const std::vector<Source> src = sources(e);
  const bool show_metric = src.size() > 1;
  std::vector<Group> groups;
  std::vector<std::string> missing;
  bool any_rows = false;
  for (const Source& s : src) {
    const PairedRows rows = paired_rows(e, ps, tables, s);
    any_rows = any_rows || rows.any;
    paired_groups(rows, s, datasets, min_folds, show_metric, groups, missing);
  }
  Outcome o;
  if (!missing.empty()) o.missing = std::to_string(missing.size()) + " groups short of data: " + short_list(missing);
  if (!any_rows && o.missing.empty()) o.missing = "no rows selected";
  if (groups.empty()) return o;

  const YAML::Node& ex = ps.expect;
  const double tie_sd = ex["tie_sd"] ? e.number("expect.tie_sd", ex["tie_sd"]) : 1.0;
  const PairedTally t = tally(groups, tie_sd, show_metric);
  o.measured = t.measured;
  const Rules rule{e, ex, o, show_metric};
  difference_rules(rule, t);
  count_rules(rule, t);
  trend_rule(rule, groups, ps.by);
  o.measured += "; wins/ties/losses " + std::to_string(t.wins.size()) + "/" +
                std::to_string(t.ties.size()) + "/" + std::to_string(t.losses.size()) + " (tie: a, b within " + fmt(tie_sd) +
                " sd)";
  o.effect = t.lo_eff->effect;
  o.p = t.hi_p->p;
  return o;
}

// An argmax claim's keys: the series, the swept column and (optionally) the values compared.
struct ArgmaxSpec {
  Selector sel;
  std::string over;
  std::vector<std::string> values;
  std::pair<double, double> want;  // expect.argmax_in
};

ArgmaxSpec argmax_spec(const Entry& e) {
  if (!e.n["series"]) e.bad("", "missing 'series' (a selector: label and parameters)");
  if (!e.n["over"]) e.bad("", "missing 'over' (the column whose best value is sought)");
  ArgmaxSpec as;
  as.sel = selector(e.n["series"], e.where + ".series", e.path);
  as.over = e.text("over", e.n["over"]);
  as.values = e.given("values") ? e.texts("values", e.n["values"]) : std::vector<std::string>{};
  const YAML::Node ex = e.n["expect"];
  for (const auto& kv : ex)
    if (kv.first.as<std::string>() != "argmax_in") e.bad("expect." + kv.first.as<std::string>(), "unknown rule for an argmax claim");
  as.want = e.range("expect.argmax_in", ex["argmax_in"]);
  return as;
}

// The best value of `over` on one dataset (by mean metric), and the best one inside argmax_in.
struct Best {
  std::string best, inside, gaps;  // gaps: values short of folds ("value:folds,...")
  double best_mean = -std::numeric_limits<double>::infinity(), inside_mean = best_mean;
};

Best best_value(const std::map<std::string, std::vector<double>>& per, const ArgmaxSpec& as, std::size_t min_folds) {
  std::vector<std::string> grid = as.values;
  if (grid.empty())
    for (const auto& kv : per) grid.push_back(kv.first);
  std::sort(grid.begin(), grid.end(), value_less);
  Best b;
  for (const auto& g : grid) {
    const std::vector<double>* xs = nullptr;
    for (const auto& kv : per)
      if (same_value(kv.first, g)) xs = &kv.second;
    if (!xs || xs->size() < std::max<std::size_t>(min_folds, 1)) {
      b.gaps += (b.gaps.empty() ? "" : ",") + g + ":" + std::to_string(xs ? xs->size() : 0);
      continue;
    }
    const double m = summarize(*xs).mean;
    if (m > b.best_mean) b.best_mean = m, b.best = g;
    if (in_range(numeric(g), as.want) && m > b.inside_mean) b.inside_mean = m, b.inside = g;
  }
  if (per.empty()) b.gaps.clear();
  return b;
}

Outcome argmax(const Entry& e, Tables& tables, const std::vector<std::string>& datasets, std::size_t min_folds) {
  const ArgmaxSpec as = argmax_spec(e);
  Outcome o;
  std::vector<std::string> missing, outside;
  const std::vector<Source> src = sources(e);
  std::size_t n_groups = 0;
  for (const Source& s : src) {
    std::map<std::string, std::map<std::string, std::vector<double>>> v;  // dataset -> over value -> metric
    for (const ResultRow& r : tables.rows(s.experiment)) {
      if (!selected(r, as.sel)) continue;
      const double x = metric_of(r, s.metric);
      if (!std::isnan(x)) v[r.get("dataset")][r.get(as.over)].push_back(x);
    }
    std::vector<std::string> ds = datasets;
    if (ds.empty())
      for (const auto& kv : v) ds.push_back(kv.first);
    for (const auto& d : ds) {
      const std::string label = d + (src.size() > 1 ? " " + s.metric : "");
      const auto& per = v[d];
      const Best b = best_value(per, as, min_folds);
      if (per.empty() || !b.gaps.empty()) {
        missing.push_back(label + " (" + (per.empty() ? std::string("no rows") : as.over + " " + b.gaps + " folds") + " in " +
                          s.experiment + ")");
        continue;
      }
      ++n_groups;
      o.measured += (o.measured.empty() ? "" : "; ") + label + " " + b.best + " (" + fmt(b.best_mean) + ")";
      if (!in_range(numeric(b.best), as.want)) {
        outside.push_back(label + " " + b.best);
        if (!b.inside.empty()) o.measured += " [best in range: " + b.inside + " (" + fmt(b.inside_mean) + ")]";
      }
    }
  }
  if (!missing.empty()) o.missing = std::to_string(missing.size()) + " datasets short of data: " + short_list(missing);
  if (n_groups == 0) return o;
  o.measured = "best " + as.over + " (mean " + src[0].metric + "): " + o.measured;
  (outside.empty() ? o.held : o.failed)
      .push_back("best " + as.over + " in " + range_text(as.want) + " on every dataset" +
                 (outside.empty() ? "" : "; outside: " + join(outside)));
  return o;
}

}  // namespace

ClaimsReport check_claims(const YAML::Node& claims, const std::string& path, Tables& tables) {
  const std::set<std::string> allowed = {"id", "source", "statement", "type", "experiment", "metric", "datasets",
                                         "min_folds", "a", "b", "match", "by", "series", "over", "values",
                                         "expect", "explanation"};
  ClaimsReport rep;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const YAML::Node n = claims[i];
    const Entry e{n, path, "claims[" + std::to_string(i) + "]"};
    if (!n.IsMap()) e.bad("", "expected a mapping");
    for (const auto& kv : n)
      if (!allowed.count(kv.first.as<std::string>())) e.bad(kv.first.as<std::string>(), "unknown key");
    for (const char* k : {"id", "statement", "type", "expect"})
      if (!n[k]) e.bad("", std::string("missing '") + k + "'");
    if (!n["expect"].IsMap() || n["expect"].size() == 0) e.bad("expect", "expected a mapping of rules");
    const std::string id = e.text("id", n["id"]);
    if (!ids.insert(id).second) e.bad("id", "duplicate id '" + id + "'");
    const std::string type = e.text("type", n["type"]);
    const std::vector<std::string> datasets = e.given("datasets") ? e.texts("datasets", n["datasets"]) : std::vector<std::string>{};
    std::size_t min_folds = 1;
    if (e.given("min_folds")) {
      const double m = e.number("min_folds", n["min_folds"]);
      if (m < 1 || m != std::floor(m)) e.bad("min_folds", "expected a positive integer");
      min_folds = static_cast<std::size_t>(m);
    }
    if (type != "paired" && type != "argmax") e.bad("type", "expected paired or argmax");
    const bool is_paired = type == "paired";
    const std::set<std::string> paired_keys = {"a", "b", "match", "by"};
    for (const char* k : {"a", "b", "match", "by", "series", "over", "values"})
      if (n[k] && paired_keys.count(k) != is_paired) e.bad(k, "not a key of a " + type + " claim");
    const Outcome o = is_paired ? paired(e, tables, datasets, min_folds) : argmax(e, tables, datasets, min_folds);

    ++rep.claims;
    PublishedClaim c;
    c.id = id;
    c.source = e.given("source") ? e.text("source", n["source"]) : "";
    c.text = e.text("statement", n["statement"]);
    for (const Source& s : sources(e))
      if (std::find(c.experiments.begin(), c.experiments.end(), s.experiment) == c.experiments.end())
        c.experiments.push_back(s.experiment);
    c.explanation = e.given("explanation") ? e.text("explanation", n["explanation"]) : "";
    c.measured = o.measured;
    c.effect = o.effect;
    c.p = o.p;
    for (const auto& f : o.failed) c.rules += (c.rules.empty() ? "" : "; ") + std::string("✗ ") + f;
    for (const auto& h : o.held) c.rules += (c.rules.empty() ? "" : "; ") + std::string("✓ ") + h;
    if (!o.missing.empty() || o.measured.empty()) {
      ++rep.no_data;
      c.verdict = "no data";
      c.missing = o.missing.empty() ? std::string("no rows selected") : o.missing;
    } else if (!o.failed.empty()) {
      ++rep.fail;
      c.verdict = "fails";
    } else {
      ++rep.hold;
      c.verdict = "holds";
    }
    rep.entries.push_back(std::move(c));
  }
  return rep;
}

}  // namespace dpf
