// with_learner / with_factory (algorithms/common/param_set.hpp): an entry built from a parameter set
// it is handed keeps that set, so its schema and factory work after the caller's set is gone.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/data/dataset.hpp"
#include "core/util/error.hpp"

using namespace dpf;

namespace {

struct ToyParams {
  std::string name;
  double epsilon = 1;
  int n_trees = 3;
  bool strict = false, quirky = false;
};

// A learner that only records what it was built from.
class ToyLearner : public Learner {
 public:
  explicit ToyLearner(ToyParams p) : p(std::move(p)) {}
  std::unique_ptr<Model> fit(const Dataset&, std::span<const uint32_t>, FitContext&) const override {
    fail("toy learner: not for fitting");
  }
  ToyParams p;
};

ParamSet<ToyParams> toy_set() {
  using P = ToyParams;
  return ParamSet<P>()
      .add(&P::epsilon, param::epsilon("toy budget"))
      .add(&P::n_trees, param::n_trees(3, "toy trees"))
      .add(&P::strict, param::strict())
      .quirk(&P::quirky, "toy_quirk");
}

AlgorithmInfo toy_info() {
  AlgorithmInfo a = describe("toy", "none", kClassificationTask, "a toy entry");
  a.quirks = {{"toy_quirk", "a documented deviation"}};
  return a;
}

const ToyParams& built(const AlgorithmInfo& a, const std::map<std::string, std::string>& given) {
  static std::unique_ptr<Learner> keep;
  keep = a.make(resolve_params(a.name, a.params, given, "test"), Schema{});
  return dynamic_cast<const ToyLearner&>(*keep).p;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("with_learner: the entry owns the set it is handed (a temporary here)") {
    const AlgorithmInfo a = with_learner<ToyLearner>(toy_info(), toy_set(), ToyParams{.name = "toy"});
    REQUIRE(a.params.size() == 4);  // epsilon, n_trees, strict, then reference_quirks
    CHECK(a.params[0].name == "epsilon");
    CHECK(a.params[1].type == ParamType::kInt);
    CHECK(a.params[3].name == "reference_quirks");
    CHECK(a.params[3].choices == std::vector<std::string>{"toy_quirk"});
    const ToyParams& p = built(a, {{"epsilon", "0.5"}, {"n_trees", "7"}, {"reference_quirks", "toy_quirk"}});
    CHECK(p.name == "toy");  // from the entry's base
    CHECK(p.epsilon == 0.5);
    CHECK(p.n_trees == 7);
    CHECK(p.quirky);
    CHECK_FALSE(built(a, {{"epsilon", "2"}}).quirky);
    CHECK(built(a, {{"epsilon", "2"}}).n_trees == 3);  // the declared default
  }

  TEST_CASE("with_factory: the entry's own builder gets the resolved struct, and its errors pass through") {
    const AlgorithmInfo a =
        with_factory(toy_info(), toy_set(), ToyParams{.name = "toy"}, [](ToyParams p) -> std::unique_ptr<Learner> {
          require(p.n_trees <= 10, "toy: at most 10 trees, got ", p.n_trees);
          return std::make_unique<ToyLearner>(std::move(p));
        });
    CHECK(built(a, {{"epsilon", "1"}, {"n_trees", "9"}}).n_trees == 9);
    CHECK_THROWS_WITH_AS(built(a, {{"epsilon", "1"}, {"n_trees", "11"}}), "toy: at most 10 trees, got 11", Error);
  }
}
