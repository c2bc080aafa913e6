// PrivacyLedger composition accounting (design.md §4; privacy.md §6.5, §7.2 item 3, §7.6 M6 and M8).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "core/privacy/ledger.hpp"
#include "core/privacy/rdp.hpp"
#include "core/util/error.hpp"

using dpf::Composition;
using dpf::PrivacyLedger;

namespace {
// One tree of the given depth: each internal node charges its split in its own scope and opens a
// parallel scope for its two children (disjoint rows); each leaf charges its noise.
void grow(PrivacyLedger& L, PrivacyLedger::ScopeId scope, int depth, double eps_split, double eps_leaf) {
  if (depth == 0) {
    L.charge(scope, "laplace", eps_leaf, 1.0);
    return;
  }
  L.charge(scope, "interval_em", eps_split, 1.0);
  const auto kids = L.open_scope(scope, Composition::kParallel);
  for (int c = 0; c < 2; ++c) grow(L, L.open_scope(kids, Composition::kSequential), depth - 1, eps_split, eps_leaf);
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("empty ledger spends nothing") {
    PrivacyLedger L;
    CHECK(L.spent() == 0.0);
    CHECK(L.spent_conservative() == 0.0);
    CHECK(L.certified());
    CHECK(L.n_charges() == 0);
    CHECK(L.n_scopes() == 1);
    CHECK(L.summary().empty());
    CHECK_NOTHROW(L.check_within(0.0, "nothing"));
  }

  TEST_CASE("sequential scopes sum, parallel scopes take the max") {
    PrivacyLedger L;
    L.charge(PrivacyLedger::kRoot, "a", 0.25, 1.0);
    L.charge(PrivacyLedger::kRoot, "a", 0.5, 1.0);
    CHECK(L.spent() == doctest::Approx(0.75));
    const auto par = L.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "children");
    const auto l = L.open_scope(par, Composition::kSequential, "left");
    const auto r = L.open_scope(par, Composition::kSequential, "right");
    L.charge(l, "b", 0.3, 1.0);
    L.charge(l, "b", 0.2, 1.0);
    L.charge(r, "b", 0.4, 1.0);
    CHECK(L.spent(l) == doctest::Approx(0.5));
    CHECK(L.spent(par) == doctest::Approx(0.5));
    CHECK(L.spent() == doctest::Approx(1.25));
    CHECK(L.spent_conservative() == doctest::Approx(1.25));  // no claimed-parallel scopes
    // A parallel scope's own charges add to the max of its children.
    L.charge(par, "c", 0.1, 1.0);
    CHECK(L.spent(par) == doctest::Approx(0.6));
    CHECK(L.n_charges() == 6);
    CHECK(L.n_scopes() == 4);
  }

  TEST_CASE("parallel root: partitioned trees compose by max") {
    PrivacyLedger L(Composition::kParallel);
    for (int t = 0; t < 5; ++t) {
      const auto tree = L.open_scope(PrivacyLedger::kRoot, Composition::kSequential);
      L.charge(tree, "x", 0.1 * (t + 1), 1.0);
    }
    CHECK(L.spent() == doctest::Approx(0.5));
  }

  TEST_CASE("nested scopes compose along root-to-leaf paths") {
    // Depth-3 tree: path = 3 splits + 1 leaf, whatever the number of nodes.
    PrivacyLedger L;
    grow(L, PrivacyLedger::kRoot, 3, 0.1, 0.5);
    CHECK(L.spent() == doctest::Approx(0.8));
    CHECK(L.n_charges() == 7 + 8);
    // M6 (broken parallel composition) would sum the 8 leaves: make sure we do not.
    CHECK(L.spent() < 1.0);
  }

