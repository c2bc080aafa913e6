#include "core/data/yaml_keys.hpp"

#include <map>

#include "core/util/error.hpp"
#include "core/util/safe_path.hpp"

namespace dpf {

void reject_duplicate_keys(const YAML::Node& node, const std::string& file) {
  if (node.IsMap()) {
    std::map<std::string, int> first_line;
    for (const auto& kv : node) {
      const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : std::string("(complex key)");
      const int line = kv.first.Mark().line + 1;
      auto [it, fresh] = first_line.emplace(k, line);
      if (!fresh) fail(file, ":", line, ": duplicate key '", shown(k), "' (first at line ", it->second, ")");
      reject_duplicate_keys(kv.second, file);
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) reject_duplicate_keys(item, file);
  }
}

}  // namespace dpf
