// The registry's label rules (algorithms/common/privacy_label.hpp) on hand-made entries: a family's
// DP label is withheld by a non-neutral quirk, an a-priori epsilon above the nominal one, or an
// a-priori delta above the nominal delta; every other status passes through unchanged.
#include <doctest/doctest.h>

#include "algorithms/common/privacy_label.hpp"

using namespace dpf;

namespace {

Params params(std::map<std::string, std::string> v) { return Params("toy", std::move(v)); }

AlgorithmInfo toy(bool private_algorithm, std::string status) {
  AlgorithmInfo a;
  a.name = "toy";
  a.private_algorithm = private_algorithm;
  a.quirks = {{"neutral", "changes a metric only", true}, {"inside", "inside the mechanism", false}};
  if (private_algorithm) a.params = {{"epsilon", ParamType::kDouble, "1", 0, 1e9, true, {}, "budget"}};
  a.privacy_status = [status](const Params&, TaskKind) { return status; };
  return a;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("label rules: a DP label holds only when no rule applies") {
    const PrivacyBound at_nominal{1.0, 1.0, 0.0};
    const std::vector<std::string> neutral = {"neutral"};
    CHECK(apply_label_rules("epsilon-DP", params({{"epsilon", "1"}}), at_nominal, neutral) == "epsilon-DP");
    CHECK(apply_label_rules("epsilon-DP", params({{"epsilon", "1"}, {"reference_quirks", "neutral"}}), at_nominal,
                            neutral) == "epsilon-DP");
    CHECK(apply_label_rules("epsilon-DP", params({{"epsilon", "1"}, {"reference_quirks", "neutral,inside"}}),
                            at_nominal, neutral) ==
          "published, not epsilon-DP: reference_quirks inside reproduces the authors' code inside the mechanism, "
          "so the strict repair no longer holds");
    // a-priori epsilon above the nominal one (within the 1e-9 relative slack it still holds)
    CHECK(apply_label_rules("epsilon-DP", params({{"epsilon", "1"}}), {1.0 + 1e-12, 1.0, 0.0}, neutral) == "epsilon-DP");
    CHECK(apply_label_rules("epsilon-DP", params({{"epsilon", "1"}}), {2.0, 2.0, 0.0}, neutral) ==
          "published, not epsilon-DP at the nominal epsilon: the configuration spends up to 2 (epsilon_apriori), not "
          "the nominal 1; it is epsilon-DP at epsilon_apriori");
    // an (epsilon, delta) label keeps its wording; delta above the nominal delta
    CHECK(apply_label_rules("(epsilon, delta)-DP", params({{"epsilon", "1"}, {"delta", "1e-06"}}), {1.0, 1.0, 1e-6},
                            neutral) == "(epsilon, delta)-DP");
    CHECK(apply_label_rules("(epsilon, delta)-DP", params({{"epsilon", "1"}, {"delta", "1e-06"}}), {1.0, 1.0, 2e-6},
                            neutral) ==
          "published, not (epsilon, delta)-DP at the nominal delta: the configuration's delta_apriori is 2e-06");
    // a pure-epsilon algorithm has no delta parameter: any delta > 0 withholds the label
    CHECK(apply_label_rules("epsilon-DP", params({{"epsilon", "1"}}), {1.0, 1.0, 1e-9}, neutral).rfind(
              "published, not epsilon-DP at the nominal delta", 0) == 0);
    // not a DP label: passes through untouched, even with every rule violated
    const std::string published = "published, not epsilon-DP: a reason";
    CHECK(apply_label_rules(published, params({{"epsilon", "1"}, {"reference_quirks", "inside"}}), {9, 9, 1}, neutral) ==
          published);
  }

  TEST_CASE("complete_entry: common keys for non-private entries, default bound, wrapped status") {
    AlgorithmInfo np = complete_entry(toy(false, "non-private"));
    REQUIRE(np.params.size() == 2);
    CHECK(np.params[0].name == "strict");
    CHECK(np.params[1].name == "reference_quirks");
    CHECK(np.privacy_bound(params({}), TaskKind::kClassification).epsilon == 0.0);

    AlgorithmInfo pr = complete_entry(toy(true, "epsilon-DP"));
    CHECK(pr.params.size() == 1);  // private entries declare their own strict / quirks keys
    const PrivacyBound b = pr.privacy_bound(params({{"epsilon", "0.5"}}), TaskKind::kClassification);
    CHECK(b.epsilon == 0.5);
    CHECK(b.epsilon_conservative == 0.5);
    CHECK(pr.privacy_status(params({{"epsilon", "1"}}), TaskKind::kClassification) == "epsilon-DP");
    CHECK(pr.privacy_status(params({{"epsilon", "1"}, {"reference_quirks", "inside"}}), TaskKind::kClassification)
              .rfind("published, not epsilon-DP: reference_quirks inside", 0) == 0);
  }

  TEST_CASE("shared statuses and bounds: strict repairs, nominal (epsilon, delta), trees summed unless strict") {
    const auto status = dp_when_strict("a reason");
    CHECK(status(params({{"strict", "true"}}), TaskKind::kClassification) == "epsilon-DP");
    CHECK(status(params({{"strict", "false"}}), TaskKind::kRegression) == "published, not epsilon-DP: a reason");
    const PrivacyBound ed = nominal_epsilon_delta(params({{"epsilon", "2"}, {"delta", "1e-06"}}), TaskKind::kClassification);
    CHECK(ed.epsilon == 2.0);
    CHECK(ed.epsilon_conservative == 2.0);
    CHECK(ed.delta == 1e-6);
    const PrivacyBound summed =
        trees_summed_unless_strict(params({{"epsilon", "2"}, {"n_trees", "5"}, {"strict", "false"}}), TaskKind::kClassification);
    CHECK(summed.epsilon == 2.0);
    CHECK(summed.epsilon_conservative == 10.0);
    CHECK(summed.delta == 0.0);
    CHECK(trees_summed_unless_strict(params({{"epsilon", "2"}, {"n_trees", "5"}, {"strict", "true"}}),
                                     TaskKind::kClassification)
              .epsilon_conservative == 2.0);
  }

  TEST_CASE("describe: the head every entry states; describe_non_private adds no epsilon and its status") {
    const AlgorithmInfo a = describe("x", "paper-a, paper-b", kBothTasks, "a summary");
    CHECK(a.name == "x");
    CHECK(a.papers == "paper-a, paper-b");
    CHECK(a.summary == "a summary");
    CHECK(a.supports(TaskKind::kRegression));
    CHECK(a.private_algorithm);
    const AlgorithmInfo np = describe_non_private("y", "p", kClassificationTask, "s");
    CHECK_FALSE(np.private_algorithm);
    CHECK_FALSE(np.supports(TaskKind::kRegression));
    CHECK(np.privacy_status(params({}), TaskKind::kClassification) == "non-private");
  }
}
