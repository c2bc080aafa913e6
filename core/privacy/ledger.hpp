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
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpf {

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

  // Composed epsilon of a scope (default: the whole fit) under the claimed accounting and under the
  // conservative accounting (claimed-parallel scopes summed). Scope s composes to
  //   own(s) + (sum or max over its children of their composed values);
  // an empty parallel scope contributes 0. O(number of scopes below s).
  double spent(ScopeId scope = kRoot) const;
  double spent_conservative(ScopeId scope = kRoot) const;
  bool certified() const { return certified_; }
  std::size_t n_charges() const { return n_charges_; }
  std::size_t n_scopes() const { return scopes_.size(); }

  // Grafts another ledger (e.g. one tree fitted on another thread) under `parent`: its root scope
  // becomes a child of `parent`, its charges and tallies are added. Results equal charging here.
  void absorb(ScopeId parent, const PrivacyLedger& other);

  // Throws dpf::Error naming `who` if spent() exceeds requested by more than a relative 1e-9 (the
  // float-summation slack of pipelinedp4j's NaiveBudgetAccountant, privacy.md §1.2). The message
  // gives both accountings and the summary. requested must be finite and >= 0.
  void check_within(double requested, const std::string& who) const;

  // One line per mechanism kind, in order of first use: "name: calls=N epsilon=E", with
  // " (uncertified)" appended if any of its charges was uncertified (for describe()).
  std::string summary() const;
  // One line about a scope: label, kind, own charges, children and both composed totals (debugging).
  std::string describe_scope(ScopeId s) const;

 private:
  struct Scope {
    ScopeId parent;
    Composition kind;
    std::string label;
    double own = 0.0;  // sum of direct charges
    std::vector<ScopeId> children;
  };
  double compose(ScopeId s, bool conservative) const;
  std::vector<Scope> scopes_;
  struct Tally {
    std::string mechanism;
    std::size_t calls = 0;
    double epsilon = 0.0;
    bool certified = true;
  };
  std::vector<Tally> tallies_;
  std::size_t last_tally_ = 0;  // the kind charged last: consecutive charges usually repeat it
  std::size_t n_charges_ = 0;
  bool certified_ = true;
};

}  // namespace dpf
