// PrivacyLedger (design.md §4): every mechanism call is recorded as (mechanism, epsilon,
// sensitivity, scope). Scopes form a tree that mirrors the data flow: a scope composes its children
//   - sequentially (sum)  when they read the same records (trees that share rows, candidates at
//     one node under conservative accounting, the levels of a path),
//   - in parallel (max)   when they read disjoint records (children of a node, partitioned trees).
// A scope's own charges always add up sequentially with its composed children.
//
// "Claimed parallel" scopes record the DiPriMeExp/Flip claim that the K candidate medians of one
// node cost one epsilon (dipreme.md §4 P1, privacy.md §6.5): the claimed accounting composes them by
// max, the conservative accounting by sum. Both totals are reported.
//
// A charge may be marked uncertified: the mechanism as published is not epsilon-DP (privacy.md §6),
// so its epsilon is a claim, not a guarantee. certified() is false if any charge is.
//
// zCDP charges (charge_zcdp) record rho instead of epsilon: rho-zCDP mechanisms such as the
// discrete Gaussian (mechanisms.hpp). rho composes through the same scope tree: sum for sequential
// scopes (zCDP composes additively, Bun & Steinke 2016 §1.2), max for parallel ones (a record in
// disjoint parts is seen by one child only). Pure-epsilon accounting (spent(),
// check_within(requested)) ignores them; a ledger that holds any is reported as (epsilon, delta) by
// epsilon_for(delta). A ledger without zCDP charges keeps its pure guarantee: epsilon_for(delta) ==
// spent() and delta is 0.
//
// Approximate-DP charges (charge_approx) record a mechanism that is (epsilon, delta)-DP but neither
// pure nor zCDP, e.g. Lumberjack's Gaussian sparse-histogram pruning (lumberjack.md §3, §3.2). They
// compose through the scope tree componentwise: (sum, sum) in sequential scopes, (max, max) in
// parallel ones (a record in disjoint parts is seen by one child only; a (e_i, d_i)-DP child is also
// (max e, max d)-DP). They are kept apart from the rest of the ledger and added by basic sequential
// composition (Dwork & Roth 2014, Thm 3.16): epsilon_for(delta) = E_a + epsilon_rest(delta - D_a),
// where (E_a, D_a) is their composed total and epsilon_rest is the pure / zCDP accounting below at the
// remaining delta. Pure-epsilon accounting (spent(), check_within(requested)) ignores them, and a
// ledger that holds any cannot pass the pure check. Ledgers without such charges are unchanged.
//
// Gaussian-DP charges (charge_gdp) record mu: a mu-GDP mechanism (core/privacy/gdp.hpp), e.g. the
// Gaussian mechanism with l2 sensitivity Delta and sigma = Delta / mu. mu^2 composes through the scope
// tree: sum in sequential scopes (Dong, Roth & Su 2022 Cor. 3.3: sqrt(sum mu_i^2)-GDP), max in parallel
// ones. A ledger whose only charges are GDP (and approximate-DP) ones converts the composed mu exactly:
// epsilon_for(delta) = gdp_epsilon(mu, delta) (DRS Cor. 2.13). Next to pure or zCDP charges, each GDP
// charge enters the zCDP / Renyi accounting as (mu^2 / 2)-zCDP (gdp.hpp), a valid but looser route.
//
// Rényi-DP charges (charge_rdp) record a mechanism by its RDP curve at the integer orders of
// core/privacy/rdp.hpp, e.g. one round of S-BDT's Poisson-subsampled Gaussian leaves (s-bdt.md §4).
// At each order they compose like every other charge through the scope tree (sum sequential, max
// parallel) together with the pure charges (min(E, alpha S)) and the zCDP ones (alpha rho); a ledger
// that holds any is converted by epsilon_for(delta) as the smaller of the real-order minimisation of
// (a) below and a full scan of the integer orders 2..kRdpMaxOrder with the same CKS20 conversion (the
// accountant S-BDT calibrates with, so a fit calibrated to (epsilon, delta) passes its own check).
// Charging the same curve repeatedly in one scope stores it once with a multiplicity.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <utility>
#include <functional>
#include <string>
#include <vector>

namespace dpf {

class RdpCurve;

enum class Composition { kSequential, kParallel, kClaimedParallel };

class PrivacyLedger {
 public:
  using ScopeId = int32_t;
  static constexpr ScopeId kRoot = 0;

  explicit PrivacyLedger(Composition root = Composition::kSequential);

