// DiPriMe's split policy (dipreme.md §2.7).
#pragma once
#include "algorithms/dipreme/dipreme.hpp"
#include "core/tree/grower.hpp"

namespace dpf {

class DiPrimeSplit : public SplitPolicy {
 public:
  DiPrimeSplit(const DiPrimeParams& p, const DiPrimeBudget& b, double y_lo, double y_hi);
  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override;
  std::unique_ptr<SplitPolicy> clone() const override { return std::make_unique<DiPrimeSplit>(*this); }
  // -score used for attribute selection (lower is better): MSE as published, SSE when strict.
  double score(const NodeView& node, const SplitChoice& c) const;

 private:
  const DiPrimeParams& p_;
  DiPrimeBudget b_;
  double y_lo_, y_hi_;
};

}  // namespace dpf
