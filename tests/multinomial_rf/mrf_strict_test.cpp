// The repaired ε-DP MRF (multinomial-rf-dp with strict: true, algorithms/mrf/mrf_strict.hpp), the
// forest's random tie rule (eq. 6) and the shared best-split sweep of core/tree/split_search.hpp.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/mrf/mrf_strict.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/tree/split_search.hpp"

using namespace dpf;

namespace {

// Two features: x numeric on the public domain [0, 1], c categorical with 2 categories; 3 classes.
Schema tiny_schema() {
  Schema s;
  s.features.push_back(Feature{"x", FeatureKind::kNumeric, 0.0, 1.0, {}});
  s.features.push_back(Feature{"c", FeatureKind::kCategorical, 0.0, 0.0, {"a", "b"}});
  s.target.name = "y";
  s.target.task = TaskKind::kClassification;
  s.target.classes = {"0", "1", "2"};
  return s;
}

// Utilities of every candidate at the root with all rows as structure points, in candidate order.
std::vector<double> root_utilities(MrfStrictPolicy& pol, const Dataset& d, std::vector<double>* feature_u = nullptr) {
  const std::vector<int> labels = d.labels();
  const std::vector<uint32_t> rows = all_rows(d.n_rows());
  const std::vector<FeatureDomain> dom = schema_domains(d.schema());
  HonestView v{d, labels, rows, {}, 0, -1, 0, dom};
  MrfStrictPolicy::Candidates c = pol.candidates(v);
  std::vector<double> u;
  for (const auto& uf : c.utility) u.insert(u.end(), uf.begin(), uf.end());
  if (feature_u) *feature_u = c.feature_utility;
  return u;
}

// Two-sided exact binomial check of an observed count against p at level alpha.
bool binomial_ok(uint64_t n, uint64_t k, double p, double alpha) {
  return dpf::test::binom_cdf(n, k, p) > alpha / 2 && dpf::test::binom_sf(n, k, p) > alpha / 2;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("strict MRF: the count-scale Gini utility moves by < 2 between add/remove neighbours (privacy.md §7.2)") {
    // Every dataset of 1..4 records over 3 x-values x 2 categories x 3 classes (18 record types, as
    // sequences: 18 + ... + 18^4 datasets); its neighbour drops the last record. Every candidate's
    // utility and every feature utility max_t u must move by at most Δ = 2 (mrf_strict.hpp repair 3),
    // and the enumeration must reach changes above 1 (so a claimed Δ = 1 would be caught).
    const double xs[3] = {0.1, 0.5, 0.9};
    MrfStrictParams p;
    p.n_thresholds = 3;  // thresholds 0.25, 0.5, 0.75
    MrfStrictPolicy pol(p, 2, 3);
    double worst = 0;
    std::size_t pairs = 0;
    for (int size = 1; size <= 4; ++size) {
      std::vector<int> code(static_cast<std::size_t>(size), 0);
      while (true) {
        Dataset d("tiny", tiny_schema()), dn("tiny", tiny_schema());
        for (int i = 0; i < size; ++i) {
          const int t = code[static_cast<std::size_t>(i)];
          const double x[2] = {xs[t % 3], static_cast<double>((t / 3) % 2)};
          d.add_row(x, t / 6);
          if (i + 1 < size) dn.add_row(x, t / 6);
        }
        std::vector<double> fu, fun;
        const std::vector<double> u = root_utilities(pol, d, &fu), un = root_utilities(pol, dn, &fun);
        REQUIRE(u.size() == un.size());
        for (std::size_t j = 0; j < u.size(); ++j) worst = std::max(worst, std::abs(u[j] - un[j]));
        for (std::size_t j = 0; j < fu.size(); ++j) worst = std::max(worst, std::abs(fu[j] - fun[j]));
        ++pairs;
        int i = 0;
        while (i < size && ++code[static_cast<std::size_t>(i)] == 18) code[static_cast<std::size_t>(i++)] = 0;
        if (i == size) break;
      }
    }
    MESSAGE(pairs << " neighbour pairs, largest utility change " << worst);
    CHECK(worst <= kMrfStrictUtilitySensitivity);
    CHECK(worst > 1.0);
  }

  TEST_CASE("strict MRF: ledger = ε (certified), complete trees of depth d, epsilon-DP status") {
    Dataset d = dpf::test::synthetic(300, TaskKind::kClassification);
    for (const std::string compose : {"parallel", "sequential"}) {
      auto f = dpf::test::fit_registry(
          "multinomial-rf-dp",
          {{"epsilon", "2"}, {"n_trees", "4"}, {"max_depth", "4"}, {"strict", "true"}, {"dp_compose", compose}}, d);
      CHECK(f.ledger.spent() == doctest::Approx(2.0));
      CHECK(f.ledger.certified());
      for (const Tree& t : f.forest()->trees()) {
        CHECK(t.max_depth() == 4);
        CHECK(t.n_leaves() == 16);  // no data-dependent stop: every node above the cap splits
      }
      const AlgorithmInfo& info = find_algorithm("multinomial-rf-dp");
      CHECK(info.privacy_status(f.params, TaskKind::kClassification) == "epsilon-DP");
    }
    // The default depth reads the private n: strict needs max_depth.
    CHECK_THROWS_AS(dpf::test::fit_registry("multinomial-rf-dp", {{"epsilon", "1"}, {"strict", "true"}}, d), Error);
    // At a large ε the repaired forest still learns (utility, not only privacy).
    auto big = dpf::test::fit_registry("multinomial-rf-dp",
                                       {{"epsilon", "2000"}, {"n_trees", "10"}, {"max_depth", "4"}, {"strict", "true"}}, d);
    std::vector<uint32_t> rows = all_rows(d.n_rows());
    Predictions pr = big.model->predict(d, rows);
    std::size_t ok = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) ok += pr.label[i] == d.label(rows[i]);
    CHECK(static_cast<double>(ok) / static_cast<double>(rows.size()) > 0.8);
  }

