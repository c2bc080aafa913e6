// DP-EBM (../shared/specs/dp-ebm.md): private binning rules (§5.1, §5.2) with negligible noise, the
// random cuts (§6.3 step 2), the noise scales of §4.3, the GDP ledger, strict's repairs (§9 fixes),
// centring (§7), determinism and a utility sanity check.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <numeric>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/dp_ebm/binning.hpp"
#include "algorithms/dp_ebm/boosting.hpp"
#include "core/privacy/gdp.hpp"
#include "core/privacy/ledger.hpp"
#include "privacy/stat_util.hpp"

using namespace dpf;
namespace ebm = dpf::dp_ebm;

namespace {

// mu = 1e7: sigma = 1e-7 per count, far below every gap the rules compare.
ebm::BinningRule quiet(int n_bins, bool strict = false) {
  return ebm::BinningRule{.n_bins = n_bins, .mu = 1e7, .strict = strict, .paper_counts = false};
}

Dataset numeric_dataset(std::size_t n, int d, uint64_t seed) {
  Schema s;
  for (int f = 0; f < d; ++f) s.features.push_back(Feature{"x" + std::to_string(f), FeatureKind::kNumeric, 0.0, 1.0, {}});
  s.target.name = "y";
  s.target.classes = {"0", "1"};
  Dataset data("numeric", s);
  Rng rng(seed);
  std::vector<double> x(static_cast<std::size_t>(d));
  for (std::size_t i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    data.add_row(x, x[0] + 0.3 * x[1] + 0.2 * (rng.uniform() - 0.5) > 0.65 ? 1.0 : 0.0);
  }
  return data;
}

std::map<std::string, std::string> columns(const Model& m) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : m.extra_columns()) out[k] = v;
  return out;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("dp-ebm §5.1: 2B-bin grid, greedy merge at n / B, leftover to the last bin, cuts on the grid") {
    // B = 3: six unit bins on [0, 6]. Counts per grid bin 2, 3, 1, 4, 0, 2 (6.0 = hi counts in the last
    // bin); four values outside [0, 6] are not counted but are in n = 16.
    std::vector<double> v = {0.5, 0.5, 1.5, 1.5, 1.5, 2.5, 3.5, 3.5, 3.5, 3.5, 5.5, 6.0, 7.0, 7.0, -1.0, 9.0};
    Rng rng(1);
    // Library: target 16 / 3 = 5.33: 2 + 3 + 1 = 6 closes at edge 3, 4 + 0 + 2 = 6 at edge 6 (the last:
    // no cut). One cut at 3.0, weights 6 and 6.
    ebm::FeatureBins lib = ebm::bin_continuous(v, 0.0, 6.0, quiet(3), rng);
    REQUIRE(lib.cuts.size() == 1);
    CHECK(lib.cuts[0] == 3.0);
    CHECK(lib.cut_grid == std::vector<int>{3});
    REQUIRE(lib.n_bins() == 2);
    CHECK(lib.weight[0] == doctest::Approx(6.0).epsilon(1e-6));
    CHECK(lib.weight[1] == doctest::Approx(6.0).epsilon(1e-6));
    CHECK(lib.bin_of(2.999) == 0);
    CHECK(lib.bin_of(3.0) == 1);  // a value on a cut goes up (§2)
    CHECK(lib.bin_of(-5.0) == 0);
    CHECK(lib.bin_of(50.0) == 1);
    // Strict: target = noisy total / B = 12 / 3 = 4: closes at edge 2 (5) and edge 4 (5), leftover 2.
    ebm::FeatureBins st = ebm::bin_continuous(v, 0.0, 6.0, quiet(3, true), rng);
    CHECK(st.cuts == std::vector<double>{2.0});
    REQUIRE(st.n_bins() == 2);
    CHECK(st.weight[1] == doctest::Approx(7.0).epsilon(1e-6));
    // Nothing reaches the target: one bin of weight target, no cuts.
    std::vector<double> outside(10, 8.0);
    ebm::FeatureBins none = ebm::bin_continuous(outside, 0.0, 6.0, quiet(3), rng);
    CHECK(none.cuts.empty());
    CHECK(none.weight == std::vector<double>{10.0 / 3});
    // That fallback weight is n / B in the library: it releases n itself (the audit's class-set pair flags
    // it, dp-ebm.md "Audit"). Strict's fallback reads the noisy total instead, floored at 1: 1 / B here.
    std::vector<double> outside11(11, 8.0);
    CHECK(ebm::bin_continuous(outside11, 0.0, 6.0, quiet(3), rng).weight == std::vector<double>{11.0 / 3});
    CHECK(ebm::bin_continuous(outside, 0.0, 6.0, quiet(3, true), rng).weight == std::vector<double>{1.0 / 3});
    CHECK(ebm::bin_continuous(outside11, 0.0, 6.0, quiet(3, true), rng).weight == std::vector<double>{1.0 / 3});
    CHECK_THROWS_AS(ebm::bin_continuous(v, 1.0, 1.0, quiet(3), rng), Error);
  }

  TEST_CASE("dp-ebm §5.2: DPOther merging, smallest kept absorbed; strict noises every schema category") {
    Rng rng(2);
    // Counts 10, 1, 0, 6, 3 (n = 20), B = 4: target 5. Observed {0, 1, 3, 4}: 1 and 4 are small
    // (DPOther 4 < 5), so the smallest kept (3, weight 6) joins: kept {0}, DPOther {1, 2, 3, 4} = 10.
    std::vector<double> codes;
    for (auto [c, k] : {std::pair{0, 10}, {1, 1}, {3, 6}, {4, 3}})
      for (int i = 0; i < k; ++i) codes.push_back(c);
    ebm::FeatureBins b = ebm::bin_nominal(codes, 5, quiet(4), rng);
    CHECK(b.has_other);
    CHECK(b.category_bin == std::vector<int>{0, 1, 1, 1, 1});
    REQUIRE(b.n_bins() == 2);
    CHECK(b.weight[0] == doctest::Approx(10.0).epsilon(1e-6));
    CHECK(b.weight[1] == doctest::Approx(10.0).epsilon(1e-6));
    // No small observed category: no DPOther, the unobserved category 2 maps to the unseen bin (index
    // n_bins(), score 0). Strict counts category 2 (0 rows): it is small, DPOther absorbs category 0.
    std::vector<double> two(10, 0.0);
    two.insert(two.end(), 11, 1.0);
    ebm::FeatureBins lib = ebm::bin_nominal(two, 3, quiet(4), rng);
    CHECK_FALSE(lib.has_other);
    CHECK(lib.category_bin == std::vector<int>{0, 1, 2});
    CHECK(lib.n_bins() == 2);
    CHECK(lib.bin_of(2.0) == 2);
    ebm::FeatureBins st = ebm::bin_nominal(two, 3, quiet(4, true), rng);
    CHECK(st.has_other);
    CHECK(st.category_bin == std::vector<int>{1, 0, 1});
    CHECK(st.weight[1] == doctest::Approx(10.0).epsilon(1e-6));
    // Every category small (B = 1: target n = 2): DPOther alone holds both.
    ebm::FeatureBins one = ebm::bin_nominal(std::vector<double>{0.0, 1.0}, 2, quiet(1), rng);
    CHECK(one.has_other);
    CHECK(one.category_bin == std::vector<int>{0, 0});
    REQUIRE(one.n_bins() == 1);
    CHECK(one.weight[0] == doctest::Approx(2.0).epsilon(1e-6));
  }

  TEST_CASE("dp-ebm §6.3: min(max_leaves - 1, k - 1) distinct uniform cuts (chi-square, alpha = 1e-5)") {
    Rng rng(3);
    CHECK(ebm::random_cuts(1, 3, false, rng).empty());
    CHECK(ebm::random_cuts(2, 3, false, rng) == std::vector<int>{1});
    CHECK(ebm::random_cuts(4, 1, false, rng).empty());
    // k = 5: the 6 pairs of {1, 2, 3, 4}, each with probability 1/6.
    std::map<std::pair<int, int>, int> seen;
    const int n = 60000;
    for (int i = 0; i < n; ++i) {
      const std::vector<int> c = ebm::random_cuts(5, 3, false, rng);
      REQUIRE(c.size() == 2);
      REQUIRE(c[0] < c[1]);
      ++seen[{c[0], c[1]}];
    }
    CHECK(seen.size() == 6);
    double chi2 = 0.0;
    for (const auto& [pair, k] : seen) chi2 += (k - n / 6.0) * (k - n / 6.0) / (n / 6.0);
    CHECK(chi2 < 25.74);  // chi-square(5) quantile 1 - 1e-5
    // Paper-era: edge 0 is a candidate and yields one cut fewer.
    int single = 0;
    for (int i = 0; i < 3000; ++i) single += ebm::random_cuts(3, 3, true, rng).size() == 1;
    CHECK(single > 1700);  // 2/3 expected: {0,1} and {0,2}
    CHECK(single < 2300);
  }

  TEST_CASE("dp-ebm §4.3: noise scales of the library for d = 4, and the GDP ledger") {
    const Dataset data = numeric_dataset(400, 4, 9);
    for (auto [eps, delta, s_bin, s_step] : {std::tuple{0.1, 1e-6, 647.51, 14.481}, std::tuple{1.0, 1e-6, 75.734, 1.6682},
                                             std::tuple{10.0, 1e-6, 8.7303, 0.20935}}) {
      CAPTURE(eps);
      const test::Fitted f =
          test::fit_registry("dp-ebm", {{"epsilon", std::to_string(eps)}, {"delta", "1e-6"}, {"strict", "true"}}, data);
      const auto col = columns(*f.model);
      CHECK(std::stod(col.at("dp_ebm_sigma_binning")) == doctest::Approx(s_bin).epsilon(1e-4));
      CHECK(std::stod(col.at("dp_ebm_sigma_boosting")) == doctest::Approx(s_step).epsilon(2e-4));
      // 4 binning queries + 300 * 4 boosting queries compose to sqrt(mu_bin^2 + mu_train^2).
      const double mb = gdp_mu(0.1 * eps, delta / 2), mt = gdp_mu(0.9 * eps, delta / 2);
      CHECK(f.ledger.mu_spent() == doctest::Approx(std::hypot(mb, mt)).epsilon(1e-10));
      CHECK(f.ledger.n_charges() == 4 + 1200);
      const double spent = f.ledger.epsilon_for(delta);
      CHECK(spent == gdp_epsilon(f.ledger.mu_spent(), delta));
      CHECK(spent <= eps);         // GDP composition is tighter than the library's basic split
      CHECK(spent > 0.8 * eps);
      CHECK(f.ledger.certified());
    }
    // The library's default: uncertified binning (n read unpaid, §9 item 2); 'classic' charges its
    // larger sigma as a smaller mu.
    const test::Fitted lib = test::fit_registry("dp-ebm", {}, data);
    CHECK_FALSE(lib.ledger.certified());
    const test::Fitted classic = test::fit_registry("dp-ebm", {{"composition", "classic"}, {"strict", "true"}}, data);
    CHECK(std::stod(columns(*classic.model).at("dp_ebm_sigma_boosting")) ==
          doctest::Approx(std::sqrt(8 * 1200 * 1e-4 * std::log(std::exp(1.0) + 0.9 / 5e-6)) / 0.9));
    CHECK(classic.ledger.epsilon_for(1e-5) < 0.5);
  }

  TEST_CASE("dp-ebm labels: the library's behaviour is published-not-DP, strict is (epsilon, delta)-DP") {
    const AlgorithmInfo& a = find_algorithm("dp-ebm");
    auto status = [&](std::map<std::string, std::string> given, TaskKind t) {
      return a.privacy_status(resolve_params("dp-ebm", a.params, given, "test"), t);
    };
    CHECK(status({}, TaskKind::kClassification).rfind("published, not (epsilon, delta)-DP", 0) == 0);
    CHECK(status({}, TaskKind::kRegression).find("not clipped") != std::string::npos);
    CHECK(status({{"strict", "true"}}, TaskKind::kRegression) == kApproxDpLabel);
    CHECK(status({{"strict", "true"}, {"reference_quirks", "paper_code"}}, TaskKind::kClassification) == kApproxDpLabel);
    CHECK(status({{"strict", "true"}, {"epsilon", "2"}}, TaskKind::kClassification) == kApproxDpLabel);
  }

  TEST_CASE("dp-ebm boosting: rows beyond exp's range continue in log space, as the library's F") {
    // Two features of 3 bins, tiny noisy weights and large noisy steps: |u| reaches about 2e4, so
    // exp(-F) over- and underflows within a step or two (an infinite E times a zero factor was NaN).
    // The scores must stay finite and follow the library's arithmetic (F itself, p = sigmoid F),
    // replayed here from the same stream.
    ebm::FeatureBins fb;
    fb.weight = {1e-3, 2e-3, 1e-3};
    const std::vector<ebm::FeatureBins> bins = {fb, fb};
    const std::size_t n = 12;
    std::vector<std::vector<int32_t>> row_bin(2, std::vector<int32_t>(n));
    std::vector<double> y(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<double>(i % 2);
      for (std::size_t j = 0; j < 2; ++j) row_bin[j][i] = static_cast<int32_t>((i + j) % 3);
    }
    const ebm::BoostSpec spec{.max_rounds = 20, .max_leaves = 3, .learning_rate = 1.0, .mu_step = 0.05,
                              .sensitivity = 1.0};
    Rng rng(9);
    PrivacyLedger ledger;
    const auto score = ebm::boost(bins, row_bin, y, spec, rng, ledger, PrivacyLedger::kRoot);

    Rng r(9);
    std::vector<std::size_t> order{0, 1};
    r.shuffle(std::span<std::size_t>(order));
    std::vector<double> F(n, 0.0);
    std::vector<std::vector<double>> ref(2, std::vector<double>(3, 0.0));
    double max_abs_f = 0.0;
    for (int t = 0; t < 2 * spec.max_rounds; ++t) {
      const std::size_t j = order[static_cast<std::size_t>(t) % 2];
      std::vector<double> hist(3, 0.0);
      for (std::size_t i = 0; i < n; ++i) hist[static_cast<std::size_t>(row_bin[j][i])] += 1.0 / (1.0 + std::exp(-F[i])) - y[i];
      const std::vector<int> cuts = ebm::random_cuts(3, spec.max_leaves, false, r);
      std::size_t begin = 0;
      for (std::size_t l = 0; l <= cuts.size(); ++l) {
        const std::size_t end = l < cuts.size() ? static_cast<std::size_t>(cuts[l]) : 3;
        double g = 0.0, w = 0.0;
        for (std::size_t b = begin; b < end; ++b) {
          g += hist[b];
          w += fb.weight[b];
        }
        const double u = -gdp_gaussian_mechanism(r, spec.learning_rate * g, spec.sensitivity, spec.mu_step) / w;
        for (std::size_t b = begin; b < end; ++b) ref[j][b] += u;
        for (std::size_t i = 0; i < n; ++i)
          if (static_cast<std::size_t>(row_bin[j][i]) >= begin && static_cast<std::size_t>(row_bin[j][i]) < end) F[i] += u;
        begin = end;
      }
      for (double f : F) max_abs_f = std::max(max_abs_f, std::fabs(f));
    }
    CHECK(max_abs_f > 5000.0);  // the case is the one it is meant to be
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t b = 0; b < 3; ++b) {
        CHECK(std::isfinite(score[j][b]));
        CHECK(score[j][b] == doctest::Approx(ref[j][b]).epsilon(1e-9));
      }
  }

  TEST_CASE("dp-ebm §9 fix 3: strict clips regression gradients to [-R, R]; the library does not") {
    // One feature, one bin, one step, negligible noise: u = -lr G / W with G = sum of (0 - y).
    ebm::FeatureBins fb;
    fb.weight = {4.0};
    const std::vector<ebm::FeatureBins> bins = {fb};
    const std::vector<std::vector<int32_t>> row_bin = {{0, 0, 0, 0}};
    const std::vector<double> y(4, 100.0);  // targets in [100, 101]: R = 1, far from F = 0
    ebm::BoostSpec spec{.max_rounds = 1, .max_leaves = 3, .learning_rate = 0.5, .mu_step = 1e6, .sensitivity = 0.5,
                        .regression = true};
    Rng rng(4);
    PrivacyLedger ledger;
    const double u_lib = ebm::boost(bins, row_bin, y, spec, rng, ledger, PrivacyLedger::kRoot)[0][0];
    CHECK(u_lib == doctest::Approx(0.5 * 400 / 4).epsilon(1e-6));
    spec.clip = 1.0;
    const double u_strict = ebm::boost(bins, row_bin, y, spec, rng, ledger, PrivacyLedger::kRoot)[0][0];
    CHECK(u_strict == doctest::Approx(0.5 * 4 / 4).epsilon(1e-6));
  }

  TEST_CASE("dp-ebm: centred shapes, determinism, and utility well above the majority class") {
    const Dataset data = test::synthetic(3000, TaskKind::kClassification, 5);
    std::vector<uint32_t> train(2000), test(1000);
    std::iota(train.begin(), train.end(), 0u);
    std::iota(test.begin(), test.end(), 2000u);
    const test::Fitted a = test::fit_registry("dp-ebm", {{"epsilon", "4"}, {"strict", "true"}}, data, train, 7);
    const test::Fitted b = test::fit_registry("dp-ebm", {{"epsilon", "4"}, {"strict", "true"}}, data, train, 7);
    const test::Fitted c = test::fit_registry("dp-ebm", {{"epsilon", "4"}, {"strict", "true"}}, data, train, 8);
    CHECK(a.model->released() == b.model->released());
    CHECK_FALSE(a.model->released() == c.model->released());
    // §7: every shape has noisy-weight mean 0. The release holds per feature [kind, k, map...] and
    // [k weights, k scores]; the map has k - 1 cuts (continuous) or one bin per category (nominal).
    const Release r = a.model->released();
    std::size_t di = 0, ci = 0;
    for (const Feature& f : data.schema().features) {
      const bool nominal = r.discrete[di] == 1;
      CHECK(nominal == (f.kind == FeatureKind::kCategorical));
      const auto k = static_cast<std::size_t>(r.discrete[di + 1]);
      di += 2 + (nominal ? f.n_categories() : k - 1);
      double sw = 0, sws = 0;
      for (std::size_t b = 0; b < k; ++b) {
        sw += r.continuous[ci + b];
        sws += r.continuous[ci + b] * r.continuous[ci + k + b];
      }
      CHECK(std::fabs(sws / sw) < 1e-9);
      ci += 2 * k;
    }
    CHECK(di == r.discrete.size());
    CHECK(ci + 1 == r.continuous.size());
    // Utility: the synthetic label is a threshold of f0 + 0.5 f1 (balanced within a few %).
    const Predictions p = a.model->predict(data, test);
    int correct = 0, ones = 0;
    for (std::size_t i = 0; i < test.size(); ++i) {
      correct += p.label[i] == data.label(test[i]);
      ones += data.label(test[i]);
      CHECK(p.value[2 * i] + p.value[2 * i + 1] == doctest::Approx(1.0));
      CHECK(p.label[i] == (p.value[2 * i + 1] > 0.5 ? 1 : 0));
    }
    const double majority = std::max(ones, 1000 - ones) / 1000.0;
    CHECK(correct / 1000.0 > majority + 0.15);
  }

  TEST_CASE("dp-ebm: regression, multiclass refused, schema bounds required") {
    const Dataset reg = test::synthetic(1500, TaskKind::kRegression, 6);
    const test::Fitted f = test::fit_registry("dp-ebm", {{"epsilon", "8"}, {"strict", "true"}}, reg);
    const Predictions p = f.model->predict(reg, all_rows(reg.n_rows()));
    double mse = 0, var = 0, mean = 0;
    for (double y : reg.y()) mean += y / reg.n_rows();
    for (std::size_t i = 0; i < reg.n_rows(); ++i) {
      mse += (p.value[i] - reg.y()[i]) * (p.value[i] - reg.y()[i]) / reg.n_rows();
      var += (reg.y()[i] - mean) * (reg.y()[i] - mean) / reg.n_rows();
    }
    CHECK(mse < 0.6 * var);  // the shapes explain a good part of the variance
    Dataset three = test::synthetic(50, TaskKind::kClassification, 1);
    three.mutable_schema().target.classes.push_back("2");
    CHECK_THROWS_AS(test::fit_registry("dp-ebm", {}, three), Error);
  }
}
