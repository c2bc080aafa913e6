#include "algorithms/privatree/bins.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/error.hpp"

namespace dpf {

namespace {

// numpy.quantile(sorted, q) with the default linear interpolation: h = (n - 1) q.
double np_quantile(const std::vector<double>& sorted, double q) {
  const double h = (static_cast<double>(sorted.size()) - 1) * q;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - std::floor(h)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

PrivaTreeBins privatree_bins(const Dataset& data, std::span<const uint32_t> rows, int max_bins, PrivaTreeEdges kind) {
  const Schema& s = data.schema();
  PrivaTreeBins b;
  for (std::size_t f = 0; f < s.n_features(); ++f) {
    const Feature& feat = s.features[f];
    std::vector<uint8_t> col(data.n_rows(), 0);
    std::span<const double> x = data.column(f);
    if (feat.kind == FeatureKind::kNumeric) {
      std::vector<double> e;
      if (kind == PrivaTreeEdges::kUniform) {
        // numpy linspace(lo, hi, B + 1)[1:]: k (hi - lo) / B + lo, the last edge exactly hi.
        const double step = (feat.hi - feat.lo) / max_bins;
        for (int i = 1; i <= max_bins; ++i) e.push_back(i == max_bins ? feat.hi : i * step + feat.lo);
      } else {
        require(!rows.empty(), "privatree: quantile bins need at least one training row");
        std::vector<double> v;
        v.reserve(rows.size());
        for (uint32_t r : rows) v.push_back(x[r]);
        std::sort(v.begin(), v.end());
        for (int i = 1; i < max_bins; ++i) e.push_back(np_quantile(v, static_cast<double>(i) / max_bins));
        e.push_back(feat.hi);
        std::sort(e.begin(), e.end());
        e.erase(std::unique(e.begin(), e.end()), e.end());
      }
      require(e.size() <= 255, "privatree: more than 255 bins");
      for (uint32_t r : rows) {
        const double v = std::clamp(x[r], feat.lo, feat.hi);
        col[r] = static_cast<uint8_t>(std::lower_bound(e.begin(), e.end(), v) - e.begin());  // #edges < v
      }
      b.n_bins.push_back(static_cast<int>(e.size()));
      b.edges.push_back(std::move(e));
    } else {
      require(feat.n_categories() >= 1 && feat.n_categories() <= 255, "privatree: categorical feature '", feat.name,
              "' needs 1 to 255 categories, has ", feat.n_categories());
      for (uint32_t r : rows) col[r] = static_cast<uint8_t>(x[r]);
      b.n_bins.push_back(static_cast<int>(feat.n_categories()));
      b.edges.emplace_back();
    }
    b.bins.push_back(std::move(col));
  }
  return b;
}

double privatree_threshold(double edge, double hi) {
  return edge >= hi ? std::numeric_limits<double>::max()
                    : std::nextafter(edge, std::numeric_limits<double>::infinity());
}

}  // namespace dpf