  TEST_CASE("hard vote: ties go to a uniformly random tied class with set_random_ties, else to the lowest") {
    // Two one-leaf trees voting 0 and 1: every row is a tie. 2000 rows, class-1 share tested with an
    // exact two-sided binomial bound at α = 1e-5 (p = 1/2).
    Schema s;
    s.features.push_back(Feature{"x", FeatureKind::kNumeric, 0.0, 1.0, {}});
    s.target.classes = {"0", "1"};
    Dataset d("ties", s);
    for (int i = 0; i < 2000; ++i) {
      const double x[1] = {0.5};
      d.add_row(x, 0);
    }
    ForestModel m("t", TaskKind::kClassification, 2, Vote::kHard);
    for (int c = 0; c < 2; ++c) {
      Tree t(2);
      t.add_nodes(1, 0);
      const double v[2] = {c == 0 ? 1.0 : 0.0, c == 1 ? 1.0 : 0.0};
      t.mutable_nodes()[0].leaf = t.add_leaf_values(v);
      m.add_tree(std::move(t));
    }
    std::vector<uint32_t> rows = all_rows(d.n_rows());
    Predictions lowest = m.predict(d, rows);
    CHECK(std::count(lowest.label.begin(), lowest.label.end(), 1) == 0);
    m.set_random_ties(Rng(17));
    Predictions random = m.predict(d, rows);
    const auto ones = static_cast<uint64_t>(std::count(random.label.begin(), random.label.end(), 1));
    CHECK(binomial_ok(2000, ones, 0.5, 1e-5));
    CHECK(m.predict(d, rows).label == random.label);  // a pure function of the model and the row
  }

