// Algorithm parameters: a schema per algorithm (name, type, default, range, choices, one-line doc)
// and the resolved values of one cell. Values are validated against the schema before any work;
// an unknown name or a bad value is an error naming the algorithm, the parameter and what is allowed.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace dpf {

enum class ParamType { kInt, kDouble, kBool, kString, kStringList };
const char* to_string(ParamType t);

struct ParamSpec {
  std::string name;
  ParamType type;
  std::string default_value;  // canonical text; empty = required
  double min = -1e300, max = 1e300;
  bool min_exclusive = false;  // e.g. epsilon > 0
  std::vector<std::string> choices;  // kString / kStringList: allowed values (empty = any)
  std::string doc;
};

// Canonical text values keyed by name; lists are comma-separated.
class Params {
 public:
  Params() = default;
  Params(std::string algorithm, std::map<std::string, std::string> values)
      : algorithm_(std::move(algorithm)), values_(std::move(values)) {}

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  const std::string& text(const std::string& name) const;
  int get_int(const std::string& name) const;
  double get_double(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  const std::string& get_string(const std::string& name) const { return text(name); }
  std::vector<std::string> get_list(const std::string& name) const;
  bool list_contains(const std::string& name, const std::string& item) const;

  const std::map<std::string, std::string>& values() const { return values_; }
  const std::string& algorithm() const { return algorithm_; }
  std::string canonical() const;  // "k1=v1;k2=v2" in name order (used in cell ids)

 private:
  std::string algorithm_;
  std::map<std::string, std::string> values_;
};

// Checks `given` against the schema, fills defaults and canonicalises numbers and booleans.
// `where` names the source for messages (e.g. "configs/dipreme/figure-2.yaml: algorithms[3].params").
Params resolve_params(const std::string& algorithm, const std::vector<ParamSpec>& schema,
                      const std::map<std::string, std::string>& given, const std::string& where);

std::string canonical_number(double v);

}  // namespace dpf
