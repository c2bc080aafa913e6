// Papernot & Steinke 2022 Thm 2 (eta = 1) as core/privacy/rdp.hpp implements it: the overhead of
// random stopping checked against a hand computation, the summand curve kept as given, and the ledger
// composing candidate and overhead to Thm 2's eps' at every integer order.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "core/privacy/ledger.hpp"
#include "core/privacy/rdp.hpp"
#include "core/util/error.hpp"

namespace dpf {
namespace {

// A mu-GDP candidate (mu = 1): (alpha, alpha / 2)-RDP at every order.
RdpCurve half_alpha() {
  std::vector<double> v;
  for (int a = kRdpMinOrder; a <= kRdpMaxOrder; ++a) v.push_back(a / 2.0);
  return RdpCurve(std::move(v));
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("random stopping: the overhead matches a hand computation of Papernot & Steinke Thm 2 (eta = 1)") {
    // c = min over lambda_hat of 2 (1 - 1/lh) (lh / 2) + 2 ln(10) / lh = (lh - 1) + 2 ln(10) / lh:
    // lh = 2 gives 1 + ln 10 = 3.3026, lh = 3 gives 2 + 2 ln(10) / 3 = 3.5351, larger lh more.
    const RandomStoppingOverhead o = random_stopping_overhead(half_alpha(), 0.1);
    CHECK(o.lambda_hat == 2);
    CHECK(o.constant == doctest::Approx(1.0 + std::log(10.0)).epsilon(1e-14));
    // At lambda = 5: c + ln(10) / 4 = 1 + 1.25 ln 10 = 3.878231...
    CHECK(o.curve->at(5) == doctest::Approx(1.0 + 1.25 * std::log(10.0)).epsilon(1e-14));
    CHECK(o.curve->at(5) == doctest::Approx(3.8782313).epsilon(1e-7));
    // The summand is not tightened to a suffix minimum: it decreases in lambda.
    CHECK(o.curve->at(2) > o.curve->at(kRdpMaxOrder));
    CHECK(o.curve->at(2) == doctest::Approx(1.0 + 2.0 * std::log(10.0)));
    // gamma = 1: one run, no overhead.
    const RandomStoppingOverhead one = random_stopping_overhead(half_alpha(), 1.0);
    CHECK(one.constant == 0.0);
    CHECK(one.curve->at(3) == 0.0);
    CHECK_THROWS_AS(random_stopping_overhead(half_alpha(), 0.0), Error);
    CHECK_THROWS_AS(random_stopping_overhead(RdpCurve(std::vector<double>(kRdpMaxOrder - 1, INFINITY)), 0.5), Error);
  }

  TEST_CASE("random stopping: the ledger composes candidate + overhead to Thm 2's eps' and converts it") {
    auto q = std::make_shared<const RdpCurve>(half_alpha());
    const RandomStoppingOverhead o = random_stopping_overhead(*q, 0.1);
    PrivacyLedger l;
    const auto s = l.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "selection");
    l.charge_rdp(s, "candidate", q, 1.0);
    l.charge_rdp(s, "overhead", o.curve, 1.0);
    for (int lambda : {2, 5, 40, 2000})
      CHECK(l.rdp_at(lambda) == doctest::Approx(lambda / 2.0 + 1.0 + std::log(10.0) + std::log(10.0) / (lambda - 1.0)));
    // The conversion is at least the best integer order's (CKS20 Prop. 12) and the shares add up.
    const double eps = l.epsilon_for(1e-6);
    CHECK(eps <= rdp_best_epsilon([&](int a) { return l.rdp_at(a); }, 1e-6).epsilon + 1e-12);
    double total = 0.0;
    for (const auto& sh : l.breakdown(1e-6)) {
      CHECK(sh.epsilon > 0.0);
      total += sh.epsilon;
    }
    CHECK(total == doctest::Approx(eps));
    // An approximate-DP charge has no Renyi bound.
    PrivacyLedger a;
    a.charge_approx(PrivacyLedger::kRoot, "gshm", 1.0, 1e-7, 1.0);
    CHECK_THROWS_WITH_AS(a.rdp_at(2), doctest::Contains("no Renyi-DP bound"), Error);
  }
}

}  // namespace dpf
