// Rényi-DP charges in the PrivacyLedger (charge_rdp): composition through the scope tree, with pure
// charges, conversion to (epsilon, delta), absorb, and the checks S-BDT's fits rely on.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

#include "core/privacy/ledger.hpp"
#include "core/privacy/rdp.hpp"
#include "core/util/error.hpp"

using dpf::Composition;
using dpf::PrivacyLedger;
using dpf::RdpCurve;

TEST_SUITE("unit") {
  TEST_CASE("ledger RDP charges: T rounds of a calibrated SGM meet the target exactly") {
    const double delta = 5e-8;
    const dpf::SgmCalibration cal = dpf::calibrate_subsampled_gaussian(0.01, 1.0, 50, 0.01, delta);
    const auto curve = std::make_shared<const RdpCurve>(cal.per_round);
    PrivacyLedger ledger;
    const auto fit = ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "rounds");
    for (int t = 0; t < 50; ++t) ledger.charge_rdp(fit, "gaussian-leaves", curve, 1.0);
    CHECK(ledger.has_rdp());
    CHECK(ledger.n_charges() == 50);
    CHECK(ledger.epsilon_for(delta) == doctest::Approx(cal.epsilon).epsilon(1e-12));
    CHECK(ledger.epsilon_for(delta) <= 0.01);
    CHECK_NOTHROW(ledger.check_within(0.01, delta, "sbdt"));
    CHECK_THROWS_AS(ledger.check_within(0.0099, delta, "sbdt"), dpf::Error);
    // A pure-epsilon budget cannot cover RDP charges.
    CHECK_THROWS_AS(ledger.check_within(1.0, "sbdt"), dpf::Error);
    CHECK(ledger.summary().find("gaussian-leaves: calls=50 renyi") != std::string::npos);
    // Larger delta, smaller epsilon; invalid delta rejected.
    CHECK(ledger.epsilon_for(1e-5) < ledger.epsilon_for(delta));
    CHECK_THROWS_AS(ledger.epsilon_for(0.0), dpf::Error);
    CHECK_THROWS_AS(ledger.charge_rdp(fit, "x", nullptr, 1.0), dpf::Error);
    CHECK_THROWS_AS(ledger.charge_rdp(99, "x", curve, 1.0), dpf::Error);
  }

  TEST_CASE("ledger RDP charges: parallel scopes take the max, sequential ones add, pure charges compose in RDP") {
    const double delta = 1e-6;
    const auto a = std::make_shared<const RdpCurve>(RdpCurve::subsampled_gaussian(0.1, 1.0 / (20.0 * 20.0)));
    const auto b = std::make_shared<const RdpCurve>(RdpCurve::subsampled_gaussian(0.1, 1.0 / (30.0 * 30.0)));
    PrivacyLedger par;
    const auto p = par.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "disjoint");
    const auto p1 = par.open_scope(p, Composition::kSequential, "part 1");
    const auto p2 = par.open_scope(p, Composition::kSequential, "part 2");
    for (int t = 0; t < 30; ++t) par.charge_rdp(p1, "leaves", a, 1.0);
    for (int t = 0; t < 30; ++t) par.charge_rdp(p2, "leaves", b, 1.0);
    const double alone = dpf::rdp_best_epsilon([&](int k) { return 30 * a->at(k); }, delta).epsilon;
    CHECK(par.epsilon_for(delta) == doctest::Approx(alone).epsilon(1e-12));
    PrivacyLedger seq;
    for (int t = 0; t < 30; ++t) seq.charge_rdp(PrivacyLedger::kRoot, "leaves", a, 1.0);
    for (int t = 0; t < 30; ++t) seq.charge_rdp(PrivacyLedger::kRoot, "leaves", b, 1.0);
    const double both = dpf::rdp_best_epsilon([&](int k) { return 30 * (a->at(k) + b->at(k)); }, delta).epsilon;
    CHECK(seq.epsilon_for(delta) == doctest::Approx(both).epsilon(1e-12));
    // A pure epsilon_0 charge adds at most epsilon_0 (at the leaves' best order it adds min(e0, alpha e0^2/2)).
    PrivacyLedger mixed;
    for (int t = 0; t < 30; ++t) mixed.charge_rdp(PrivacyLedger::kRoot, "leaves", a, 1.0);
    mixed.charge(PrivacyLedger::kRoot, "init-score", 0.05, 1.0);
    CHECK(mixed.epsilon_for(delta) <= alone + 0.05);
    CHECK(mixed.epsilon_for(delta) > alone);
    CHECK(mixed.spent() == doctest::Approx(0.05));  // the pure part alone
  }

  TEST_CASE("ledger RDP charges: a single-order curve (Rényi filter budget) converts at its order") {
    const double delta = 5e-8;
    PrivacyLedger ledger;
    ledger.charge_rdp(PrivacyLedger::kRoot, "filtered-leaves", std::make_shared<const RdpCurve>(RdpCurve::single_order(51, 0.2615)), 1.0);
    CHECK(ledger.epsilon_for(delta) == doctest::Approx(dpf::rdp_epsilon_cks(0.2615, 51, delta)).epsilon(1e-12));
  }

  TEST_CASE("ledger RDP charges: absorb equals charging in place, multiplicities are kept") {
    const double delta = 1e-6;
    const auto c = std::make_shared<const RdpCurve>(RdpCurve::subsampled_gaussian(0.05, 0.01));
    PrivacyLedger direct;
    const auto s = direct.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "fit");
    for (int t = 0; t < 7; ++t) direct.charge_rdp(s, "leaves", c, 1.0, t != 3);
    PrivacyLedger part;
    for (int t = 0; t < 7; ++t) part.charge_rdp(PrivacyLedger::kRoot, "leaves", c, 1.0, t != 3);
    PrivacyLedger host;
    const auto h = host.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "fit");
    host.absorb(h, part);
    CHECK(host.n_charges() == 7);
    CHECK(host.has_rdp());
    CHECK_FALSE(host.certified());
    CHECK(host.epsilon_for(delta) == doctest::Approx(direct.epsilon_for(delta)).epsilon(1e-14));
    CHECK(host.epsilon_for(delta) ==
          doctest::Approx(dpf::rdp_best_epsilon([&](int k) { return 7 * c->at(k); }, delta).epsilon).epsilon(1e-12));
  }

  TEST_CASE("ledger RDP charges: approximate-DP charges add by basic composition") {
    const auto c = std::make_shared<const RdpCurve>(RdpCurve::subsampled_gaussian(1.0, 0.001));
    PrivacyLedger ledger;
    ledger.charge_rdp(PrivacyLedger::kRoot, "leaves", c, 1.0);
    ledger.charge_approx(PrivacyLedger::kRoot, "gshm", 0.3, 1e-7, 1.0);
    const double rest = dpf::rdp_best_epsilon([&](int k) { return c->at(k); }, 1e-6 - 1e-7).epsilon;
    CHECK(ledger.epsilon_for(1e-6) <= 0.3 + rest + 1e-12);
    CHECK_THROWS_AS(ledger.epsilon_for(1e-7), dpf::Error);
  }
}