  // Opens a child of `parent` (which must exist). Cheap: one push_back into the scope vector.
  ScopeId open_scope(ScopeId parent, Composition kind, std::string label = {});
  // Records one mechanism call. epsilon must be > 0 and finite; sensitivity > 0 and finite; scope
  // must exist (dpf::Error otherwise). `mechanism` names the kind for summary() (e.g. "laplace").
  // No allocation after the first call of each mechanism kind.
  void charge(ScopeId scope, const char* mechanism, double epsilon, double sensitivity, bool certified = true);
  // Records one rho-zCDP mechanism call (e.g. the discrete Gaussian with l2 sensitivity Delta and
  // sigma^2 = Delta^2 / (2 rho)). rho > 0 finite, l2_sensitivity > 0 finite, scope must exist.
  void charge_zcdp(ScopeId scope, const char* mechanism, double rho, double l2_sensitivity, bool certified = true);
  // Records one (epsilon, delta)-DP mechanism call that is not accounted as pure or zCDP (see the
  // header comment). epsilon > 0 finite, delta in (0, 1), sensitivity > 0 finite (the mechanism's own
  // notion, e.g. the l2 sensitivity sqrt(k) of the k counts one record touches), scope must exist.
  void charge_approx(ScopeId scope, const char* mechanism, double epsilon, double delta, double sensitivity,
                     bool certified = true);
  // Records one mu-GDP mechanism call (see the header comment). mu > 0 finite, l2_sensitivity > 0
  // finite, scope must exist.
  void charge_gdp(ScopeId scope, const char* mechanism, double mu, double l2_sensitivity, bool certified = true);
  // Records one Rényi-DP mechanism call with RDP curve `curve` (see the header comment). curve must be
  // non-null, sensitivity > 0 finite (the mechanism's own l2 notion), scope must exist.
  void charge_rdp(ScopeId scope, const char* mechanism, std::shared_ptr<const RdpCurve> curve, double sensitivity,
                  bool certified = true);

  // Composed epsilon of a scope (default: the whole fit) under the claimed accounting and under the
  // conservative accounting (claimed-parallel scopes summed). Scope s composes to
  //   own(s) + (sum or max over its children of their composed values);
  // an empty parallel scope contributes 0. O(number of scopes below s).
  double spent(ScopeId scope = kRoot) const;
  double spent_conservative(ScopeId scope = kRoot) const;
  // Composed rho of the zCDP charges only (pure-epsilon charges excluded), claimed / conservative.
  double rho_spent(ScopeId scope = kRoot) const;
  double rho_spent_conservative(ScopeId scope = kRoot) const;
  // Every charge as zCDP: pure epsilon charges converted to epsilon^2 / 2 (Bun & Steinke 2016,
  // Prop. 1.4) and composed with the zCDP charges through the scope tree.
  double rho_equivalent(ScopeId scope = kRoot, bool conservative = false) const;
  bool has_zcdp() const { return n_zcdp_ > 0; }
  bool has_approx() const { return n_approx_ > 0; }
  bool has_rdp() const { return n_rdp_ > 0; }
  // Composed (epsilon, delta) of the charge_approx charges only (claimed / conservative); (0, 0) if none.
  double approx_epsilon(ScopeId scope = kRoot, bool conservative = false) const;
  double approx_delta(ScopeId scope = kRoot, bool conservative = false) const;
  std::size_t n_zcdp_charges() const { return n_zcdp_; }
  bool has_gdp() const { return n_gdp_ > 0; }
  // Composed mu of the GDP charges only (sqrt of the composed mu^2; claimed / conservative); 0 if none.
  double mu_spent(ScopeId scope = kRoot, bool conservative = false) const;

  // The (epsilon, delta)-DP guarantee of the whole fit (claimed accounting unless conservative).
  //  * No zCDP charges: spent() (or spent_conservative()), exactly; the guarantee has delta 0.
  //  * Otherwise: delta in (0, 1) is required, and the result is the smaller of two valid bounds:
  //    (a) Renyi-DP accounting: each scope's own pure charges give D_alpha <= min(E, alpha S)
  //        (E = sum of epsilons: pure DP bounds every Renyi divergence; S = sum of epsilon^2/2:
  //        Bun & Steinke 2016 Prop. 1.4), its zCDP charges alpha * rho (BS16 Def. 1.1), composed
  //        by sum / max through the tree for each alpha, then converted with Canonne, Kamath &
  //        Steinke 2020 Prop. 12 (see zcdp_to_epsilon_cks) minimised over alpha on a grid; any
  //        alpha > 1 gives a valid bound, so an inexact minimum is only less tight.
  //    (b) zcdp_to_epsilon(rho_equivalent(), delta): everything converted to rho and added.
  //    (a) is never worse than spent() + zcdp_to_epsilon_cks(rho_spent()), the basic composition.
  //  * With charge_approx charges of composed total (E_a, D_a): delta >= D_a is required (and > D_a
  //    when zCDP charges exist), and the result is E_a + the value above at delta - D_a.
  double epsilon_for(double delta, bool conservative = false) const;
  // The composed Rényi-DP bound at integer order alpha in [kRdpMinOrder, kRdpMaxOrder] of a scope
  // (default: the whole fit), as epsilon_for's integer scan reads it: pure charges min(E, alpha S), zCDP
  // alpha rho, GDP alpha mu^2 / 2, RDP curves at alpha; sum in sequential scopes, max in parallel ones.
  // A ledger with approximate-DP charges has no Rényi-DP bound: dpf::Error naming them (summary()).
  double rdp_at(int alpha, ScopeId scope = kRoot, bool conservative = false) const;
  bool certified() const { return certified_; }
  std::size_t n_charges() const { return n_charges_; }
  std::size_t n_scopes() const { return scopes_.size(); }

