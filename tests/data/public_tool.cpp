// One-off tool, not a test: prints the public domains, category lists and classes of registry
// variants computed from the full data files, in the registry's YAML form, so that they can be
// written into datasets/<id>.yaml ("from the full data file, treated as public as the papers did").
//   DPF_TOOL_SPECS="banknote wall-robot:24" ./build-data/test_data -ts=tools --no-skip
#include <doctest/doctest.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "datasets/registry.hpp"

namespace {

std::string num(double v) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, p);
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

TEST_SUITE("tools" * doctest::skip()) {
  TEST_CASE("print public domains of registry variants") {
    const char* specs = std::getenv("DPF_TOOL_SPECS");
    if (!specs) return;
    std::istringstream in(specs);
    std::string spec;
    while (in >> spec) {
      const dpf::VariantSpec& v = dpf::variant_spec(spec);
      dpf::BuildOptions b;
      b.infer_public = true;
      dpf::Dataset d = dpf::load_dataset(spec, dpf::DataOptions::from_environment(), b);
      const dpf::Schema& s = d.schema();
      std::cout << "@@ " << spec << " rows=" << d.n_rows() << " features=" << d.n_features() << "\n";
      std::cout << "    # Ranges and lists found in the data file: replace them by the documented public ones.\n";
      std::cout << "    domains:\n";
      for (const auto& f : s.features)
        if (f.kind == dpf::FeatureKind::kNumeric)
          std::cout << "      " << quoted(f.name) << ": [" << num(f.lo) << ", " << num(f.hi) << "]\n";
      if (s.target.task == dpf::TaskKind::kRegression)
        std::cout << "      " << quoted(s.target.name) << ": [" << num(s.target.lo) << ", " << num(s.target.hi) << "]\n";
      bool any_cat = false;
      for (const auto& f : s.features)
        if (f.kind == dpf::FeatureKind::kCategorical && !v.categories.count(f.name)) any_cat = true;
      for (const auto& f : s.features)
        if (f.kind == dpf::FeatureKind::kCategorical && v.categories.count(f.name) && v.categories.at(f.name).empty())
          any_cat = true;
      if (any_cat) {
        std::cout << "    categories:\n";
        for (const auto& f : s.features) {
          if (f.kind != dpf::FeatureKind::kCategorical) continue;
          auto it = v.categories.find(f.name);
          if (it != v.categories.end() && !it->second.empty()) continue;
          std::cout << "      " << quoted(f.name) << ": [";
          for (std::size_t c = 0; c < f.categories.size(); ++c)
            std::cout << (c ? ", " : "") << quoted(f.categories[c]);
          std::cout << "]\n";
        }
      }
      if (s.target.task == dpf::TaskKind::kClassification && v.classes.empty()) {
        std::cout << "    # classes found: [";
        for (std::size_t c = 0; c < s.target.classes.size(); ++c)
          std::cout << (c ? ", " : "") << quoted(s.target.classes[c]);
        std::cout << "]\n";
      }
    }
  }
}
