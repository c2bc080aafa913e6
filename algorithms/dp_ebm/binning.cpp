#include "algorithms/dp_ebm/binning.hpp"

#include <algorithm>
#include <cmath>

#include "core/privacy/gdp.hpp"
#include "core/util/error.hpp"

namespace dpf::dp_ebm {

namespace {

// One noisy count: c + N(0, 1 / mu^2) on the lattice (the feature's histogram is one mu-GDP query of
// l2 sensitivity w_max = 1: a record adds 1 to one count, §4.1 / §5.3), clipped at 0 (§5.1 step 2)
// or, paper-era, rounded and clipped at 1 (§10.3). Post-processing after the draw.
double noisy_count(double count, const BinningRule& rule, Rng& rng) {
  const double v = gdp_gaussian_mechanism(rng, count, 1.0, rule.mu);
  return rule.paper_counts ? std::max(1.0, std::round(v)) : std::max(0.0, v);
}

// The merge threshold n / B (§5.1 step 3), or in strict mode the noisy total / B (free post-processing,
// dp-ebm.md §9 fix 1), floored at 1 / B so that every bin keeps a positive weight.
double merge_target(double n, const std::vector<double>& noisy, const BinningRule& rule) {
  if (!rule.strict) return n / rule.n_bins;
  double total = 0.0;
  for (double v : noisy) total += v;
  return std::max(total, 1.0) / rule.n_bins;
}

}  // namespace

int FeatureBins::bin_of(double x) const {
  if (nominal) {
    const auto c = static_cast<std::size_t>(x);
    return c < category_bin.size() ? category_bin[c] : static_cast<int>(n_bins() - (has_other ? 1 : 0));
  }
  return static_cast<int>(std::upper_bound(cuts.begin(), cuts.end(), x) - cuts.begin());
}

FeatureBins bin_continuous(std::span<const double> values, double lo, double hi, const BinningRule& rule, Rng& rng) {
  require(std::isfinite(lo) && std::isfinite(hi) && lo < hi, "dp-ebm: a continuous feature needs public bounds lo < hi, got [",
          lo, ", ", hi, "]");
  const int m = 2 * rule.n_bins;  // 2B uniform histogram bins (§5.1 step 1)
  // numpy.linspace(lo, hi, m + 1): lo + i * step, the last edge exactly hi.
  const double step = (hi - lo) / m;
  std::vector<double> edge(static_cast<std::size_t>(m) + 1);
  for (int i = 0; i < m; ++i) edge[static_cast<std::size_t>(i)] = lo + i * step;
  edge[static_cast<std::size_t>(m)] = hi;
  // numpy.histogram with a range: [e_i, e_{i+1}) except the last, closed; values outside are not counted.
  std::vector<double> count(static_cast<std::size_t>(m), 0.0);
  const double norm = m / (hi - lo);
  for (double x : values) {
    if (!(x >= lo && x <= hi)) continue;
    int i = std::min(static_cast<int>((x - lo) * norm), m - 1);
    if (x < edge[static_cast<std::size_t>(i)]) --i;
    else if (i != m - 1 && x >= edge[static_cast<std::size_t>(i) + 1]) ++i;
    count[static_cast<std::size_t>(i)] += 1.0;
  }
  std::vector<double> noisy(count.size());
  for (std::size_t i = 0; i < count.size(); ++i) noisy[i] = noisy_count(count[i], rule, rng);
  const double target = merge_target(static_cast<double>(values.size()), noisy, rule);

  // Greedy left-to-right merge (§5.1 steps 4-5): close a bin at the right edge of the histogram bin
  // where the running weight reaches the target.
  FeatureBins fb;
  std::vector<int> closing;
  double acc = 0.0;
  for (int i = 0; i < m; ++i) {
    acc += noisy[static_cast<std::size_t>(i)];
    if (acc >= target) {
      closing.push_back(i + 1);
      fb.weight.push_back(acc);
      acc = 0.0;
    }
  }
  if (closing.empty()) {  // no bin reached the target: one bin of weight target, no cuts
    fb.weight.push_back(target);
    return fb;
  }
  fb.weight.back() += acc;  // the leftover joins the last closed bin, which extends to +inf
  closing.pop_back();       // its closing edge is not a cut
  for (int g : closing) {
    fb.cut_grid.push_back(g);
    fb.cuts.push_back(edge[static_cast<std::size_t>(g)]);
  }
  return fb;
}

FeatureBins bin_nominal(std::span<const double> codes, std::size_t n_categories, const BinningRule& rule, Rng& rng) {
  require(n_categories >= 1, "dp-ebm: a nominal feature needs at least one category");
  std::vector<double> count(n_categories, 0.0);
  for (double c : codes) {
    const auto k = static_cast<std::size_t>(c);
    require(c >= 0 && k < n_categories, "dp-ebm: category code ", c, " outside the schema's ", n_categories);
    count[k] += 1.0;
  }
  // Library: only the categories observed in the training column are noised (np.unique, §5.2 step 1;
  // unpaid, §9 item 3). Strict: every category of the public schema.
  std::vector<std::size_t> domain;
  for (std::size_t k = 0; k < n_categories; ++k)
    if (rule.strict || count[k] > 0) domain.push_back(k);
  std::vector<double> noisy(domain.size());
  for (std::size_t i = 0; i < domain.size(); ++i) noisy[i] = noisy_count(count[domain[i]], rule, rng);
  const double target = merge_target(static_cast<double>(codes.size()), noisy, rule);

  // §5.2 step 3: categories below the target go to DPOther. Step 4: a DPOther below the target
  // absorbs the smallest kept category (the first on ties, numpy argmin), or alone gets weight target.
  std::vector<bool> kept(domain.size());
  double other = 0.0;
  bool any_small = false;
  for (std::size_t i = 0; i < domain.size(); ++i) {
    kept[i] = noisy[i] >= target;
    if (!kept[i]) {
      other += noisy[i];
      any_small = true;
    }
  }
  if (any_small && other < target) {
    std::size_t best = domain.size();
    for (std::size_t i = 0; i < domain.size(); ++i)
      if (kept[i] && (best == domain.size() || noisy[i] < noisy[best])) best = i;
    if (best == domain.size()) {
      other = target;
    } else {
      kept[best] = false;
      other += noisy[best];
    }
  }
  // Layout (§5.2 step 5): kept categories in code order, then DPOther; other codes map to the unseen bin.
  FeatureBins fb;
  fb.nominal = true;
  std::vector<int> kept_bin(domain.size(), -1);
  for (std::size_t i = 0; i < domain.size(); ++i)
    if (kept[i]) {
      kept_bin[i] = static_cast<int>(fb.weight.size());
      fb.weight.push_back(noisy[i]);
    }
  const int unseen = static_cast<int>(fb.weight.size());
  fb.has_other = any_small;
  if (any_small) fb.weight.push_back(other);
  fb.category_bin.assign(n_categories, unseen);
  for (std::size_t i = 0; i < domain.size(); ++i)
    if (kept_bin[i] >= 0) fb.category_bin[domain[i]] = kept_bin[i];
  if (fb.weight.empty()) fb.weight.push_back(target);  // unreachable with >= 1 category; kept for safety
  return fb;
}

}  // namespace dpf::dp_ebm
