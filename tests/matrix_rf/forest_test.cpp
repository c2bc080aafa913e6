// Trees over discrete domains and the implicit T/Q/D matrices (matrix-rf.md §1.5, §2.1).
#include <doctest/doctest.h>

#include "algorithms/matrix_rf/forest.hpp"
#include "core/util/error.hpp"

using namespace dpf;
using namespace dpf::mrf;
using Eigen::MatrixXd;

namespace {

// Figure 1 of the paper: outlook{sunny,overcast,rainy} × windy{false,true}; tree 1 splits outlook,
// tree 2 splits windy (built by hand in the MTree layout).
Ensemble figure1() {
  Ensemble e;
  e.features = {0, 1};
  e.sizes = {3, 2};
  MTree t1{{0, -1, -1, -1}, {1, 0, 1, 2}, 3};
  MTree t2{{1, -1, -1}, {1, 0, 1}, 2};
  e.trees = {t1, t2};
  e.leaf_offset = {0, 3};
  e.n_leaves = 5;
  e.leaf_codes = {0, -1, 1, -1, 2, -1, -1, 0, -1, 1};
  return e;
}

MatrixXd figure1_d() {  // D rows in domain order (§1.5)
  MatrixXd d(6, 2);
  d << 1, 0, 1, 0, 0, 1, 0, 0, 0, 2, 1, 0;
  return d;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("Figure 1: C = TD, QTᵀT and V = QTᵀTD from the implicit matrices") {
    Ensemble e = figure1();
    DomainMap m = map_domain(e, 1000);
    CHECK(m.n == 6);
    MatrixXd c = leaf_sums(m, figure1_d());
    MatrixXd want_c(5, 2);
    want_c << 2, 0, 0, 1, 1, 2, 1, 3, 2, 0;
    CHECK((c - want_c).norm() == 0);
    // Queries (sunny,true), (overcast,true), (overcast,false).
    std::vector<int> q = {0, 1, 1, 1, 1, 0};
    std::vector<uint32_t> ql = query_leaves(e, q, 3);
    GramOperator g = gram_prediction(m, ql);
    MatrixXd w(3, 6);
    w << 1, 2, 0, 1, 0, 1, 0, 1, 1, 2, 0, 1, 1, 0, 2, 1, 1, 0;
    MatrixXd gw = g.apply(MatrixXd::Identity(6, 6));
    CHECK((gw - w.transpose() * w).norm() < 1e-12);
    CHECK((g.diag - (w.transpose() * w).diagonal()).norm() < 1e-12);
    // V = QTᵀC (weight votes).
    MatrixXd v = MatrixXd::Zero(3, 2);
    for (int i = 0; i < 3; ++i)
      for (int t = 0; t < 2; ++t) v.row(i) += c.row(ql[static_cast<std::size_t>(i * 2 + t)]);
    MatrixXd want_v(3, 2);
    want_v << 4, 0, 2, 1, 1, 4;
    CHECK((v - want_v).norm() == 0);
    // Training Gram TᵀT and subsample Gram (QTᵀ)ᵀQTᵀ.
    MatrixXd t(5, 6);
    t << 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1;
    CHECK((gram_training(m).apply(MatrixXd::Identity(6, 6)) - t.transpose() * t).norm() < 1e-12);
    MatrixXd qtt = MatrixXd::Zero(3, 5);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 2; ++k) qtt(i, ql[static_cast<std::size_t>(i * 2 + k)]) = 1;
    GramOperator gs = gram_subsample(5, 2, ql);
    CHECK((gs.apply(MatrixXd::Identity(5, 5)) - qtt.transpose() * qtt).norm() < 1e-12);
    CHECK((gs.diag - (qtt.transpose() * qtt).diagonal()).norm() < 1e-12);
  }

