#include "core/data/schema_io.hpp"

#include <cmath>
#include <set>

namespace dpf {

void write_schema(JsonWriter& w, const Schema& s) {
  w.begin_object();
  w.key("features").begin_array();
  for (const Feature& f : s.features) {
    w.begin_object().field("name", f.name).field("kind", to_string(f.kind));
    if (f.kind == FeatureKind::kNumeric) {
      w.key("lo").exact(f.lo);
      w.key("hi").exact(f.hi);
    } else {
      w.key("categories").begin_array();
      for (const std::string& c : f.categories) w.value(c);
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();
  w.key("target").begin_object().field("name", s.target.name).field("task", to_string(s.target.task));
  if (s.target.task == TaskKind::kClassification) {
    w.key("classes").begin_array();
    for (const std::string& c : s.target.classes) w.value(c);
    w.end_array();
  } else {
    w.key("lo").exact(s.target.lo);
    w.key("hi").exact(s.target.hi);
  }
  w.end_object();
  w.field("domains_source", s.domains_source);
  w.end_object();
}

namespace {

std::vector<std::string> unique_strings(const JsonIn& in, const char* what) {
  std::vector<std::string> v = in.strings();
  if (v.empty()) in.fail_here(std::string("needs at least one ") + what);
  std::set<std::string> seen;
  for (const std::string& x : v)
    if (!seen.insert(x).second) in.fail_here(std::string(what) + " '" + x + "' is listed twice");
  return v;
}

void read_interval(const JsonIn& in, double& lo, double& hi) {
  lo = in["lo"].number();
  hi = in["hi"].number();
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) in.fail_here("[lo, hi] is not a finite interval lo <= hi");
}

}  // namespace

Schema read_schema(const JsonIn& in) {
  Schema s;
  const JsonIn features = in["features"];
  std::set<std::string> names;
  for (std::size_t i = 0; i < features.size(); ++i) {
    const JsonIn f_in = features.at(i);
    Feature f;
    f.name = f_in["name"].string();
    if (f.name.empty() || !names.insert(f.name).second) f_in["name"].fail_here("feature names must be non-empty and unique");
    const std::string kind = f_in["kind"].string();
    if (kind == "numeric") {
      f.kind = FeatureKind::kNumeric;
      read_interval(f_in, f.lo, f.hi);
    } else if (kind == "categorical") {
      f.kind = FeatureKind::kCategorical;
      f.categories = unique_strings(f_in["categories"], "category");
    } else {
      f_in["kind"].fail_here("expected numeric or categorical, got '" + kind + "'");
    }
    s.features.push_back(std::move(f));
  }
  if (s.features.empty()) features.fail_here("needs at least one feature");
  const JsonIn t = in["target"];
  s.target.name = t["name"].string();
  const std::string task = t["task"].string();
  if (task == "classification") {
    s.target.task = TaskKind::kClassification;
    s.target.classes = unique_strings(t["classes"], "class");
  } else if (task == "regression") {
    s.target.task = TaskKind::kRegression;
    read_interval(t, s.target.lo, s.target.hi);
  } else {
    t["task"].fail_here("expected classification or regression, got '" + task + "'");
  }
  s.domains_source = in["domains_source"].string();
  return s;
}

}  // namespace dpf
