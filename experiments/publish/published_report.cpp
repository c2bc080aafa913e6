// Rendering of the published-number check (experiments/publish/published.hpp): Markdown for people, JSON for
// the report and the reference snapshot. The check itself is in published.cpp and claims.cpp.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/util/json.hpp"
#include "core/util/number_text.hpp"
#include "experiments/publish/claims.hpp"
#include "experiments/publish/published.hpp"

namespace dpf {

namespace fs = std::filesystem;
using published_detail::cell_text;
using published_detail::fmt;

namespace {

constexpr std::size_t kWidth = 120;

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool same_dir(const std::string& a, const std::string& b) {
  std::error_code e1, e2;
  const fs::path x = fs::weakly_canonical(a, e1), y = fs::weakly_canonical(b, e2);
  return !e1 && !e2 && x == y;
}

std::string signed_fmt(double v) { return (v >= 0 ? "+" : "") + fmt(v); }

std::string mean_sd(const MeasuredSeries& m) {
  if (!m.given) return "n/a";
  if (!m.any) return "—";
  char sd[32] = "";
  if (!std::isnan(m.sd)) std::snprintf(sd, sizeof sd, " ±%.2g", m.sd);  // two digits of spread are enough in a table
  return fmt(m.mean) + sd;
}

// The published spread in the table: its leading number ("0.00035 (95% t half-width, 10 runs)" -> "0.00035");
// the whole text goes to the note.
std::string spread_short(const std::string& spread) {
  char* end = nullptr;
  const double x = std::strtod(spread.c_str(), &end);
  if (end == spread.c_str() || !std::isfinite(x)) return cell_text(spread.substr(0, 12));
  return std::string(spread.c_str(), static_cast<const char*>(end));
}

std::string selector_text(const MeasuredSeries& m) {
  std::string t;
  for (const auto& [k, v] : m.selector) t += (t.empty() ? "" : ", ") + k + "=" + v;
  return t;
}

std::string number_verdict(const PublishedNumber& e) {
  if (e.verdict == "no data") return "NO DATA";
  const std::string d = " Δ" + signed_fmt(e.delta);
  if (e.verdict == "within") return "ok" + d;
  return (e.explained ? "OUTSIDE (explained)" : "**OUTSIDE**") + d;
}

std::string claim_verdict(const PublishedClaim& c) {
  if (c.verdict == "holds") return "holds";
  if (c.verdict == "fails") return "**does not hold**";
  return "NO DATA";
}

// " (no config X yet: write it first)" when the experiment has no config beside published.yaml.
std::string missing_config(const PublishedCheckReport& rep, const std::string& experiment) {
  const fs::path config = fs::path(rep.published_yaml).parent_path() / (experiment + ".yaml");
  return fs::exists(config) ? "" : " (no config " + config.string() + " yet: write it first)";
}

// A note: "- **id**: text", wrapped, continuation lines indented by two spaces (one list item).
std::string note(const std::string& id, std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return wrap_text("- **" + cell_text(id) + "**: " + text, kWidth, "  ") + "\n";
}

void json_number_or_text(JsonWriter& w, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (!v.empty() && *end == '\0' && std::isfinite(x)) w.raw(format_double(x));
  else w.value(v);
}

void json_double(JsonWriter& w, double v) {
  if (std::isfinite(v)) w.raw(format_double(v));
  else w.null();
}

void json_series(JsonWriter& w, const MeasuredSeries& m) {
  if (!m.given) {
    w.null();
    return;
  }
  w.begin_object();
  std::string label;
  w.key("selector").begin_object();
  for (const auto& [k, v] : m.selector) {
    if (k == "label") label = v;
    w.key(k);
    json_number_or_text(w, v);
  }
  w.end_object();
  w.field("label", label);
  w.key("mean");
  json_double(w, m.mean);
  w.key("sd");
  json_double(w, m.sd);
  w.field("n", static_cast<int64_t>(m.n));
  w.end_object();
}

}  // namespace

std::string wrap_text(const std::string& text, std::size_t width, const std::string& indent) {
  // Words are split at spaces, except inside `backticks` (a command is never broken across lines).
  std::vector<std::string> words;
  std::string word;
  bool code = false;
  for (char c : text) {
    if (c == '`') code = !code;
    if (c == ' ' && !code) {
      words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  words.push_back(word);
  std::string out, line;
  bool first = true;
  for (const auto& w : words) {
    if (!first && code_points(line) + 1 + code_points(w) > width && line != indent) {
      out += line + "\n";
      line = indent + w;
    } else {
      line += (first ? "" : " ") + w;
    }
    first = false;
  }
  return out + line;
}

std::string reproduce_command(const std::string& paper, const std::string& experiment, const std::string& published_yaml,
                              const PublishedCheckOptions& opt) {
  const fs::path config = fs::path(published_yaml).parent_path() / (experiment + ".yaml");
  const bool default_root = opt.default_results_root.empty() ? opt.results_root == "results"
                                                             : same_dir(opt.results_root, opt.default_results_root);
  const bool make_target = experiment.rfind("figure-", 0) == 0 || experiment.rfind("table-", 0) == 0;
  if (make_target && fs::exists(config))
    return "make reproduce-" + experiment + " PAPER=" + paper + (default_root ? "" : " RESULTS=" + opt.results_root);
  return "build/dpforest run " + config.string() + " --results " + opt.results_root;
}

namespace {

// The commands that produce missing data, each once, in the order first needed.
class Commands {
 public:
  void want(const std::string& c) {
    if (seen_.insert(c).second) order_.push_back(c);
  }
  const std::vector<std::string>& order() const { return order_; }

 private:
  std::set<std::string> seen_;
  std::vector<std::string> order_;
};

// The note under the numbers table for one published number.
std::string number_note(const PublishedCheckReport& rep, const PublishedNumber& e, Commands& commands) {
  std::string t = (e.source.empty() ? "" : e.source + ". ") +
                  (e.spread.empty() || spread_short(e.spread) == e.spread ? "" : "Published spread: " + e.spread + ". ") +
                  e.experiment + ", " + e.metric + " (" +
                  (e.paper_method.any ? "n=" + std::to_string(e.paper_method.n) + ", " : "") + "tolerance " +
                  fmt(e.tolerance) + ", vs " + e.compare + ": " +
                  selector_text(e.compare == "with_quirks" ? e.with_quirks : e.paper_method) + ").";
  if (!e.explanation.empty()) t += " " + e.explanation;
  if (e.verdict == "no data" && !e.excluded_by_config.empty()) {
    t += " No data: the config excludes " + e.excluded_by_config + ".";
  } else if (e.verdict == "no data") {
    t += " No data: run `" + e.command + "`" + missing_config(rep, e.experiment) + ".";
    commands.want(e.command);
  }
  return note(e.id, t);
}

std::string numbers_markdown(const PublishedCheckReport& rep, Commands& commands) {
  if (rep.number_entries.empty()) return "";
  bool quirks = false, strict = false;
  for (const auto& e : rep.number_entries) quirks |= e.with_quirks.given, strict |= e.strict.given;
  std::string out = std::string("| id | published | ours: paper method") + (quirks ? " | with quirks" : "") +
                    (strict ? " | strict" : "") + " | verdict |\n|---|---|---" + (quirks ? "|---" : "") +
                    (strict ? "|---" : "") + "|---|\n";
  std::string notes, warnings;
  for (const auto& e : rep.number_entries) {
    out += "| " + cell_text(e.id) + " | " + fmt(e.value) + (e.spread.empty() ? "" : " ± " + spread_short(e.spread)) + " | " +
           mean_sd(e.paper_method) + (quirks ? " | " + mean_sd(e.with_quirks) : "") +
           (strict ? " | " + mean_sd(e.strict) : "") + " | " + number_verdict(e) + " |\n";
    notes += number_note(rep, e, commands);
    if (!e.warning.empty()) warnings += note(e.id, "explanation contradicts the measurement (" + e.warning + ")");
  }
  out += "\nNotes:\n\n" + notes;
  if (!warnings.empty()) out += "\nWarnings:\n\n" + warnings;
  return out;
}

std::string claim_row(const PublishedClaim& c) {
  std::string ex;
  for (const auto& x : c.experiments) ex += (ex.empty() ? "" : ", ") + x;
  char eff[32] = "—", p[32] = "—";
  if (!std::isnan(c.effect)) std::snprintf(eff, sizeof eff, "%.2f", c.effect);
  if (!std::isnan(c.p)) std::snprintf(p, sizeof p, "%.2g", c.p);
  return "| " + cell_text(c.id) + " | " + claim_verdict(c) + " | " + (c.verdict == "no data" ? "—" : eff) + " | " +
         (c.verdict == "no data" ? "—" : p) + " | " + cell_text(ex) + " |\n";
}

std::string claims_markdown(const PublishedCheckReport& rep, Commands& commands) {
  if (rep.claim_entries.empty()) return "";
  std::string out = "\n## Claims\n\n| id | verdict | smallest effect (sd) | largest p | experiment |\n|---|---|---|---|---|\n";
  std::string notes;
  for (const auto& c : rep.claim_entries) {
    out += claim_row(c);
    std::string t = (c.source.empty() ? "" : c.source + ": ") + "\"" + c.text + "\".";
    if (c.verdict == "no data") {
      std::string why;
      for (const auto& x : c.experiments) why += missing_config(rep, x);
      t += " No data (" + c.missing + "): run `" + c.command + "`" + why + ".";
      commands.want(c.command);
    } else {
      t += " Ours: " + c.measured + ". " + (c.verdict == "holds" ? "holds: " : "does not hold: ") + c.rules + ".";
    }
    if (!c.explanation.empty()) t += " " + c.explanation;
    notes += note(c.id, t);
  }
  return out + "\nNotes:\n\n" + notes + "\n" + std::to_string(rep.claims) + " claims: " + std::to_string(rep.claims_hold) +
         " hold, " + std::to_string(rep.claims_fail) + " do not hold, " + std::to_string(rep.claims_no_data) +
         " without (complete) results.\n";
}

void json_number(JsonWriter& w, const PublishedNumber& e) {
  w.begin_object();
  w.field("id", e.id).field("source", e.source).field("experiment", e.experiment).field("metric", e.metric);
  w.key("value");
  json_double(w, e.value);
  w.key("spread");
  if (e.spread.empty()) w.null();
  else json_number_or_text(w, e.spread);
  w.key("tolerance");
  json_double(w, e.tolerance);
  w.field("compare", e.compare).field("verdict", e.verdict).field("explained", e.explained);
  w.key("delta");
  json_double(w, e.delta);
  w.field("explanation", e.explanation);
  w.key("explanation_warning");
  if (e.warning.empty()) w.null();
  else w.value(e.warning);
  w.key("ours").begin_object();
  w.key("paper_method");
  json_series(w, e.paper_method);
  w.key("with_quirks");
  json_series(w, e.with_quirks);
  w.key("strict");
  json_series(w, e.strict);
  w.end_object();
  w.field("command", e.command);
  if (!e.excluded_by_config.empty()) w.field("excluded_by_config", e.excluded_by_config);
  w.end_object();
}

void json_claim(JsonWriter& w, const PublishedClaim& c) {
  w.begin_object();
  w.field("id", c.id).field("source", c.source).field("text", c.text);
  w.field("experiment", c.experiments.empty() ? std::string() : c.experiments.front());
  w.key("experiments").begin_array();
  for (const auto& x : c.experiments) w.value(x);
  w.end_array();
  w.field("verdict", c.verdict);
  w.key("effect");
  json_double(w, c.verdict == "no data" ? NAN : c.effect);
  w.key("p");
  json_double(w, c.verdict == "no data" ? NAN : c.p);
  w.field("measured", c.measured).field("rules", c.rules).field("missing", c.missing);
  w.field("explanation", c.explanation).field("command", c.command);
  w.end_object();
}

void json_counts(JsonWriter& w, const PublishedCheckReport& rep) {
  const auto count = [&](const char* k, std::size_t v) { w.field(k, static_cast<int64_t>(v)); };
  w.key("counts").begin_object();
  count("numbers", rep.numbers);
  count("within", rep.within);
  count("outside_explained", rep.outside_explained);
  count("outside_unexplained", rep.outside - rep.outside_explained);
  count("no_data", rep.no_data);
  count("claims", rep.claims);
  count("claims_hold", rep.claims_hold);
  count("claims_fail", rep.claims_fail);
  count("claims_no_data", rep.claims_no_data);
  w.end_object();
}

}  // namespace

std::string published_markdown(const PublishedCheckReport& rep) {
  std::string out = "# Published numbers: " + rep.paper + "\n\n";
  if (!rep.no_results_warning.empty()) out += wrap_text("> **WARNING**: " + rep.no_results_warning, kWidth, "> ") + "\n\n";
  Commands commands;  // for the missing data, in one list at the end
  out += numbers_markdown(rep, commands);
  out += "\n" + std::to_string(rep.numbers) + " numbers: " + std::to_string(rep.within) + " within tolerance, " +
         std::to_string(rep.outside) + " outside (" + std::to_string(rep.outside_explained) + " explained), " +
         std::to_string(rep.no_data) + " without results.\n";
  out += claims_markdown(rep, commands);
  if (!commands.order().empty()) {
    out += "\nTo produce the missing data (" + std::to_string(rep.no_data) + " numbers, " +
           std::to_string(rep.claims_no_data) + " claims):\n\n";
    for (const auto& c : commands.order()) out += "    " + c + "\n";
  }
  return out;
}

std::string published_json(const PublishedCheckReport& rep) {
  JsonWriter w;
  w.begin_object();
  w.field("paper", rep.paper).field("published_yaml", rep.published_yaml).field("results_root", rep.results_root);
  w.key("warning");
  if (rep.no_results_warning.empty()) w.null();
  else w.value(rep.no_results_warning);
  w.key("numbers").begin_array();
  for (const auto& e : rep.number_entries) json_number(w, e);
  w.end_array();
  w.key("claims").begin_array();
  for (const auto& c : rep.claim_entries) json_claim(w, c);
  w.end_array();
  json_counts(w, rep);
  w.end_object();
  return w.str() + "\n";
}

}  // namespace dpf