  TEST_CASE("claimed-parallel: claimed accounting takes the max, conservative the sum") {
    // DiPriMeExp/Flip node: K = 3 candidate medians (claimed one eps_s, dipreme.md §4 P1) plus the
    // attribute choice eps_a.
    PrivacyLedger L;
    const auto node = L.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "node");
    const auto cands = L.open_scope(node, Composition::kClaimedParallel, "candidates");
    for (int k = 0; k < 3; ++k) L.charge(L.open_scope(cands, Composition::kSequential), "interval_em", 0.2, 1.0);
    L.charge(node, "exponential", 0.3, 1.0);
    CHECK(L.spent() == doctest::Approx(0.5));
    CHECK(L.spent_conservative() == doctest::Approx(0.9));
    CHECK(L.spent(cands) == doctest::Approx(0.2));
    CHECK(L.spent_conservative(cands) == doctest::Approx(0.6));
    // Under a real parallel scope both accountings take the max.
    PrivacyLedger P(Composition::kParallel);
    const auto a = P.open_scope(PrivacyLedger::kRoot, Composition::kClaimedParallel);
    P.charge(P.open_scope(a, Composition::kSequential), "m", 1.0, 1.0);
    P.charge(P.open_scope(a, Composition::kSequential), "m", 1.0, 1.0);
    P.charge(P.open_scope(PrivacyLedger::kRoot, Composition::kSequential), "m", 1.5, 1.0);
    CHECK(P.spent() == doctest::Approx(1.5));
    CHECK(P.spent_conservative() == doctest::Approx(2.0));
  }

  TEST_CASE("an uncertified charge makes the ledger uncertified and is flagged in the summary") {
    PrivacyLedger L;
    L.charge(PrivacyLedger::kRoot, "laplace", 0.5, 1.0);
    CHECK(L.certified());
    const auto s = L.open_scope(PrivacyLedger::kRoot, Composition::kParallel);
    L.charge(L.open_scope(s, Composition::kSequential), "smooth_em", 0.5, 1.0, /*certified=*/false);
    CHECK_FALSE(L.certified());
    L.charge(PrivacyLedger::kRoot, "laplace", 0.5, 1.0);
    CHECK_FALSE(L.certified());  // stays uncertified
    const std::string sum = L.summary();
    CHECK(sum.find("laplace: calls=2 epsilon=1") != std::string::npos);
    CHECK(sum.find("smooth_em: calls=1 epsilon=0.5 (uncertified)") != std::string::npos);
    CHECK(sum.find("laplace: calls=2 epsilon=1 (uncertified)") == std::string::npos);
  }

  TEST_CASE("summary has one line per mechanism kind in order of first use") {
    PrivacyLedger L;
    std::string name = "dyn";
    L.charge(PrivacyLedger::kRoot, "b", 0.1, 1.0);
    L.charge(PrivacyLedger::kRoot, "a", 0.2, 1.0);
    L.charge(PrivacyLedger::kRoot, name.c_str(), 0.3, 1.0);
    L.charge(PrivacyLedger::kRoot, "b", 0.1, 1.0);
    L.charge(PrivacyLedger::kRoot, std::string("dyn").c_str(), 0.3, 1.0);  // same name, another pointer
    CHECK(L.summary() == "b: calls=2 epsilon=0.2\na: calls=1 epsilon=0.2\ndyn: calls=2 epsilon=0.6\n");
  }

  TEST_CASE("check_within tolerates float rounding only, and names the caller") {
    PrivacyLedger L;
    for (int i = 0; i < 10; ++i) L.charge(PrivacyLedger::kRoot, "x", 0.1, 1.0);  // sums to 0.9999999999999999
    CHECK_NOTHROW(L.check_within(1.0, "dipreme"));
    CHECK_NOTHROW(L.check_within(1.0 - 1e-10, "dipreme"));  // within the relative 1e-9
    CHECK_THROWS_AS(L.check_within(1.0 - 1e-8, "dipreme"), dpf::Error);
    try {
      L.check_within(0.5, "dipreme-exp fit");
      FAIL("no throw");
    } catch (const dpf::Error& e) {
      const std::string msg = e.what();
      CHECK(msg.find("dipreme-exp fit") != std::string::npos);
      CHECK(msg.find("0.5") != std::string::npos);
    }
    // M8: a ledger that drops a charge would pass; ours must not.
    PrivacyLedger M;
    M.charge(PrivacyLedger::kRoot, "split", 0.5, 1.0);
    M.charge(PrivacyLedger::kRoot, "leaf", 0.5, 1.0);
    M.charge(PrivacyLedger::kRoot, "attribute", 0.5, 1.0);
    CHECK_THROWS_AS(M.check_within(1.0, "mutant"), dpf::Error);
    // The claimed accounting is what check_within uses.
    PrivacyLedger C;
    const auto cp = C.open_scope(PrivacyLedger::kRoot, Composition::kClaimedParallel);
    for (int k = 0; k < 4; ++k) C.charge(C.open_scope(cp, Composition::kSequential), "m", 1.0, 1.0);
    CHECK_NOTHROW(C.check_within(1.0, "claimed"));
    CHECK_THROWS_AS(C.check_within(std::nan(""), "claimed"), dpf::Error);
  }

  TEST_CASE("ledger rejects bad charges and scopes") {
    PrivacyLedger L;
    const double inf = std::numeric_limits<double>::infinity();
    for (double e : {0.0, -1.0, std::nan(""), inf}) CHECK_THROWS_AS(L.charge(PrivacyLedger::kRoot, "m", e, 1.0), dpf::Error);
    for (double s : {0.0, -1.0, std::nan(""), inf}) CHECK_THROWS_AS(L.charge(PrivacyLedger::kRoot, "m", 1.0, s), dpf::Error);
    CHECK_THROWS_AS(L.charge(7, "m", 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(L.charge(-1, "m", 1.0, 1.0), dpf::Error);
    CHECK_THROWS_AS(L.open_scope(3, Composition::kParallel), dpf::Error);
    CHECK_THROWS_AS(L.spent(9), dpf::Error);
    CHECK_THROWS_AS(L.spent_conservative(-2), dpf::Error);
    CHECK(L.n_charges() == 0);
    CHECK(L.spent() == 0.0);
    try {
      L.charge(PrivacyLedger::kRoot, "leaf_laplace", -1.0, 1.0);
    } catch (const dpf::Error& e) {
      CHECK(std::string(e.what()).find("leaf_laplace") != std::string::npos);
    }
  }

  TEST_CASE("a forest of 10 trees x 2^10 nodes is cheap and composes exactly") {
    // Trees share rows (sequential root); within a tree: depth 10 path = 10 splits + 1 leaf.
    const auto t0 = std::chrono::steady_clock::now();
    PrivacyLedger L;
    for (int t = 0; t < 10; ++t) grow(L, L.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "tree"), 10, 0.01, 0.1);
    const double spent = L.spent();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(spent == doctest::Approx(10 * (10 * 0.01 + 0.1)));
    CHECK(L.spent_conservative() == doctest::Approx(spent));
    CHECK(L.n_charges() == 10 * (1023 + 1024));
    MESSAGE("10 trees x 2^11-1 nodes: " << L.n_scopes() << " scopes, " << L.n_charges() << " charges, " << secs * 1e3
                                        << " ms including spent()");
    CHECK(secs < 1.0);  // generous: a few ms expected
  }

  TEST_CASE("breakdown: each kind's share of the composed total, parallel scopes keep the heaviest child") {
    // A sum of each kind over its calls (the old per-kind tally) would give a = 1, b = 0.6, c = 0.1:
    // 1.7 in all, for a fit that composes to 1.1.
    PrivacyLedger L;
    L.charge(PrivacyLedger::kRoot, "c", 0.1, 1.0);
    const auto par = L.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "children");
    L.charge(L.open_scope(par, Composition::kSequential), "a", 1.0, 1.0);
    L.charge(L.open_scope(par, Composition::kSequential), "b", 0.6, 1.0);
    const auto shares = L.breakdown();
    REQUIRE(shares.size() == 3);
    CHECK(shares[0].mechanism == "c");
    CHECK(shares[0].epsilon == doctest::Approx(0.1));
    CHECK(shares[1].mechanism == "a");
    CHECK(shares[1].epsilon == doctest::Approx(1.0));
    CHECK(shares[2].mechanism == "b");
    CHECK(shares[2].epsilon == 0.0);
    CHECK(shares[2].calls == 1);
    CHECK(shares[0].epsilon + shares[1].epsilon + shares[2].epsilon == doctest::Approx(L.spent()));
  }

  TEST_CASE("breakdown of trees: splits and leaves along a root-to-leaf path, summed over trees") {
    PrivacyLedger L;
    for (int t = 0; t < 3; ++t) grow(L, L.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "tree"), 4, 0.01, 0.1);
    const auto shares = L.breakdown();
    REQUIRE(shares.size() == 2);
    CHECK(shares[0].mechanism == "interval_em");
    CHECK(shares[0].epsilon == doctest::Approx(3 * 4 * 0.01));
    CHECK(shares[0].calls == 3 * 15);
    CHECK(shares[1].mechanism == "laplace");
    CHECK(shares[1].epsilon == doctest::Approx(3 * 0.1));
    CHECK(shares[0].epsilon + shares[1].epsilon == doctest::Approx(L.spent()));
  }

  TEST_CASE("breakdown after absorb maps the absorbed ledger's kinds by name") {
    PrivacyLedger L(Composition::kParallel);
    L.charge(PrivacyLedger::kRoot, "a", 0.2, 1.0);
    PrivacyLedger other;
    other.charge(PrivacyLedger::kRoot, "b", 0.5, 1.0);
    other.charge(PrivacyLedger::kRoot, "a", 0.25, 1.0);
    L.absorb(PrivacyLedger::kRoot, other);
    const auto shares = L.breakdown();
    REQUIRE(shares.size() == 2);
    CHECK(shares[0].mechanism == "a");
    CHECK(shares[0].epsilon == doctest::Approx(0.45));
    CHECK(shares[1].mechanism == "b");
    CHECK(shares[1].epsilon == doctest::Approx(0.5));
    CHECK(shares[0].epsilon + shares[1].epsilon == doctest::Approx(L.spent()));
  }

  TEST_CASE("breakdown of an (epsilon, delta) ledger adds up to epsilon_for(delta)") {
    // Lumberjack's shape: one approximate-DP charge for the forest, one zCDP charge per tree.
    PrivacyLedger L;
    const auto forest = L.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "forest");
    L.charge_approx(forest, "gshm", 0.7, 7e-7, 1.0);
    for (int t = 0; t < 5; ++t) L.charge_zcdp(L.open_scope(forest, Composition::kSequential), "leaves", 0.001, 1.0);
    const double delta = 1e-6;
    const auto shares = L.breakdown(delta);
    REQUIRE(shares.size() == 2);
    CHECK(shares[0].epsilon == doctest::Approx(0.7));
    CHECK(shares[0].delta == doctest::Approx(7e-7));
    CHECK(shares[1].rho == doctest::Approx(0.005));
    CHECK(shares[1].epsilon == doctest::Approx(dpf::zcdp_to_epsilon(0.005, delta - 7e-7)).epsilon(1e-6));
    CHECK(shares[0].epsilon + shares[1].epsilon == doctest::Approx(L.epsilon_for(delta)));
  }

  TEST_CASE("breakdown of a GDP ledger splits the exact conversion by mu^2 shares") {
    PrivacyLedger L;
    L.charge_gdp(PrivacyLedger::kRoot, "binning", 0.3, 1.0);
    const auto rounds = L.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "rounds");
    for (int r = 0; r < 4; ++r) L.charge_gdp(rounds, "boosting", 0.2, 1.0);
    const double delta = 1e-6;
    const auto shares = L.breakdown(delta);
    REQUIRE(shares.size() == 2);
    CHECK(shares[0].mu == doctest::Approx(0.3));
    CHECK(shares[1].mu == doctest::Approx(0.4));  // sqrt(4 x 0.2^2)
    const double total = L.epsilon_for(delta);
    CHECK(shares[0].epsilon + shares[1].epsilon == doctest::Approx(total));
    CHECK(shares[0].epsilon == doctest::Approx(total * 0.09 / 0.25));
  }

  TEST_CASE("breakdown of a Renyi-DP ledger adds up to epsilon_for(delta)") {
    PrivacyLedger L;
    const auto curve = std::make_shared<const dpf::RdpCurve>(dpf::RdpCurve::subsampled_gaussian(0.1, 0.5));
    const auto rounds = L.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "rounds");
    for (int r = 0; r < 20; ++r) L.charge_rdp(rounds, "leaves", curve, 1.0);
    L.charge(PrivacyLedger::kRoot, "init", 0.05, 1.0);
    const double delta = 1e-6;
    const auto shares = L.breakdown(delta);
    REQUIRE(shares.size() == 2);
    CHECK(shares[0].mechanism == "leaves");
    CHECK(shares[0].epsilon > shares[1].epsilon);
    CHECK(shares[1].epsilon > 0.0);
    CHECK(shares[0].epsilon + shares[1].epsilon == doctest::Approx(L.epsilon_for(delta)));
  }
}
