// One check for every YAML reader (configs, published.yaml, dataset registry entries, audit files):
// yaml-cpp keeps both entries of a repeated mapping key and lookups silently return one of them, so a
// repeated key would be resolved inconsistently. This rejects it, naming the file and both lines.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

namespace dpf {

// Throws dpf::Error "<file>:<line>: duplicate key '<k>' (first at line <l>)" for the first repeated key
// found anywhere in the tree.
void reject_duplicate_keys(const YAML::Node& node, const std::string& file);

}  // namespace dpf
