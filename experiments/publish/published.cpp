#include "experiments/publish/published.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "core/eval/stats.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/publish/claims.hpp"
#include "experiments/config/config.hpp"
#include "experiments/store/results.hpp"
#include "experiments/config/sweep.hpp"

namespace dpf {

namespace fs = std::filesystem;

namespace published_detail {

bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  char* ea = nullptr;
  char* eb = nullptr;
  double x = std::strtod(a.c_str(), &ea), y = std::strtod(b.c_str(), &eb);
  return !a.empty() && !b.empty() && *ea == '\0' && *eb == '\0' && x == y;
}

// Metric value of a row: a column name, or "1-<column>". accuracy and error honour the l1_error
// reference quirk (DP-ERT scored by mean |y - p|, dipreme.md §3.6), as the plots do.
double metric_of(const ResultRow& r, const std::string& metric) {
  if ((metric == "accuracy" || metric == "error") && ("," + r.get("reference_quirks") + ",").find(",l1_error,") != std::string::npos) {
    double l1 = std::strtod(r.get("l1_error").c_str(), nullptr);
    return metric == "accuracy" ? 1.0 - l1 : l1;
  }
  bool complement = metric.rfind("1-", 0) == 0;
  std::string v = r.get(complement ? metric.substr(2) : metric);
  if (v.empty()) return NAN;
  double x = std::strtod(v.c_str(), nullptr);
  return complement ? 1.0 - x : x;
}

bool selected(const ResultRow& r, const Selector& sel) {
  for (const auto& [k, v] : sel)
    if (!same_value(r.get(k), v)) return false;
  return true;
}

std::string Tables::csv(const std::string& experiment) const {
  return contained_path(root_, {paper_, experiment, "results.csv"});
}

const std::vector<ResultRow>& Tables::rows(const std::string& experiment) {
  auto it = cache_.find(experiment);
  if (it == cache_.end()) {
    const std::string f = csv(experiment);
    it = cache_.emplace(experiment, fs::exists(f) ? read_rows(f) : std::vector<ResultRow>{}).first;
    any_rows_ = any_rows_ || !it->second.empty();
  }
  return it->second;
}

std::string fmt(double v) {
  char buf[32];
  double a = std::fabs(v);
  if (a != 0 && (a < 1e-3 || a >= 1e5)) std::snprintf(buf, sizeof buf, "%.3g", v);
  else std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

Selector selector(const YAML::Node& n, const std::string& where, const std::string& path) {
  Selector s;
  if (!n) return s;
  if (!n.IsMap()) fail(path, ": ", where, ": expected a mapping of result column: value");
  for (const auto& kv : n) s.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
  return s;
}

void check_columns(const std::vector<ResultRow>& rows, const std::string& metric, const Selector& sel,
                   const std::string& where, const std::string& path, const std::string& csv) {
  if (rows.empty()) return;
  const auto known = [&](const std::string& col, const std::string& key) {
    for (const auto& [k, v] : rows.front().cells())
      if (k == col) return;
    fail(path, ": ", key, ": '", clip(col), "' is not a column of ", csv);
  };
  if (!metric.empty()) known(metric.rfind("1-", 0) == 0 ? metric.substr(2) : metric, where + ".metric");
  for (const auto& [col, v] : sel) known(col, where + "." + col);
}

std::string cell_text(std::string s) {
  for (char& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s;
}

}  // namespace published_detail

namespace {

using namespace published_detail;

struct Measured {
  bool any = false;
  Summary s;
};

Measured measure(const std::vector<ResultRow>& rows, const Selector& sel, const std::string& metric) {
  std::vector<double> vals;
  for (const auto& r : rows) {
    if (!selected(r, sel)) continue;
    double x = metric_of(r, metric);
    if (!std::isnan(x)) vals.push_back(x);
  }
  Measured m;
  if (!vals.empty()) {
    m.any = true;
    m.s = summarize(vals);
  }
  return m;
}

MeasuredSeries series_of(const Measured& m, bool given, const Selector& sel) {
  MeasuredSeries out;
  out.given = given;
  out.any = given && m.any;
  out.selector = sel;
  if (out.any) {
    out.mean = m.s.mean;
    out.sd = m.s.n > 1 ? m.s.std : NAN;
    out.n = m.s.n;
  }
  return out;
}


// An explanation's text at check time. Placeholders are filled from the measurement, so a number
// about OUR results cannot go stale: {ours} (paper-method mean), {ours.quirks}, {ours.strict},
// {delta} (compared mean - published), {verdict} ("inside" or "outside" the tolerance; "no data").
// `*warning` (empty when none) flags typed text, outside the placeholders, that contradicts the
// measurement, by two simple rules:
//  (1) a hard-typed decimal right after "ours", "we get", "we now get", "we measure" or "measured"
//      (within 40 characters, before any placeholder or ';'; percentages and integers skipped) that
//      matches none of the three measured means to within one unit of its last printed digit (also
//      read as a percentage of a 0-1 metric);
//  (2) the words "inside", "within" or "covers" (not hyphenated) when the number is outside its
//      tolerance, or "outside" when it is inside; a text using both kinds (a history: "was outside,
//      now inside") is not flagged.
// Both apply only when the compared series has data. The rules are deliberately crude: a warning is
// a prompt to reread the explanation (or replace the typed number by a placeholder), not a verdict.
std::string explain(const std::string& text, const Measured& paper, const Measured& quirks, const Measured& strict,
                    const Measured& cmp, double value, double tol, std::string* warning) {
  const bool inside = cmp.any && std::fabs(cmp.s.mean - value) <= tol;
  const std::map<std::string, std::string> fill = {
      {"{ours}", paper.any ? fmt(paper.s.mean) : "—"},
      {"{ours.quirks}", quirks.any ? fmt(quirks.s.mean) : "—"},
      {"{ours.strict}", strict.any ? fmt(strict.s.mean) : "—"},
      {"{delta}", cmp.any ? fmt(cmp.s.mean - value) : "—"},
      {"{verdict}", !cmp.any ? "no data" : inside ? "inside" : "outside"}};
  std::string out, typed;  // typed: the text without placeholders, lower-cased, for the rules
  for (std::size_t i = 0; i < text.size();) {
    bool hit = false;
    for (const auto& [key, val] : fill)
      if (text.compare(i, key.size(), key) == 0) {
        out += val;
        typed += '\x01';  // a placeholder: the rules' scans stop here
        i += key.size();
        hit = true;
        break;
      }
    if (hit) continue;
    out += text[i];
    typed += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    ++i;
  }
  warning->clear();
  if (!cmp.any) return out;
  const auto word = [&](const std::string& w) {
    for (std::size_t at = typed.find(w); at != std::string::npos; at = typed.find(w, at + 1)) {
      const bool l = at == 0 || !std::isalpha(static_cast<unsigned char>(typed[at - 1]));
      const bool r = at + w.size() >= typed.size() || (!std::isalpha(static_cast<unsigned char>(typed[at + w.size()])) &&
                                                       typed[at + w.size()] != '-');  // not "within-child"
      if (l && r) return true;
    }
    return false;
  };
  const bool says_in = word("inside") || word("within") || word("covers"), says_out = word("outside");
  if (!inside && says_in && !says_out)
    *warning = "says inside/within/covers but the number is outside its tolerance";
  else if (inside && says_out && !says_in)
    *warning = "says outside but the number is inside its tolerance";
  for (const char* key : {"ours", "we get", "we now get", "we measure", "measured"}) {
    for (std::size_t at = typed.find(key); at != std::string::npos && warning->empty(); at = typed.find(key, at + 1)) {
      if (at > 0 && std::isalpha(static_cast<unsigned char>(typed[at - 1]))) continue;  // "yours", "hours"
      std::size_t j = at + std::strlen(key);
      const std::size_t stop = std::min(typed.size(), j + 40);
      while (j < stop && typed[j] != '\x01' && typed[j] != ';' &&
             !(std::isdigit(static_cast<unsigned char>(typed[j])) && (j == 0 || !std::isalnum(static_cast<unsigned char>(typed[j - 1]))))) ++j;
      if (j >= stop || !std::isdigit(static_cast<unsigned char>(typed[j]))) continue;
      char* end = nullptr;
      const double x = std::strtod(typed.c_str() + j, &end);
      const std::string lit(typed.c_str() + j, static_cast<const char*>(end));
      const std::size_t dot = lit.find('.');
      if (dot == std::string::npos || dot + 1 >= lit.size() || !std::isdigit(static_cast<unsigned char>(lit[dot + 1])) || (*end == ' ' && end[1] == '%') || *end == '%') continue;  // integers, percentages
      const std::size_t e = lit.find_first_of("eE");
      const int decimals = static_cast<int>((e == std::string::npos ? lit.size() : e) - dot - 1);
      const double unit = std::pow(10.0, (e == std::string::npos ? 0 : std::atoi(lit.c_str() + e + 1)) - decimals);
      bool matches = false;
      for (const Measured* m : {&paper, &quirks, &strict})
        if (m->any && (std::fabs(m->s.mean - x) <= unit * 1.0001 || std::fabs(100 * m->s.mean - x) <= unit * 1.0001))
          matches = true;
      if (!matches) *warning = "typed value " + lit + " after '" + key + "' matches none of the measured means";
    }
  }
  return out;
}

// The experiment's config beside the published.yaml, loaded once per experiment by the check (null
// when it is missing or does not load: the entry keeps its ordinary "no data", and the run reports the
// config's error).
class Configs {
 public:
  explicit Configs(std::string published_yaml) : published_yaml_(std::move(published_yaml)) {}
  // "'label' on dataset: reason" when the config excludes the selected label on the selected dataset
  // (AlgorithmRef::exclude_datasets), else "".
  std::string exclusion(const std::string& experiment, const published_detail::Selector& sel) {
    std::string label, dataset;
    for (const auto& [k, v] : sel) {
      if (k == "label") label = v;
      if (k == "dataset") dataset = v;
    }
    if (label.empty() || dataset.empty()) return "";
    const ExperimentSpec* spec = get(experiment);
    if (!spec) return "";
    for (const AlgorithmRef& a : spec->algorithms)
      if (a.label == label) return exclusion_note(a, dataset);
    return "";
  }

 private:
  const ExperimentSpec* get(const std::string& experiment) {
    auto [it, fresh] = specs_.try_emplace(experiment);
    if (fresh) {
      const fs::path config = fs::path(published_yaml_).parent_path() / (experiment + ".yaml");
      std::error_code ec;
      if (fs::is_regular_file(config, ec)) try {
          it->second = load_experiment(config.string());
        } catch (const std::exception&) {
        }
    }
    return it->second ? &*it->second : nullptr;
  }
  std::string published_yaml_;
  std::map<std::string, std::optional<ExperimentSpec>> specs_;
};
}  // namespace

PublishedCheckReport check_published(const std::string& path, const PublishedCheckOptions& opt) {
  return check_published_text(read_text_limited(path, kMaxConfigBytes, "YAML file"), path, opt);  // size limit
}

namespace {

using namespace published_detail;

// The top level: keys paper, numbers and/or claims. Returns the paper id.
std::string check_top_level(const YAML::Node& root, const std::string& path) {
  if (!root.IsMap() || !root["paper"] || (!root["numbers"] && !root["claims"]))
    fail(path, ": expected keys 'paper' and 'numbers' (a list) and/or 'claims' (a list)");
  for (const auto& kv : root)
    if (kv.first.as<std::string>() != "paper" && kv.first.as<std::string>() != "numbers" &&
        kv.first.as<std::string>() != "claims")
      fail(path, ": ", kv.first.as<std::string>(), ": unknown key (expected paper, numbers, claims)");
  for (const char* k : {"numbers", "claims"})
    if (root[k] && !root[k].IsSequence()) fail(path, ": ", k, ": expected a list");
  const std::string paper = root["paper"].as<std::string>();
  check_id(paper, path + ": paper");
  return paper;
}

// One `numbers` entry as written, validated.
struct NumberEntry {
  std::string id, experiment, metric, compare;
  double value = 0, tolerance = 0;
  bool declared_unexplained = false;
};

NumberEntry read_number_entry(const YAML::Node& n, const std::string& where, const std::string& path,
                              std::map<std::string, std::string>& ids) {
  static const std::set<std::string> allowed = {"id", "source", "experiment", "metric", "value", "spread", "tolerance",
                                                "paper_method", "with_quirks", "strict", "compare", "explanation",
                                                "unexplained"};
  if (!n.IsMap()) fail(path, ": ", where, ": expected a mapping (id, experiment, metric, value, tolerance, ...)");
  for (const auto& kv : n)
    if (!allowed.count(kv.first.as<std::string>())) fail(path, ": ", where, ".", kv.first.as<std::string>(), ": unknown key");
  for (const char* k : {"id", "experiment", "metric", "value", "tolerance", "paper_method"})
    if (!n[k]) fail(path, ": ", where, ": missing '", k, "'");
  NumberEntry e;
  e.id = n["id"].as<std::string>();
  e.experiment = n["experiment"].as<std::string>();
  e.metric = n["metric"].as<std::string>();
  check_id(e.experiment, path + ": " + where + ".experiment");
  if (!ids.emplace(e.id, where).second) fail(path, ": ", where, ".id: '", clip(e.id), "' is also the id of ", ids[e.id]);
  auto number = [&](const char* k) {
    try {
      return n[k].as<double>();
    } catch (const YAML::Exception&) {
      fail(path, ": ", where, ".", k, ": expected a number");
    }
  };
  e.value = number("value");
  e.tolerance = number("tolerance");
  // `unexplained: true`: the gap was investigated and the explanation says what was ruled out, but
  // it does not account for the gap; such a number counts as unexplained whatever its text says.
  if (n["unexplained"]) {
    try {
      e.declared_unexplained = n["unexplained"].as<bool>();
    } catch (const YAML::Exception&) {
      fail(path, ": ", where, ".unexplained: expected true or false");
    }
    if (!n["explanation"]) fail(path, ": ", where, ".unexplained: needs an 'explanation' saying what was investigated");
  }
  if (!std::isfinite(e.value)) fail(path, ": ", where, ".value: expected a finite number, got ", n["value"].as<std::string>());
  if (!std::isfinite(e.tolerance) || e.tolerance < 0)
    fail(path, ": ", where, ".tolerance: expected a finite number >= 0, got ", n["tolerance"].as<std::string>());
  return e;
}

// The three series of a number (paper method, with quirks, strict), selected and measured.
struct NumberSeries {
  Selector sel[3];
  Measured m[3];
};

NumberSeries measure_series(const YAML::Node& n, const NumberEntry& ne, const std::string& where,
                            const std::string& path, Tables& tables) {
  const auto& rows = tables.rows(ne.experiment);
  check_columns(rows, ne.metric, {}, where, path, tables.csv(ne.experiment));
  NumberSeries out;
  const char* keys[3] = {"paper_method", "with_quirks", "strict"};
  for (int k = 0; k < 3; ++k) {
    out.sel[k] = selector(n[keys[k]], where + "." + keys[k], path);
    check_columns(rows, "", out.sel[k], where + "." + keys[k], path, tables.csv(ne.experiment));
  }
  for (int k = 0; k < 3; ++k) out.m[k] = measure(rows, out.sel[k], ne.metric);
  if (!n["with_quirks"]) out.m[1].any = false;
  if (!n["strict"]) out.m[2].any = false;
  return out;
}

// A number measured and judged against its tolerance; counts go to `rep`.
PublishedNumber check_number(const YAML::Node& n, std::size_t i, const std::string& path, const std::string& paper,
                             const PublishedCheckOptions& opt, Tables& tables, Configs& configs,
                             std::map<std::string, std::string>& ids, PublishedCheckReport& rep) {
  const std::string where = "numbers[" + std::to_string(i) + "]";
  NumberEntry ne = read_number_entry(n, where, path, ids);
  const NumberSeries ns = measure_series(n, ne, where, path, tables);
  ne.compare = n["compare"] ? n["compare"].as<std::string>() : (n["with_quirks"] ? "with_quirks" : "paper_method");
  if (ne.compare != "with_quirks" && ne.compare != "paper_method")
    fail(path, ": ", where, ".compare: expected with_quirks or paper_method");
  const int ci = ne.compare == "with_quirks" ? 1 : 0;
  const Measured& cmp = ns.m[ci];

  PublishedNumber e;
  e.id = ne.id;
  e.source = n["source"] ? n["source"].as<std::string>() : "";
  e.experiment = ne.experiment;
  e.metric = ne.metric;
  e.value = ne.value;
  e.tolerance = ne.tolerance;
  e.spread = n["spread"] && !n["spread"].IsNull() ? n["spread"].as<std::string>() : "";
  e.compare = ne.compare;
  e.paper_method = series_of(ns.m[0], true, ns.sel[0]);
  e.with_quirks = series_of(ns.m[1], static_cast<bool>(n["with_quirks"]), ns.sel[1]);
  e.strict = series_of(ns.m[2], static_cast<bool>(n["strict"]), ns.sel[2]);
  e.explanation = explain(n["explanation"] ? n["explanation"].as<std::string>() : "", ns.m[0], ns.m[1], ns.m[2], cmp,
                          ne.value, ne.tolerance, &e.warning);
  e.command = reproduce_command(paper, ne.experiment, path, opt);
  ++rep.numbers;
  if (!cmp.any) {
    e.verdict = "no data";
    e.excluded_by_config = configs.exclusion(ne.experiment, ns.sel[ci]);
    ++rep.no_data;
    return e;
  }
  e.delta = cmp.s.mean - ne.value;
  if (std::fabs(e.delta) <= ne.tolerance) {
    e.verdict = "within";
    ++rep.within;
  } else {
    e.verdict = "outside";
    e.explained = !e.explanation.empty() && e.warning.empty() && !ne.declared_unexplained;
    ++rep.outside;
    rep.outside_explained += e.explained ? 1 : 0;
  }
  return e;
}

void add_claims(const YAML::Node& claims, const std::string& path, const std::string& paper,
                const PublishedCheckOptions& opt, Tables& tables, PublishedCheckReport& rep) {
  ClaimsReport c = check_claims(claims, path, tables);
  rep.claims = c.claims;
  rep.claims_hold = c.hold;
  rep.claims_fail = c.fail;
  rep.claims_no_data = c.no_data;
  rep.claim_entries = std::move(c.entries);
  for (auto& e : rep.claim_entries)
    for (const auto& x : e.experiments)
      e.command += (e.command.empty() ? "" : " && ") + reproduce_command(paper, x, path, opt);
}

std::string no_results_warning(const std::string& paper, const std::string& path, const std::string& results_root) {
  const fs::path dir = fs::path(results_root) / paper;
  return "no results for paper '" + paper + "' in " + dir.string() +
         (fs::is_directory(dir) ? " (the directory holds no results.csv for any experiment of " + path + ")"
                                : " (no such directory)") +
         "; every number and claim is NO DATA. Check --results (the results root, which holds <paper>/<experiment>/results.csv) or run the commands below.";
}

PublishedCheckReport check_published_yaml(const std::string& yaml_text, const std::string& path,
                                          const PublishedCheckOptions& opt) {
  const YAML::Node root = load_yaml_strict(yaml_text, path);  // UTF-8, duplicate keys
  const std::string paper = check_top_level(root, path);
  Tables tables(opt.results_root, paper);
  Configs configs(path);  // exclude_datasets of the experiments' configs, for entries without data
  PublishedCheckReport rep;
  rep.paper = paper;
  rep.published_yaml = path;
  rep.results_root = opt.results_root;
  std::map<std::string, std::string> ids;  // id -> where first given
  const YAML::Node nums = root["numbers"] ? root["numbers"] : YAML::Node(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < nums.size(); ++i)
    rep.number_entries.push_back(check_number(nums[i], i, path, paper, opt, tables, configs, ids, rep));
  if (root["claims"]) add_claims(root["claims"], path, paper, opt, tables, rep);
  if (!tables.any_rows()) rep.no_results_warning = no_results_warning(paper, path, opt.results_root);
  rep.text = published_markdown(rep);
  if (!opt.markdown_out.empty()) write_text_atomic(opt.markdown_out, rep.text);
  if (!opt.json_out.empty()) write_text_atomic(opt.json_out, published_json(rep));
  return rep;
}

}  // namespace

PublishedCheckReport check_published_text(const std::string& yaml_text, const std::string& path,
                                          const PublishedCheckOptions& opt) {
  try {
    return check_published_yaml(yaml_text, path, opt);
  } catch (const YAML::Exception& e) {
    // A value of the wrong shape (a list or mapping where a single value belongs) that no check above
    // names: yaml-cpp gives the line and column, this adds the file (found by tests/fuzz).
    fail(path, ": ", e.what());
  }
}

}  // namespace dpf
