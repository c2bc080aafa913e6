#include "core/privacy/ledger.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

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

PrivacyLedger::PrivacyLedger(Composition root) { scopes_.push_back(Scope{-1, root, "root", 0.0, 0.0, 0.0, {}}); }

PrivacyLedger::ScopeId PrivacyLedger::open_scope(ScopeId parent, Composition kind, std::string label) {
  if (parent < 0 || static_cast<std::size_t>(parent) >= scopes_.size())
    fail("PrivacyLedger::open_scope: parent scope ", parent, " does not exist (", scopes_.size(),
         " scopes open); open scopes with ids returned by open_scope or kRoot");
  const auto id = static_cast<ScopeId>(scopes_.size());
  scopes_.push_back(Scope{parent, kind, std::move(label), 0.0, 0.0, 0.0, {}});
  scopes_[static_cast<std::size_t>(parent)].children.push_back(id);
  return id;
}

void PrivacyLedger::charge(ScopeId scope, const char* mechanism, double epsilon, double sensitivity,
                           bool certified) {
  const char* name = mechanism != nullptr ? mechanism : "(unnamed)";
  if (scope < 0 || static_cast<std::size_t>(scope) >= scopes_.size())
    fail("PrivacyLedger::charge(", name, "): scope ", scope, " does not exist (", scopes_.size(), " scopes open)");
  if (!(epsilon > 0.0) || !std::isfinite(epsilon))
    fail("PrivacyLedger::charge(", name, "): epsilon must be > 0 and finite, got ", epsilon);
  if (!(sensitivity > 0.0) || !std::isfinite(sensitivity))
    fail("PrivacyLedger::charge(", name, "): sensitivity must be > 0 and finite, got ", sensitivity);
  Scope& sc = scopes_[static_cast<std::size_t>(scope)];
  sc.own += epsilon;
  sc.own_sq += 0.5 * epsilon * epsilon;
  ++n_charges_;
  if (!certified) certified_ = false;
  Tally& t = tally(name);
  ++t.calls;
  t.epsilon += epsilon;
  if (!certified) t.certified = false;
}

void PrivacyLedger::charge_zcdp(ScopeId scope, const char* mechanism, double rho, double l2_sensitivity,
                                bool certified) {
  const char* name = mechanism != nullptr ? mechanism : "(unnamed)";
  if (scope < 0 || static_cast<std::size_t>(scope) >= scopes_.size())
    fail("PrivacyLedger::charge_zcdp(", name, "): scope ", scope, " does not exist (", scopes_.size(), " scopes open)");
  if (!(rho > 0.0) || !std::isfinite(rho))
    fail("PrivacyLedger::charge_zcdp(", name, "): rho must be > 0 and finite, got ", rho);
  if (!(l2_sensitivity > 0.0) || !std::isfinite(l2_sensitivity))
    fail("PrivacyLedger::charge_zcdp(", name, "): l2 sensitivity must be > 0 and finite, got ", l2_sensitivity);
  scopes_[static_cast<std::size_t>(scope)].own_rho += rho;
  ++n_charges_;
  ++n_zcdp_;
  if (!certified) certified_ = false;
  Tally& t = tally(name);
  ++t.calls;
  t.rho += rho;
  if (!certified) t.certified = false;
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
  tallies_.push_back(Tally{name, 0, 0.0, 0.0, true});
  last_tally_ = tallies_.size() - 1;
  return tallies_.back();
}

void PrivacyLedger::absorb(ScopeId parent, const PrivacyLedger& other) {
  if (parent < 0 || static_cast<std::size_t>(parent) >= scopes_.size())
    fail("PrivacyLedger::absorb: parent scope ", parent, " does not exist (", scopes_.size(), " scopes open)");
  const auto offset = static_cast<ScopeId>(scopes_.size());
  for (const Scope& sc : other.scopes_) {
    Scope copy = sc;
    copy.parent = sc.parent < 0 ? parent : sc.parent + offset;
    for (ScopeId& c : copy.children) c += offset;
    scopes_.push_back(std::move(copy));
  }
  scopes_[static_cast<std::size_t>(parent)].children.push_back(offset);
  for (const Tally& t : other.tallies_) {
    auto it = std::find_if(tallies_.begin(), tallies_.end(), [&](const Tally& x) { return x.mechanism == t.mechanism; });
    if (it == tallies_.end()) {
      tallies_.push_back(t);
    } else {
      it->calls += t.calls;
      it->epsilon += t.epsilon;
      it->rho += t.rho;
      it->certified = it->certified && t.certified;
    }
  }
  n_charges_ += other.n_charges_;
  n_zcdp_ += other.n_zcdp_;
  certified_ = certified_ && other.certified_;
}

double PrivacyLedger::compose(ScopeId s, bool conservative) const {
  const Scope& sc = scopes_[static_cast<std::size_t>(s)];
  double children = 0.0;
  const bool by_max = sc.kind == Composition::kParallel || (sc.kind == Composition::kClaimedParallel && !conservative);
  for (ScopeId c : sc.children) {
    const double v = compose(c, conservative);
    children = by_max ? std::max(children, v) : children + v;
  }
  return sc.own + children;
}

