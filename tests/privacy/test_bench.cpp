// Per-draw timings of the samplers (privacy.md §7.7). Skipped by default; run with
//   ./test_privacy -ts=bench --no-skip
#include <doctest/doctest.h>

#include <chrono>
#include <vector>

#include "core/privacy/ledger.hpp"
#include "core/privacy/mechanisms.hpp"

namespace {
template <typename F>
double ns_per_call(std::size_t n, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < n; ++i) f();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / static_cast<double>(n);
}
volatile double g_sink = 0;
}  // namespace

TEST_SUITE("bench") {
  TEST_CASE("sampler timings" * doctest::skip()) {
    dpf::Rng r(1);
    const std::size_t n = 2000000;
    std::vector<double> s10(10), s100(100);
    for (double& v : s10) v = static_cast<double>(r.below(6));
    for (double& v : s100) v = static_cast<double>(r.below(6));
    const std::vector<double> breaks{0, .1, .15, .3, .5, .55, .9, 1}, scores{-6, -4, -2, 0, -2, -4, -6};
    MESSAGE("philox u64:        " << ns_per_call(n, [&] { g_sink = g_sink + static_cast<double>(r.next_u64()); }) << " ns");
    MESSAGE("laplace (secure):  " << ns_per_call(n, [&] { g_sink = g_sink + dpf::sample_laplace(r, 1.0); }) << " ns");
    MESSAGE("laplace_mechanism: " << ns_per_call(n, [&] { g_sink = g_sink + dpf::laplace_mechanism(r, 0.3, 1.0, 0.5); }) << " ns");
    MESSAGE("geometric l=1:     " << ns_per_call(n, [&] { g_sink = g_sink + static_cast<double>(dpf::sample_two_sided_geometric(r, 1.0)); }) << " ns");
    MESSAGE("EM k=10:           " << ns_per_call(n, [&] { g_sink = g_sink + static_cast<double>(dpf::exponential_mechanism(r, s10, 1.0, 1.0)); }) << " ns");
    MESSAGE("PF k=10:           " << ns_per_call(n, [&] { g_sink = g_sink + static_cast<double>(dpf::permute_and_flip(r, s10, 1.0, 1.0)); }) << " ns");
    MESSAGE("EM k=100:          " << ns_per_call(n / 4, [&] { g_sink = g_sink + static_cast<double>(dpf::exponential_mechanism(r, s100, 1.0, 1.0)); }) << " ns");
    MESSAGE("PF k=100:          " << ns_per_call(n / 4, [&] { g_sink = g_sink + static_cast<double>(dpf::permute_and_flip(r, s100, 1.0, 1.0)); }) << " ns");
    MESSAGE("interval EM m=7:   " << ns_per_call(n, [&] { g_sink = g_sink + dpf::interval_exponential_mechanism(r, breaks, scores, 1.0, 1.0).value; }) << " ns");
    MESSAGE("bernoulli_exp 1/2: " << ns_per_call(n, [&] { g_sink = g_sink + static_cast<double>(dpf::sample_bernoulli_exp(r, 1, 2)); }) << " ns");
    MESSAGE("disc. laplace t=10:" << ns_per_call(n, [&] { g_sink = g_sink + static_cast<double>(dpf::sample_discrete_laplace(r, 10)); }) << " ns");
    for (double s2 : {0.5, 10.3, 1e4, 0x1p48})
      MESSAGE("disc. gauss s2=" << s2 << ": " << ns_per_call(n / 4, [&] { g_sink = g_sink + static_cast<double>(dpf::sample_discrete_gaussian(r, s2)); }) << " ns");
    MESSAGE("gaussian_mechanism:" << ns_per_call(n / 4, [&] { g_sink = g_sink + dpf::gaussian_mechanism(r, 0.3, 1.0, 0.5); }) << " ns");
    dpf::PrivacyLedger L;
    const auto sc = L.open_scope(dpf::PrivacyLedger::kRoot, dpf::Composition::kSequential);
    MESSAGE("ledger charge:     " << ns_per_call(n, [&] { L.charge(sc, "laplace", 0.1, 1.0); }) << " ns");
    MESSAGE("ledger charge_zcdp:" << ns_per_call(n, [&] { L.charge_zcdp(sc, "gaussian", 0.01, 1.0); }) << " ns");
    MESSAGE("epsilon_for (" << L.n_scopes() << " scopes): " << ns_per_call(10, [&] { g_sink = g_sink + L.epsilon_for(1e-6); }) << " ns");
  }
}
