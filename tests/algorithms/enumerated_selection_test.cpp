// Private selection by enumeration (algorithms/tuning/enumerated_selection.cpp): every grid point once
// at (epsilon/k, delta/k), basic composition. Over Lumberjack (which private-selection refuses) a fit
// stays within the nominal (epsilon, delta) with k candidate charges, each candidate is fitted at
// exactly (epsilon/k, delta/k), the k charges never sum above the nominal values, the plan does not
// depend on the data, and the labels and refusals name what breaks the guarantee.
#include <map>
#include <string>

#include "algo_fixtures.hpp"
#include "algorithms/tuning/grid.hpp"

namespace dpf::test {
namespace {

std::string column(const Model& m, const std::string& name) {
  for (const auto& [k, v] : m.extra_columns())
    if (k == name) return v;
  FAIL("no column ", name);
  return "";
}

std::map<std::string, std::string> lumberjack_grid(double eps, const std::string& grid = "max_depth=2,3;n_trees=1,2",
                                                   const std::string& delta = "1e-06") {
  return {{"base", "lumberjack"}, {"grid", grid}, {"base_params", "delta=" + delta},
          {"epsilon", canonical_number(eps)}};
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("enumerated selection: a fit over lumberjack is within (epsilon, delta), k charges of (eps/k, delta/k)") {
    const Dataset d = synthetic(300, TaskKind::kClassification, 11);
    const AlgorithmInfo& a = find_algorithm("enumerated-selection");
    for (const double eps : {0.5, 2.0}) {
      CAPTURE(eps);
      const auto given = lumberjack_grid(eps);
      const Fitted f = fit_registry("enumerated-selection", given, d);
      CHECK_NOTHROW(f.ledger.check_within(eps, 1e-6, "test"));
      CHECK(f.ledger.epsilon_for(1e-6) <= eps);
      CHECK(f.ledger.epsilon_for(1e-6) >= (1 - 1e-9) * eps);
      CHECK(f.ledger.approx_delta() <= 1e-6);
      CHECK(f.ledger.approx_delta() >= (1 - 1e-9) * 1e-6);
      CHECK(f.ledger.certified());
      const auto shares = f.ledger.breakdown(1e-6);
      REQUIRE(shares.size() == 1);
      CHECK(shares[0].mechanism == "enumerated-candidate");
      CHECK(shares[0].calls == 4);
      CHECK(shares[0].epsilon == doctest::Approx(eps).epsilon(1e-12));
      CHECK(shares[0].delta == doctest::Approx(1e-6).epsilon(1e-12));
      CHECK(column(*f.model, "tuning_runs") == "4");
      const Params p = resolve_params(a.name, a.params, given, "test");
      CHECK(a.privacy_status(p, TaskKind::kClassification) == "(epsilon, delta)-DP");
      const PrivacyBound b = a.privacy_bound(p, TaskKind::kClassification);
      CHECK(b.epsilon == doctest::Approx(eps).epsilon(1e-12));
      CHECK(b.epsilon_conservative == doctest::Approx(eps).epsilon(1e-12));
      CHECK(b.delta == doctest::Approx(1e-6).epsilon(1e-12));
      CHECK(a.nominal_delta(p) == 1e-6);
      // The cost model: k fits on the fitting part.
      const InnerFits inner = a.inner(p);
      CHECK(inner.algorithm == "lumberjack");
      CHECK(inner.fits == 4);
      CHECK(inner.row_share == doctest::Approx(0.8));
      CHECK(f.model->describe().find("enumerated-selection (basic composition)") != std::string::npos);
    }
  }

  TEST_CASE("enumerated selection: every candidate is fitted at (epsilon/k, delta/k)") {
    const Dataset d = synthetic(300, TaskKind::kClassification, 12);
    for (const double eps : {0.5, 2.0}) {
      CAPTURE(eps);
      const Fitted f = fit_registry("enumerated-selection", lumberjack_grid(eps), d);
      // The chosen candidate's calibration equals a plain Lumberjack fit at its point and (eps/4, delta/4).
      auto given = parse_assignments(column(*f.model, "tuned_params"), "test");
      given["epsilon"] = canonical_number(eps / 4);
      given["delta"] = canonical_number(1e-6 / 4);
      const Fitted plain = fit_registry("lumberjack", given, d);
      CHECK(column(*f.model, "lumberjack_sigma_split") == column(*plain.model, "lumberjack_sigma_split"));
      CHECK(column(*f.model, "lumberjack_tau") == column(*plain.model, "lumberjack_tau"));
      // The inner fits the cost model prices are those candidates.
      const AlgorithmInfo& a = find_algorithm("enumerated-selection");
      const InnerFits inner = a.inner(resolve_params(a.name, a.params, lumberjack_grid(eps), "test"));
      for (const Params& c : inner.candidates) {
        CHECK(c.get_double("epsilon") == eps / 4);
        CHECK(c.get_double("delta") == 1e-6 / 4);
      }
    }
  }

  TEST_CASE("enumerated selection: the k charges never sum above the nominal (epsilon, delta)") {
    // k = 6 at (0.1, 1e-6), the leaderboard's smallest epsilon: the shares read back from their text
    // (1.66666666666667e-07) sum above 1e-6 six times, so the plan steps them down.
    const Dataset d = synthetic(200, TaskKind::kClassification, 13);
    for (const std::string delta : {"1e-06", "1e-07"}) {
      CAPTURE(delta);
      const double nominal = std::stod(delta);
      const auto given = lumberjack_grid(0.1, "max_depth=2,3,4;n_trees=1,2", delta);
      const Fitted f = fit_registry("enumerated-selection", given, d);
      CHECK(f.ledger.approx_delta() <= nominal);
      CHECK(f.ledger.epsilon_for(nominal) <= 0.1);
      CHECK(column(*f.model, "tuning_runs") == "6");
      const AlgorithmInfo& a = find_algorithm("enumerated-selection");
      const Params p = resolve_params(a.name, a.params, given, "test");
      const PrivacyBound b = a.privacy_bound(p, TaskKind::kClassification);
      CHECK(b.epsilon <= 0.1);
      CHECK(b.delta <= nominal);
      CHECK(a.privacy_status(p, TaskKind::kClassification) == "(epsilon, delta)-DP");
    }
  }

  TEST_CASE("enumerated selection: the plan is data-independent (seeds and datasets of one schema)") {
    const Dataset d1 = synthetic(200, TaskKind::kClassification, 14), d2 = synthetic(250, TaskKind::kClassification, 15);
    const auto given = lumberjack_grid(1.0);
    const Fitted a = fit_registry("enumerated-selection", given, d1, 1);
    const Fitted b = fit_registry("enumerated-selection", given, d1, 2);
    const Fitted c = fit_registry("enumerated-selection", given, d2, 1);
    for (const Fitted* f : {&b, &c}) {
      CHECK(f->ledger.epsilon_for(1e-6) == a.ledger.epsilon_for(1e-6));
      CHECK(f->ledger.approx_delta() == a.ledger.approx_delta());
      CHECK(f->ledger.summary() == a.ledger.summary());
    }
  }

  TEST_CASE("enumerated selection: a learner fitted again (its candidates' learners reused) fits as a fresh one") {
    const Dataset d = synthetic(200, TaskKind::kClassification, 17);
    const AlgorithmInfo& a = find_algorithm("enumerated-selection");
    const auto given = lumberjack_grid(1.0);
    const Params p = resolve_params(a.name, a.params, given, "test");
    const std::unique_ptr<Learner> learner = a.make(p, d.schema());
    const std::vector<uint32_t> rows = all_rows(d.n_rows());
    for (const uint64_t seed : {3, 4, 3}) {
      FitContext ctx{Rng(seed), PrivacyLedger(), 1};
      const std::unique_ptr<Model> reused = learner->fit(d, rows, ctx);
      const Fitted fresh = fit_registry("enumerated-selection", given, d, seed);
      CHECK(reused->released() == fresh.model->released());
      CHECK(ctx.ledger.summary() == fresh.ledger.summary());
    }
  }

  TEST_CASE("enumerated selection: over an epsilon-DP base it is epsilon-DP and picks the better point") {
    const Dataset d = xor_data(2000, 3);
    const AlgorithmInfo& a = find_algorithm("enumerated-selection");
    // The better point first, so that keeping the last point instead of the best would show.
    const std::map<std::string, std::string> given{{"base", "privatree"}, {"grid", "max_depth=3,1"},
                                                   {"base_params", "max_bins=8"}, {"strict", "true"},
                                                   {"epsilon", "60"}};
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      const Fitted f = fit_registry("enumerated-selection", given, d, seed);
      CHECK(column(*f.model, "tuned_params") == "max_depth=3");
      CHECK(f.ledger.spent() <= 60.0);
      CHECK(f.ledger.spent() == doctest::Approx(60.0).epsilon(1e-12));
      CHECK(!f.ledger.has_approx());
      const Release r = f.model->released();
      REQUIRE(!r.discrete.empty());
      CHECK(r.discrete.back() == 0);
    }
    const Params p = resolve_params(a.name, a.params, given, "test");
    CHECK(a.privacy_status(p, TaskKind::kClassification) == "epsilon-DP");
    CHECK(a.nominal_delta(p) == 0.0);
    CHECK(a.privacy_bound(p, TaskKind::kClassification).delta == 0.0);
  }

