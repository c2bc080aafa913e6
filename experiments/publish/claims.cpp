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

Outcome paired(const Entry& e, Tables& tables, const std::vector<std::string>& datasets, std::size_t min_folds) {
  for (const char* k : {"a", "b"})
    if (!e.n[k]) e.bad("", std::string("missing '") + k + "' (a series selector: label and parameters)");
  const Selector sa = selector(e.n["a"], e.where + ".a", e.path), sb = selector(e.n["b"], e.where + ".b", e.path);
  const std::vector<std::string> match = e.given("match") ? e.texts("match", e.n["match"]) : std::vector<std::string>{};
  const std::string by = e.given("by") ? e.text("by", e.n["by"]) : "";
  const YAML::Node ex = e.n["expect"];
  for (const auto& kv : ex)
    if (!kPairedRules.count(kv.first.as<std::string>())) e.bad("expect." + kv.first.as<std::string>(), "unknown rule for a paired claim");
  if (ex["trend"] && by.empty()) e.bad("expect.trend", "needs 'by' (the column the trend runs over)");

  const std::vector<Source> src = sources(e);
  std::vector<Group> groups;
  std::vector<std::string> missing;
  bool any_rows = false;
  for (const Source& s : src) {
    // series -> dataset -> by-value ("" = serves every by-value) -> pair key -> value
    std::map<std::string, std::map<std::string, std::map<std::string, double>>> va, vb;
    std::set<std::string> by_values, present;
    const std::string csv = tables.csv(s.experiment);
    check_columns(tables.rows(s.experiment), s.metric, {}, e.where, e.path, csv);
    check_columns(tables.rows(s.experiment), "", sa, e.where + ".a", e.path, csv);
    check_columns(tables.rows(s.experiment), "", sb, e.where + ".b", e.path, csv);
    for (const ResultRow& r : tables.rows(s.experiment)) {
      const bool in_a = selected(r, sa), in_b = selected(r, sb);
      if (in_a && in_b) e.bad("b", "selects the same rows as 'a'");
      if (!in_a && !in_b) continue;
      const double x = metric_of(r, s.metric);
      if (std::isnan(x)) continue;
      const std::string bv = by.empty() ? "" : r.get(by);
      if (!bv.empty()) by_values.insert(bv);
      auto& slot = (in_a ? va : vb)[r.get("dataset")][bv];
      if (!slot.emplace(pair_key(r, match), x).second)
        e.bad(in_a ? "a" : "b", "selects several rows per (dataset, repetition, fold" + std::string(match.empty() ? "" : ", match") +
                                     ") in " + tables.csv(s.experiment) +
                                     ": name the swept column in the selector, in 'match' or in 'by'");
      if (in_a) present.insert(r.get("dataset"));
      any_rows = true;
    }
    std::vector<std::string> bys(by_values.begin(), by_values.end());
    std::sort(bys.begin(), bys.end(), value_less);
    if (bys.empty()) bys.push_back("");
    const std::vector<std::string> ds = datasets.empty() ? std::vector<std::string>(present.begin(), present.end()) : datasets;
    for (const auto& d : ds)
      for (const auto& bv : bys) {
        auto series = [&](auto& v) -> const std::map<std::string, double>* {
          auto it = v.find(d);
          if (it == v.end()) return nullptr;
          auto jt = it->second.find(bv);
          if (jt == it->second.end()) jt = it->second.find("");
          return jt == it->second.end() ? nullptr : &jt->second;
        };
        Group g{d, s.metric, bv, {}, {}};
        const auto *A = series(va), *B = series(vb);
        if (A && B)
          for (const auto& [k, x] : *A)
            if (auto it = B->find(k); it != B->end()) g.a.push_back(x), g.b.push_back(it->second);
        if (g.a.size() < std::max<std::size_t>(min_folds, 1)) {
          missing.push_back(g.label(src.size() > 1) + " (" + std::to_string(g.a.size()) + " pairs in " + s.experiment + ")");
          continue;
        }
        compute(g);
        groups.push_back(std::move(g));
      }
  }
  Outcome o;
  if (!missing.empty()) o.missing = std::to_string(missing.size()) + " groups short of data: " + [&] {
    std::string t;
    for (std::size_t i = 0; i < missing.size() && i < 6; ++i) t += (i ? "; " : "") + missing[i];
    return t + (missing.size() > 6 ? "; ..." : "");
  }();
  if (!any_rows && o.missing.empty()) o.missing = "no rows selected";
  if (groups.empty()) return o;

  const bool show_metric = src.size() > 1;
  const double tie_sd = ex["tie_sd"] ? e.number("expect.tie_sd", ex["tie_sd"]) : 1.0;
  std::vector<std::string> wins, ties, losses;
  std::set<std::string> win_ds, tie_ds, loss_ds;
  const Group *lo = &groups[0], *hi = &groups[0], *lo_eff = &groups[0], *hi_p = &groups[0];
  for (const Group& g : groups) {
    o.measured += (o.measured.empty() ? "" : "; ") + g.label(show_metric) + " " + signed_fmt(g.diff) + " (" +
                  fmt2(g.effect, "%.2f") + " sd, p " + fmt2(g.p, "%.2g") + ")";
    if (g.diff < lo->diff) lo = &g;
    if (g.diff > hi->diff) hi = &g;
    // An undefined effect or p (NaN: no spread, or identical series) is the worst case and stays chosen:
    // a later group must not overwrite it, or min_effect / max_p would hold on the groups after it.
    if (!std::isnan(lo_eff->effect) && !(g.effect >= lo_eff->effect)) lo_eff = &g;
    if (!std::isnan(hi_p->p) && !(g.p <= hi_p->p)) hi_p = &g;
    if (std::fabs(g.diff) <= tie_sd * (std::isnan(g.sd) ? 0.0 : g.sd)) ties.push_back(g.label(show_metric)), tie_ds.insert(g.dataset);
    else if (g.diff > 0) wins.push_back(g.label(show_metric)), win_ds.insert(g.dataset);
    else losses.push_back(g.label(show_metric)), loss_ds.insert(g.dataset);
  }
  o.measured = "a − b in " + std::to_string(groups.size()) + " groups: " + o.measured;
  auto rule = [&](bool ok, const std::string& what) { (ok ? o.held : o.failed).push_back(what); };
  if (ex["min_difference"]) {
    double x = e.number("expect.min_difference", ex["min_difference"]);
    rule(lo->diff >= x, "smallest difference " + signed_fmt(lo->diff) + " (" + lo->label(show_metric) + ") >= " + fmt(x));
  }
  if (ex["max_difference"]) {
    double x = e.number("expect.max_difference", ex["max_difference"]);
    rule(hi->diff <= x, "largest difference " + signed_fmt(hi->diff) + " (" + hi->label(show_metric) + ") <= " + fmt(x));
  }
  if (ex["largest_difference"]) {
    auto r = e.range("expect.largest_difference", ex["largest_difference"]);
    rule(in_range(hi->diff, r), "largest difference " + signed_fmt(hi->diff) + " (" + hi->label(show_metric) + ") in " + range_text(r));
  }
  if (ex["min_effect"]) {
    double x = e.number("expect.min_effect", ex["min_effect"]);
    rule(lo_eff->effect >= x, "smallest difference in sds " + fmt2(lo_eff->effect, "%.2f") + " (" + lo_eff->label(show_metric) + ") >= " + fmt(x));
  }
  if (ex["max_p"]) {
    double x = e.number("expect.max_p", ex["max_p"]);
    rule(hi_p->p < x, "largest Wilcoxon p " + fmt2(hi_p->p, "%.2g") + " (" + hi_p->label(show_metric) + ") < " + fmt(x));
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string t;
    for (const auto& x : v) t += (t.empty() ? "" : ", ") + x;
    return t;
  };
  const std::string tally = "wins/ties/losses " + std::to_string(wins.size()) + "/" + std::to_string(ties.size()) + "/" +
                            std::to_string(losses.size()) + " (tie: a, b within " + fmt(tie_sd) + " sd)";
  const std::vector<std::tuple<const char*, const std::vector<std::string>*, const std::set<std::string>*>> counts = {
      {"wins", &wins, &win_ds}, {"ties", &ties, &tie_ds}, {"losses", &losses, &loss_ds}};
  for (const auto& [k, list, set] : counts) {
    const std::string key = k;
    if (ex[key]) {
      auto r = e.range("expect." + key, ex[key]);
      rule(in_range(static_cast<double>(list->size()), r),
           key + " " + std::to_string(list->size()) + (list->empty() ? "" : " (" + join(*list) + ")") + " = " + range_text(r));
    }
    if (ex[key + "_on"]) {
      auto want = e.texts("expect." + key + "_on", ex[key + "_on"]);
      std::set<std::string> w(want.begin(), want.end());
      rule(w == *set, key + " on {" + join(std::vector<std::string>(set->begin(), set->end())) + "} = {" + join(want) + "}");
    }
  }
  if (ex["trend"]) {
    const std::string t = e.text("expect.trend", ex["trend"]);
    if (t != "decreasing" && t != "increasing") e.bad("expect.trend", "expected decreasing or increasing");
    std::vector<std::string> breaks;
    for (std::size_t i = 0; i + 1 < groups.size(); ++i) {
      const Group &g = groups[i], &h = groups[i + 1];
      if (g.dataset != h.dataset || g.metric != h.metric) continue;
      if (t == "decreasing" ? h.diff > g.diff : h.diff < g.diff)
        breaks.push_back(g.label(show_metric) + " → " + h.by + " (" + signed_fmt(g.diff) + " → " + signed_fmt(h.diff) + ")");
    }
    rule(breaks.empty(), "a − b " + t + " in " + by + (breaks.empty() ? "" : "; breaks: " + join(breaks)));
  }
  o.measured += "; " + tally;
  o.effect = lo_eff->effect;
  o.p = hi_p->p;
  return o;
}

