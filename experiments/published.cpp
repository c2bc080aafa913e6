#include "experiments/published.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "core/eval/stats.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/claims.hpp"
#include "experiments/results.hpp"

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

std::string show(const Measured& m) {
  if (!m.any) return "—";
  return fmt(m.s.mean) + " ± " + (m.s.n > 1 ? fmt(m.s.std) : std::string("—")) + " (n=" + std::to_string(m.s.n) + ")";
}

}  // namespace

PublishedCheckReport check_published(const std::string& path, const PublishedCheckOptions& opt) {
  return check_published_text(read_text_limited(path, kMaxConfigBytes, "YAML file"), path, opt);  // size limit
}

namespace {

using namespace published_detail;

PublishedCheckReport check_published_yaml(const std::string& yaml_text, const std::string& path,
                                          const PublishedCheckOptions& opt) {
  const YAML::Node root = load_yaml_strict(yaml_text, path);  // UTF-8, duplicate keys
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
  std::map<std::string, std::string> ids;  // id -> where first given
  const std::set<std::string> allowed = {"id", "source", "experiment", "metric", "value", "spread", "tolerance",
                                         "paper_method", "with_quirks", "strict", "compare", "explanation"};
  Tables tables(opt.results_root, paper);
  PublishedCheckReport rep;
  std::string& out = rep.text;
  out += "# Published numbers: " + paper + "\n\n";
  out += "| id | source | published | ours (paper method) | ours (reference quirks) | ours (strict) | status | explanation |\n";
  out += "|---|---|---|---|---|---|---|---|\n";
  const YAML::Node nums = root["numbers"] ? root["numbers"] : YAML::Node(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < nums.size(); ++i) {
    const YAML::Node n = nums[i];
    std::string where = "numbers[" + std::to_string(i) + "]";
    if (!n.IsMap()) fail(path, ": ", where, ": expected a mapping (id, experiment, metric, value, tolerance, ...)");
    for (const auto& kv : n)
      if (!allowed.count(kv.first.as<std::string>()))
        fail(path, ": ", where, ".", kv.first.as<std::string>(), ": unknown key");
    for (const char* k : {"id", "experiment", "metric", "value", "tolerance", "paper_method"})
      if (!n[k]) fail(path, ": ", where, ": missing '", k, "'");
    const std::string id = n["id"].as<std::string>();
    const std::string exp = n["experiment"].as<std::string>();
    const std::string metric = n["metric"].as<std::string>();
    check_id(exp, path + ": " + where + ".experiment");
    if (!ids.emplace(id, where).second) fail(path, ": ", where, ".id: '", clip(id), "' is also the id of ", ids[id]);
    auto number = [&](const char* k) {
      try {
        return n[k].as<double>();
      } catch (const YAML::Exception&) {
        fail(path, ": ", where, ".", k, ": expected a number");
      }
    };
    const double value = number("value");
    const double tol = number("tolerance");
    if (!std::isfinite(value)) fail(path, ": ", where, ".value: expected a finite number, got ", n["value"].as<std::string>());
    if (!std::isfinite(tol) || tol < 0)
      fail(path, ": ", where, ".tolerance: expected a finite number >= 0, got ", n["tolerance"].as<std::string>());
    const std::string spread = n["spread"] && !n["spread"].IsNull() ? n["spread"].as<std::string>() : "";
    const std::string source = n["source"] ? n["source"].as<std::string>() : "";
    const std::string why = n["explanation"] ? n["explanation"].as<std::string>() : "";

    const auto& rows = tables.rows(exp);
    check_columns(rows, metric, {}, where, path, tables.csv(exp));
    for (const char* k : {"paper_method", "with_quirks", "strict"})
      check_columns(rows, "", selector(n[k], where + "." + k, path), where + "." + k, path, tables.csv(exp));
    Measured paper_m = measure(rows, selector(n["paper_method"], where + ".paper_method", path), metric);
    Measured quirk_m = measure(rows, selector(n["with_quirks"], where + ".with_quirks", path), metric);
    Measured strict_m = measure(rows, selector(n["strict"], where + ".strict", path), metric);
    if (!n["with_quirks"]) quirk_m.any = false;
    if (!n["strict"]) strict_m.any = false;
    std::string compare = n["compare"] ? n["compare"].as<std::string>() : (n["with_quirks"] ? "with_quirks" : "paper_method");
    if (compare != "with_quirks" && compare != "paper_method")
      fail(path, ": ", where, ".compare: expected with_quirks or paper_method");
    const Measured& cmp = compare == "with_quirks" ? quirk_m : paper_m;

    ++rep.numbers;
    std::string status;
    if (!cmp.any) {
      status = "NO DATA (run " + exp + ")";
      ++rep.no_data;
    } else if (std::fabs(cmp.s.mean - value) <= tol) {
      status = "ok (|Δ| " + fmt(std::fabs(cmp.s.mean - value)) + " <= " + fmt(tol) + ")";
      ++rep.within;
    } else {
      status = "**OUTSIDE** (|Δ| " + fmt(std::fabs(cmp.s.mean - value)) + " > " + fmt(tol) + ")";
      ++rep.outside;
    }
    out += "| " + cell_text(id) + " | " + cell_text(source) + " | " + fmt(value) + (spread.empty() ? "" : " ± " + spread) +
           " | " + show(paper_m) + " | " + (n["with_quirks"] ? show(quirk_m) : "n/a") + " | " +
           (n["strict"] ? show(strict_m) : "n/a") + " | " + status + " (vs " + compare + ") | " + cell_text(why) + " |\n";
  }
  out += "\n" + std::to_string(rep.numbers) + " numbers: " + std::to_string(rep.within) + " within tolerance, " +
         std::to_string(rep.outside) + " outside, " + std::to_string(rep.no_data) + " without results.\n";
  if (root["claims"]) {
    ClaimsReport c = check_claims(root["claims"], path, tables);
    rep.claims = c.claims;
    rep.claims_hold = c.hold;
    rep.claims_fail = c.fail;
    rep.claims_no_data = c.no_data;
    out += "\n" + c.text;
  }
  if (!opt.markdown_out.empty()) write_text_atomic(opt.markdown_out, out);
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
