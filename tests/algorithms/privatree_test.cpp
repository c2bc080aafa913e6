// privatree (algorithms/privatree, privatree.md): the budget split of §3, the ledger, the complete
// tree on public bins, the mechanisms' distributions on tiny data, the strict utility's sensitivity,
// thread invariance, a sanity accuracy and the parameter checks.
#include <cmath>
#include <sstream>

#include "algo_fixtures.hpp"
#include "algorithms/privatree/bins.hpp"
#include "algorithms/privatree/privatree.hpp"
#include "core/privacy/mechanisms.hpp"

namespace dpf::test {
namespace {

// The epsilon the ledger summary reports for one mechanism kind (0 if absent).
double summary_epsilon(const std::string& summary, const std::string& mechanism) {
  std::istringstream in(summary);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(mechanism + ":", 0) == 0) return std::stod(line.substr(line.find("epsilon=") + 8));
  return 0.0;
}

// n (1 - Gini) of one side from its class counts (the strict utility's per-side term).
double side_q(const std::vector<double>& c) {
  double n = 0, s = 0;
  for (double v : c) { n += v; s += v * v; }
  return n > 0 ? s / n : 0.0;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("privatree: E_K, the worst-case expected error of permute-and-flip (privatree.md §3 step 1)") {
    CHECK(privatree_worst_expected_error(1) == doctest::Approx(0.0));
    // K = 2: 2 ln(1/p) (1 - (2p - p^2) / (2p)) = p ln(1/p), maximal at p = 1/e.
    CHECK(privatree_worst_expected_error(2) == doctest::Approx(std::exp(-1.0)).epsilon(1e-10));
    CHECK(privatree_worst_expected_error(3) > privatree_worst_expected_error(2));
    CHECK(std::isfinite(privatree_worst_expected_error(100)));
  }

  TEST_CASE("privatree: the ledger composes to epsilon, split between levels and leaves as §3 gives") {
    const double e2 = std::exp(-1.0);
    for (std::size_t n : {std::size_t{40}, std::size_t{3000}}) {
      const Dataset d = synthetic(n, TaskKind::kClassification, 5);
      for (int depth : {1, 3, 4}) {
        CAPTURE(n);
        CAPTURE(depth);
        Fitted f = fit_registry("privatree", {{"epsilon", "0.9"}, {"max_depth", std::to_string(depth)}}, d);
        CHECK(f.ledger.spent() == doctest::Approx(0.9).epsilon(1e-12));
        CHECK(f.ledger.spent_conservative() == doctest::Approx(0.9).epsilon(1e-12));
        CHECK(!f.ledger.certified());  // the noisy-n Gini sensitivity is charged as uncertified
        // ε_leaf = min(0.5 ε, E_2 2^d / (n (1 - 0.99))); the summary sums it over the 2^d leaves.
        const double leaves = std::ldexp(1.0, depth);
        const double eps_leaf = std::min(0.45, e2 * leaves / (static_cast<double>(n) * 0.01));
        const std::string summary = f.ledger.summary();
        CHECK(summary_epsilon(summary, "permute-and-flip (leaf)") == doctest::Approx(leaves * eps_leaf).epsilon(1e-9));
        // Each level: ε_node / 2 for ñ and ε_node / 2 for the split, at 2^l nodes of level l.
        const double eps_node = (0.9 - eps_leaf) / depth;
        CHECK(summary_epsilon(summary, "geometric-n (split sensitivity)") ==
              doctest::Approx((leaves - 1) * eps_node / 2).epsilon(1e-9));
      }
    }
    // Strict: 5 % of ε buys ñ; the rest is split the same way; every charge is certified.
    const Dataset d = synthetic(3000, TaskKind::kClassification, 5);
    Fitted f = fit_registry("privatree", {{"epsilon", "0.9"}, {"max_depth", "4"}, {"strict", "true"}}, d);
    CHECK(f.ledger.spent() == doctest::Approx(0.9).epsilon(1e-12));
    CHECK(f.ledger.certified());
    CHECK(summary_epsilon(f.ledger.summary(), "laplace-n (depth rule)") == doctest::Approx(0.045));
    CHECK(find_algorithm("privatree").privacy_status(f.params, TaskKind::kClassification) == "epsilon-DP");
  }

  TEST_CASE("privatree: a complete tree whose thresholds are the public bin edges") {
    const Dataset d = synthetic(500, TaskKind::kClassification, 6);
    for (const char* strict : {"false", "true"}) {
      Fitted f = fit_registry("privatree", {{"max_depth", "4"}, {"strict", strict}}, d);
      REQUIRE(f.forest()->trees().size() == 1);
      const Tree& t = f.forest()->trees()[0];
      CHECK(t.nodes().size() == 31);
      CHECK(t.n_leaves() == 16);
      for (const Node& n : t.nodes()) {
        if (n.kind == SplitKind::kLeaf) {
          auto v = t.leaf_value(n.leaf);
          CHECK(v[0] + v[1] == 1.0);
          continue;
        }
        if (n.feature == 4) {  // categorical: codes <= b go left
          CHECK(n.threshold - std::floor(n.threshold) == 0.5);
          continue;
        }
        // numerical on [0, 1], 10 bins: nextafter(k / 10) for k = 1..9, or everything left (k = 10).
        bool edge = n.threshold == std::numeric_limits<double>::max();
        for (int k = 1; k <= 9; ++k)
          edge = edge || n.threshold == std::nextafter(k * 0.1, 2.0);
        CHECK_MESSAGE(edge, n.threshold);
      }
    }
  }

  TEST_CASE("privatree: the strict utility n (1 - Gini) has add/remove sensitivity at most 1") {
    // Exhaustive over small side histograms (3 classes, up to 6 rows a side): adding one row of any
    // class to either side moves Q = q(left) + q(right) by a value in (-1, 1].
    double worst_up = 0, worst_down = 0;
    for (int a = 0; a <= 6; ++a)
      for (int b = 0; b <= 6; ++b)
        for (int c = 0; c <= 6; ++c)
          for (int k = 0; k < 3; ++k) {
            std::vector<double> side{double(a), double(b), double(c)};
            const double before = side_q(side);
            side[static_cast<std::size_t>(k)] += 1;
            const double change = side_q(side) - before;
            worst_up = std::max(worst_up, change);
            worst_down = std::min(worst_down, change);
          }
    CHECK(worst_up <= 1.0 + 1e-12);
    CHECK(worst_down > -1.0);
    // And the published Δ(n) = 1 - (n/(n+1))² - (1/(n+1))² bounds the Gini's true sensitivity 1/(n+1) at
    // the exact n, but not at a noisy size above about 2n + 1 (the reason for the published label).
    for (double n = 1; n <= 50; ++n) {
      auto delta = [](double m) { return 1 - (m / (m + 1)) * (m / (m + 1)) - (1 / (m + 1)) * (1 / (m + 1)); };
      CHECK(delta(n) >= 1 / (n + 1) - 1e-15);
      CHECK(delta(2 * n + 2) < 1 / (n + 1));
    }
  }

  TEST_CASE("privatree: same describe() and ledger with 1 and 2 threads") {
    const Dataset d = synthetic(300, TaskKind::kClassification, 4);
    const std::vector<uint32_t> rows = all_rows(300);
    for (const char* strict : {"false", "true"}) {
      Fitted one = fit_registry("privatree", {{"strict", strict}, {"max_depth", "4"}}, d, rows, 21, 1);
      Fitted two = fit_registry("privatree", {{"strict", strict}, {"max_depth", "4"}}, d, rows, 21, 2);
      CHECK(one.model->describe() == two.model->describe());
      CHECK(one.model->released() == two.model->released());
      CHECK(one.ledger.spent() == two.ledger.spent());
    }
  }

  TEST_CASE("privatree: bad parameters and regression are rejected") {
    const AlgorithmInfo& a = find_algorithm("privatree");
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"epsilon", "0"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"max_depth", "0"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"max_bins", "1"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"max_bins", "256"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"leaf_label_success_prob", "0"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"max_leaf_epsilon_share", "0"}}, "t"), Error);
    CHECK_THROWS_AS(resolve_params(a.name, a.params, {{"n_trees", "3"}}, "t"), Error);  // a single tree
    const Params p1 = resolve_params(a.name, a.params, {{"leaf_label_success_prob", "1"}}, "t");
    CHECK_THROWS_AS(a.make(p1, synthetic(10, TaskKind::kClassification).schema()), Error);
    CHECK(!a.supports(TaskKind::kRegression));
    CHECK_THROWS_AS(fit_registry("privatree", {}, synthetic(50, TaskKind::kRegression, 1)), Error);
    const Params p = resolve_params(a.name, a.params, {}, "t");
    CHECK(p.get_int("max_depth") == 3);
    CHECK(p.get_int("max_bins") == 10);
    CHECK(a.privacy_status(p, TaskKind::kClassification).rfind("published, not epsilon-DP: ", 0) == 0);
  }

  TEST_CASE("privatree: at epsilon = 10 the tree clearly beats the majority class") {
    const Dataset d = synthetic(4000, TaskKind::kClassification, 12);
    std::vector<uint32_t> train, test;
    for (uint32_t i = 0; i < 4000; ++i) (i % 4 == 0 ? test : train).push_back(i);
    double majority = 0;
    for (uint32_t r : test) majority += d.label(r);
    majority = std::max(majority, static_cast<double>(test.size()) - majority) / static_cast<double>(test.size());
    for (const char* strict : {"false", "true"}) {
      Fitted f = fit_registry("privatree", {{"epsilon", "10"}, {"max_depth", "4"}, {"strict", strict}}, d, train, 3);
      const Predictions p = f.model->predict(d, test);
      double ok = 0;
      for (std::size_t i = 0; i < test.size(); ++i) ok += p.label[i] == d.label(test[i]);
      const double acc = ok / static_cast<double>(test.size());
      MESSAGE("privatree strict=", std::string(strict), " accuracy ", acc, " vs majority ", majority);
      CHECK(acc > majority + 0.2);
    }
  }
}