  // Grafts another ledger (e.g. one tree fitted on another thread) under `parent`: its root scope
  // becomes a child of `parent`, its charges and tallies are added. Results equal charging here.
  void absorb(ScopeId parent, const PrivacyLedger& other);

  // Throws dpf::Error naming `who` if spent() exceeds requested by more than a relative 1e-9 (the
  // float-summation slack of pipelinedp4j's NaiveBudgetAccountant, privacy.md §1.2). The message
  // gives both accountings and the summary. requested must be finite and >= 0.
  // A ledger with zCDP or approximate-DP charges has no pure-epsilon guarantee: this overload then
  // throws, naming the (epsilon, delta) overload below.
  void check_within(double requested, const std::string& who) const;
  // Throws dpf::Error naming `who` if epsilon_for(delta) exceeds epsilon by more than a relative
  // 1e-9. For a ledger without zCDP or approximate-DP charges this is check_within(epsilon, who).
  void check_within(double epsilon, double delta, const std::string& who) const;

  // One line per mechanism kind, in order of first use: "name: calls=N epsilon=E", with
  // " (uncertified)" appended if any of its charges was uncertified (for describe()). Kinds
  // charged in zCDP print "rho=R" in place of (or, if charged both ways, after) "epsilon=E".
  std::string summary() const;
  // The per-kind tallies (one per mechanism kind, in order of first use): sums over the kind's calls,
  // not composed totals (breakdown() gives those).
  struct Entry {
    std::string mechanism;
    std::size_t calls = 0;
    double epsilon = 0.0;  // sum of the kind's pure charges (sequential sum, not the composed total)
    double rho = 0.0;      // sum of the kind's zCDP charges
    bool certified = true;
    double mu = 0.0;  // sqrt of the sum of the kind's GDP mu^2 (their sequential composition)
  };
  std::vector<Entry> entries() const;
  // Each mechanism kind's share of the fit's composed guarantee, in order of first use, so that the
  // shares add up to the composed total (epsilon_for(delta); spent() for a pure ledger). A scope's
  // shares are its own charges plus, for a sequential scope, the sum of its children's shares and,
  // for a parallel one, the shares of the child that composes to the most (the worst-case record sits
  // there; the first such child on a tie): the same walk as spent(), keeping who paid. Charges that
  // epsilon_for converts together to (epsilon, delta) split the converted epsilon in proportion to
  // their shares of what it converts (rho-equivalents; mu^2 when only GDP charges are converted): the
  // conversion is not additive, so this is a presentation. The approximate-DP charges keep their own
  // (epsilon, delta) shares. Claimed accounting. The Python binding's ledger_.
  struct Share {
    std::string mechanism;
    std::size_t calls = 0;
    double epsilon = 0.0;  // share of the composed epsilon
    double delta = 0.0;    // share of the composed delta (charge_approx charges)
    double rho = 0.0;      // share of the composed rho of the zCDP charges
    double mu = 0.0;       // share of the composed mu of the GDP charges (the root of its mu^2 share)
    bool certified = true;
  };
  // delta: as epsilon_for (ignored by a ledger without zCDP, GDP or approximate-DP charges).
  std::vector<Share> breakdown(double delta = 0.0) const;
  // One line about a scope: label, kind, own charges, children and both composed totals (debugging).
  std::string describe_scope(ScopeId s) const;

