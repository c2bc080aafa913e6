// Prediction of the random-tree forests through the routing mirror (core/tree/route.hpp) and the
// lazily extended tree copies: the same leaves, keys and scores as routing every row on its own.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "algorithms/common/random_tree.hpp"
#include "algorithms/registry.hpp"
#include "core/data/make_classification.hpp"
#include "core/tree/route.hpp"

using namespace dpf;

namespace {

// Two numeric features on [0, 1] and two categorical ones (3 and 4 categories), labels from a rule.
Dataset mixed(std::size_t n, uint64_t seed) {
  Schema s;
  for (int f = 0; f < 2; ++f) s.features.push_back({"x" + std::to_string(f), FeatureKind::kNumeric, 0.0, 1.0, {}});
  s.features.push_back({"a", FeatureKind::kCategorical, 0, 0, {"p", "q", "r"}});
  s.features.push_back({"b", FeatureKind::kCategorical, 0, 0, {"s", "t", "u", "v"}});
  s.target.classes = {"0", "1", "2"};
  Dataset d("mixed", s);
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> x = {rng.uniform(), rng.uniform(), static_cast<double>(rng.below(3)), static_cast<double>(rng.below(4))};
    d.add_row(x, x[0] + 0.3 * x[2] > 0.8 ? 1.0 : (x[1] > 0.7 ? 2.0 : 0.0));
  }
  return d;
}

// Rows with category 'r' of feature a (never in training) and every fifth row are the test rows.
void split(const Dataset& d, std::vector<uint32_t>& train, std::vector<uint32_t>& test) {
  for (uint32_t r = 0; r < d.n_rows(); ++r) {
    if (d.x(r, 2) == 2.0 || r % 5 == 0) test.push_back(r);
    else train.push_back(r);
  }
}

