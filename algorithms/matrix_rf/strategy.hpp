// Strategy optimisation for the matrix mechanism (matrix-rf.md §4; HDMM, McKenna et al. 2018, as
// called by Tajima, Wu & Houmansadr 2025 "OPT" in Alg. 1 line 1, Alg. 2 line 2, Alg. 3 line 5).
//
// The workload enters only through its Gram matrix G = WᵀW, given as an operator (products G·V and
// diag(G)), so a workload over a large domain is never materialised: the tree workloads of
// matrix_rf/forest.hpp apply G by routing domain cells through the trees.
//
// p-Identity template (§4.1): A(Θ) = [I_n; Θ]·diag(1/s), s = 1 + column sums of Θ ≥ 0, so
// ||A||₁ = 1 and the objective ||A||₁²·||WA⁺||_F² is f(Θ) = tr(G (AᵀA)⁻¹) = tr(SGS·P) with
// P = (I + ΘᵀΘ)⁻¹ = I − ΘᵀRΘ, R = (I_p + ΘΘᵀ)⁻¹. With U = ΘS and M = U·G (p G-products):
//   f = Σ_x s_x² G_xx − tr(R·U·Mᵀ),
//   ∇f = −2·R·(MS − MSΘᵀRΘ) + 2·1_p vᵀ,  v = diag(G)∘s − Σ_r θ_r ∘ (RM)_r,
// which is the spec's ∇f = −2ΘH + 2·1vᵀ, H = P(SGS)P, using ΘP = RΘ (no n×n matrix anywhere).
#pragma once
// Eigen must not start its own OpenMP threads inside a task (design.md §6: the runner owns threads).
#ifndef EIGEN_DONT_PARALLELIZE
#define EIGEN_DONT_PARALLELIZE
#endif
#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "core/privacy/rng.hpp"

namespace dpf::mrf {

// G = WᵀW of a workload over a domain of size n, as an operator.
struct GramOperator {
  Eigen::Index n = 0;
  Eigen::VectorXd diag;                                        // diag(G)
  std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)> apply;  // G·V for V (n × c)
  Eigen::MatrixXd matrix;  // G itself when it is small enough to hold (set by dense() / densified())
  GramOperator densified() const;  // a copy holding G (n ≤ kDenseLimit)
  static GramOperator dense(const Eigen::MatrixXd& g);
  // diag(a) + beta·J (the per-attribute Gram of a union-of-Kronecker workload, §4.4 step 2b).
  static GramOperator diag_plus_ones(const Eigen::VectorXd& a, double beta);
};

// f(Θ) and ∇f for Θ (p × n, column-major in x). Returns +inf (gradient zero) when the inverse
// cannot be formed or f < 0, as HDMM does (§4.1). Small domains, and p close to n, use the n × n
// form (stable when p ≥ n, where the Woodbury form cancels catastrophically once Θ grows); the
// others the matrix-free form above (p G-products per evaluation, O(pn) memory).
inline constexpr Eigen::Index kDenseLimit = 512;
inline bool use_dense_form(Eigen::Index n, int p) { return n <= 64 || (n <= kDenseLimit && 4 * p >= n); }
double pidentity_loss(const GramOperator& g, int p, const Eigen::VectorXd& x, Eigen::VectorXd* grad);
double pidentity_loss_implicit(const GramOperator& g, int p, const Eigen::VectorXd& x, Eigen::VectorXd* grad);

struct PIdentityResult {
  Eigen::MatrixXd theta;  // p × n, entries ≥ 0
  double loss = 0.0;
  int iterations = 0;
  bool line_search_failed = false;
};

// Starting points of the p-Identity optimisation. The authors' OPT (§4.2): one start, Θ i.i.d.
// Uniform[0,1). Investigation options: Θ i.i.d. Uniform[0, init_scale) (a small scale starts near
// identity; but Θ = 0 is a KKT point, ∇f(0) = 2·1·diag(G)ᵀ ≥ 0, so such starts return to identity)
// and the best of `restarts` independent starts.
struct PIdentityStart {
  int restarts = 1;
  double init_scale = 1.0;
};

// L-BFGS-B from a Uniform[0,1) start drawn from `rng` (§4.2: bounds [0, ∞), m = 10, gtol 1e-5,
// ftol 1e-4 as LBFGS++ past = 1 / delta = 1e-4, at most 15000 iterations, 20 line-search steps);
// with `start`, the best of start.restarts runs from Uniform[0, start.init_scale) starts.
PIdentityResult optimise_pidentity(const GramOperator& g, int p, Rng& rng, const PIdentityStart& start = {});

enum class Template { kIdentity, kTotal, kPIdentity };
const char* template_code(Template t);  // "I", "T", "P"

// One factor of a strategy: the template and, for p-Identity, Θ.
struct Factor {
  Template kind = Template::kIdentity;
  Eigen::Index n = 0;
  Eigen::MatrixXd theta;  // p-Identity only
  double loss = 0.0;      // ||A||₁²·tr(G (AᵀA)⁺) on the Gram it was chosen for
  Eigen::Index rows() const;  // m: n (Identity), 1 (Total), n + p (p-Identity)
  // (AᵀA)⁺ as a dense n × n matrix (small factors only: Kronecker attributes).
  Eigen::MatrixXd gram_pinv() const;
  // A⁺·Z for Z (rows() × k): Identity Z; Total 1·Z/n; p-Identity S·P·(Z_top + ΘᵀZ_bottom).
  Eigen::MatrixXd apply_pinv(const Eigen::MatrixXd& z) const;
};

// §4.3 BestTemplate: Identity, then Total (only when G ∝ J, given as `total_loss`, +inf otherwise),
// then p-Identity; a later template wins only with a strictly smaller loss (relative margin 1e-9,
// so float ties keep the earlier template).
Factor best_template(const GramOperator& g, int p, double total_loss, Rng& rng, bool try_pidentity = true,
                     const PIdentityStart& start = {});

// A union-of-Kronecker workload: rows ⊗_i u_{j,i}, u = 1 (code < 0) or e_code (matrix-rf.md §1.4).
struct KronWorkload {
  std::vector<int> sizes;   // n_i
  std::vector<int> codes;   // rows × sizes.size(), row-major; -1 = all-ones
  std::size_t rows() const { return sizes.empty() ? 0 : codes.size() / sizes.size(); }
};

struct KronStrategy {
  std::vector<Factor> factors;
  double loss = 0.0;           // ||TA⁺||_F² with ||A||₁ = 1 (§4.4 step 3)
  double identity_loss = 0.0;  // the same for A = I
  std::string templates() const;  // one code per attribute, e.g. "IIIIII"
  // A⁺·Z = (⊗ A_i⁺)·Z for Z (∏ m_i × k), by mode products (last attribute fastest).
  Eigen::MatrixXd apply_pinv(const Eigen::MatrixXd& z) const;
};

// §4.4: block-coordinate descent, exactly `sweeps` sweeps, per attribute §4.3 with a fresh
// p-Identity start on every call.
KronStrategy optimise_kron(const KronWorkload& w, int p, Rng& rng, int sweeps = 10, const PIdentityStart& start = {});
// The loss of a given Kronecker strategy on w: Σ_j ∏_i u_{j,i}ᵀ (A_iᵀA_i)⁺ u_{j,i}.
double kron_loss(const KronWorkload& w, const std::vector<Factor>& factors);

}  // namespace dpf::mrf
