// Lumberjack's pruning calibration made exact for the noise it draws (calibration.hpp
// gshm_delta_discrete; docs/lumberjack-calibration.md): the code's continuous calibration spends more
// than delta_s under discrete noise in three of four settings, the exact calibration holds delta_s in
// all four, the GSHM formula equals a brute-force divergence of the sparse-histogram release, and the
// exact diagnostic column lumberjack_heavy_queries is documented as such.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/lumberjack/calibration.hpp"
#include "core/privacy/discrete_gaussian_profile.hpp"
#include "core/privacy/mechanisms.hpp"
#include "datasets/registry.hpp"

using namespace dpf;
namespace lj = dpf::lumberjack;

namespace {

// The sparse-histogram release of k = 2 counts touched by one record, brute force: `appear` counts go
// 0 -> 1 (released as 1 + Z when 1 + Z >= T, else nothing), the others c -> c + 1 with c large
// (released as c + Z: the threshold never binds, the worst case). Returns the hockey-stick
// divergence at eps, the larger of the two directions.
double brute_gshm(double eps, double s2, double T, int appear) {
  const int B = static_cast<int>(std::ceil(12.0 * std::sqrt(s2))) + 3;
  // One coordinate as outcomes with (probability on D, probability on D'); outcome 0 = nothing.
  auto coordinate = [&](bool appearing) {
    std::vector<std::pair<double, double>> o;
    if (appearing) {
      double pass = 0.0;
      for (int y = static_cast<int>(T); y <= static_cast<int>(T) + B; ++y) pass += discrete_gaussian_pmf(y - 1, s2);
      o.emplace_back(1.0, 1.0 - pass);
      for (int y = static_cast<int>(T); y <= static_cast<int>(T) + B; ++y) o.emplace_back(0.0, discrete_gaussian_pmf(y - 1, s2));
    } else {
      for (int y = -B; y <= B + 1; ++y) o.emplace_back(discrete_gaussian_pmf(y, s2), discrete_gaussian_pmf(y - 1, s2));
    }
    return o;
  };
  const auto a = coordinate(appear >= 1), b = coordinate(appear >= 2);
  const double e = std::exp(eps);
  double d_over = 0.0, d_under = 0.0;
  for (const auto& [a0, a1] : a)
    for (const auto& [b0, b1] : b) {
      d_over += std::max(0.0, a1 * b1 - e * a0 * b0);   // D' over D
      d_under += std::max(0.0, a0 * b0 - e * a1 * b1);  // D over D'
    }
  return std::max(d_over, d_under);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("lumberjack §3.2: the continuous calibration overspends delta_s under discrete noise; the exact one holds it") {
    // T = 1, f = 0.7, delta = 1e-6 (delta_s = 7e-7). The code's sigma_min = sqrt(k) / mu passes the
    // code's continuous check, but the k moving counts alone (i = 0) spend, under N_Z noise:
    struct Row {
      double eps;
      int h;
      double old_delta;  // exact discrete profile of k shift-1 coordinates at sigma_min
    };
    for (const Row& r : {Row{4, 90, 6.902e-7}, Row{10, 90, 7.194e-7}, Row{12, 3, 9.176e-7}, Row{16, 3, 1.0585e-6}}) {
      CAPTURE(r.eps);
      const lj::Budget b = lj::plan_budget(r.eps, 1e-6, 0.7, 1, r.h);
      const double es = b.epsilon_split, ds = b.delta_split;
      const double old_sigma = std::sqrt(static_cast<double>(b.k)) / b.gshm.mu;
      // The code's choice: the first grid candidate, which its continuous check accepts.
      REQUIRE(b.gshm.candidates.front().sigma == doctest::Approx(old_sigma).epsilon(1e-14));
      CHECK(b.gshm.candidates.front().valid_continuous);
      CHECK(lj::gshm_delta(es, old_sigma, b.gshm.candidates.front().tau, b.k) <= ds * (1 + 1e-9));
      DiscreteGaussianProfile before(lj::pruning_sigma2(old_sigma));
      CHECK(before.delta(es, b.k).hi == doctest::Approx(r.old_delta).epsilon(1e-3));
      // The chosen sigma holds delta_s for the moving counts and for the whole GSHM analysis.
      DiscreteGaussianProfile now(lj::pruning_sigma2(b.gshm.sigma));
      CHECK(now.delta(es, b.k).hi <= ds);
      CHECK(lj::gshm_delta_discrete(es, lj::pruning_sigma2(b.gshm.sigma), lj::integer_threshold(b.gshm.tau), b.k).delta <= ds);
      CHECK(b.gshm.valid);
      CHECK(b.gshm.delta_exact <= ds);
      CHECK(b.gshm.sigma >= old_sigma);
      CHECK(b.gshm.sigma <= old_sigma * 1.01);  // bisection, not the next 5 % grid step
      CHECK(b.gshm.refined == (r.old_delta > ds));
      MESSAGE("eps ", r.eps, " h ", r.h, ": sigma ", old_sigma, " -> ", b.gshm.sigma, ", exact delta ",
              before.delta(es, b.k).hi, " -> ", b.gshm.delta_exact, " (delta_s ", ds, ")");
    }
  }

  TEST_CASE("lumberjack: gshm_delta_discrete equals a brute-force divergence of the sparse-histogram release (k = 2)") {
    for (const double sigma : {0.9, 1.5}) {
      for (const double T : {3.0, 5.0}) {
        for (const double eps : {0.5, 2.0}) {
          CAPTURE(sigma);
          CAPTURE(T);
          CAPTURE(eps);
          const double s2 = sigma * sigma;
          double brute = 0.0;
          for (int appear = 0; appear <= 2; ++appear) brute = std::max(brute, brute_gshm(eps, s2, T, appear));
          const lj::GshmExact g = lj::gshm_delta_discrete(eps, s2, T, 2);
          CHECK(g.delta >= brute * (1 - 1e-9));
          CHECK(g.delta <= brute * (1 + 1e-9));
        }
      }
    }
  }

  TEST_CASE("lumberjack: no valid pruning noise in the authors' range is refused with epsilon, k and the delta it would spend") {
    // At the default factor 2 no setting we scanned needs this; a grid capped at 1.001 sigma_min cannot
    // reach the valid sigma of eps 16, h 3 (0.4 % above sigma_min), so the calibration must refuse.
    const double es = 0.7 * 16, ds = 0.7e-6;
    CHECK_NOTHROW(lj::calibrate_gshm(es, ds, 3));
    CHECK_THROWS_WITH_AS(lj::calibrate_gshm(es, ds, 3, false, 1.001), doctest::Contains("(epsilon_s, delta_s) = (11.2, 7e-07) with k = 3"), Error);
    CHECK_THROWS_WITH_AS(lj::calibrate_gshm(es, ds, 3, false, 1.001), doctest::Contains("spends delta 1.05"), Error);
  }

  TEST_CASE("lumberjack_heavy_queries is exact (non-empty queried nodes) and documented among the exact diagnostics") {
    // D = {(0.1, 0)}, D' adds (0.9, 0); one tree of height 2 queries layer 1, where D has one non-empty
    // node and D' two unless the root's uniform threshold falls outside (0.1, 0.9): 1 vs 2 w.p. 0.8.
    Schema s;
    s.features.push_back(Feature{"x0", FeatureKind::kNumeric, 0.0, 1.0, {}});
    s.target.name = "y";
    s.target.task = TaskKind::kClassification;
    s.target.classes = {"0", "1"};
    Dataset d0("d0", s), d1("d1", s);
    const double a = 0.1, b = 0.9;
    d0.add_row(std::span<const double>(&a, 1), 0);
    d1.add_row(std::span<const double>(&a, 1), 0);
    d1.add_row(std::span<const double>(&b, 1), 0);
    const std::map<std::string, std::string> p{{"epsilon", "1"}, {"n_trees", "1"}, {"max_depth", "2"}};
    auto queries = [&](const Dataset& d, uint64_t seed) {
      const auto f = dpf::test::fit_registry("lumberjack", p, d, seed);
      for (const auto& [k, v] : f.model->extra_columns())
        if (k == "lumberjack_heavy_queries") return std::stoi(v);
      return -1;
    };
    int two = 0;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
      CHECK(queries(d0, 100 + i) == 1);
      const int q = queries(d1, 100 + i);
      CHECK((q == 1 || q == 2));
      two += q == 2;
    }
    // Binomial(2000, 0.8): mean 1600, sd 17.9; |z| < 4.42 (false alarm 1e-5).
    CHECK(std::abs(two - 1600) < 4.42 * 17.9);
    // docs/privacy.md "Privacy labels" lists it with the exact diagnostic columns (item (a)).
    std::ifstream in(project_root() + "/docs/privacy.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string t = text.str();
    const auto from = t.find("## Privacy labels"), to = t.find("## Privacy audit");
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    const std::string section = t.substr(from, to - from);
    const auto item_a = section.find("(a) the diagnostic columns");
    REQUIRE(item_a != std::string::npos);
    CHECK(section.find("`lumberjack_heavy_queries`", item_a) < section.find("(b)", item_a));
  }
}
