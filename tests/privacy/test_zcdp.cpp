// zCDP accounting: conversions (Bun & Steinke 2016 Prop. 1.3 / 1.4; Canonne, Kamath & Steinke 2020
// §2.3) and zCDP charges in the PrivacyLedger. Reference values were computed independently by a
// brute-force scan of alpha (multiplicative step 1.00001 over (1.0001, 1e7)) in Python.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/privacy/ledger.hpp"
#include "core/util/error.hpp"

using dpf::Composition;
using dpf::PrivacyLedger;

TEST_SUITE("unit") {
  TEST_CASE("zCDP conversions: known values") {
    CHECK(dpf::pure_to_zcdp(1.0) == 0.5);
    CHECK(dpf::pure_to_zcdp(0.2) == doctest::Approx(0.02));
    // BS16 Prop. 1.3: rho + 2 sqrt(rho ln(1/delta)); rho = 0.5, delta = 1e-5: 0.5 + 2 sqrt(0.5 * 11.5129).
    CHECK(dpf::zcdp_to_epsilon_bs16(0.5, 1e-5) == doctest::Approx(5.298525912188081).epsilon(1e-12));
    // CKS20: brute-force reference values.
    CHECK(dpf::zcdp_to_epsilon_cks(0.5, 1e-5) == doctest::Approx(4.728386984954786).epsilon(1e-9));
    CHECK(dpf::zcdp_to_epsilon_cks(0.1, 1e-6) == doctest::Approx(2.1419389284016614).epsilon(1e-9));
    CHECK(dpf::zcdp_to_epsilon_cks(1.0, 1e-5) == doctest::Approx(7.077196695847719).epsilon(1e-9));
    CHECK(dpf::zcdp_to_epsilon_cks(0.01, 1e-6) == doctest::Approx(0.6216926545662637).epsilon(1e-9));
    CHECK(dpf::zcdp_to_epsilon(0.5, 1e-5) == dpf::zcdp_to_epsilon_cks(0.5, 1e-5));
    CHECK(dpf::zcdp_to_epsilon(0.0, 1e-5) == 0.0);
    // The RDP-curve converter on a linear curve agrees with the closed minimisation.
    CHECK(dpf::rdp_to_epsilon([](double a) { return 0.5 * a; }, 1e-5) == doctest::Approx(4.728386984954786).epsilon(1e-9));
    for (double bad : {0.0, 1.0, -1e-5, std::nan("")}) {
      CHECK_THROWS_AS(dpf::zcdp_to_epsilon(0.5, bad), dpf::Error);
      CHECK_THROWS_AS(dpf::rho_for_target(1.0, bad), dpf::Error);
    }
    CHECK_THROWS_AS(dpf::zcdp_to_epsilon(-0.1, 1e-5), dpf::Error);
    CHECK_THROWS_AS(dpf::rho_for_target(0.0, 1e-5), dpf::Error);
  }

  TEST_CASE("zCDP conversions: monotone, CKS20 never above BS16") {
    for (double delta : {1e-3, 1e-6, 1e-10}) {
      double prev = 0.0;
      for (double rho = 1e-6; rho < 100.0; rho *= 1.7) {
        const double e = dpf::zcdp_to_epsilon(rho, delta);
        CHECK(e >= prev);
        CHECK(e >= 0.0);
        CHECK(dpf::zcdp_to_epsilon_cks(rho, delta) <= dpf::zcdp_to_epsilon_bs16(rho, delta) * (1.0 + 1e-12));
        if (rho >= 1e-3) CHECK(e > prev);
        prev = e;
      }
    }
    // Smaller delta, larger epsilon.
    CHECK(dpf::zcdp_to_epsilon(0.3, 1e-9) > dpf::zcdp_to_epsilon(0.3, 1e-6));
  }

  TEST_CASE("rho_for_target inverts the conversion from below") {
    for (double eps : {0.1, 0.5, 1.0, 4.0, 10.0}) {
      for (double delta : {1e-5, 1e-6, 1e-9}) {
        const double rho = dpf::rho_for_target(eps, delta);
        INFO("epsilon " << eps << " delta " << delta << " rho " << rho);
        CHECK(rho > 0.0);
        const double back = dpf::zcdp_to_epsilon(rho, delta);
        CHECK(back <= eps);
        CHECK(back >= eps * (1.0 - 1e-9));
        CHECK(dpf::zcdp_to_epsilon(rho * (1.0 + 1e-9), delta) > eps * (1.0 - 1e-9));
      }
    }
    // Hand check: rho = 0.5 converts to 4.7284 at delta 1e-5, so the target 4.728386984954786 gives 0.5.
    CHECK(dpf::rho_for_target(4.728386984954786, 1e-5) == doctest::Approx(0.5).epsilon(1e-8));
  }

  TEST_CASE("pure-epsilon ledgers are unchanged: delta 0, epsilon_for == spent exactly") {
    PrivacyLedger L;
    L.charge(PrivacyLedger::kRoot, "laplace", 0.3, 1.0);
    const auto par = L.open_scope(PrivacyLedger::kRoot, Composition::kClaimedParallel);
    L.charge(L.open_scope(par, Composition::kSequential), "em", 0.2, 1.0);
    L.charge(L.open_scope(par, Composition::kSequential), "em", 0.2, 1.0);
    CHECK_FALSE(L.has_zcdp());
    CHECK(L.rho_spent() == 0.0);
    CHECK(L.epsilon_for(1e-5) == L.spent());
    CHECK(L.epsilon_for(0.0) == L.spent());  // delta is irrelevant: the guarantee is (spent, 0)
    CHECK(L.epsilon_for(0.0, true) == L.spent_conservative());
    CHECK(L.spent() == doctest::Approx(0.5));
    CHECK(L.spent_conservative() == doctest::Approx(0.7));
    CHECK(L.rho_equivalent() == doctest::Approx(0.045 + 0.02));
    CHECK(L.summary() == "laplace: calls=1 epsilon=0.3\nem: calls=2 epsilon=0.4\n");
    CHECK_NOTHROW(L.check_within(0.5, 1e-5, "pure"));
    CHECK_THROWS_AS(L.check_within(0.49, 1e-5, "pure"), dpf::Error);
  }

  TEST_CASE("zCDP charges compose like epsilon: sum sequentially, max in parallel") {
    PrivacyLedger L;
    L.charge_zcdp(PrivacyLedger::kRoot, "gaussian", 0.1, 1.0);
    const auto par = L.open_scope(PrivacyLedger::kRoot, Composition::kParallel);
    const auto a = L.open_scope(par, Composition::kSequential);
    const auto b = L.open_scope(par, Composition::kSequential);
    L.charge_zcdp(a, "gaussian", 0.2, 1.0);
    L.charge_zcdp(a, "gaussian", 0.05, 1.0);
    L.charge_zcdp(b, "gaussian", 0.3, 1.0);
    CHECK(L.has_zcdp());
    CHECK(L.n_zcdp_charges() == 4);
    CHECK(L.n_charges() == 4);
    CHECK(L.spent() == 0.0);  // no pure charges
    CHECK(L.rho_spent(a) == doctest::Approx(0.25));
    CHECK(L.rho_spent(par) == doctest::Approx(0.3));
    CHECK(L.rho_spent() == doctest::Approx(0.4));
    CHECK(L.rho_equivalent() == doctest::Approx(0.4));
    CHECK(L.rho_spent_conservative() == doctest::Approx(0.4));
    CHECK(L.epsilon_for(1e-6) == doctest::Approx(dpf::zcdp_to_epsilon(0.4, 1e-6)).epsilon(1e-12));
    CHECK(L.summary() == "gaussian: calls=4 rho=0.65\n");
    CHECK(L.describe_scope(a).find("rho=0.25") != std::string::npos);
    // A claimed-parallel scope: max when claimed, sum when conservative.
    const auto cp = L.open_scope(PrivacyLedger::kRoot, Composition::kClaimedParallel);
    L.charge_zcdp(L.open_scope(cp, Composition::kSequential), "gaussian", 0.1, 1.0);
    L.charge_zcdp(L.open_scope(cp, Composition::kSequential), "gaussian", 0.1, 1.0);
    CHECK(L.rho_spent() == doctest::Approx(0.5));
    CHECK(L.rho_spent_conservative() == doctest::Approx(0.6));
    CHECK(L.epsilon_for(1e-6, true) > L.epsilon_for(1e-6));
    // A pure budget cannot cover zCDP charges; delta must be in (0, 1).
    CHECK_THROWS_AS(L.check_within(100.0, "zcdp"), dpf::Error);
    CHECK_THROWS_AS(L.epsilon_for(0.0), dpf::Error);
    CHECK_NOTHROW(L.check_within(dpf::zcdp_to_epsilon(0.5, 1e-6) * 1.000001, 1e-6, "zcdp"));
    try {
      L.check_within(1.0, 1e-6, "Lumberjack");
      FAIL("no throw");
    } catch (const dpf::Error& e) {
      CHECK(std::string(e.what()).find("Lumberjack") != std::string::npos);
    }
    CHECK_THROWS_AS(L.charge_zcdp(PrivacyLedger::kRoot, "g", 0.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(L.charge_zcdp(PrivacyLedger::kRoot, "g", 0.1, 0.0), dpf::Error);
    CHECK_THROWS_AS(L.charge_zcdp(99, "g", 0.1, 1.0), dpf::Error);
    CHECK_THROWS_AS(L.rho_spent(99), dpf::Error);
  }

  TEST_CASE("mixed pure and zCDP charges") {
    // Sequential: epsilon 1 (pure) then rho 0.1. Brute-force RDP reference:
    // inf_alpha min(1, alpha/2) + 0.1 alpha + log(1/(alpha delta))/(alpha-1) + log(1-1/alpha) = 2.91424
    // at delta 1e-5, which equals 1 + CKS(0.1) here; all-as-rho (0.6) would give 5.2522.
    PrivacyLedger L;
    L.charge(PrivacyLedger::kRoot, "laplace", 1.0, 1.0);
    L.charge_zcdp(PrivacyLedger::kRoot, "gaussian", 0.1, 1.0);
    CHECK(L.spent() == 1.0);
    CHECK(L.rho_spent() == doctest::Approx(0.1));
    CHECK(L.rho_equivalent() == doctest::Approx(0.6));
    const double e = L.epsilon_for(1e-5);
    CHECK(e == doctest::Approx(2.9142388320127903).epsilon(1e-9));
    CHECK(e <= 1.0 + dpf::zcdp_to_epsilon_cks(0.1, 1e-5) + 1e-12);
    CHECK(e <= dpf::zcdp_to_epsilon(0.6, 1e-5));
    CHECK(L.summary() == "laplace: calls=1 epsilon=1\ngaussian: calls=1 rho=0.1\n");

    // Parallel: one child pure epsilon 1, the other rho 0.3 (disjoint records).
    // Reference: inf_alpha max(min(1, alpha/2), 0.3 alpha) + ... = 3.53439 at delta 1e-5.
    PrivacyLedger P;
    const auto par = P.open_scope(PrivacyLedger::kRoot, Composition::kParallel);
    P.charge(P.open_scope(par, Composition::kSequential), "laplace", 1.0, 1.0);
    P.charge_zcdp(P.open_scope(par, Composition::kSequential), "gaussian", 0.3, 1.0);
    CHECK(P.spent() == 1.0);
    CHECK(P.rho_spent() == doctest::Approx(0.3));
    CHECK(P.rho_equivalent() == doctest::Approx(0.5));
    CHECK(P.epsilon_for(1e-5) == doctest::Approx(3.5343865712448137).epsilon(1e-9));

    // Small pure charges are cheaper as rho: 100 sequential epsilon = 0.01 charges plus rho = 0.01
    // give rho_equivalent 0.015, far below the basic 1 + CKS(0.01).
    PrivacyLedger S;
    for (int i = 0; i < 100; ++i) S.charge(PrivacyLedger::kRoot, "laplace", 0.01, 1.0);
    S.charge_zcdp(PrivacyLedger::kRoot, "gaussian", 0.01, 1.0);
    CHECK(S.rho_equivalent() == doctest::Approx(0.015));
    CHECK(S.epsilon_for(1e-6) == doctest::Approx(dpf::zcdp_to_epsilon(0.015, 1e-6)).epsilon(1e-9));
    CHECK(S.epsilon_for(1e-6) < 1.0);
  }

  TEST_CASE("absorb carries zCDP charges") {
    PrivacyLedger tree;
    tree.charge(PrivacyLedger::kRoot, "em", 0.2, 1.0);
    tree.charge_zcdp(PrivacyLedger::kRoot, "gaussian", 0.05, 1.0);
    PrivacyLedger forest, direct;
    for (int i = 0; i < 3; ++i) {
      forest.absorb(PrivacyLedger::kRoot, tree);
      const auto s = direct.open_scope(PrivacyLedger::kRoot, Composition::kSequential);
      direct.charge(s, "em", 0.2, 1.0);
      direct.charge_zcdp(s, "gaussian", 0.05, 1.0);
    }
    CHECK(forest.n_zcdp_charges() == 3);
    CHECK(forest.rho_spent() == doctest::Approx(0.15));
    CHECK(forest.spent() == doctest::Approx(0.6));
    CHECK(forest.epsilon_for(1e-6) == direct.epsilon_for(1e-6));
    CHECK(forest.summary() == direct.summary());
  }
}