std::unique_ptr<Model> fit(const std::string& algo, const Dataset& d, std::span<const uint32_t> rows,
                           const std::map<std::string, std::string>& p) {
  auto learner = find_algorithm(algo).make(resolve_params(algo, find_algorithm(algo).params, p, "test"), d.schema());
  FitContext ctx{Rng(17), PrivacyLedger(), 1};
  return learner->fit(d, rows, ctx);
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("random tree: the routing mirror stops every row where route() leaves the stored part") {
    for (const bool mixed_data : {true, false}) {
      CAPTURE(mixed_data);
      Dataset d = mixed_data ? mixed(3000, 3) : make_synthetic("synth-a:n=3000");
      std::vector<uint32_t> train, test;
      split(d, train, test);
      if (!mixed_data) {
        train.resize(300);  // few training rows: many test rows leave the stored part
        test = all_rows(d.n_rows());
      }
      RandomTreeSchema s = random_tree_schema(d, train, true, 6);
      RandomTree tree(41, s);
      for (uint32_t r : train) tree.route_grow(s, d, r);
      tree.build_mirror(s);
      RowBlock block(d);
      int32_t at[RowBlock::kRows];
      std::size_t stored = 0, abstained = 0, left = 0;
      for (std::size_t b = 0; b < test.size(); b += RowBlock::kRows) {
        std::span<const uint32_t> rows = std::span<const uint32_t>(test).subspan(b, std::min(RowBlock::kRows, test.size() - b));
        block.load(rows);
        for (std::size_t k = 0; k < rows.size(); ++k)
          for (std::size_t f = 0; f < d.n_features(); ++f) REQUIRE(block.value(k, f) == d.x(rows[k], f));
        block.route(tree.mirror(), at);
        for (std::size_t k = 0; k < rows.size(); ++k) {
          const int32_t code = tree.mirror().code(at[k]);
          const RouteResult want = tree.route(s, d, rows[k]);
          if (code >= 0) {
            ++stored;
            CHECK(want.leaf == code);
          } else if (code == RouteMirror::kAbstain) {
            ++abstained;
            CHECK(want.abstain);
          } else {
            ++left;
            REQUIRE(code == RouteMirror::kResolve);
            CHECK(want.leaf == -1);  // virtual, or an abstention below the stored part
          }
        }
      }
      CHECK(stored > test.size() / 4);
      CHECK(left > 0);
      if (mixed_data) CHECK(abstained > 0);  // category 'r' is outside the training domain
    }
  }

  TEST_CASE("route mirror: code splits send every code where a multiway or subset split does") {
    // Codes 0..5 of feature 1: 0, 2 -> child 1; 1 -> child 0; 3 absent (abstain); 4, 5 -> child 2;
    // codes >= 6 -> child 0 (two runs of child 0, two of child 2: forwarding nodes).
    RouteMirror m;
    const int32_t first = m.split_threshold(0, 0.5, 0);  // x0 < 0.5 -> node first, else first + 1
    m.set_code(first + 1, 7);
    const std::vector<int32_t> child_of = {1, 0, 1, -1, 2, 2};
    int32_t children[3];
    m.split_codes(first, 1, child_of, 0, 3, children);
    for (int c = 0; c < 3; ++c) m.set_code(children[c], 100 + c);
    Schema sc;
    sc.features.push_back({"x", FeatureKind::kNumeric, 0.0, 1.0, {}});
    sc.features.push_back({"a", FeatureKind::kCategorical, 0, 0, {"0", "1", "2", "3", "4", "5", "6", "7"}});
    sc.target.classes = {"0", "1"};
    Dataset d("codes", sc);
    for (int code = 0; code < 8; ++code) {
      d.add_row(std::vector<double>{0.25, static_cast<double>(code)}, 0.0);
      d.add_row(std::vector<double>{0.75, static_cast<double>(code)}, 0.0);
    }
    RowBlock block(d);
    std::vector<uint32_t> rows = all_rows(d.n_rows());
    block.load(rows);
    int32_t at[RowBlock::kRows];
    block.route(m, at);
    for (int code = 0; code < 8; ++code) {
      CAPTURE(code);
      const int32_t want = code >= 6 ? 100 : child_of[static_cast<std::size_t>(code)] < 0 ? RouteMirror::kAbstain
                                                                                            : 100 + child_of[static_cast<std::size_t>(code)];
      CHECK(m.code(at[2 * code]) == want);
      CHECK(m.code(at[2 * code + 1]) == 7);
    }
  }

  TEST_CASE("random-tree forests: predicting all rows at once = row by row = in reverse order, bit for bit") {
    Dataset d = mixed(2000, 5);
    std::vector<uint32_t> train, test;
    split(d, train, test);
    const std::vector<std::pair<std::string, std::map<std::string, std::string>>> cases = {
        {"smooth-rdf", {{"n_trees", "12"}, {"depth_rule", "fixed"}, {"depth", "6"}}},
        {"smooth-rdf", {{"n_trees", "12"}, {"strict", "true"}}},
        {"rdf-nonprivate", {{"n_trees", "7"}}},
        {"jpw", {{"epsilon", "2"}}},
        {"jpw", {{"epsilon", "2"}, {"strict", "true"}}},
        {"jpw", {{"epsilon", "2"}, {"version", "original"}}},
    };
    for (const auto& [algo, params] : cases) {
      CAPTURE(algo);
      auto model = fit(algo, d, train, params);
      const Predictions all = model->predict(d, test);
      std::vector<uint32_t> reversed(test.rbegin(), test.rend());
      const Predictions rev = model->predict(d, reversed);
      const std::size_t C = static_cast<std::size_t>(all.n_classes);
      for (std::size_t i = 0; i < test.size(); ++i) {
        const Predictions one = model->predict(d, std::span<const uint32_t>(&test[i], 1));
        const std::size_t j = test.size() - 1 - i;
        CHECK(one.label[0] == all.label[i]);
        CHECK(rev.label[j] == all.label[i]);
        for (std::size_t c = 0; c < C; ++c) {
          CHECK(one.value[c] == all.value[i * C + c]);
          CHECK(rev.value[j * C + c] == all.value[i * C + c]);
        }
      }
    }
  }

  TEST_CASE("random-tree forests: every tree votes, stored leaf or virtual (continuous data never abstains)") {
    Dataset d = make_synthetic("synth-a:n=3000");
    std::vector<uint32_t> train(200), test;
    for (uint32_t r = 0; r < 200; ++r) train[r] = r;
    for (uint32_t r = 200; r < d.n_rows(); ++r) test.push_back(r);
    for (const char* tree_data : {"disjoint", "all"}) {
      auto model = fit("smooth-rdf", d, train, {{"n_trees", "10"}, {"tree_data", tree_data}, {"depth_rule", "fixed"}, {"depth", "8"}});
      const Predictions p = model->predict(d, test);
      const std::size_t C = static_cast<std::size_t>(p.n_classes);
      for (std::size_t i = 0; i < test.size(); ++i)
        for (std::size_t c = 0; c < C; ++c) {
          const double votes = p.value[i * C + c] * 10.0;  // a vote share of 10 trees
          CHECK(std::abs(votes - std::round(votes)) < 1e-9);
        }
    }
  }
}