double PrivacyLedger::compose_rho(ScopeId s, bool conservative, bool with_pure) const {
  const Scope& sc = scopes_[static_cast<std::size_t>(s)];
  double children = 0.0;
  const bool by_max = sc.kind == Composition::kParallel || (sc.kind == Composition::kClaimedParallel && !conservative);
  for (ScopeId c : sc.children) {
    const double v = compose_rho(c, conservative, with_pure);
    children = by_max ? std::max(children, v) : children + v;
  }
  return sc.own_rho + (with_pure ? sc.own_sq : 0.0) + children;
}

// Renyi divergence bound of order alpha: own pure charges min(E, alpha S), own zCDP alpha rho.
double PrivacyLedger::compose_rdp(ScopeId s, bool conservative, double alpha) const {
  const Scope& sc = scopes_[static_cast<std::size_t>(s)];
  double children = 0.0;
  const bool by_max = sc.kind == Composition::kParallel || (sc.kind == Composition::kClaimedParallel && !conservative);
  for (ScopeId c : sc.children) {
    const double v = compose_rdp(c, conservative, alpha);
    children = by_max ? std::max(children, v) : children + v;
  }
  return std::min(sc.own, alpha * sc.own_sq) + alpha * sc.own_rho + children;
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

double PrivacyLedger::epsilon_for(double delta, bool conservative) const {
  if (n_zcdp_ == 0) return conservative ? spent_conservative() : spent();
  if (!(delta > 0.0) || !(delta < 1.0))
    fail("PrivacyLedger::epsilon_for: the ledger holds ", n_zcdp_, " zCDP charges, so delta must be in (0, 1), got ",
         delta);
  const double rdp = rdp_to_epsilon([&](double alpha) { return compose_rdp(kRoot, conservative, alpha); }, delta);
  return std::min(rdp, zcdp_to_epsilon(rho_equivalent(kRoot, conservative), delta));
}

double PrivacyLedger::spent(ScopeId scope) const {
  if (scope < 0 || static_cast<std::size_t>(scope) >= scopes_.size())
    fail("PrivacyLedger::spent: scope ", scope, " does not exist (", scopes_.size(), " scopes open)");
  return compose(scope, false);
}

double PrivacyLedger::spent_conservative(ScopeId scope) const {
  if (scope < 0 || static_cast<std::size_t>(scope) >= scopes_.size())
    fail("PrivacyLedger::spent_conservative: scope ", scope, " does not exist (", scopes_.size(), " scopes open)");
  return compose(scope, true);
}

void PrivacyLedger::check_within(double requested, const std::string& who) const {
  if (!(requested >= 0.0) || !std::isfinite(requested))
    fail(who, ": requested epsilon must be >= 0 and finite, got ", requested);
  if (n_zcdp_ > 0)
    fail(who, ": the ledger holds ", n_zcdp_, " zCDP charges (rho ", rho_spent(),
         "), which a pure-epsilon budget cannot cover; check with check_within(epsilon, delta, who)");
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
  if (n_zcdp_ == 0) {
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
       << epsilon << " (rho of the zCDP charges " << rho_spent() << ", all charges as rho " << rho_equivalent()
       << ", pure epsilon " << spent() << ", " << n_charges_ << " charges); this is a budget-splitting bug in "
       << who << ". Charges:\n"
       << summary();
    throw Error(os.str());
  }
}

std::vector<PrivacyLedger::Entry> PrivacyLedger::entries() const {
  std::vector<Entry> out;
  out.reserve(tallies_.size());
  for (const Tally& t : tallies_) out.push_back(Entry{t.mechanism, t.calls, t.epsilon, t.rho, t.certified});
  return out;
}

std::string PrivacyLedger::summary() const {
  std::ostringstream os;
  os.precision(10);
  for (const Tally& t : tallies_) {
    os << t.mechanism << ": calls=" << t.calls;
    if (t.epsilon > 0.0 || t.rho == 0.0) os << " epsilon=" << t.epsilon;
    if (t.rho > 0.0) os << " rho=" << t.rho;
    if (!t.certified) os << " (uncertified)";
    os << '\n';
  }
  return os.str();
}

std::string PrivacyLedger::describe_scope(ScopeId s) const {
  if (s < 0 || static_cast<std::size_t>(s) >= scopes_.size())
    fail("PrivacyLedger::describe_scope: scope ", s, " does not exist (", scopes_.size(), " scopes open)");
  const Scope& sc = scopes_[static_cast<std::size_t>(s)];
  std::ostringstream os;
  os.precision(10);
  os << (sc.label.empty() ? "(unlabelled)" : sc.label) << " [" << kind_name(sc.kind) << "] own=" << sc.own
     << " children=" << sc.children.size() << " spent=" << compose(s, false)
     << " conservative=" << compose(s, true);
  if (n_zcdp_ > 0) os << " own_rho=" << sc.own_rho << " rho=" << compose_rho(s, false, false);
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
