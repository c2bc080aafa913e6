// Strategy optimisation against the reference values of matrix-rf.md §4.1 and §4.4.
#include <doctest/doctest.h>

#include "algorithms/matrix_rf/strategy.hpp"
#include "core/util/error.hpp"

using namespace dpf;
using namespace dpf::mrf;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

MatrixXd test_workload() {  // rows 1100, 0011, 1010, 0101, 1111 (§4.1 table)
  MatrixXd w(5, 4);
  w << 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1;
  return w;
}

MatrixXd prefix(int n) {
  MatrixXd w = MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) w(i, j) = 1;
  return w;
}

GramOperator gram(const MatrixXd& w) { return GramOperator::dense(w.transpose() * w); }

void check_value(const MatrixXd& w, const VectorXd& theta, double f, const std::vector<double>& g) {
  for (int path = 0; path < 2; ++path) {  // n × n form and matrix-free Woodbury form
    VectorXd grad;
    double got = path == 0 ? pidentity_loss(gram(w), 1, theta, &grad) : pidentity_loss_implicit(gram(w), 1, theta, &grad);
    CHECK(got == doctest::Approx(f).epsilon(1e-9));
    for (int j = 0; j < 4; ++j) CHECK(grad[j] == doctest::Approx(g[static_cast<std::size_t>(j)]).epsilon(1e-7));
  }
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("p-Identity loss and gradient match the spec's reference table (§4.1)") {
    check_value(test_workload(), VectorXd::Zero(4), 12, {6, 6, 6, 6});
    check_value(test_workload(), VectorXd::Constant(4, 0.5), 18, {1.5, 1.5, 1.5, 1.5});
    VectorXd t(4);
    t << 0.1, 0.2, 0.3, 0.4;
    check_value(test_workload(), t, 16.12692307692, {3.05739645, 2.77633136, 2.31065089, 1.66035503});
    check_value(prefix(4), VectorXd::Zero(4), 10, {8, 6, 4, 2});
    check_value(prefix(4), VectorXd::Constant(4, 0.5), 14.0625, {1.21875, -0.28125, -0.28125, 1.21875});
  }

  TEST_CASE("p-Identity gradient agrees with central finite differences for p = 1, 2, 3") {
    Rng rng(7);
    for (int p = 1; p <= 3; ++p) {
      GramOperator g = gram(prefix(6));
      VectorXd x(p * 6);
      for (int i = 0; i < x.size(); ++i) x[i] = rng.uniform();
      VectorXd grad, grad_implicit;
      const double f = pidentity_loss(g, p, x, &grad);
      CHECK(pidentity_loss_implicit(g, p, x, &grad_implicit) == doctest::Approx(f).epsilon(1e-10));
      CHECK((grad - grad_implicit).norm() < 1e-8 * grad.norm());
      for (int i = 0; i < x.size(); ++i) {
        const double h = 1e-6;
        VectorXd a = x, b = x;
        a[i] += h;
        b[i] -= h;
        const double fd = (pidentity_loss(g, p, a, nullptr) - pidentity_loss(g, p, b, nullptr)) / (2 * h);
        CHECK(grad[i] == doctest::Approx(fd).epsilon(1e-5));
      }
    }
  }

  TEST_CASE("p-Identity optimum on Prefix(16) reaches the published 105.81 (identity 136)") {
    double best = 1e300;
    for (uint64_t s = 0; s < 3; ++s) {
      Rng rng(s);
      best = std::min(best, optimise_pidentity(gram(prefix(16)), 1, rng).loss);
    }
    CHECK(best == doctest::Approx(105.8086).epsilon(2e-4));
    Rng rng(1);
    CHECK(optimise_pidentity(gram(prefix(64)), 4, rng).loss < 0.45 * 2080);  // spec: 906.78
  }

  TEST_CASE("PIdentityStart: restarts keep the best start; a start near identity stays at identity (a KKT point)") {
    // Default start = one Uniform[0,1) run (bit-identical to the authors' single start); restarts
    // begin with that same run, so their best can only be lower or equal.
    Rng a(7), b(7), c(7);
    const double one = optimise_pidentity(gram(prefix(16)), 1, a).loss;
    const double same = optimise_pidentity(gram(prefix(16)), 1, b, PIdentityStart{}).loss;
    CHECK(one == same);
    const double five = optimise_pidentity(gram(prefix(16)), 1, c, PIdentityStart{5, 1.0}).loss;
    CHECK(five <= one);
    CHECK(five == doctest::Approx(105.8086).epsilon(2e-4));
    // Identity (Θ = 0) is a KKT point of the bound-constrained problem: at Θ = 0 the gradient is
    // 2·1·diag(G)ᵀ ≥ 0 (§4.1 with H = G, s = 1), pointing out of the feasible set, so a start near 0
    // returns to identity's loss 136 even where the optimum is 105.81.
    Rng d(7);
    CHECK(optimise_pidentity(gram(prefix(16)), 1, d, PIdentityStart{1, 1e-3}).loss == doctest::Approx(136).epsilon(1e-6));
    Rng e(7);
    CHECK_THROWS_AS(optimise_pidentity(gram(prefix(4)), 1, e, PIdentityStart{0, 1.0}), Error);
  }

  TEST_CASE("p > n: the n × n form stays exact where the Woodbury form cancels (p = 16, n = 2)") {
    Rng rng(9);
    MatrixXd w(3, 2);
    w << 1, 0, 0, 1, 1, 1;
    GramOperator g = gram(w);
    Factor f = best_template(g, 16, INFINITY, rng);
    // The reported loss must be the true loss of the returned strategy: tr(G (AᵀA)⁻¹).
    CHECK(f.loss == doctest::Approx((g.apply(MatrixXd::Identity(2, 2)) * f.gram_pinv()).trace()).epsilon(1e-9));
  }

  TEST_CASE("best_template keeps Identity on Prefix(8), where p-Identity only ties (36.0095 > 36)") {
    Rng rng(3);
    Factor f = best_template(gram(prefix(8)), 1, INFINITY, rng);
    CHECK(f.kind == Template::kIdentity);
    CHECK(f.loss == doctest::Approx(36));
  }

  TEST_CASE("Factor pseudo-inverses: A⁺A = I and (AᵀA)⁻¹ for a p-Identity factor") {
    Factor f;
    f.kind = Template::kPIdentity;
    f.n = 3;
    f.theta = MatrixXd(2, 3);
    f.theta << 0.2, 0.5, 1.0, 0.3, 0.0, 0.7;
    const Eigen::VectorXd s = Eigen::VectorXd::Ones(3) + f.theta.colwise().sum().transpose();
    MatrixXd a(5, 3);
    a << MatrixXd::Identity(3, 3), f.theta;
    a = a * s.cwiseInverse().asDiagonal();
    CHECK(a.cwiseAbs().colwise().sum().maxCoeff() == doctest::Approx(1.0));
    MatrixXd pinv = f.apply_pinv(MatrixXd::Identity(5, 5));
    CHECK((pinv * a - MatrixXd::Identity(3, 3)).norm() < 1e-12);
    CHECK((f.gram_pinv() - (a.transpose() * a).inverse()).norm() < 1e-10);
  }

  TEST_CASE("OPT⊗ on the single Kronecker workload Prefix(16)⊗Prefix(16) separates: 105.81² ≈ 11195.5 (§4.4, §4.5)") {
    // Prefix rows are not ALL/one-hot codes, so the separable product of the per-factor optimum is
    // what is checked here (identity: 136² = 18496).
    Rng rng(5);
    double f1 = optimise_pidentity(gram(prefix(16)), 1, rng).loss;
    CHECK(f1 * f1 == doctest::Approx(11195.5).epsilon(1e-3));
  }

  TEST_CASE("Kronecker optimisation of tree-path workloads keeps Identity and gives τ·n") {
    // Two trees over sizes {3, 2}: tree 1 splits attribute 0, tree 2 attribute 1 (§1.5 Figure 1).
    KronWorkload w;
    w.sizes = {3, 2};
    w.codes = {0, -1, 1, -1, 2, -1, -1, 0, -1, 1};
    Rng rng(11);
    KronStrategy ks = optimise_kron(w, 1, rng);
    CHECK(ks.identity_loss == doctest::Approx(2 * 6));
    CHECK(ks.loss == doctest::Approx(2 * 6).epsilon(1e-6));
    CHECK(ks.templates() == "II");
    CHECK(kron_loss(w, ks.factors) == doctest::Approx(ks.loss));
  }

  TEST_CASE("Kronecker strategy: an attribute no path tests picks Total, and A⁺ by mode products is ⊗A_i⁺") {
    KronWorkload w;
    w.sizes = {3, 2};
    w.codes = {0, -1, 1, -1, 2, -1};  // attribute 1 never tested
    Rng rng(2);
    KronStrategy ks = optimise_kron(w, 1, rng);
    CHECK(ks.templates()[1] == 'T');
    CHECK(ks.loss < ks.identity_loss);
    // Check apply_pinv against the explicit Kronecker product on a random Z.
    MatrixXd z(ks.factors[0].rows() * ks.factors[1].rows(), 2);
    Rng zr(4);
    for (int i = 0; i < z.size(); ++i) z.data()[i] = zr.uniform();
    MatrixXd p0 = ks.factors[0].apply_pinv(MatrixXd::Identity(ks.factors[0].rows(), ks.factors[0].rows()));
    MatrixXd p1 = ks.factors[1].apply_pinv(MatrixXd::Identity(ks.factors[1].rows(), ks.factors[1].rows()));
    MatrixXd kron(p0.rows() * p1.rows(), p0.cols() * p1.cols());
    for (int a = 0; a < p0.rows(); ++a)
      for (int b = 0; b < p0.cols(); ++b) kron.block(a * p1.rows(), b * p1.cols(), p1.rows(), p1.cols()) = p0(a, b) * p1;
    CHECK((ks.apply_pinv(z) - kron * z).norm() < 1e-12);
  }

  TEST_CASE("privacy.md §6.6: W·A⁺·A = W and ||A||₁ = 1 (brute-force column norms) for an optimised Kronecker strategy") {
    // Tree workload over sizes {3, 2} with attribute 1 never tested (Total wins there) plus a p = 2
    // p-Identity factor forced on attribute 0, so all three templates appear.
    KronWorkload w;
    w.sizes = {3, 2};
    w.codes = {0, -1, 1, -1, 2, -1};
    Rng rng(8);
    KronStrategy ks = optimise_kron(w, 1, rng);
    ks.factors[0].kind = Template::kPIdentity;
    ks.factors[0].theta = MatrixXd(2, 3);
    ks.factors[0].theta << 0.3, 0.1, 0.8, 0.2, 0.5, 0.0;
    auto explicit_factor = [](const Factor& f) -> MatrixXd {
      if (f.kind == Template::kIdentity) return MatrixXd::Identity(f.n, f.n);
      if (f.kind == Template::kTotal) return MatrixXd::Ones(1, f.n);
      const Eigen::VectorXd s = Eigen::VectorXd::Ones(f.n) + f.theta.colwise().sum().transpose();
      MatrixXd a(f.n + f.theta.rows(), f.n);
      a << MatrixXd::Identity(f.n, f.n), f.theta;
      return a * s.cwiseInverse().asDiagonal();
    };
    const MatrixXd a0 = explicit_factor(ks.factors[0]), a1 = explicit_factor(ks.factors[1]);
    MatrixXd a(a0.rows() * a1.rows(), a0.cols() * a1.cols());
    for (int i = 0; i < a0.rows(); ++i)
      for (int j = 0; j < a0.cols(); ++j) a.block(i * a1.rows(), j * a1.cols(), a1.rows(), a1.cols()) = a0(i, j) * a1;
    double max_col = 0;
    for (int j = 0; j < a.cols(); ++j) max_col = std::max(max_col, a.col(j).cwiseAbs().sum());
    CHECK(max_col == doctest::Approx(1.0));
    MatrixXd t(3, 6);  // leaves: outlook = v (windy all), domain order (outlook, windy)
    t << 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1;
    const MatrixXd pinv = ks.apply_pinv(MatrixXd::Identity(a.rows(), a.rows()));  // A⁺ (6 × m)
    CHECK((t * pinv * a - t).norm() < 1e-12);
  }
}