  TEST_CASE("enumerated selection: refusals and labels name what breaks the guarantee") {
    const AlgorithmInfo& a = find_algorithm("enumerated-selection");
    const Dataset d = synthetic(150, TaskKind::kClassification, 16);
    auto status = [&](const std::map<std::string, std::string>& given) {
      return a.privacy_status(resolve_params(a.name, a.params, given, "test"), TaskKind::kClassification);
    };
    // The grid may vary neither delta (the pipeline's delta is the base's) nor epsilon.
    CHECK_THROWS_WITH_AS(status(lumberjack_grid(1.0, "delta=1e-6,1e-7")), doctest::Contains("may not vary delta"), Error);
    CHECK_THROWS_WITH_AS(status(lumberjack_grid(1.0, "epsilon=1,2")), doctest::Contains("epsilon"), Error);
    // A tuning meta-algorithm is no base, this one included.
    for (const char* meta : {"private-selection", "oracle-tuning"}) {
      CHECK_THROWS_WITH_AS(status({{"base", meta}}), doctest::Contains("meta-algorithm"), Error);
      CHECK_THROWS_WITH_AS(
          find_algorithm(meta).privacy_status(
              resolve_params(meta, find_algorithm(meta).params, {{"base", "enumerated-selection"}}, "test"),
              TaskKind::kClassification),
          doctest::Contains("meta-algorithm"), Error);
    }
    // A non-private base: not labelled DP, and not fitted.
    const std::map<std::string, std::string> rf{{"base", "rf"}, {"grid", "max_depth=2,3"}};
    CHECK(status(rf).rfind("published, not epsilon-DP: base 'rf' is not private", 0) == 0);
    CHECK_THROWS_WITH_AS(fit_registry("enumerated-selection", rf, d), doctest::Contains("not a private algorithm"), Error);
    // A quirk inside the base's mechanism (as coded, the GSHM does not cover a 2 -> 3 count change):
    // not labelled DP, and the candidate charges are uncertified.
    auto quirk = lumberjack_grid(1.0);
    quirk["base_params"] = "delta=1e-6;reference_quirks=as_coded_suppression";
    CHECK(status(quirk).rfind("published, not (epsilon, delta)-DP: candidate max_depth=2;n_trees=1", 0) == 0);
    CHECK(!fit_registry("enumerated-selection", quirk, d).ledger.certified());
    // A candidate whose fit spends more than (eps/k, delta/k) is refused, naming it (S-BDT as run
    // halves the hessian noise, so its ledger exceeds the nominal budget).
    const std::map<std::string, std::string> over{
        {"base", "s-bdt"}, {"grid", "n_trees=2,3"}, {"epsilon", "1"},
        {"base_params", "delta=1e-6;max_depth=2;subsample=1;newton=true;init_ratio=0;reference_quirks=half_hessian_noise"}};
    CHECK_THROWS_WITH_AS(fit_registry("enumerated-selection", over, d),
                         doctest::Contains("enumerated-selection over 's-bdt' candidate n_trees=2"), Error);
  }
}

}  // namespace dpf::test
