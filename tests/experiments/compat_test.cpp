// Static incompatibilities are refused when the config is validated (expand_cells, used by run,
// --dry-run, status, slurm and list), with the fix named, instead of failing every task of a run:
// an algorithm on a task kind it does not support, a binary-only algorithm on a multiclass dataset,
// a private algorithm on a dataset whose cleaning rule is not differentially private.
#include <doctest/doctest.h>

#include "algorithms/registry.hpp"
#include "experiments/config/sweep.hpp"
#include "experiments/exp_fixtures.hpp"

using namespace dpf;

namespace {

std::string config(const std::string& datasets, const std::string& algorithm) {
  return "paper: testpaper\nexperiment: compat\nprotocol: {type: kfold, folds: 2, repetitions: 1}\ndatasets: " +
         datasets + "\nalgorithms:\n  - " + algorithm + "\n";
}

std::string refusal(const std::string& text) {
  try {
    expand_cells(parse_experiment(text, "inline/compat.yaml"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("compat: the registry declares which algorithms classify two classes only") {
    for (const char* name : {"dipreme", "dipreme-exp", "dipreme-flip", "median-forest", "rgv"})
      CHECK_MESSAGE(find_algorithm(name).binary_classification_only, name);
    for (const char* name : {"rf", "dp-ert", "smooth-rdf", "lumberjack", "privatree"})
      CHECK_MESSAGE(!find_algorithm(name).binary_classification_only, name);
  }

  TEST_CASE("compat: a binary-only algorithm on a 3-class dataset is refused at validation, naming the fix") {
    const std::string why = refusal(config("[iris]", "{name: dipreme, params: {epsilon: 1}}"));
    CAPTURE(why);
    CHECK(why.find("inline/compat.yaml: algorithms[0] ('dipreme', dipreme) cannot run on dataset 'iris'") == 0);
    CHECK(why.find("two classes only and the dataset lists 3 classes") != std::string::npos);
    CHECK(why.find("binary variant") != std::string::npos);
    CHECK(why.find("exclude_datasets") != std::string::npos);
    // Excluding the pair, or a two-class dataset, validates; regression is unaffected by the property.
    CHECK(refusal(config("[iris, banknote]",
                         "{name: dipreme, params: {epsilon: 1}, exclude_datasets: {iris: \"binary classes only\"}}"))
              .empty());
    CHECK(refusal(config("[\"gas-turbine:tey\"]", "{name: dipreme, params: {epsilon: 1}}")).empty());
  }

  TEST_CASE("compat: a task kind the algorithm does not support is refused at validation") {
    const std::string why = refusal(config("[\"gas-turbine:tey\"]", "{name: rgv}"));
    CAPTURE(why);
    CHECK(why.find("cannot run on dataset 'gas-turbine:tey': it does not support regression") != std::string::npos);
  }

  TEST_CASE("compat: a private algorithm on a training-median imputation variant is refused at validation") {
    const std::string why = refusal(config("[\"hepatitis:impute\"]", "{name: dp-ert, params: {epsilon: 1}}"));
    CAPTURE(why);
    CHECK(why.find("imputes missing values with training-fold medians") != std::string::npos);
    CHECK(refusal(config("[\"hepatitis:impute\"]", "{name: rf}")).empty());
  }

  TEST_CASE("compat: a tuning meta-algorithm is refused where the entry it fits could not run itself") {
    // private-selection and oracle-tuning declare no class restriction of their own; their base does.
    for (const char* meta : {"private-selection", "oracle-tuning"}) {
      CAPTURE(meta);
      const std::string row = std::string("{name: ") + meta +
                              ", params: {base: dpboost, strict: true, grid: \"max_depth=2,3\"}}";
      const std::string why = refusal(config("[iris]", row));
      CAPTURE(why);
      CHECK(why.find("cannot run on dataset 'iris': the entry it fits, 'dpboost': it classifies two classes only") !=
            std::string::npos);
      CHECK(why.find("exclude_datasets") != std::string::npos);
      CHECK(refusal(config("[banknote]", row)).empty());
      CHECK(refusal(config("[iris]", std::string("{name: ") + meta +
                                         ", params: {base: dp-ert, strict: true, grid: \"max_depth=2,3\"}}"))
                .empty());
    }
  }
}