Outcome argmax(const Entry& e, Tables& tables, const std::vector<std::string>& datasets, std::size_t min_folds) {
  if (!e.n["series"]) e.bad("", "missing 'series' (a selector: label and parameters)");
  if (!e.n["over"]) e.bad("", "missing 'over' (the column whose best value is sought)");
  const Selector sel = selector(e.n["series"], e.where + ".series", e.path);
  const std::string over = e.text("over", e.n["over"]);
  const std::vector<std::string> values = e.given("values") ? e.texts("values", e.n["values"]) : std::vector<std::string>{};
  const YAML::Node ex = e.n["expect"];
  for (const auto& kv : ex)
    if (kv.first.as<std::string>() != "argmax_in") e.bad("expect." + kv.first.as<std::string>(), "unknown rule for an argmax claim");
  const auto want = e.range("expect.argmax_in", ex["argmax_in"]);

  Outcome o;
  std::vector<std::string> missing, outside;
  const std::vector<Source> src = sources(e);
  std::size_t n_groups = 0;
  for (const Source& s : src) {
    std::map<std::string, std::map<std::string, std::vector<double>>> v;  // dataset -> over value -> metric
    for (const ResultRow& r : tables.rows(s.experiment)) {
      if (!selected(r, sel)) continue;
      const double x = metric_of(r, s.metric);
      if (!std::isnan(x)) v[r.get("dataset")][r.get(over)].push_back(x);
    }
    std::vector<std::string> ds = datasets;
    if (ds.empty())
      for (const auto& kv : v) ds.push_back(kv.first);
    for (const auto& d : ds) {
      const std::string label = d + (src.size() > 1 ? " " + s.metric : "");
      const auto& per = v[d];
      std::vector<std::string> grid = values;
      if (grid.empty())
        for (const auto& kv : per) grid.push_back(kv.first);
      std::string best, gaps;
      double best_mean = -std::numeric_limits<double>::infinity(), inside_mean = best_mean;
      std::string inside;  // the best value within argmax_in, shown when the overall best is outside
      std::sort(grid.begin(), grid.end(), value_less);
      for (const auto& g : grid) {
        const std::vector<double>* xs = nullptr;
        for (const auto& kv : per)
          if (same_value(kv.first, g)) xs = &kv.second;
        if (!xs || xs->size() < std::max<std::size_t>(min_folds, 1)) {
          gaps += (gaps.empty() ? "" : ",") + g + ":" + std::to_string(xs ? xs->size() : 0);
          continue;
        }
        const double m = summarize(*xs).mean;
        if (m > best_mean) best_mean = m, best = g;
        if (in_range(numeric(g), want) && m > inside_mean) inside_mean = m, inside = g;
      }
      if (per.empty()) gaps.clear();
      if (per.empty() || !gaps.empty()) {
        missing.push_back(label + " (" + (per.empty() ? std::string("no rows") : over + " " + gaps + " folds") + " in " + s.experiment + ")");
        continue;
      }
      ++n_groups;
      o.measured += (o.measured.empty() ? "" : "; ") + label + " " + best + " (" + fmt(best_mean) + ")";
      if (!in_range(numeric(best), want)) {
        outside.push_back(label + " " + best);
        if (!inside.empty()) o.measured += " [best in range: " + inside + " (" + fmt(inside_mean) + ")]";
      }
    }
  }
  if (!missing.empty()) {
    o.missing = std::to_string(missing.size()) + " datasets short of data: ";
    for (std::size_t i = 0; i < missing.size() && i < 6; ++i) o.missing += (i ? "; " : "") + missing[i];
    if (missing.size() > 6) o.missing += "; ...";
  }
  if (n_groups == 0) return o;
  o.measured = "best " + over + " (mean " + src[0].metric + "): " + o.measured;
  std::string t;
  for (const auto& x : outside) t += (t.empty() ? "" : ", ") + x;
  (outside.empty() ? o.held : o.failed)
      .push_back("best " + over + " in " + range_text(want) + " on every dataset" + (outside.empty() ? "" : "; outside: " + t));
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
