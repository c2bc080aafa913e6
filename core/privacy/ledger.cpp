#include "core/privacy/ledger.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "core/privacy/gdp.hpp"
#include "core/privacy/rdp.hpp"
#include "core/util/error.hpp"

namespace dpf {
namespace {
const char* kind_name(Composition k) {
  switch (k) {
    case Composition::kSequential:
      return "sequential";
    case Composition::kParallel:
      return "parallel";
    case Composition::kClaimedParallel:
      return "claimed-parallel";
  }
  return "?";
}
}  // namespace

PrivacyLedger::PrivacyLedger(Composition root) { scopes_.push_back(Scope{-1, root, "root", 0.0, 0.0, 0.0, 0.0, 0.0, {}, {}, 0.0, {}}); }

PrivacyLedger::ScopeId PrivacyLedger::open_scope(ScopeId parent, Composition kind, std::string label) {
  if (parent < 0 || static_cast<std::size_t>(parent) >= scopes_.size())
    fail("PrivacyLedger::open_scope: parent scope ", parent, " does not exist (", scopes_.size(),
         " scopes open); open scopes with ids returned by open_scope or kRoot");
  const auto id = static_cast<ScopeId>(scopes_.size());
  scopes_.push_back(Scope{parent, kind, std::move(label), 0.0, 0.0, 0.0, 0.0, 0.0, {}, {}, 0.0, {}});
  scopes_[static_cast<std::size_t>(parent)].children.push_back(id);
  return id;
}

// The checks every charge kind shares, in one place: the scope exists, and each amount is > 0 and
// finite (each named in the error). Returns the scope to charge.
PrivacyLedger::Scope& PrivacyLedger::charge_target(ScopeId scope, const char* fn, const char* name,
                                                   std::initializer_list<std::pair<const char*, double>> amounts) {
  if (scope < 0 || static_cast<std::size_t>(scope) >= scopes_.size())
    fail("PrivacyLedger::", fn, "(", name, "): scope ", scope, " does not exist (", scopes_.size(), " scopes open)");
  for (const auto& [what, v] : amounts)
    if (!(v > 0.0) || !std::isfinite(v)) fail("PrivacyLedger::", fn, "(", name, "): ", what, " must be > 0 and finite, got ", v);
  return scopes_[static_cast<std::size_t>(scope)];
}

// Counts one charge of mechanism `name` and returns its tally for the amounts.
PrivacyLedger::Tally& PrivacyLedger::count_charge(const char* name, bool certified) {
  ++n_charges_;
  if (!certified) certified_ = false;
  Tally& t = tally(name);
  ++t.calls;
  if (!certified) t.certified = false;
  return t;
}

void PrivacyLedger::charge(ScopeId scope, const char* mechanism, double epsilon, double sensitivity,
                           bool certified) {
  const char* name = mechanism != nullptr ? mechanism : "(unnamed)";
  Scope& sc = charge_target(scope, "charge", name, {{"epsilon", epsilon}, {"sensitivity", sensitivity}});
  sc.own += epsilon;
  sc.own_sq += 0.5 * epsilon * epsilon;
  Tally& t = count_charge(name, certified);
  t.epsilon += epsilon;
  Scope::KindAmount& a = sc.amount(tally_index(t));
  a.epsilon += epsilon;
  a.sq += 0.5 * epsilon * epsilon;
}

void PrivacyLedger::charge_zcdp(ScopeId scope, const char* mechanism, double rho, double l2_sensitivity,
                                bool certified) {
  const char* name = mechanism != nullptr ? mechanism : "(unnamed)";
  Scope& sc = charge_target(scope, "charge_zcdp", name, {{"rho", rho}, {"l2 sensitivity", l2_sensitivity}});
  sc.own_rho += rho;
  ++n_zcdp_;
  Tally& t = count_charge(name, certified);
  t.rho += rho;
  sc.amount(tally_index(t)).rho += rho;
}

void PrivacyLedger::charge_approx(ScopeId scope, const char* mechanism, double epsilon, double delta,
                                  double sensitivity, bool certified) {
  const char* name = mechanism != nullptr ? mechanism : "(unnamed)";
  Scope& sc = charge_target(scope, "charge_approx", name, {{"epsilon", epsilon}, {"sensitivity", sensitivity}});
  if (!(delta > 0.0) || !(delta < 1.0))
    fail("PrivacyLedger::charge_approx(", name, "): delta must be in (0, 1), got ", delta);
  sc.own_approx_eps += epsilon;
  sc.own_approx_delta += delta;
  ++n_approx_;
  Tally& t = count_charge(name, certified);
  t.epsilon += epsilon;
  t.delta += delta;
  Scope::KindAmount& a = sc.amount(tally_index(t));
  a.approx_eps += epsilon;
  a.approx_delta += delta;
}

PrivacyLedger::Scope::KindAmount& PrivacyLedger::Scope::amount(uint32_t kind) {
  // A scope holds one or two kinds: a scan beats a map.
  for (KindAmount& a : by_kind)
    if (a.kind == kind) return a;
  by_kind.push_back(KindAmount{kind, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, {}});
  return by_kind.back();
}

void PrivacyLedger::charge_gdp(ScopeId scope, const char* mechanism, double mu, double l2_sensitivity,
                               bool certified) {
  const char* name = mechanism != nullptr ? mechanism : "(unnamed)";
  Scope& sc = charge_target(scope, "charge_gdp", name, {{"mu", mu}, {"l2 sensitivity", l2_sensitivity}});
  sc.own_mu2 += mu * mu;
  ++n_gdp_;
  Tally& t = count_charge(name, certified);
  t.mu2 += mu * mu;
  sc.amount(tally_index(t)).mu2 += mu * mu;
}

void PrivacyLedger::charge_rdp(ScopeId scope, const char* mechanism, std::shared_ptr<const RdpCurve> curve,
                               double sensitivity, bool certified) {
  const char* name = mechanism != nullptr ? mechanism : "(unnamed)";
  Scope& sc = charge_target(scope, "charge_rdp", name, {{"sensitivity", sensitivity}});
  if (!curve) fail("PrivacyLedger::charge_rdp(", name, "): the RDP curve is null");
  auto it = std::find(curves_.begin(), curves_.end(), curve);
  const auto index = static_cast<int32_t>(it - curves_.begin());
  if (it == curves_.end()) curves_.push_back(std::move(curve));
  auto own = std::find_if(sc.own_rdp.begin(), sc.own_rdp.end(), [&](const auto& e) { return e.first == index; });
  if (own == sc.own_rdp.end()) sc.own_rdp.emplace_back(index, 1.0);
  else own->second += 1.0;
  ++n_rdp_;
  Tally& t = count_charge(name, certified);
  t.rdp = true;
  auto& kind_rdp = sc.amount(tally_index(t)).rdp;
  auto k = std::find_if(kind_rdp.begin(), kind_rdp.end(), [&](const auto& e) { return e.first == index; });
  if (k == kind_rdp.end()) kind_rdp.emplace_back(index, 1.0);
  else k->second += 1.0;
}

PrivacyLedger::Tally& PrivacyLedger::tally(const char* name) {
  // Few mechanism kinds per fit: a linear scan, with the most recent kind checked first, beats a map.
  if (last_tally_ < tallies_.size() && tallies_[last_tally_].mechanism == name) return tallies_[last_tally_];
  for (std::size_t i = 0; i < tallies_.size(); ++i) {
    if (tallies_[i].mechanism == name) {
      last_tally_ = i;
      return tallies_[i];
    }
  }
  tallies_.push_back(Tally{name, 0, 0.0, 0.0, 0.0, true, 0.0, false});
  last_tally_ = tallies_.size() - 1;
  return tallies_.back();
}

void PrivacyLedger::absorb(ScopeId parent, const PrivacyLedger& other) {
  check_scope(parent, "absorb");
  // The other ledger's curves, re-indexed into ours (shared ones once).
  std::vector<int32_t> curve_index;
  for (const auto& c : other.curves_) {
    auto it = std::find(curves_.begin(), curves_.end(), c);
    curve_index.push_back(static_cast<int32_t>(it - curves_.begin()));
    if (it == curves_.end()) curves_.push_back(c);
  }
  // The other ledger's kinds as indices into this one's tallies (merged by name).
  std::vector<uint32_t> kind_map;
  kind_map.reserve(other.tallies_.size());
  for (const Tally& t : other.tallies_) {
    auto it = std::find_if(tallies_.begin(), tallies_.end(), [&](const Tally& x) { return x.mechanism == t.mechanism; });
    if (it == tallies_.end()) {
      tallies_.push_back(t);
      kind_map.push_back(static_cast<uint32_t>(tallies_.size() - 1));
    } else {
      it->calls += t.calls;
      it->epsilon += t.epsilon;
      it->rho += t.rho;
      it->delta += t.delta;
      it->mu2 += t.mu2;
      it->certified = it->certified && t.certified;
      it->rdp = it->rdp || t.rdp;
      kind_map.push_back(static_cast<uint32_t>(it - tallies_.begin()));
    }
  }
  const auto offset = static_cast<ScopeId>(scopes_.size());
  for (const Scope& sc : other.scopes_) {
    Scope copy = sc;
    copy.parent = sc.parent < 0 ? parent : sc.parent + offset;
    for (ScopeId& c : copy.children) c += offset;
    for (auto& e : copy.own_rdp) e.first = curve_index[static_cast<std::size_t>(e.first)];
    for (Scope::KindAmount& a : copy.by_kind) {
      a.kind = kind_map[a.kind];
      for (auto& e : a.rdp) e.first = curve_index[static_cast<std::size_t>(e.first)];
    }
    scopes_.push_back(std::move(copy));
  }
  scopes_[static_cast<std::size_t>(parent)].children.push_back(offset);
  n_charges_ += other.n_charges_;
  n_zcdp_ += other.n_zcdp_;
  n_approx_ += other.n_approx_;
  n_gdp_ += other.n_gdp_;
  n_rdp_ += other.n_rdp_;
  certified_ = certified_ && other.certified_;
}

// Every accounting composes through the same scope tree: a scope's own share, plus the sum (sequential)
// or the max (parallel; claimed-parallel unless conservative) of its children's composed values. `own`
// says what a scope contributes; the four accountings below differ only there.
template <class Own>
double PrivacyLedger::walk(ScopeId s, bool conservative, const Own& own) const {
  const Scope& sc = scopes_[static_cast<std::size_t>(s)];
  double children = 0.0;
  const bool by_max = sc.kind == Composition::kParallel || (sc.kind == Composition::kClaimedParallel && !conservative);
  for (ScopeId c : sc.children) {
    const double v = walk(c, conservative, own);
    children = by_max ? std::max(children, v) : children + v;
  }
  return own(sc) + children;
}

double PrivacyLedger::compose(ScopeId s, bool conservative) const {
  return walk(s, conservative, [](const Scope& sc) { return sc.own; });
}

double PrivacyLedger::compose_rho(ScopeId s, bool conservative, bool with_pure) const {
  // With every charge as zCDP, a GDP charge counts as mu^2 / 2 (gdp.hpp).
  return walk(s, conservative, [with_pure](const Scope& sc) {
    return sc.own_rho + (with_pure ? sc.own_sq + 0.5 * sc.own_mu2 : 0.0);
  });
}

// Renyi divergence bound of order alpha: own pure charges min(E, alpha S), own zCDP alpha rho, own
// RDP charges their curves at alpha (times their multiplicity).
double PrivacyLedger::compose_rdp(ScopeId s, bool conservative, double alpha) const {
  return walk(s, conservative, [this, alpha](const Scope& sc) {
    double r = std::min(sc.own, alpha * sc.own_sq) + alpha * (sc.own_rho + 0.5 * sc.own_mu2);
    for (const auto& [c, m] : sc.own_rdp) r += m * curves_[static_cast<std::size_t>(c)]->at_real(alpha);
    return r;
  });
}

double PrivacyLedger::compose_approx(ScopeId s, bool conservative, bool delta) const {
  return walk(s, conservative, [delta](const Scope& sc) { return delta ? sc.own_approx_delta : sc.own_approx_eps; });
}

double PrivacyLedger::mu_spent(ScopeId scope, bool conservative) const {
  check_scope(scope, "mu_spent");
  return std::sqrt(walk(scope, conservative, [](const Scope& sc) { return sc.own_mu2; }));
}

double PrivacyLedger::approx_epsilon(ScopeId scope, bool conservative) const {
  check_scope(scope, "approx_epsilon");
  return compose_approx(scope, conservative, false);
}

double PrivacyLedger::approx_delta(ScopeId scope, bool conservative) const {
  check_scope(scope, "approx_delta");
  return compose_approx(scope, conservative, true);
}

void PrivacyLedger::check_scope(ScopeId s, const char* what) const {
  if (s < 0 || static_cast<std::size_t>(s) >= scopes_.size())
    fail("PrivacyLedger::", what, ": scope ", s, " does not exist (", scopes_.size(), " scopes open)");
}

double PrivacyLedger::rho_spent(ScopeId scope) const {
  check_scope(scope, "rho_spent");
  return compose_rho(scope, false, false);
}

double PrivacyLedger::rho_spent_conservative(ScopeId scope) const {
  check_scope(scope, "rho_spent_conservative");
  return compose_rho(scope, true, false);
}

double PrivacyLedger::rho_equivalent(ScopeId scope, bool conservative) const {
  check_scope(scope, "rho_equivalent");
  return compose_rho(scope, conservative, true);
}

double PrivacyLedger::rdp_at(int alpha, ScopeId scope, bool conservative) const {
  check_scope(scope, "rdp_at");
  if (alpha < kRdpMinOrder || alpha > kRdpMaxOrder)
    fail("PrivacyLedger::rdp_at: order must be an integer in [", kRdpMinOrder, ", ", kRdpMaxOrder, "], got ", alpha);
  if (n_approx_ > 0)
    fail("PrivacyLedger::rdp_at: the ledger holds ", n_approx_, " approximate-DP charges, which are (epsilon, delta)-DP "
         "only and have no Renyi-DP bound (", summary(), ")");
  return compose_rdp(scope, conservative, static_cast<double>(alpha));
}

double PrivacyLedger::epsilon_for(double delta, bool conservative) const {
  if (n_approx_ == 0) return epsilon_without_approx(delta, conservative);
  // Basic composition of the approximate-DP part (E_a, D_a) with the rest at delta - D_a.
  const double ea = compose_approx(kRoot, conservative, false);
  const double da = compose_approx(kRoot, conservative, true);
  if (!(delta >= da) || !(delta < 1.0))
    fail("PrivacyLedger::epsilon_for: the ledger's approximate-DP charges already spend delta ", da,
         ", so delta must be in [", da, ", 1), got ", delta);
  if ((n_zcdp_ + n_gdp_ > 0 || n_rdp_ > 0) && !(delta > da))
    fail("PrivacyLedger::epsilon_for: the ledger holds ", n_zcdp_, " zCDP charges and approximate-DP charges of delta ",
         da, ", so delta must exceed ", da, ", got ", delta);
  return ea + epsilon_without_approx(delta - da, conservative);
}

double PrivacyLedger::epsilon_without_approx(double delta, bool conservative) const {
  if (n_rdp_ > 0) return epsilon_with_rdp(delta, conservative);
  if (n_zcdp_ == 0 && n_gdp_ == 0) return conservative ? spent_conservative() : spent();
  if (!(delta > 0.0) || !(delta < 1.0))
    fail("PrivacyLedger::epsilon_for: the ledger holds ", n_zcdp_ + n_gdp_,
         " zCDP or GDP charges, so delta must be in (0, 1), got ", delta);
  // Only GDP charges besides the approximate-DP ones: the exact conversion of the composed mu.
  if (n_zcdp_ == 0 && n_charges_ == n_gdp_ + n_approx_) return gdp_epsilon(mu_spent(kRoot, conservative), delta);
  const double rdp = rdp_to_epsilon([&](double alpha) { return compose_rdp(kRoot, conservative, alpha); }, delta);
  return std::min(rdp, zcdp_to_epsilon(rho_equivalent(kRoot, conservative), delta));
}

// Route (a) of epsilon_for over real orders, and the full integer scan of rdp_best_epsilon (exact for
// curves known at integer orders only). rho_equivalent() has no place for RDP curves, so route (b) of
// epsilon_for is not used here.
double PrivacyLedger::epsilon_with_rdp(double delta, bool conservative) const {
  if (!(delta > 0.0) || !(delta < 1.0))
    fail("PrivacyLedger::epsilon_for: the ledger holds ", n_rdp_, " Renyi-DP charges, so delta must be in (0, 1), got ",
         delta);
  const double real = rdp_to_epsilon([&](double alpha) { return compose_rdp(kRoot, conservative, alpha); }, delta);
  const RdpEpsilon integer =
      rdp_best_epsilon([&](int alpha) { return compose_rdp(kRoot, conservative, static_cast<double>(alpha)); }, delta);
  return std::min(real, integer.epsilon);
}

double PrivacyLedger::spent(ScopeId scope) const {
  check_scope(scope, "spent");
  return compose(scope, false);
}

double PrivacyLedger::spent_conservative(ScopeId scope) const {
  check_scope(scope, "spent_conservative");
  return compose(scope, true);
}

void PrivacyLedger::check_within(double requested, const std::string& who) const {
  if (!(requested >= 0.0) || !std::isfinite(requested))
    fail(who, ": requested epsilon must be >= 0 and finite, got ", requested);
  if (n_zcdp_ > 0)
    fail(who, ": the ledger holds ", n_zcdp_, " zCDP charges (rho ", rho_spent(),
         "), which a pure-epsilon budget cannot cover; check with check_within(epsilon, delta, who)");
  if (n_approx_ > 0)
    fail(who, ": the ledger holds ", n_approx_, " approximate-DP charges (delta ", approx_delta(),
         "), which a pure-epsilon budget cannot cover; check with check_within(epsilon, delta, who)");
  if (n_gdp_ > 0)
    fail(who, ": the ledger holds ", n_gdp_, " GDP charges (mu ", mu_spent(),
         "), which a pure-epsilon budget cannot cover; check with check_within(epsilon, delta, who)");
  if (n_rdp_ > 0)
    fail(who, ": the ledger holds ", n_rdp_,
         " Renyi-DP charges, which a pure-epsilon budget cannot cover; check with check_within(epsilon, delta, who)");
  const double used = spent();
  if (used > requested * (1.0 + 1e-9)) {
    std::ostringstream os;
    os.precision(17);
    os << who << ": spent epsilon " << used << " exceeds the requested " << requested
       << " (conservative accounting " << spent_conservative() << ", " << n_charges_
       << " charges); this is a budget-splitting bug in " << who << ". Charges:\n"
       << summary();
    throw Error(os.str());
  }
}

void PrivacyLedger::check_within(double epsilon, double delta, const std::string& who) const {
  if (n_zcdp_ == 0 && n_approx_ == 0 && n_gdp_ == 0 && n_rdp_ == 0) {
    check_within(epsilon, who);
    return;
  }
  if (!(epsilon >= 0.0) || !std::isfinite(epsilon))
    fail(who, ": requested epsilon must be >= 0 and finite, got ", epsilon);
  const double used = epsilon_for(delta);
  if (used > epsilon * (1.0 + 1e-9)) {
    std::ostringstream os;
    os.precision(17);
    os << who << ": spent (epsilon, delta) = (" << used << ", " << delta << ") exceeds the requested epsilon "
       << epsilon << " (rho of the zCDP charges " << rho_spent() << ", mu of the GDP charges " << mu_spent()
       << ", all charges as rho " << rho_equivalent()
       << ", pure epsilon " << spent() << ", " << n_charges_ << " charges); this is a budget-splitting bug in "
       << who << ". Charges:\n"
       << summary();
    throw Error(os.str());
  }
}

std::vector<PrivacyLedger::Entry> PrivacyLedger::entries() const {
  std::vector<Entry> out;
  out.reserve(tallies_.size());
  for (const Tally& t : tallies_)
    out.push_back(Entry{t.mechanism, t.calls, t.epsilon, t.rho, t.certified, std::sqrt(t.mu2)});
  return out;
}

std::string PrivacyLedger::summary() const {
  std::ostringstream os;
  os.precision(10);
  for (const Tally& t : tallies_) {
    os << t.mechanism << ": calls=" << t.calls;
    if (t.epsilon > 0.0 || (t.rho == 0.0 && t.mu2 == 0.0 && !t.rdp)) os << " epsilon=" << t.epsilon;
    if (t.rho > 0.0) os << " rho=" << t.rho;
    if (t.mu2 > 0.0) os << " mu=" << std::sqrt(t.mu2);
    if (t.delta > 0.0) os << " delta=" << t.delta;
    if (t.rdp) os << " renyi";
    if (!t.certified) os << " (uncertified)";
    os << '\n';
  }
  return os.str();
}

std::string PrivacyLedger::describe_scope(ScopeId s) const {
  check_scope(s, "describe_scope");
  const Scope& sc = scopes_[static_cast<std::size_t>(s)];
  std::ostringstream os;
  os.precision(10);
  os << (sc.label.empty() ? "(unlabelled)" : sc.label) << " [" << kind_name(sc.kind) << "] own=" << sc.own
     << " children=" << sc.children.size() << " spent=" << compose(s, false)
     << " conservative=" << compose(s, true);
  if (n_zcdp_ > 0) os << " own_rho=" << sc.own_rho << " rho=" << compose_rho(s, false, false);
  if (n_gdp_ > 0) os << " own_mu=" << std::sqrt(sc.own_mu2) << " mu=" << mu_spent(s);
  if (n_rdp_ > 0) os << " own_rdp_curves=" << sc.own_rdp.size();
  if (n_approx_ > 0)
    os << " approx=(" << compose_approx(s, false, false) << ", " << compose_approx(s, false, true) << ")";
  return os.str();
}

namespace {
void check_delta(double delta, const char* what) {
  if (!(delta > 0.0) || !(delta < 1.0)) fail(what, ": delta must be in (0, 1), got ", delta);
}
void check_rho(double rho, const char* what) {
  if (!(rho >= 0.0) || !std::isfinite(rho)) fail(what, ": rho must be >= 0 and finite, got ", rho);
}
}  // namespace

double pure_to_zcdp(double epsilon) {
  if (!(epsilon >= 0.0) || !std::isfinite(epsilon)) fail("pure_to_zcdp: epsilon must be >= 0 and finite, got ", epsilon);
  return 0.5 * epsilon * epsilon;  // BS16 Prop. 1.4
}

double zcdp_to_epsilon_bs16(double rho, double delta) {
  check_rho(rho, "zcdp_to_epsilon_bs16");
  check_delta(delta, "zcdp_to_epsilon_bs16");
  return rho + 2.0 * std::sqrt(rho * std::log(1.0 / delta));  // BS16 Prop. 1.3
}

double zcdp_to_epsilon_cks(double rho, double delta) {
  check_rho(rho, "zcdp_to_epsilon_cks");
  check_delta(delta, "zcdp_to_epsilon_cks");
  if (rho == 0.0) return 0.0;
  // CKS20 §2.3: f(alpha) = alpha rho + log(1/(alpha delta)) / (alpha - 1) + log(1 - 1/alpha) is a
  // valid epsilon at every alpha > 1. f'(alpha) = rho - log(1/(alpha delta)) / (alpha - 1)^2: the
  // subtracted term decreases in alpha while positive, so f' changes sign once. Bisect on its sign.
  auto deriv_pos = [&](double a) { return rho * (a - 1.0) * (a - 1.0) > std::log(1.0 / (a * delta)); };
  auto f = [&](double a) { return a * rho + std::log(1.0 / (a * delta)) / (a - 1.0) + std::log1p(-1.0 / a); };
  double lo = 1.0 + 1e-12, hi = 2.0;
  while (!deriv_pos(hi) && hi < 1e300) hi *= 2.0;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (deriv_pos(mid)) hi = mid; else lo = mid;
  }
  // For tiny rho and large delta the infimum can be slightly negative (a valid but odd claim, since
  // epsilon >= log(1 - delta) always holds); report 0 instead.
  return std::max(0.0, std::min(f(lo), f(hi)));
}