  TEST_CASE("BUILDTREE: every tree partitions the domain, depth and attribute rules hold") {
    Rng rng(21);
    Ensemble e = build_ensemble({0, 1, 2, 3}, {4, 3, 2, 3}, 8, 3, rng);
    DomainMap m = map_domain(e, 100000);
    CHECK(m.n == 72);
    // Σ_j |region_j| = τ·n and every leaf region is a product set of the right size.
    CHECK(m.cell_start.back() == 8u * 72u);
    for (int l = 0; l < e.n_leaves; ++l) {
      uint64_t size = 1;
      int tested = 0;
      for (std::size_t a = 0; a < 4; ++a) {
        const int code = e.leaf_codes[static_cast<std::size_t>(l) * 4 + a];
        if (code < 0) size *= static_cast<uint64_t>(e.sizes[a]);
        else ++tested;
      }
      CHECK(tested == 3);  // h = 3 < d̄ = 4: every path tests 3 distinct attributes
      CHECK(m.cell_start[static_cast<std::size_t>(l) + 1] - m.cell_start[static_cast<std::size_t>(l)] == size);
    }
    // Depth larger than d̄ gives full-depth trees: n leaves per tree.
    Rng r2(3);
    Ensemble full = build_ensemble({0, 1}, {3, 2}, 2, 5, r2);
    CHECK(full.n_leaves == 12);
  }

  TEST_CASE("Discretiser: right-closed cut-offs and categorical codes; missing cut-offs are an error") {
    Schema s;
    s.features = {{"x", FeatureKind::kNumeric, 0, 10, {}}, {"c", FeatureKind::kCategorical, 0, 0, {"a", "b", "c"}}};
    s.target.classes = {"0", "1"};
    Dataset d("t", s);
    for (double v : {0.5, 5.0, 5.01, 7.0, 9.0}) {
      double row[2] = {v, 2};
      d.add_row(row, 0);
    }
    Discretiser disc(s, "x=5/7");
    CHECK(disc.size(0) == 3);
    CHECK(disc.size(1) == 3);
    std::vector<uint32_t> rows = all_rows(5);
    std::vector<int> codes = disc.encode(d, rows);
    CHECK(codes == std::vector<int>{0, 2, 0, 2, 1, 2, 1, 2, 2, 2});
    CHECK_THROWS_AS(Discretiser(s, ""), Error);
    CHECK_THROWS_AS(Discretiser(s, "c=1/2"), Error);
    CHECK_THROWS_AS(Discretiser(s, "y=1"), Error);
  }

  TEST_CASE("Discretiser: equal-width:K cuts every numeric public domain into K bins, data-independently") {
    Schema s;
    s.features = {{"x", FeatureKind::kNumeric, 0, 10, {}}, {"c", FeatureKind::kCategorical, 0, 0, {"a", "b", "c"}}};
    s.target.classes = {"0", "1"};
    Dataset d("t", s);
    for (double v : {0.0, 2.5, 2.6, 5.0, 7.4, 10.0}) {
      double row[2] = {v, 1};
      d.add_row(row, 0);
    }
    Discretiser disc(s, "equal-width:4");  // cut-offs 2.5 / 5 / 7.5, right-closed
    CHECK(disc.size(0) == 4);
    CHECK(disc.size(1) == 3);
    std::vector<int> codes = disc.encode(d, all_rows(6));
    CHECK(codes == std::vector<int>{0, 1, 0, 1, 1, 1, 1, 1, 2, 1, 3, 1});
    CHECK_THROWS_AS(Discretiser(s, "equal-width:1"), Error);
    CHECK_THROWS_AS(Discretiser(s, "equal-width:4x"), Error);
    CHECK_THROWS_AS(Discretiser(s, "equal-width:"), Error);
    // A one-point public domain (a constant column, e.g. Image Segmentation's REGION-PIXEL-COUNT = 9):
    // its value c is the one cut-off, every in-domain row codes 0; an infinite domain is still an error.
    Schema one = s;
    one.features[0].lo = one.features[0].hi = 9.0;
    Dataset dc("t", one);
    for (int i = 0; i < 3; ++i) {
      double row[2] = {9.0, static_cast<double>(i)};
      dc.add_row(row, 0);
    }
    Discretiser flat(one, "equal-width:4");
    CHECK(flat.size(0) == 2);
    CHECK(flat.cuts(0) == std::vector<double>{9.0});
    CHECK(flat.encode(dc, all_rows(3)) == std::vector<int>{0, 0, 0, 1, 0, 2});
    one.features[0].hi = INFINITY;
    CHECK_THROWS_AS(Discretiser(one, "equal-width:4"), Error);
  }
}
