#include "experiments/audit/matrix.hpp"

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/util/error.hpp"
#include "core/util/input_check.hpp"
#include "experiments/audit/audit.hpp"
#include "experiments/audit/mechanisms.hpp"
#include "experiments/audit/pairs.hpp"

namespace dpf {
namespace {

struct Entry {
  std::string algorithm, pair;
  std::map<std::string, std::string> params;
  double resolution = 0.0;
  int keep_continuous = -1;
  std::vector<std::string> strict_values{"false", "true"};  // `variants`: published, strict (default both)
};

std::string scalar(const YAML::Node& n, const std::string& where) {
  try {
    return n.as<std::string>();
  } catch (const YAML::Exception&) {
    fail(where, ": expected a scalar");
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

std::string num(double v, int precision = 4) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", precision, v);
  return b;
}

struct Matrix {
  int64_t samples = 100000;
  double alpha = 1e-5;
  bool mechanisms = true;
  std::vector<std::string> epsilons;
  std::vector<Entry> entries;
};

Entry parse_entry(const YAML::Node& n, const std::string& where) {
  Entry e;
  for (const auto& kv : n) {
    const std::string k = kv.first.as<std::string>();
    if (k == "algorithm") e.algorithm = scalar(kv.second, where + ".algorithm");
    else if (k == "pair") e.pair = scalar(kv.second, where + ".pair");
    else if (k == "resolution") e.resolution = std::stod(scalar(kv.second, where + ".resolution"));
    else if (k == "keep_continuous") e.keep_continuous = std::stoi(scalar(kv.second, where + ".keep_continuous"));
    else if (k == "params")
      for (const auto& p : kv.second) e.params[p.first.as<std::string>()] = scalar(p.second, where + ".params");
    else if (k == "variants") {
      // For an algorithm whose strict variant is its published one (lumberjack), one is enough.
      require(kv.second.IsSequence() && kv.second.size() > 0, where, ".variants: a list of published, strict");
      e.strict_values.clear();
      for (const auto& v : kv.second) {
        const std::string name = scalar(v, where + ".variants");
        require(name == "published" || name == "strict", where, ".variants: '", name, "' is not published or strict");
        e.strict_values.push_back(name == "strict" ? "true" : "false");
      }
    } else {
      fail(where, ": unknown key '", k, "' (known: algorithm, pair, params, resolution, keep_continuous, variants)");
    }
  }
  require(!e.algorithm.empty() && !e.pair.empty(), where, ": needs algorithm and pair");
  (void)find_algorithm(e.algorithm);  // unknown names fail before any audit runs
  (void)builtin_pair(e.pair);
  return e;
}

Matrix parse_matrix(const std::string& file) {
  const YAML::Node root = load_yaml_file_strict(file);  // size, UTF-8, repeated keys; names the file
  require(root.IsMap(), file, ": an audit matrix is a map with keys samples, alpha, epsilons, entries");
  for (const auto& kv : root) {
    const std::string k = kv.first.as<std::string>();
    require(k == "samples" || k == "alpha" || k == "epsilons" || k == "entries" || k == "mechanisms", file,
            ": unknown key '", k, "' (known: samples, alpha, epsilons, entries, mechanisms)");
  }
  Matrix m;
  if (root["samples"]) m.samples = std::stoll(scalar(root["samples"], file + ": samples"));
  if (root["alpha"]) m.alpha = std::stod(scalar(root["alpha"], file + ": alpha"));
  m.mechanisms = !root["mechanisms"] || scalar(root["mechanisms"], file + ": mechanisms") == "true";
  require(root["epsilons"] && root["epsilons"].IsSequence(), file, ": epsilons: a list of numbers");
  for (const auto& e : root["epsilons"]) m.epsilons.push_back(scalar(e, file + ": epsilons"));
  require(root["entries"] && root["entries"].IsSequence(), file, ": entries: a list");
  for (std::size_t i = 0; i < root["entries"].size(); ++i)
    m.entries.push_back(parse_entry(root["entries"][i], file + ": entries[" + std::to_string(i) + "]"));
  return m;
}

struct Writer {
  std::ostringstream csv, md;
  MatrixReport rep;
};

// One configuration (entry, strict value, epsilon): audited in the pure or the (epsilon, delta) mode by
// its a-priori bound, one row in each table.
void audit_configuration_row(const Matrix& m, const Entry& e, const AuditPair& pair, const std::string& strict,
                             const std::string& eps, const std::string& file, int threads, Writer& w) {
  const AlgorithmInfo& info = find_algorithm(e.algorithm);
  auto params = e.params;
  params["strict"] = strict;
  params["epsilon"] = eps;
  const Params p = resolve_params(e.algorithm, info.params, params, file);
  const TaskKind task = pair.d0.task();
  const std::string status = info.privacy_status(p, task);
  const bool labelled_dp = is_dp_label(status);  // epsilon-DP or (epsilon, delta)-DP
  AuditOptions o;
  o.samples = m.samples;
  o.alpha = m.alpha;
  o.threads = threads;
  o.seed = hash_string(e.algorithm + e.pair + strict + eps);
  o.resolution = e.resolution;
  o.keep_continuous = e.keep_continuous;
  const PrivacyBound bound = info.privacy_bound(p, task);
  o.claimed_epsilon = bound.epsilon;
  o.claimed_delta = bound.delta;  // > 0: the (epsilon, delta) mode
  std::string verdict, event, lb = "", dlb = "", secs = "", distinct = "";
  try {
    const AuditResult r = run_audit(e.algorithm, params, pair, o);
    lb = num(r.epsilon_lb);
    if (r.delta_mode) dlb = sci(r.delta_lb);
    secs = num(r.seconds, 1);
    distinct = std::to_string(r.distinct_outputs);
    event = r.event;
    if (r.flagged) verdict = labelled_dp ? "ALARM: labelled " + status + " but flagged" : "flagged (as labelled)";
    else verdict = labelled_dp ? "passes" : "not flagged on this pair";
    w.rep.alarms += r.flagged && labelled_dp;
    w.rep.flagged_published += r.flagged && !labelled_dp;
  } catch (const Error& err) {
    verdict = "not auditable at the model level";
    event = err.what();
    ++w.rep.not_auditable;
  }
  ++w.rep.audits;
  const std::string variant = strict == "true" ? "strict" : "published";
  const std::string claimed_delta = bound.delta > 0 ? sci(bound.delta) : "";
  w.csv << csv_field(e.algorithm) << ',' << variant << ',' << eps << ',' << csv_field(e.pair) << ','
        << csv_field(p.canonical()) << ',' << csv_field(status) << ',' << num(o.claimed_epsilon) << ',' << lb << ','
        << claimed_delta << ',' << dlb << ',' << csv_field(verdict) << ',' << m.samples << ',' << m.alpha << ','
        << distinct << ',' << secs << ',' << csv_field(event) << '\n';
  w.md << "| " << e.algorithm << " | " << variant << " | " << eps << " | " << e.pair << " | "
       << (labelled_dp ? status : "published, not DP") << " | " << num(o.claimed_epsilon, 2) << " | "
       << (lb.empty() ? "—" : lb) << " | " << (claimed_delta.empty() ? "—" : claimed_delta) << " | "
       << (dlb.empty() ? "—" : dlb) << " | " << verdict << " | " << (secs.empty() ? "—" : secs) << " |\n";
  std::fprintf(stderr, "  %-18s %-9s eps=%-4s %-17s %s\n", e.algorithm.c_str(), variant.c_str(), eps.c_str(),
               e.pair.c_str(), verdict.c_str());
}

// Mechanism level: the flaws a model-level release hides, and planted bugs beside correct mechanisms.
void audit_mechanisms(const Matrix& m, int threads, Writer& w) {
  w.md << "\n## Mechanism level\n\nWhere the model hides a flaw (a clamped leaf value, a vote over many trees), the "
          "mechanism alone is audited (experiments/audit/mechanisms.cpp); planted bugs sit beside their correct "
          "versions.\n\n| case | expected | claimed ε | lower bound | claimed δ | δ lower bound | verdict | what |\n"
          "|---|---|---|---|---|---|---|---|\n";
  for (const MechanismCase& c : m.mechanisms ? mechanism_cases() : std::vector<MechanismCase>{}) {
    AuditOptions o;
    o.samples = m.samples;
    o.alpha = m.alpha;
    o.threads = threads;
    o.seed = hash_string(c.name);
    o.resolution = c.resolution;
    o.claimed_epsilon = c.claimed_epsilon;
    o.claimed_delta = c.claimed_delta;
    const AuditResult r = run_audit(c.sample, o);
    const bool as_expected = r.flagged == c.expect_flag;
    w.rep.alarms += !as_expected;
    ++w.rep.audits;
    const std::string verdict = r.flagged ? (as_expected ? "flagged (as expected)" : "ALARM: a correct mechanism flagged")
                                          : (as_expected ? "passes" : "ALARM: a known flaw not caught");
    const bool approx = c.claimed_delta > 0;
    const std::string label = approx ? "(epsilon, delta)-DP" : "epsilon-DP";
    w.csv << "mechanism:" << c.name << ",mechanism,1," << "-" << ',' << "-" << ','
          << csv_field(c.expect_flag ? "not " + label + " at the claim" : label) << ',' << num(c.claimed_epsilon) << ','
          << num(r.epsilon_lb) << ',' << (approx ? sci(c.claimed_delta) : "") << ',' << (approx ? sci(r.delta_lb) : "")
          << ',' << csv_field(verdict) << ',' << m.samples << ',' << m.alpha << ',' << r.distinct_outputs << ','
          << num(r.seconds, 1) << ',' << csv_field(c.description) << '\n';
    w.md << "| " << c.name << " | " << (c.expect_flag ? "flag" : "pass") << " | " << num(c.claimed_epsilon, 2) << " | "
         << num(r.epsilon_lb) << " | " << (approx ? sci(c.claimed_delta) : "—") << " | "
         << (approx ? sci(r.delta_lb) : "—") << " | " << verdict << " | " << c.description << " |\n";
    std::fprintf(stderr, "  mechanism %-24s %s\n", c.name.c_str(), verdict.c_str());
  }
}

std::string report_head(const Matrix& m, const MatrixReport& rep, const std::string& file, int threads) {
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::ostringstream head;
  head << "# Privacy audit: " << rep.audits << " audits\n\n"
       << "`make audit` (" << file << ") on " << date << ": " << m.samples << " fits per dataset, alpha = " << m.alpha
       << " per audit, " << threads << " threads, " << num(rep.seconds, 0) << " s in all. Lower bounds are exact "
       << "Clopper-Pearson bounds on the privacy loss of the whole release (experiments/audit/audit.hpp); the claim is "
       << "the configuration's epsilon_apriori. An (epsilon, delta) configuration (delta_apriori > 0) is judged on the "
       << "delta lower bound at its claimed epsilon, max over events E and orders of P[E | D] - e^eps P[E | D'] "
       << "(its pure-epsilon bound is shown for information only).\n\n"
       << "- ALARMS (a configuration labelled epsilon-DP or (epsilon, delta)-DP flagged, or a mechanism case off its "
       << "expectation): " << rep.alarms << "\n"
       << "- published, not DP, and flagged: " << rep.flagged_published << "\n"
       << "- not auditable at the model level (the model does not expose its release): " << rep.not_auditable << "\n\n";
  return head.str();
}

}  // namespace

MatrixReport run_audit_matrix(const std::string& file, const std::string& out_dir, int threads) {
  const Matrix m = parse_matrix(file);
  std::filesystem::create_directories(out_dir);
  Writer w;
  w.rep.csv_path = out_dir + "/audit.csv";
  w.rep.md_path = out_dir + "/audit.md";
  w.csv << "algorithm,variant,epsilon,pair,params,privacy_status,epsilon_claimed,epsilon_lb,delta_claimed,delta_lb,verdict,"
           "samples,alpha,distinct_outputs,seconds,event\n";
  w.md << "| algorithm | variant | ε | pair | label | claimed ε | lower bound | claimed δ | δ lower bound | verdict | s |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|\n";
  const auto t0 = std::chrono::steady_clock::now();
  for (const Entry& e : m.entries) {
    const AuditPair pair = builtin_pair(e.pair);
    for (const std::string& strict : e.strict_values)
      for (const std::string& eps : m.epsilons) audit_configuration_row(m, e, pair, strict, eps, file, threads, w);
  }
  audit_mechanisms(m, threads, w);
  w.rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ofstream(w.rep.csv_path) << w.csv.str();
  std::ofstream(w.rep.md_path) << report_head(m, w.rep, file, threads) << w.md.str();
  return w.rep;
}

}  // namespace dpf
