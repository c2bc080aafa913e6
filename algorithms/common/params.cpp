#include "algorithms/common/params.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/util/error.hpp"
#include "core/util/named.hpp"

namespace dpf {

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::kInt: return "int";
    case ParamType::kDouble: return "number";
    case ParamType::kBool: return "bool";
    case ParamType::kString: return "string";
    case ParamType::kStringList: return "list";
  }
  return "?";
}

std::string canonical_number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

namespace {

bool parse_double(const std::string& s, double& out) {
  if (s == "inf" || s == "infinity" || s == ".inf") { out = INFINITY; return true; }
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size() && !std::isnan(out);
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream is(s);
  while (std::getline(is, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string allowed(const ParamSpec& p) {
  std::ostringstream os;
  os << to_string(p.type);
  if (!p.choices.empty()) {
    os << " in {";
    for (std::size_t i = 0; i < p.choices.size(); ++i) os << (i ? ", " : "") << p.choices[i];
    os << "}";
  } else if (p.type == ParamType::kInt || p.type == ParamType::kDouble) {
    if (p.min > -1e299) os << (p.min_exclusive ? " > " : " >= ") << canonical_number(p.min);
    if (p.max < 1e299) os << (p.min > -1e299 ? " and" : "") << " <= " << canonical_number(p.max);
  }
  return os.str();
}

std::string canonicalise(const std::string& algorithm, const ParamSpec& p, const std::string& raw,
                         const std::string& where) {
  auto bad = [&]() {
    fail(where, ": parameter '", p.name, "' of algorithm '", algorithm, "' is '", raw, "', expected ", allowed(p));
  };
  switch (p.type) {
    case ParamType::kInt:
    case ParamType::kDouble: {
      double v;
      if (!parse_double(raw, v)) bad();
      if (p.type == ParamType::kInt && (std::isinf(v) || v != std::floor(v))) bad();
      if (v < p.min || v > p.max || (p.min_exclusive && v == p.min)) bad();
      return canonical_number(v);
    }
    case ParamType::kBool:
      if (raw == "true" || raw == "1" || raw == "yes") return "true";
      if (raw == "false" || raw == "0" || raw == "no") return "false";
      bad();
      return raw;
    case ParamType::kString:
      if (!p.choices.empty()) {
        bool ok = false;
        for (const auto& c : p.choices) ok = ok || c == raw;
        if (!ok) bad();
      }
      return raw;
    case ParamType::kStringList: {
      std::string out;
      for (const std::string& item : split_list(raw)) {
        bool ok = p.choices.empty();
        for (const auto& c : p.choices) ok = ok || c == item;
        if (!ok)
          fail(where, ": '", item, "' in parameter '", p.name, "' of algorithm '", algorithm, "' is not one of ",
               allowed(p));
        out += (out.empty() ? "" : ",") + item;
      }
      return out;
    }
  }
  return raw;
}

}  // namespace

const std::string& Params::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) fail("algorithm '", algorithm_, "' has no parameter '", name, "'");
  return it->second;
}

int Params::get_int(const std::string& name) const { return static_cast<int>(get_double(name)); }

double Params::get_double(const std::string& name) const {
  double v;
  if (!parse_double(text(name), v)) fail("parameter '", name, "' of '", algorithm_, "' is not a number");
  return v;
}

bool Params::get_bool(const std::string& name) const { return text(name) == "true"; }

std::vector<std::string> Params::get_list(const std::string& name) const { return split_list(text(name)); }

bool Params::list_contains(const std::string& name, const std::string& item) const {
  for (const auto& s : get_list(name))
    if (s == item) return true;
  return false;
}

std::string Params::canonical() const {
  std::string out;
  for (const auto& [k, v] : values_) out += (out.empty() ? "" : ";") + k + "=" + v;
  return out;
}

Params resolve_params(const std::string& algorithm, const std::vector<ParamSpec>& schema,
                      const std::map<std::string, std::string>& given, const std::string& where) {
  std::map<std::string, std::string> out;
  for (const auto& [name, raw] : given) {
    const ParamSpec* spec = nullptr;
    for (const auto& p : schema)
      if (p.name == name) spec = &p;
    if (!spec) {
      fail(where, ": unknown parameter '", name, "' for algorithm '", algorithm, "' (known: ",
           join_names(schema, [](const ParamSpec& p) { return p.name; }), ")");
    }
    out[name] = canonicalise(algorithm, *spec, raw, where);
  }
  for (const auto& p : schema) {
    if (out.count(p.name)) continue;
    if (p.default_value.empty() && p.type != ParamType::kStringList && p.type != ParamType::kString)
      fail(where, ": algorithm '", algorithm, "' needs parameter '", p.name, "' (", p.doc, ")");
    out[p.name] = p.default_value;
  }
  return Params(algorithm, std::move(out));
}

}  // namespace dpf