double zcdp_to_epsilon(double rho, double delta) {
  return std::min(zcdp_to_epsilon_cks(rho, delta), zcdp_to_epsilon_bs16(rho, delta));
}

double rdp_to_epsilon(const std::function<double(double)>& curve, double delta) {
  check_delta(delta, "rdp_to_epsilon");
  // u = log(alpha - 1). CKS20 Prop. 12: (alpha, tau)-RDP implies (epsilon, delta)-DP with
  // epsilon = tau + log(1/(alpha delta)) / (alpha - 1) + log(1 - 1/alpha).
  auto f = [&](double u) {
    const double alpha = 1.0 + std::exp(u);
    return curve(alpha) + std::log(1.0 / (alpha * delta)) / (alpha - 1.0) + std::log1p(-1.0 / alpha);
  };
  const double lo = std::log(1e-4), hi = std::log(1e7);
  constexpr int kGrid = 240;
  const double step = (hi - lo) / kGrid;
  double best_u = lo, best = f(lo);
  for (int i = 1; i <= kGrid; ++i) {
    const double u = lo + step * i;
    const double v = f(u);
    if (v < best) {
      best = v;
      best_u = u;
    }
  }
  // Golden-section refinement on the two grid cells around the best point.
  double a = best_u - step, b = best_u + step;
  const double g = 0.6180339887498949;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = f(c), fd = f(d);
  for (int it = 0; it < 60; ++it) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  return std::max(0.0, std::min(best, std::min(fc, fd)));
}

double rho_for_target(double epsilon, double delta) {
  if (!(epsilon > 0.0) || !std::isfinite(epsilon)) fail("rho_for_target: epsilon must be > 0 and finite, got ", epsilon);
  check_delta(delta, "rho_for_target");
  // zcdp_to_epsilon is non-decreasing in rho (each alpha's bound is) and >= rho - 1e-300ish; start
  // with hi = epsilon + 1 (its conversion exceeds epsilon) and keep lo feasible.
  double lo = 0.0, hi = epsilon + 1.0;
  while (zcdp_to_epsilon(hi, delta) <= epsilon) hi *= 2.0;
  for (int it = 0; it < 300 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (zcdp_to_epsilon(mid, delta) <= epsilon) lo = mid; else hi = mid;
  }
  return lo;
}

}  // namespace dpf
