#include "algorithms/privatree/privatree.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/privacy_label.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/privatree/grower.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

// Reconstructed from the authors' code at HEAD where privatree.md is silent (no code copied):
//   - defaults of PrivaTreeClassifier: max_depth 3 (the experiments use 4), epsilon 1.0, max_bins 10,
//     leaf_label_success_prob 0.99, max_leaf_epsilon_share 0.5;
//   - the stopping rule is depth only (the pure-node / min_samples_split test is commented out), so the
//     tree is complete even through empty nodes: an empty node's candidates all have Gini 0.5, utility 0,
//     and permute-and-flip picks uniformly;
//   - "split_bin is None" never happens at HEAD (permute-and-flip always returns a candidate);
//   - Gini of an empty side is 0, the weighted Gini of an empty node 0.5; the last bin of a numerical
//     feature (edge = hi) is a candidate that sends every row left;
//   - digitize is applied to unclipped X; we clip to [lo, hi] first (privatree.md §2 advises it), which
//     only matters for values outside the public range;
//   - fit/predict route a numerical split as x <= edges[b]; our Tree sends x < threshold to child 0, so
//     the threshold stored is nextafter(edges[b], +inf), or the largest double when edges[b] >= hi
//     (everything left, as clip(x) <= hi); a categorical split sends codes <= b left (threshold b + 0.5);
//   - diffprivlib's GeometricTruncated clamps to [lower, upper] (mechanisms/base.py _truncate), and its
//     two-sided geometric has P(z) ∝ exp(−ε |z| / Δ).
// The class list is the schema's (public), not np.unique(y) of the training rows.

namespace dpf {

namespace {

double worst_expected_error_uncached(int n_classes) {
  const double k = n_classes;
  auto f = [k](double p) { return 2.0 * std::log(1.0 / p) * (1.0 - (1.0 - std::pow(1.0 - p, k)) / (k * p)); };
  // A grid, then golden-section search around the best grid point (f is smooth and unimodal on (0, 1)).
  double best_p = 0.5, best = f(0.5);
  for (int i = 1; i < 2000; ++i) {
    const double p = i / 2000.0;
    if (f(p) > best) { best = f(p); best_p = p; }
  }
  double a = std::max(1e-12, best_p - 1.0 / 2000), b = std::min(1.0 - 1e-12, best_p + 1.0 / 2000);
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 200; ++it) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (f(c) > f(d)) b = d; else a = c;
  }
  return std::max(best, f((a + b) / 2));
}

}  // namespace

double privatree_worst_expected_error(int n_classes) {
  require(n_classes >= 1, "privatree: needs at least one class");
  // Computed once per K (a fit would otherwise spend ~50 us here; the audit runs 10^5 fits).
  static const std::array<double, 65> table = [] {
    std::array<double, 65> t{};
    for (int k = 1; k <= 64; ++k) t[static_cast<std::size_t>(k)] = worst_expected_error_uncached(k);
    return t;
  }();
  return n_classes <= 64 ? table[static_cast<std::size_t>(n_classes)] : worst_expected_error_uncached(n_classes);
}

namespace {

class PrivaTreeLearner : public Learner {
 public:
  explicit PrivaTreeLearner(const PrivaTreeParams& p) : p_(p) {
    check_epsilon_param("privatree", p_.epsilon);
    require(p_.success_prob < 1.0, "privatree: leaf_label_success_prob must be < 1, got ", p_.success_prob);
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    return fit_privatree({"privatree", PrivaTreeEdges::kUniform, true}, p_, data, rows, ctx,
                         [this](const PrivaTreeNode& node) { return split(node); });
  }

 private:
  // Depth is the only stopping rule at HEAD (data-independent). Otherwise the exact class histograms of
  // every feature's bins, then every prefix split (privatree.py __find_best_split). The utility of
  // candidate i: published 0.5 − Gini_i; strict n (1 − Gini_i).
  std::optional<PrivaTreeSplit> split(const PrivaTreeNode& node) const {
    if (node.depth == node.max_depth) return std::nullopt;
    const auto kk = node.counts.size();
    const std::vector<double>& total = node.counts;
    std::vector<double> utility;
    std::vector<std::pair<int, int>> cand;  // (feature, bin)
    for (std::size_t f = 0; f < node.binned.n_bins.size(); ++f) {
      const auto nb = static_cast<std::size_t>(node.binned.n_bins[f]);
      std::vector<double> hist(nb * kk, 0.0);
      for (uint32_t r : node.rows)
        hist[node.binned.bins[f][r] * kk + static_cast<std::size_t>(node.data.label(r))] += 1.0;
      std::vector<double> left(kk, 0.0);
      for (std::size_t b = 0; b < nb; ++b) {
        double nl = 0, nr = 0, sl = 0, sr = 0;
        for (std::size_t c = 0; c < kk; ++c) {
          left[c] += hist[b * kk + c];
          const double right = total[c] - left[c];
          nl += left[c];
          nr += right;
          sl += left[c] * left[c];
          sr += right * right;
        }
        const double ql = nl > 0 ? sl / nl : 0.0, qr = nr > 0 ? sr / nr : 0.0;  // n_side (1 − Gini_side)
        double u;
        if (p_.strict) {
          u = ql + qr;  // Q_i, add/remove sensitivity <= 1 (header)
        } else {
          const double gl = nl > 0 ? 1.0 - sl / (nl * nl) : 0.0, gr = nr > 0 ? 1.0 - sr / (nr * nr) : 0.0;
          const double gini = (nl == 0 && nr == 0) ? 0.5 : (nl * gl + nr * gr) / (nl + nr);
          u = 0.5 - gini;
        }
        utility.push_back(u);
        cand.emplace_back(static_cast<int>(f), static_cast<int>(b));
      }
    }
    const std::size_t pick = p_.strict ? pick_strict(node, utility) : pick_published(node, utility);
    return PrivaTreeSplit{.feature = cand[pick].first, .last = cand[pick].second, .order = {}};
  }

