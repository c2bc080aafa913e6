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

PrivacyLedger::PrivacyLedger(Composition root) { scopes_.push_back(Scope{-1, root, "root", 0.0, {}}); }

PrivacyLedger::ScopeId PrivacyLedger::open_scope(ScopeId parent, Composition kind, std::string label) {
  if (parent < 0 || static_cast<std::size_t>(parent) >= scopes_.size())
    fail("PrivacyLedger::open_scope: parent scope ", parent, " does not exist (", scopes_.size(),
         " scopes open); open scopes with ids returned by open_scope or kRoot");
  const auto id = static_cast<ScopeId>(scopes_.size());
  scopes_.push_back(Scope{parent, kind, std::move(label), 0.0, {}});
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
  scopes_[static_cast<std::size_t>(scope)].own += epsilon;
  ++n_charges_;
  if (!certified) certified_ = false;
  // Few mechanism kinds per fit: a linear scan, with the most recent kind checked first, beats a map.
  Tally* t = nullptr;
  if (last_tally_ < tallies_.size() && tallies_[last_tally_].mechanism == name) {
    t = &tallies_[last_tally_];
  } else {
    for (std::size_t i = 0; i < tallies_.size(); ++i) {
      if (tallies_[i].mechanism == name) {
        t = &tallies_[i];
        last_tally_ = i;
        break;
      }
    }
    if (t == nullptr) {
      tallies_.push_back(Tally{name, 0, 0.0, true});
      last_tally_ = tallies_.size() - 1;
      t = &tallies_.back();
    }
  }
  ++t->calls;
  t->epsilon += epsilon;
  if (!certified) t->certified = false;
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
      it->certified = it->certified && t.certified;
    }
  }
  n_charges_ += other.n_charges_;
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

std::string PrivacyLedger::summary() const {
  std::ostringstream os;
  os.precision(10);
  for (const Tally& t : tallies_) {
    os << t.mechanism << ": calls=" << t.calls << " epsilon=" << t.epsilon;
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
  return os.str();
}

}  // namespace dpf
