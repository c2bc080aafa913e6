// PrivaTree's binning (privatree.md §2; privatree.py PrivateBinner): the bin upper edges of every
// numerical feature and every fitted row's bin, bin(x) = #edges < clip(x, lo, hi) (numpy digitize with
// right = True, clipped as §2 advises); a categorical feature's code is its bin.
//   kUniform        edges = linspace(lo, hi, B + 1)[1:] on the public range: no privacy cost (HEAD default);
//   kExactQuantiles edges = unique(quantile(x, k/B for k = 1..B-1) ∪ {hi}) of the fitted rows, numpy's
//                   linear interpolation: the "PrivaTree*" configuration (use_private_quantiles = False),
//                   NOT private — it reads the rows.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dataset.hpp"

namespace dpf {

enum class PrivaTreeEdges { kUniform, kExactQuantiles };

struct PrivaTreeBins {
  std::vector<int> n_bins;                  // per feature
  std::vector<std::vector<double>> edges;   // numerical: the upper edges; categorical: empty
  std::vector<std::vector<uint8_t>> bins;   // per feature, per dataset row (only the fitted rows are set)
};

PrivaTreeBins privatree_bins(const Dataset& data, std::span<const uint32_t> rows, int max_bins, PrivaTreeEdges kind);

// The Tree threshold that routes x <= edge to child 0 (our Tree sends x < threshold there):
// nextafter(edge, +inf), or the largest double when edge >= hi (every clipped x is <= hi: all left).
double privatree_threshold(double edge, double hi);

}  // namespace dpf