  // PermuteAndFlip(ε_node, Δ = 1, monotonic = False) on Q_i: acceptance exp(ε (u − max) / 2), our formula.
  static std::size_t pick_strict(const PrivaTreeNode& node, const std::vector<double>& utility) {
    const std::size_t pick = permute_and_flip(node.rng, utility, node.eps_node, 1.0);
    node.ledger.charge(node.scope, "permute-and-flip (split, Q utility)", node.eps_node, 1.0, true);
    return pick;
  }

  // privatree.py __find_best_split: ñ = GeometricTruncated(ε_node/2, sensitivity 1, lower 1, upper
  // maxsize) of |node|; two-sided geometric P(z) ∝ exp(−(ε_node/2)|z|), clamped.
  static std::size_t pick_published(const PrivaTreeNode& node, const std::vector<double>& utility) {
    const double eps_half = node.eps_node / 2;
    Rng n_rng = node.rng.derive("noisy-n");
    const int64_t z = sample_two_sided_geometric(n_rng, eps_half);
    const double nt = std::max(1.0, static_cast<double>(static_cast<int64_t>(node.rows.size()) + z));
    node.ledger.charge(node.scope, "geometric-n (split sensitivity)", eps_half, 1.0, true);
    // Δ(ñ) = 1 − (ñ/(ñ+1))² − (1/(ñ+1))² (privatree.md §4; privatree.py line 660), then
    // PermuteAndFlip(ε_node/2, Δ, monotonic = False): diffprivlib scale ε/(2Δ) = ours with Δ as is.
    // Uncertified: Δ(ñ) is a local sensitivity at a noisy size (header).
    const double delta = 1.0 - (nt / (nt + 1)) * (nt / (nt + 1)) - (1 / (nt + 1)) * (1 / (nt + 1));
    Rng pf_rng = node.rng.derive("split");
    const std::size_t pick = permute_and_flip(pf_rng, utility, eps_half, delta);
    node.ledger.charge(node.scope, "permute-and-flip (split, noisy-n Gini sensitivity)", eps_half, delta, false);
    return pick;
  }

  PrivaTreeParams p_;
};

}  // namespace

std::vector<AlgorithmInfo> privatree_algorithms() {
  AlgorithmInfo a = describe(
      "privatree", "privatree", kClassificationTask,
      "PrivaTree (Vos et al., arXiv 2305.15394), the authors' HEAD 'fixed' variant: one complete greedy tree on "
      "public equal-width bins, permute-and-flip splits on the Gini with a sensitivity from a geometric-noised "
      "node size, permute-and-flip leaves, leaf budget from the worst-case PF error (privatree.md §3-§4). "
      "Single tree (no n_trees). Defaults are PrivaTreeClassifier's (max_depth 3; the paper's experiments use 4). "
      "strict: noisy n for the leaf budget and the global-sensitivity utility n(1 - Gini) instead of the noisy-n "
      "Gini sensitivity");
  a.privacy_status = dp_when_strict(
      "the leaf budget reads the exact training-set size n (privatree.md §3 step 3), and the split's Gini "
      "sensitivity from a noisy node size falls below the true sensitivity 1/(n+1) when the noisy size exceeds "
      "about 2n+1 (privatree.md §4, the authors' unproven claim)");
  using P = PrivaTreeParams;
  return {
      with_learner<PrivaTreeLearner>(
          a, ParamSet<P>()
                 .add(&P::epsilon, param::epsilon("total privacy budget ε (PrivaTreeClassifier default 1.0)"))
                 .add(&P::max_depth,
                      param::max_depth(3, "depth d of the complete tree (code default 3; experiments 4)", 1, 16))
                 .add(&P::max_bins, param::max_bins(10, "equal-width bins per numerical feature (B, default 10)"))
                 .add(&P::success_prob,
                      param::share("leaf_label_success_prob", "0.99",
                                   "p_s: target probability of the correct leaf label in the leaf-budget "
                                   "formula (privatree.md §3), < 1"))
                 .add(&P::leaf_share, param::share("max_leaf_epsilon_share", "0.5",
                                                   "largest share of ε the leaves may get (privatree.md §3 step 3)"))
                 .add(&P::strict, param::strict())),
      privatree_v2_algorithm()};
}

}  // namespace dpf