TEST_SUITE("unit") {
  TEST_CASE("privatree bins: uniform edges are numpy linspace, quantile edges numpy's linear-interpolation quantiles") {
    std::vector<std::pair<double, int>> r;
    for (int i = 0; i < 10; ++i) r.push_back({i / 10.0, i % 2});
    const Dataset d = one_feature(r);
    const std::vector<uint32_t> rows = all_rows(10);
    const PrivaTreeBins u = privatree_bins(d, rows, 4, PrivaTreeEdges::kUniform);
    CHECK(u.edges[0] == std::vector<double>{0.25, 0.5, 0.75, 1.0});
    // x = 0.5 sits on an edge: digitize(right = True) puts it in bin 1 (0.25 < x <= 0.5).
    CHECK(u.bins[0][5] == 1);
    CHECK(u.bins[0][0] == 0);
    // np.quantile(0, .1, ..., .9; q = .25, .5, .75) = .225, .45, .675, then the public hi.
    const PrivaTreeBins q = privatree_bins(d, rows, 4, PrivaTreeEdges::kExactQuantiles);
    REQUIRE(q.edges[0].size() == 4);
    CHECK(q.edges[0][0] == doctest::Approx(0.225));
    CHECK(q.edges[0][1] == doctest::Approx(0.45));
    CHECK(q.edges[0][2] == doctest::Approx(0.675));
    CHECK(q.edges[0][3] == 1.0);
    CHECK(privatree_threshold(1.0, 1.0) == std::numeric_limits<double>::max());
    CHECK(privatree_threshold(0.5, 1.0) > 0.5);
  }

  TEST_CASE("privatree-v2: published only, data-dependent stopping, within the claimed epsilon, beats majority") {
    const AlgorithmInfo& a = find_algorithm("privatree-v2");
    const Params p = resolve_params(a.name, a.params, {}, "t");
    CHECK(a.privacy_status(p, TaskKind::kClassification).rfind("published, not epsilon-DP: bin edges are exact", 0) == 0);
    CHECK(std::isinf(a.privacy_bound(p, TaskKind::kClassification).epsilon));
    CHECK_THROWS_AS(fit_registry("privatree-v2", {{"strict", "true"}}, synthetic(50, TaskKind::kClassification)), Error);
    // A pure training set stops at the root (the leak HEAD removed).
    const Dataset pure = one_feature({{0.1, 1}, {0.5, 1}, {0.9, 1}});
    Fitted f = fit_registry("privatree-v2", {{"max_depth", "3"}}, pure);
    CHECK(f.forest()->trees()[0].nodes().size() == 1);
    CHECK(f.ledger.spent() < 1.0);
    const Dataset d = synthetic(4000, TaskKind::kClassification, 12);
    std::vector<uint32_t> train, test;
    for (uint32_t i = 0; i < 4000; ++i) (i % 4 == 0 ? test : train).push_back(i);
    for (const char* bins : {"quantiles", "uniform"}) {
      Fitted g = fit_registry("privatree-v2", {{"epsilon", "10"}, {"max_depth", "4"}, {"bins", bins}}, d, train, 3);
      CHECK(g.ledger.spent() <= 10 * (1 + 1e-9));
      CHECK(!g.ledger.certified());
      const Predictions pr = g.model->predict(d, test);
      double ok = 0, ones = 0;
      for (std::size_t i = 0; i < test.size(); ++i) {
        ok += pr.label[i] == d.label(test[i]);
        ones += d.label(test[i]);
      }
      const double n = static_cast<double>(test.size());
      MESSAGE("privatree-v2 bins=", std::string(bins), " accuracy ", ok / n);
      CHECK(ok / n > std::max(ones, n - ones) / n + 0.2);
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("privatree: on rows that every split sends left, the split is uniform and the leaf label is PF") {
    // Two class-1 rows in bin 0 of one feature: all 10 candidates keep both rows left (Gini 0), so
    // permute-and-flip picks each with probability 1/10; the left leaf's label follows PF(ε_leaf = ε/2,
    // monotonic) on counts (0, 2); the right leaf is empty, so uniform. 5000 fits, exact binomial tails
    // at 1e-6 (false-alarm probability < 1e-5 over the checks).
    const Dataset d = one_feature({{0.05, 1}, {0.05, 1}});
    const double counts[2] = {0, 2};
    for (const char* strict : {"false", "true"}) {
      CAPTURE(strict);
      const double eps_leaf = std::string(strict) == "true" ? 0.475 : 0.5;  // strict: 5 % buys ñ first
      const double p0 = permute_and_flip_probabilities(counts, eps_leaf, 0.5)[0];
      const int n = 5000;
      uint64_t last_bin = 0, left0 = 0, right0 = 0;
      for (int s = 0; s < n; ++s) {
        Fitted f = fit_registry("privatree", {{"epsilon", "1"}, {"max_depth", "1"}, {"strict", strict}}, d,
                                static_cast<uint64_t>(77 + s));
        const Tree& t = f.forest()->trees()[0];
        last_bin += t.nodes()[0].threshold == std::numeric_limits<double>::max();
        left0 += t.leaf_value(t.nodes()[1].leaf)[0] == 1.0;
        right0 += t.leaf_value(t.nodes()[2].leaf)[0] == 1.0;
      }
      CHECK(binom_cdf(n, last_bin, 0.1) > 1e-6);
      CHECK(binom_sf(n, last_bin, 0.1) > 1e-6);
      CHECK(binom_cdf(n, left0, p0) > 1e-6);
      CHECK(binom_sf(n, left0, p0) > 1e-6);
      CHECK(binom_cdf(n, right0, 0.5) > 1e-6);
      CHECK(binom_sf(n, right0, 0.5) > 1e-6);
    }
  }
}

}  // namespace dpf::test
