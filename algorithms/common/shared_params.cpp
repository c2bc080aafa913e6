#include "algorithms/common/shared_params.hpp"

#include <utility>

#include "algorithms/common/algorithm_info.hpp"

namespace dpf::param {

ParamSpec epsilon(std::string doc) {
  return {.name = "epsilon", .type = ParamType::kDouble, .default_value = kEpsilonDefault, .min = 0, .max = 1e9,
          .min_exclusive = true, .doc = std::move(doc)};
}

ParamSpec delta(std::string default_value, std::string doc) {
  return {.name = "delta", .type = ParamType::kDouble, .default_value = std::move(default_value), .min = 0,
          .max = 0.1, .min_exclusive = true, .doc = std::move(doc)};
}

ParamSpec n_trees(int default_value, std::string doc) {
  return {.name = "n_trees", .type = ParamType::kInt, .default_value = std::to_string(default_value), .min = 1,
          .max = 100000, .doc = std::move(doc)};
}

ParamSpec max_depth(int default_value, std::string doc, int min, int max) {
  return {.name = "max_depth", .type = ParamType::kInt, .default_value = std::to_string(default_value), .min = double(min),
          .max = double(max), .doc = std::move(doc)};
}

ParamSpec min_leaf(int default_value, std::string doc) {
  return {.name = "min_leaf", .type = ParamType::kInt, .default_value = std::to_string(default_value), .min = 1,
          .max = 1e9, .doc = std::move(doc)};
}

ParamSpec max_features(std::string doc) {
  return {.name = "max_features", .type = ParamType::kInt, .default_value = "0", .min = 0, .max = 1e9,
          .doc = std::move(doc)};
}

ParamSpec partition_rate(std::string doc) {
  return {.name = "partition_rate", .type = ParamType::kDouble, .default_value = "1", .min = 0, .max = 1e9,
          .min_exclusive = true, .doc = std::move(doc)};
}

ParamSpec vote(std::string default_value, std::vector<std::string> choices, std::string doc) {
  return {.name = "vote", .type = ParamType::kString, .default_value = std::move(default_value),
          .choices = std::move(choices), .doc = std::move(doc)};
}

ParamSpec max_bins(int default_value, std::string doc, int min, int max) {
  return {.name = "max_bins", .type = ParamType::kInt, .default_value = std::to_string(default_value),
          .min = double(min), .max = double(max), .doc = std::move(doc)};
}

ParamSpec strict() { return strict_param(); }

ParamSpec real(std::string name, std::string default_value, double min, double max, std::string doc) {
  return {.name = std::move(name), .type = ParamType::kDouble, .default_value = std::move(default_value), .min = min,
          .max = max, .doc = std::move(doc)};
}

ParamSpec number(std::string name, std::string default_value, std::string doc) {
  return {.name = std::move(name),
          .type = ParamType::kDouble,
          .default_value = std::move(default_value),
          .doc = std::move(doc)};
}

ParamSpec positive(std::string name, std::string default_value, double max, std::string doc) {
  ParamSpec s = real(std::move(name), std::move(default_value), 0, max, std::move(doc));
  s.min_exclusive = true;
  return s;
}

ParamSpec probability(std::string name, std::string default_value, std::string doc) {
  return real(std::move(name), std::move(default_value), 0, 1, std::move(doc));
}

ParamSpec share(std::string name, std::string default_value, std::string doc) {
  return positive(std::move(name), std::move(default_value), 1, std::move(doc));
}

ParamSpec count(std::string name, int default_value, double min, double max, std::string doc) {
  return {.name = std::move(name), .type = ParamType::kInt, .default_value = std::to_string(default_value), .min = min,
          .max = max, .doc = std::move(doc)};
}

ParamSpec flag(std::string name, bool default_value, std::string doc) {
  return {.name = std::move(name), .type = ParamType::kBool, .default_value = default_value ? "true" : "false",
          .doc = std::move(doc)};
}

ParamSpec choice(std::string name, std::string default_value, std::string doc) {
  return {.name = std::move(name), .type = ParamType::kString, .default_value = std::move(default_value),
          .doc = std::move(doc)};
}

ParamSpec choice(std::string name, std::string default_value, std::vector<std::string> choices, std::string doc) {
  ParamSpec s = choice(std::move(name), std::move(default_value), std::move(doc));
  s.choices = std::move(choices);
  return s;
}

ParamSpec text(std::string name, std::string doc) {
  return {.name = std::move(name), .type = ParamType::kString, .doc = std::move(doc)};
}

}  // namespace dpf::param
