// Saved models (algorithms/saved_model.hpp): every registry algorithm's fitted model is written, read
// back and predicts bit-identically; the file holds the release and nothing else; models whose release
// happens in predict() refuse, and so does a forest whose vote ties are keyed by the fit's seed.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "algo_fixtures.hpp"
#include "algorithms/registry_fit.hpp"
#include "algorithms/saved_model.hpp"
#include "core/data/preprocess.hpp"

using namespace dpf;

namespace {

// Keys a saved file of a private algorithm must never hold, at any depth: true counts, occupancies,
// training sizes, RNG keys and seeds, ledgers and diagnostics.
const std::set<std::string> kForbidden = {"count", "counts", "n_train", "n_rows", "occupancy", "leaf_occupancy",
                                          "left_fraction", "ledger", "seed", "key", "keys", "rows", "heavy_queries",
                                          "epsilon_spent", "empty_leaf_fraction", "flipped_fraction",
                                          "mean_smooth_sensitivity", "diagnostics"};

// Every key at any depth, except inside "params" (the public configuration: its names, e.g. the
// occupancy rule's `occupancy`, are parameters, not data).
void collect_keys(const JsonValue& v, std::set<std::string>& out) {
  for (const auto& [k, child] : v.members) {
    out.insert(k);
    if (k != "params") collect_keys(child, out);
  }
  for (const JsonValue& item : v.items) collect_keys(item, out);
}

// How each algorithm is fitted on the synthetic data (4 numeric features, 1 categorical).
struct Setup {
  std::map<std::string, std::string> params;
  int bins = 0;
};

Setup setup_for(const AlgorithmInfo& a) {
  Setup s;
  for (const ParamSpec& p : a.params) {
    if (p.name == "epsilon") s.params["epsilon"] = "1";
    if (p.name == "n_trees") s.params["n_trees"] = "4";
    if (p.name == "ties") s.params["ties"] = "lowest";  // random ties cannot be saved (tested below)
  }
  // DP-RF and DP-DF take binned inputs (dipreme.md §6.1); matrix-rf needs discrete features (spec §5.1).
  if (a.name == "dp-rf" || a.name == "dp-df" || a.name.rfind("mrf-", 0) == 0) s.bins = 4;
  return s;
}

bool releases_in_predict(const std::string& name) {
  return name == "mrf-predict" || name == "mrf-subsample" || name == "mrf-subsample-lm";
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("every algorithm's saved model predicts bit-identically and holds only its release") {
    for (const AlgorithmInfo& a : algorithm_table()) {
      for (TaskKind task : a.tasks) {
        CAPTURE(a.name);
        const std::string task_name = to_string(task);
        CAPTURE(task_name);
        const Dataset raw = test::synthetic(300, task, 3);
        const Setup s = setup_for(a);
        const Dataset data = s.bins > 0 ? bin_equal_width(raw, s.bins) : raw;
        const RegistryFit fit = fit_registry(a.name, s.params, data, 11, 1, "test");
        if (releases_in_predict(a.name)) {
          CHECK_THROWS_WITH(saved_model_json(fit, raw.schema(), s.bins), doctest::Contains("releases noisy votes in predict()"));
          continue;
        }
        const std::string text = saved_model_json(fit, raw.schema(), s.bins);
        const SavedModel loaded = parse_saved_model(text, "test.json");
        CHECK(loaded.algorithm == a.name);
        CHECK(loaded.privacy_status == fit.privacy_status);
        CHECK(loaded.bound.epsilon == fit.bound.epsilon);
        // Fresh rows (another seed) and the training rows: identical labels and scores, bit for bit.
        for (uint64_t seed : {3u, 99u}) {
          const Dataset rows = test::synthetic(200, task, seed);
          const Predictions want = fit.model->predict(s.bins > 0 ? bin_equal_width(rows, s.bins) : rows, all_rows(rows.n_rows()));
          const Predictions got = loaded.predict(rows);
          CHECK(got.label == want.label);
          CHECK(got.value == want.value);
        }
        bool has_release = true;
        Release want;
        try {
          want = fit.model->released();
        } catch (const Error&) {
          has_release = false;  // the non-private baselines without an audit release
        }
        if (has_release) CHECK(loaded.model->released() == want);
        if (a.private_algorithm) {
          std::set<std::string> keys;
          collect_keys(parse_json(text, "test.json"), keys);
          for (const std::string& k : kForbidden) {
            CAPTURE(k);
            CHECK(keys.count(k) == 0);
          }
        }
      }
    }
  }

  TEST_CASE("a forest whose vote ties come from the fit's seed refuses to be saved, with ties=lowest it saves") {
    const Dataset data = test::synthetic(200, TaskKind::kClassification, 3);
    const RegistryFit random = fit_registry("multinomial-rf", {{"n_trees", "3"}}, data, 1, 1, "test");
    CHECK_THROWS_WITH(saved_model_json(random, data.schema(), 0), doctest::Contains("ties=lowest"));
    const RegistryFit lowest = fit_registry("multinomial-rf", {{"n_trees", "3"}, {"ties", "lowest"}}, data, 1, 1, "test");
    CHECK_NOTHROW(parse_saved_model(saved_model_json(lowest, data.schema(), 0), "ok.json"));
  }

  TEST_CASE("a malformed saved model fails naming the file and the key") {
    const Dataset data = test::synthetic(200, TaskKind::kClassification, 3);
    const RegistryFit fit = fit_registry("dipreme", {{"epsilon", "1"}, {"strict", "true"}, {"n_trees", "2"}}, data, 1, 1, "test");
    const std::string text = saved_model_json(fit, data.schema(), 0);
    auto replaced = [&](const std::string& from, const std::string& to) {
      std::string t = text;
      const auto at = t.find(from);
      REQUIRE(at != std::string::npos);
      return t.replace(at, from.size(), to);
    };
    CHECK_THROWS_WITH(parse_saved_model(replaced("\"kind\":\"forest\"", "\"kind\":\"nope\""), "m.json"),
                      doctest::Contains("m.json.model.kind: unknown model kind 'nope'"));
    CHECK_THROWS_WITH(parse_saved_model(replaced("\"version\":1", "\"version\":7"), "m.json"),
                      doctest::Contains("m.json.version: version 7"));
    CHECK_THROWS_WITH(parse_saved_model(replaced("\"first_child\":[", "\"first_child\":[0,"), "m.json"),
                      doctest::Contains("m.json.model.trees[0]"));
    CHECK_THROWS_WITH(parse_saved_model(replaced("\"format\"", "\"extra\":1,\"format\""), "m.json"),
                      doctest::Contains("m.json.extra: unknown key"));
    CHECK_THROWS_WITH(parse_saved_model(text.substr(0, text.size() / 2), "m.json"), doctest::Contains("m.json: line 1"));
  }

  TEST_CASE("a tuned model saves its selection's release (point, noisy score, candidate), not the number of runs") {
    const Dataset data = test::synthetic(300, TaskKind::kClassification, 3);
    const std::map<std::string, std::string> tuning{
        {"base", "dp-ert"}, {"grid", "max_depth=2,3"}, {"base_params", "occupancy=0"}, {"strict", "true"}};
    for (const char* name : {"private-selection", "oracle-tuning"}) {
      CAPTURE(name);
      const RegistryFit fit = fit_registry(name, tuning, data, 5, 1, "test");
      std::set<std::string> keys;
      collect_keys(parse_json(saved_model_json(fit, data.schema(), 0), "t.json"), keys);
      CHECK(keys.count("selected") == 1);
      CHECK(keys.count("candidate") == 1);
      CHECK(keys.count("runs") == 0);
      CHECK(keys.count("validation_score") == 0);  // the oracle's non-private CV score
      CHECK(keys.count("noisy_validation_score") == (std::string(name) == "private-selection" ? 1u : 0u));
    }
  }
}

