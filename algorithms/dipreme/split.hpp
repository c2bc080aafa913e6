// DiPriMe's split policy (dipreme.md §2.7).
#pragma once
#include <algorithm>
#include <span>
#include <vector>

#include "algorithms/dipreme/dipreme.hpp"
#include "core/tree/grower.hpp"

namespace dpf {

// Sufficient statistics of the targets in one child.
struct MedianChildStats {
  double n = 0, sum = 0, sumsq = 0;
  void add(double y) { n += 1; sum += y; sumsq += y * y; }
  double sse() const { return n > 0 ? std::max(0.0, sumsq - sum * sum / n) : 0.0; }
};

class DiPrimeSplit : public SplitPolicy {
 public:
  DiPrimeSplit(const DiPrimeParams& p, const DiPrimeBudget& b, double y_lo, double y_hi);
  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override;
  std::unique_ptr<SplitPolicy> clone() const override { return std::make_unique<DiPrimeSplit>(*this); }
  // -score used for attribute selection (lower is better): MSE as published, SSE when strict.
  double score(const NodeView& node, const SplitChoice& c) const;

 private:
  // score() of a threshold from the node's gathered values x and targets y (row order), and the
  // score's formula from the children's statistics.
  double threshold_score(std::span<const double> x, std::span<const double> y, const SplitChoice& c,
                         const MedianChildStats& all) const;
  double finish_score(const SplitChoice& c, const MedianChildStats& a, const MedianChildStats& b, const MedianChildStats& all) const;

  const DiPrimeParams& p_;
  DiPrimeBudget b_;
  double y_lo_, y_hi_;
  std::vector<double> ys_, xs_, work_;  // per-node scratch, reused across nodes (one policy per thread)
};

}  // namespace dpf
