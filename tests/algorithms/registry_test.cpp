// The registry table (algorithms/registry.cpp) is consistent: names, parameter docs, defaults,
// fidelity options and privacy status strings (design.md §4, privacy.md §6).
#include <doctest/doctest.h>

#include <set>

#include "algorithms/registry.hpp"
#include "core/util/error.hpp"

using namespace dpf;

namespace {

bool valid_status(const std::string& s) {
  for (const std::string published : {"published, not epsilon-DP: ", "published, not (epsilon, delta)-DP: "})
    if (s.rfind(published, 0) == 0 && s.size() > published.size() + 3) return true;
  return s == "epsilon-DP" || s == "(epsilon, delta)-DP" || s == "non-private";
}

// Default parameters of an algorithm (epsilon = 1 where it is required).
Params defaults_of(const AlgorithmInfo& a, std::map<std::string, std::string> extra = {}) {
  for (const auto& p : a.params)
    if (p.name == "epsilon" && !extra.count("epsilon")) extra["epsilon"] = "1";
  return resolve_params(a.name, a.params, extra, "test");
}

const ParamSpec* param(const AlgorithmInfo& a, const std::string& name) {
  for (const auto& p : a.params)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("every algorithm has a unique name, a summary, tasks, a factory and documented parameters") {
    const auto& table = algorithm_table();
    REQUIRE(table.size() >= 7);
    std::set<std::string> names;
    for (const auto& a : table) {
      CAPTURE(a.name);
      CHECK(names.insert(a.name).second);
      CHECK(!a.name.empty());
      CHECK(a.name.find(' ') == std::string::npos);
      CHECK(!a.summary.empty());
      CHECK(!a.papers.empty());
      CHECK(!a.tasks.empty());
      CHECK(static_cast<bool>(a.make));
      CHECK(static_cast<bool>(a.privacy_status));
      std::set<std::string> pnames;
      for (const auto& p : a.params) {
        CAPTURE(p.name);
        CHECK(pnames.insert(p.name).second);
        CHECK(!p.doc.empty());
        CHECK(p.min <= p.max);
        if (p.type == ParamType::kString && !p.default_value.empty() && !p.choices.empty()) {
          bool listed = false;
          for (const auto& c : p.choices) listed = listed || c == p.default_value;
          CHECK(listed);
        }
      }
      for (const auto& q : a.quirks) {
        CAPTURE(q.name);
        CHECK(!q.doc.empty());
      }
      // The common fidelity keys exist everywhere (configs set them uniformly).
      REQUIRE(param(a, "strict") != nullptr);
      REQUIRE(param(a, "reference_quirks") != nullptr);
      for (const auto& q : a.quirks) {
        bool listed = false;
        for (const auto& c : param(a, "reference_quirks")->choices) listed = listed || c == q.name;
        CHECK(listed);
      }
      // Private algorithms take epsilon > 0; non-private ones have none.
      const ParamSpec* eps = param(a, "epsilon");
      if (a.private_algorithm) {
        REQUIRE(eps != nullptr);
        CHECK(eps->min == 0.0);
        CHECK(eps->min_exclusive);
      } else {
        CHECK(eps == nullptr);
      }
      // Defaults resolve (they are valid values of their own schema).
      CHECK_NOTHROW(defaults_of(a));
    }
  }

  TEST_CASE("privacy_status strings are epsilon-DP, non-private, or 'published, not epsilon-DP: <reason>'") {
    for (const auto& a : algorithm_table()) {
      CAPTURE(a.name);
      for (TaskKind t : a.tasks) {
        for (const std::string strict : {"false", "true"}) {
          CAPTURE(strict);
          const std::string s = a.privacy_status(defaults_of(a, {{"strict", strict}}), t);
          CAPTURE(s);
          CHECK(valid_status(s));
          if (!a.private_algorithm) CHECK(s == "non-private");
          else CHECK(s != "non-private");
        }
      }
    }
    // The families the foundation ships: strict is epsilon-DP, the published form is not.
    for (const std::string name : {"dipreme", "dipreme-exp", "dipreme-flip", "dp-ert"}) {
      const AlgorithmInfo& a = find_algorithm(name);
      CAPTURE(name);
      for (TaskKind t : a.tasks) {
        CHECK(a.privacy_status(defaults_of(a, {{"strict", "true"}}), t) == "epsilon-DP");
        CHECK(a.privacy_status(defaults_of(a), t).rfind("published, not epsilon-DP: ", 0) == 0);
      }
    }
    CHECK(find_algorithm("median-forest").privacy_status(defaults_of(find_algorithm("median-forest")),
                                                         TaskKind::kRegression) == "non-private");
  }

  TEST_CASE("unknown algorithms and bad parameters are errors naming them") {
    try {
      find_algorithm("dipremee");
      FAIL("no error for an unknown algorithm");
    } catch (const Error& e) {
      const std::string m = e.what();
      CHECK(m.find("unknown algorithm 'dipremee'") != std::string::npos);
      CHECK(m.find("dipreme-exp") != std::string::npos);  // the known names are listed
    }
    const AlgorithmInfo& a = find_algorithm("dipreme");
    auto message = [&](std::map<std::string, std::string> given) -> std::string {
      try {
        resolve_params("dipreme", a.params, given, "cfg.yaml: algorithms[0].params");
      } catch (const Error& e) {
        return e.what();
      }
      return "";
    };
    CHECK(message({{"epsilon", "1"}, {"depth", "3"}}).find("unknown parameter 'depth'") != std::string::npos);
    CHECK(message({{"epsilon", "1"}, {"depth", "3"}}).find("cfg.yaml: algorithms[0].params") != std::string::npos);
    CHECK(message({{"epsilon", "0"}}).find("parameter 'epsilon'") != std::string::npos);
    CHECK(message({{"epsilon", "-1"}}).find("expected number > 0") != std::string::npos);
    CHECK(message({{"epsilon", "abc"}}).find("'abc'") != std::string::npos);
    CHECK(message({{"epsilon", "nan"}}).find("'nan'") != std::string::npos);
    CHECK(message({{"epsilon", "1"}, {"max_depth", "2.5"}}).find("max_depth") != std::string::npos);
    CHECK(message({{"epsilon", "1"}, {"strict", "maybe"}}).find("strict") != std::string::npos);
    CHECK(message({{"epsilon", "1"}, {"reference_quirks", "nope"}}).find("'nope'") != std::string::npos);
    // epsilon has one default for every private algorithm (algorithms/common/shared_params.hpp).
    CHECK(message({}).empty());
    CHECK(resolve_params("dipreme", a.params, {}, "x").text("epsilon") == "1");
    CHECK(message({{"epsilon", "1"}}).empty());
    // Canonical values: numbers and booleans normalised, so cell ids do not depend on spelling.
    Params p = resolve_params("dipreme", a.params, {{"epsilon", "1.0"}, {"strict", "yes"}}, "x");
    CHECK(p.text("epsilon") == "1");
    CHECK(p.text("strict") == "true");
    CHECK(p.canonical().find("epsilon=1;") != std::string::npos);
  }
}
