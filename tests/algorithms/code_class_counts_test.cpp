// CodeClassCounts (algorithms/common): the packed (category, class) counts that DP-RF and DP-DF
// score multi-way splits with equal per-row double increments from the columns, on packed features,
// on features too wide to pack, and on a dataset other than the one packed.
#include <doctest/doctest.h>

#include "algorithms/algo_fixtures.hpp"
#include "algorithms/common/code_class_counts.hpp"

using namespace dpf;

namespace {

// Three categorical features: 3 codes, 5 codes and 90 codes (90 x 3 classes > 256: not packed).
Dataset mixed_codes(std::size_t n, uint64_t seed) {
  Schema s;
  const std::size_t widths[] = {3, 5, 90};
  for (std::size_t f = 0; f < 3; ++f) {
    std::vector<std::string> cats;
    for (std::size_t v = 0; v < widths[f]; ++v) cats.push_back("v" + std::to_string(v));
    s.features.push_back(Feature{"c" + std::to_string(f), FeatureKind::kCategorical, 0.0, 0.0, cats});
  }
  s.target.classes = {"a", "b", "c"};
  Dataset d("mixed-codes", s);
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    double x[3];
    for (std::size_t f = 0; f < 3; ++f) x[f] = static_cast<double>(rng.below(widths[f]));
    d.add_row(x, static_cast<double>(rng.below(3)));
  }
  d.validate();
  return d;
}

void by_rows(const Dataset& d, std::size_t f, std::span<const uint32_t> rows, std::vector<double>& cnt,
             std::vector<double>& tot) {
  const std::size_t C = d.n_classes(), nv = d.schema().features[f].n_categories();
  cnt.assign(nv * C, 0.0);
  tot.assign(nv, 0.0);
  for (uint32_t r : rows) {
    const auto v = static_cast<std::size_t>(d.column(f)[r]);
    cnt[v * C + static_cast<std::size_t>(d.label(r))] += 1.0;
    tot[v] += 1.0;
  }
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("CodeClassCounts equals per-row counting for packed, unpacked and foreign datasets") {
    Dataset d = mixed_codes(1003, 7), other = mixed_codes(500, 8);
    CodeClassCounts counts(d);
    Rng rng(3);
    std::vector<double> cnt, tot, want_cnt, want_tot;
    for (int trial = 0; trial < 20; ++trial) {
      // A random node: a subset of rows in random order, sizes 0..n (not a multiple of 4).
      std::vector<uint32_t> rows;
      const double keep = rng.uniform();
      for (uint32_t r = 0; r < d.n_rows(); ++r)
        if (rng.uniform() < keep) rows.push_back(r);
      rng.shuffle(std::span<uint32_t>(rows));
      for (std::size_t f = 0; f < 3; ++f) {
        CAPTURE(trial);
        CAPTURE(f);
        counts.count(d, f, rows, cnt, tot);
        by_rows(d, f, rows, want_cnt, want_tot);
        CHECK(cnt == want_cnt);
        CHECK(tot == want_tot);
      }
      std::vector<uint32_t> orows;
      for (uint32_t r : rows)
        if (r < other.n_rows()) orows.push_back(r);
      counts.count(other, 1, orows, cnt, tot);  // not the packed dataset: counted from its column
      by_rows(other, 1, orows, want_cnt, want_tot);
      CHECK(cnt == want_cnt);
      CHECK(tot == want_tot);
    }
  }

  TEST_CASE("CodeClassCounts packs given labels, only features that fit, and nothing for too few labels") {
    Dataset d = mixed_codes(300, 9);
    std::vector<int> labels(d.n_rows());
    for (std::size_t r = 0; r < d.n_rows(); ++r) labels[r] = 2 - d.label(r);  // a relabelling
    CodeClassCounts own(d), given(d, labels, 3);
    for (std::size_t f = 0; f < 2; ++f) {
      REQUIRE(own.cells(f) != nullptr);
      REQUIRE(given.cells(f) != nullptr);
      for (std::size_t r = 0; r < d.n_rows(); ++r) {
        const auto v = static_cast<std::size_t>(d.column(f)[r]);
        CHECK(own.cells(f)[r] == v * 3 + static_cast<std::size_t>(d.label(r)));
        CHECK(given.cells(f)[r] == v * 3 + static_cast<std::size_t>(labels[r]));
      }
    }
    CHECK(own.cells(2) == nullptr);  // 90 codes x 3 classes do not fit a byte
    labels.pop_back();
    CodeClassCounts short_labels(d, labels, 3);
    for (std::size_t f = 0; f < 3; ++f) CHECK(short_labels.cells(f) == nullptr);
  }
}