  TEST_CASE("best_sorted: CART's best threshold = the largest proxy over thresholds leaving min_leaf per side") {
    Rng rng(5);
    const int C = 3;
    std::vector<double> x(300), y(300);
    std::vector<int> yi(300);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<double>(rng.below(40)) * 0.25;
      yi[i] = static_cast<int>(rng.below(C));
      y[i] = yi[i];
    }
    Schema sc;
    sc.features.push_back(Feature{"x", FeatureKind::kNumeric, 0.0, 10.0, {}});
    sc.target.classes = {"0", "1", "2"};
    Dataset d("b", sc);
    for (std::size_t i = 0; i < x.size(); ++i) d.add_row(std::span<const double>(&x[i], 1), y[i]);
    std::vector<uint32_t> rows;
    for (uint32_t i = 0; i < 300; i += 3) rows.push_back(i);
    RankIndex index;
    std::vector<uint32_t> sorted;
    index.sort_rows(d, rows, 0, sorted);
    for (std::size_t i = 1; i < sorted.size(); ++i) CHECK(x[sorted[i - 1]] <= x[sorted[i]]);
    GiniSplitSearch s(C);
    for (std::size_t msl : {1, 5, 20}) {
      BestSplit best;
      REQUIRE(s.best_sorted(d.column(0), d.y(), sorted, msl, 0, best));
      // Brute force over the candidates of numeric(): proxy = gain * n + sum n_c^2 / n ordering.
      std::vector<SplitGain> all;
      s.numeric(d.column(0), yi, rows, all);
      double top = -1;
      for (const SplitGain& g : all)
        if (g.n_left >= msl && rows.size() - g.n_left >= msl) top = std::max(top, g.gain);
      double at_best = -1;
      for (const SplitGain& g : all)
        if (g.threshold == best.threshold) at_best = g.gain;
      CHECK(best.feature == 0);
      CHECK(at_best == doctest::Approx(top).epsilon(1e-12));
    }
  }

  TEST_CASE("codes()/best_codes(): the histogram search of a categorical code equals the sorted sweep bit for bit") {
    Rng rng(8);
    const int C = 3;
    Schema sc;
    sc.features.push_back(Feature{"k", FeatureKind::kCategorical, 0.0, 0.0, {"a", "b", "c", "d", "e", "f", "g", "h"}});
    sc.target.classes = {"0", "1", "2"};
    Dataset d("codes", sc);
    for (int i = 0; i < 400; ++i) {
      const double x[1] = {static_cast<double>(rng.below(7))};  // code 7 never occurs
      d.add_row(x, static_cast<double>(rng.below(C)));
    }
    const std::vector<int> yi = d.labels();
    std::vector<uint32_t> rows;
    for (uint32_t i = 0; i < 400; ++i)
      if (rng.below(3)) rows.push_back(i);
    rows.push_back(rows.front());  // a bootstrap duplicate
    GiniSplitSearch s(C);
    std::vector<SplitGain> a, b;
    CHECK(s.codes(d.column(0), yi, rows, 8, a) == s.numeric(d.column(0), yi, rows, b));
    REQUIRE(a.size() == b.size());
    for (std::size_t j = 0; j < a.size(); ++j) {
      CHECK(a[j].threshold == b[j].threshold);
      CHECK(a[j].gain == b[j].gain);
      CHECK(a[j].n_left == b[j].n_left);
    }
    RankIndex index;
    std::vector<uint32_t> sorted;
    index.sort_rows(d, rows, 0, sorted);
    for (std::size_t msl : {1, 30, 400}) {
      BestSplit h, q;
      CHECK(s.best_codes(d.column(0), d.y(), rows, 8, msl, 0, h) == s.best_sorted(d.column(0), d.y(), sorted, msl, 0, q));
      CHECK(h.proxy == q.proxy);
      CHECK(h.threshold == q.threshold);
      CHECK(h.feature == q.feature);
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("strict MRF split draws follow exp(B u / (2·2)) at the root (α = 1e-5, 20,000 draws)") {
    // Feature draw P(f) ∝ exp(B1 max_t u(f,t) / 4), value draw P(t | f) ∝ exp(B2 u(f,t) / 4); each of
    // the candidate cells' counts is checked with an exact two-sided binomial bound, Bonferroni over
    // the cells (total false-alarm rate <= 1e-5). Power: the same counts must reject the mutant
    // without the sensitivity (exp(B u / 2)).
    Dataset d = dpf::test::synthetic(40, TaskKind::kClassification, 3);
    MrfStrictParams p{0.3, 0.3, 1.0, 4};
    MrfStrictPolicy pol(p, static_cast<int>(d.n_features()), 2);
    const std::vector<int> labels = d.labels();
    const std::vector<uint32_t> rows = all_rows(d.n_rows());
    const std::vector<FeatureDomain> dom = schema_domains(d.schema());
    PrivacyLedger ledger;
    const PrivacyLedger::ScopeId node_scope = ledger.open_scope(PrivacyLedger::kRoot, Composition::kSequential, "node");
    HonestView v{d, labels, rows, {}, 0, node_scope, 0, dom};
    const MrfStrictPolicy::Candidates c = pol.candidates(v);
    std::vector<double> exact, mutant;
    const std::vector<double> pf = exponential_mechanism_probabilities(c.feature_utility, p.b1, 2.0);
    const std::vector<double> pf_m = exponential_mechanism_probabilities(c.feature_utility, p.b1, 1.0);
    std::map<std::pair<int, double>, std::size_t> cell;
    for (std::size_t i = 0; i < c.features.size(); ++i) {
      const std::vector<double> pv = exponential_mechanism_probabilities(c.utility[i], p.b2, 2.0);
      const std::vector<double> pv_m = exponential_mechanism_probabilities(c.utility[i], p.b2, 1.0);
      for (std::size_t j = 0; j < pv.size(); ++j) {
        const SplitChoice& s = c.splits[i][j];
        cell[{s.feature, s.kind == SplitKind::kThreshold ? s.threshold : static_cast<double>(s.mask)}] = exact.size();
        exact.push_back(pf[i] * pv[j]);
        mutant.push_back(pf_m[i] * pv_m[j]);
      }
    }
    const uint64_t N = 20000;
    std::vector<uint64_t> count(exact.size(), 0);
    for (uint64_t r = 0; r < N; ++r) {
      Rng rng = Rng(99).derive(r);
      const std::optional<SplitChoice> s = pol.choose(v, rng, ledger);
      REQUIRE(s);
      ++count[cell.at({s->feature, s->kind == SplitKind::kThreshold ? s->threshold : static_cast<double>(s->mask)})];
    }
    const double alpha = 1e-5 / static_cast<double>(exact.size());
    bool mutant_rejected = false;
    for (std::size_t k = 0; k < exact.size(); ++k) {
      CHECK(binomial_ok(N, count[k], exact[k], alpha));
      mutant_rejected = mutant_rejected || !binomial_ok(N, count[k], mutant[k], alpha);
    }
    CHECK(mutant_rejected);
  }

  TEST_CASE("strict MRF leaf label: P(c) ∝ exp(B3 n_c / 2) over all classes, absent ones too (α = 1e-5, 20,000 draws)") {
    Dataset d("leaf", tiny_schema());
    const int y[5] = {0, 0, 0, 1, 1};  // counts (3, 2, 0): class 2 is absent but must be drawn
    for (int i = 0; i < 5; ++i) {
      const double x[2] = {0.5, 0.0};
      d.add_row(x, y[i]);
    }
    MrfStrictParams p{0.1, 0.1, 0.8, 4};
    MrfStrictPolicy pol(p, 2, 3);
    const std::vector<int> labels = d.labels();
    const std::vector<uint32_t> rows = all_rows(d.n_rows());
    HonestView v{d, labels, {}, rows, 1, -1, 0, {}};
    const std::vector<double> exact = exponential_mechanism_probabilities(std::vector<double>{3, 2, 0}, 0.8, 1.0);
    const uint64_t N = 20000;
    std::vector<uint64_t> count(3, 0);
    PrivacyLedger ledger;
    const PrivacyLedger::ScopeId scope = ledger.open_scope(PrivacyLedger::kRoot, Composition::kParallel, "leaves");
    std::vector<double> out(3);
    for (uint64_t r = 0; r < N; ++r) {
      std::fill(out.begin(), out.end(), 0.0);
      Rng rng = Rng(7).derive(r);
      pol.leaf(v, LeafReason::kStop, rng, ledger, ledger.open_scope(scope, Composition::kSequential), out);
      ++count[static_cast<std::size_t>(std::max_element(out.begin(), out.end()) - out.begin())];
    }
    for (std::size_t c = 0; c < 3; ++c) CHECK(binomial_ok(N, count[c], exact[c], 1e-5 / 3));
    CHECK(count[2] > 0);
    CHECK(ledger.spent() == doctest::Approx(0.8));  // leaves in one parallel scope: one B3
  }
}