 private:
  struct Scope {
    ScopeId parent;
    Composition kind;
    std::string label;
    double own = 0.0;  // sum of direct charges
    double own_sq = 0.0;   // sum of epsilon^2 / 2 over the direct pure charges
    double own_rho = 0.0;  // sum of the direct zCDP charges
    double own_approx_eps = 0.0;    // sum of the direct charge_approx epsilons
    double own_approx_delta = 0.0;  // and deltas
    std::vector<std::pair<int32_t, double>> own_rdp;  // (index into curves_, multiplicity)
    std::vector<ScopeId> children;
    double own_mu2 = 0.0;  // sum of mu^2 over the direct GDP charges
    // The direct charges again, per mechanism kind (index into tallies_), for breakdown().
    struct KindAmount {
      uint32_t kind = 0;
      double epsilon = 0.0, sq = 0.0, rho = 0.0, approx_eps = 0.0, approx_delta = 0.0, mu2 = 0.0;
      std::vector<std::pair<int32_t, double>> rdp;  // (index into curves_, multiplicity)
    };
    std::vector<KindAmount> by_kind;
    KindAmount& amount(uint32_t kind);
  };
  template <class Own>
  double walk(ScopeId s, bool conservative, const Own& own) const;
  double compose(ScopeId s, bool conservative) const;
  double compose_rho(ScopeId s, bool conservative, bool with_pure) const;
  double compose_rdp(ScopeId s, bool conservative, double alpha) const;
  double compose_approx(ScopeId s, bool conservative, bool delta) const;
  double epsilon_without_approx(double delta, bool conservative) const;
  void check_scope(ScopeId s, const char* what) const;
  std::vector<Scope> scopes_;
  struct Tally {
    std::string mechanism;
    std::size_t calls = 0;
    double epsilon = 0.0;
    double rho = 0.0;
    double delta = 0.0;  // charge_approx charges only
    bool certified = true;
    double mu2 = 0.0;  // sum of the kind's GDP mu^2
    bool rdp = false;  // charged with charge_rdp
  };
  std::vector<Tally> tallies_;
  std::size_t last_tally_ = 0;  // the kind charged last: consecutive charges usually repeat it
  std::size_t n_charges_ = 0;
  std::size_t n_zcdp_ = 0;
  std::size_t n_approx_ = 0;
  std::size_t n_gdp_ = 0;
  std::size_t n_rdp_ = 0;
  std::vector<std::shared_ptr<const RdpCurve>> curves_;  // distinct curves of the charge_rdp charges
  double epsilon_with_rdp(double delta, bool conservative) const;
  Tally& tally(const char* name);
  Scope& charge_target(ScopeId scope, const char* fn, const char* name,
                       std::initializer_list<std::pair<const char*, double>> amounts);
  Tally& count_charge(const char* name, bool certified);
  uint32_t tally_index(const Tally& t) const { return static_cast<uint32_t>(&t - tallies_.data()); }
  // Per-kind shares of scope s for the quantity `pick` reads from a KindAmount (breakdown()).
  template <class Pick>
  std::vector<double> shares(ScopeId s, const Pick& pick) const;
  bool certified_ = true;
};

// ---- Conversions between pure DP, zCDP and (epsilon, delta)-DP -------------------------------
// epsilon-DP implies (epsilon^2 / 2)-zCDP (Bun & Steinke 2016, "Concentrated Differential Privacy:
// Simplifications, Extensions, and Lower Bounds", Prop. 1.4).
double pure_to_zcdp(double epsilon);
// rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP for delta in (0, 1) (BS16 Prop. 1.3).
double zcdp_to_epsilon_bs16(double rho, double delta);
// Canonne, Kamath & Steinke 2020 ("The Discrete Gaussian for Differential Privacy", §2.3, Prop. 12
// applied to rho-zCDP = (alpha, alpha rho)-RDP for every alpha > 1, their Cor. 13): rho-zCDP implies
// (epsilon, delta)-DP with
//   epsilon = inf_{alpha > 1} alpha rho + log(1 / (alpha delta)) / (alpha - 1) + log(1 - 1/alpha).
// The derivative in alpha is rho - log(1/(alpha delta)) / (alpha - 1)^2, increasing, so the
// minimiser is the unique root, found by bisection. rho >= 0 finite (rho = 0 gives 0), delta in (0, 1).
// For tiny rho and large delta the infimum can dip below 0 (by at most -log(1 - delta)); 0 is returned.
double zcdp_to_epsilon_cks(double rho, double delta);
// min of the two above (both valid; CKS20 is the tighter in every case we tested).
double zcdp_to_epsilon(double rho, double delta);
// The same conversion for a Renyi-DP curve: inf over alpha of curve(alpha) + log(1/(alpha delta)) /
// (alpha - 1) + log(1 - 1/alpha), minimised on a log grid of alpha - 1 in [1e-4, 1e7] and refined by
// golden section around the best grid point (a valid bound at any alpha).
double rdp_to_epsilon(const std::function<double(double)>& curve, double delta);
// The largest rho whose conversion zcdp_to_epsilon(rho, delta) is <= epsilon (bisection to a
// relative 1e-12; the returned end always satisfies the bound). For configs that give a target
// (epsilon, delta), e.g. Lumberjack's leaf budget (lumberjack.md §3). epsilon > 0 finite, delta in (0, 1).
double rho_for_target(double epsilon, double delta);

}  // namespace dpf
