// privatree-v2: PrivaTree as in arXiv v2, the authors' code at 2aff7a0 (privatree.md §5, variant (A)),
// kept to compare with the paper; its release is not epsilon-DP. Differences from `privatree` (HEAD):
//   - stopping: depth d, or a pure node, or fewer than min_samples_split = 2 rows (data-dependent);
//   - split: for every feature, a private histogram per class, each bin count
//     clamp(count + Geom(ε_node), 0, ∞) (private_bincount: diffprivlib GeometricTruncated, sensitivity 1,
//     lower 0); categorical bins ordered by noisy class-1 fraction (0.5 for a noisy total of 0; K = 2
//     only); prefixes with a noisy side total below min_samples_leaf = 1 skipped; the smallest noisy
//     Gini taken deterministically (first on ties); no candidate makes a leaf;
//   - bins: the configuration without private quantiles (use_private_quantiles = False, the paper's
//     "PrivaTree*"): exact quantile edges of the training rows (bins: quantiles), or the HEAD uniform
//     edges (bins: uniform, a hybrid no commit ran). The default private quantiles (JointExp) are not
//     implemented;
//   - budget (no quantile share): ε_leaf as HEAD (exact n), ε_node = (ε − ε_leaf) / d for numerical and
//     categorical features alike.
// Accounting: one added row changes one bin of one class histogram per feature, so the K class
// histograms of a feature cost ε_node together (parallel) and the p features of a node compose
// sequentially: p ε_node per node, p (ε − ε_leaf) + ε_leaf in all — the code claims ε (§5 item 2).
// The ledger records the code's claim (ε_node per node, uncertified), as the harness does for every
// published accounting, so epsilon_spent is the nominal ε; epsilon_apriori is +inf (the quantile edges
// read the rows without noise, and the per-node cost is p ε_node).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/privatree/grower.hpp"
#include "algorithms/privatree/privatree.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

class PrivaTreeV2Learner : public Learner {
 public:
  explicit PrivaTreeV2Learner(const PrivaTreeParams& p) : p_(p) {
    check_epsilon_param("privatree-v2", p_.epsilon);
    require(!p_.strict, "privatree-v2: there is no strict variant; the repaired PrivaTree is `privatree`");
    require(p_.success_prob < 1.0, "privatree-v2: leaf_label_success_prob must be < 1, got ", p_.success_prob);
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    const int k = privatree_classes("privatree-v2", data);
    for (const Feature& f : data.schema().features)
      require(f.kind == FeatureKind::kNumeric || (k == 2 && f.n_categories() <= 64), "privatree-v2: categorical feature '",
              f.name, "' needs binary classification and at most 64 categories (the v2 bin ordering, privatree.md §5)");
    const PrivaTreeEdges edges = p_.quantile_bins ? PrivaTreeEdges::kExactQuantiles : PrivaTreeEdges::kUniform;
    // The leaf charge is the code's claim, uncertified like its split charge (header).
    return fit_privatree({"privatree-v2", edges, false}, p_, data, rows, ctx,
                         [](const PrivaTreeNode& node) { return split(node); });
  }

 private:
  static std::optional<PrivaTreeSplit> split(const PrivaTreeNode& node) {
    // 2aff7a0 __fit_recursive: depth, pure node or fewer than min_samples_split = 2 rows (leaks, §5 item 1).
    const bool pure = std::count_if(node.counts.begin(), node.counts.end(), [](double c) { return c > 0; }) == 1;
    if (node.depth == node.max_depth || pure || node.rows.size() < 2) return std::nullopt;
    const auto kk = node.counts.size();
    std::optional<PrivaTreeSplit> best;
    double best_gini = std::numeric_limits<double>::infinity();
    for (std::size_t f = 0; f < node.binned.n_bins.size(); ++f) {
      const auto nb = static_cast<std::size_t>(node.binned.n_bins[f]);
      std::vector<double> hist(nb * kk, 0.0);  // [bin][class]
      for (uint32_t r : node.rows)
        hist[node.binned.bins[f][r] * kk + static_cast<std::size_t>(node.data.label(r))] += 1.0;
      // private_bincount per class: GeometricTruncated(ε_node, sensitivity 1, lower 0) on every bin
      // count (privatree.md §5 item 2). The K class histograms hold disjoint rows: one ε_node per feature.
      Rng h_rng = node.rng.derive("histogram").derive(static_cast<uint64_t>(f));
      for (double& c : hist)
        c = std::max(0.0, c + static_cast<double>(sample_two_sided_geometric(h_rng, node.eps_node)));
      const bool categorical = node.data.schema().features[f].kind == FeatureKind::kCategorical;
      std::vector<int> order(nb);
      for (std::size_t b = 0; b < nb; ++b) order[b] = static_cast<int>(b);
      if (categorical) {
        // Bins by noisy class-1 fraction, 0.5 for a noisy total of 0 (np.argsort; stable here).
        std::vector<double> p1(nb);
        for (std::size_t b = 0; b < nb; ++b) {
          const double tot = hist[b * kk] + hist[b * kk + 1];
          p1[b] = tot != 0 ? hist[b * kk + 1] / tot : 0.5;
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int c) { return p1[static_cast<std::size_t>(a)] < p1[static_cast<std::size_t>(c)]; });
      }
      std::vector<double> left(kk, 0.0), right(kk, 0.0);
      for (std::size_t b = 0; b < nb; ++b)
        for (std::size_t c = 0; c < kk; ++c) right[c] += hist[b * kk + c];
      for (std::size_t i = 0; i < nb; ++i) {
        const auto b = static_cast<std::size_t>(order[i]);
        double nl = 0, nr = 0, sl = 0, sr = 0;
        for (std::size_t c = 0; c < kk; ++c) {
          left[c] += hist[b * kk + c];
          right[c] -= hist[b * kk + c];
          nl += left[c];
          nr += right[c];
          sl += left[c] * left[c];
          sr += right[c] * right[c];
        }
        if (nl < 1 || nr < 1) continue;  // min_samples_leaf = 1 on the noisy totals
        const double gini = (nl * (1 - sl / (nl * nl)) + nr * (1 - sr / (nr * nr))) / (nl + nr);
        if (gini < best_gini) {
          best_gini = gini;
          best = PrivaTreeSplit{.feature = static_cast<int>(f), .last = static_cast<int>(i),
                                .order = categorical ? order : std::vector<int>{}};
        }
      }
    }
    // The code's accounting: ε_node for the node's histograms, uncertified (the p features compose
    // sequentially, so the mechanism's true cost is p ε_node; header).
    node.ledger.charge(node.scope, "geometric histograms (v2 split, as claimed)", node.eps_node, 1.0, false);
    return best;  // none: "No threshold found!", a leaf
  }

  PrivaTreeParams p_;
};

}  // namespace

AlgorithmInfo privatree_v2_algorithm() {
  AlgorithmInfo a = describe(
      "privatree-v2", "privatree (the arXiv-v2 code, for comparison with the paper)", kClassificationTask,
      "PrivaTree as in arXiv v2 (authors' code 2aff7a0, privatree.md §5): noisy per-class histograms per feature, "
      "the smallest noisy Gini taken deterministically, data-dependent stopping, permute-and-flip leaves; bins from "
      "exact quantiles of the training rows (the paper's PrivaTree*, use_private_quantiles = False) or uniform. "
      "Published, not epsilon-DP; the paper's default JointExp private quantiles are not offered");
  a.privacy_status = [](const Params& p, TaskKind) -> std::string {
    std::string s = "published, not epsilon-DP: ";
    if (p.get_string("bins") == "quantiles") s += "bin edges are exact quantiles of the training rows; ";
    return s +
           "stops on pure nodes and on fewer than 2 rows, the leaf budget reads the exact n, and the p features' "
           "noisy histograms at one node cost p epsilon_node, not epsilon_node (privatree.md §5)";
  };
  // No data-independent bound: the quantile edges read the rows, and a node costs p epsilon_node (header).
  a.privacy_bound = [](const Params&, TaskKind) { return PrivacyBound{HUGE_VAL, HUGE_VAL, 0.0}; };
  using P = PrivaTreeParams;
  return with_learner<PrivaTreeV2Learner>(
      a,
      ParamSet<P>()
          .add(&P::epsilon, param::epsilon("nominal privacy budget ε (PrivaTreeClassifier default 1.0)"))
          .add(&P::max_depth, param::max_depth(3, "largest depth d (code default 3; experiments 4)", 1, 16))
          .add(&P::max_bins, param::max_bins(10, "bins per numerical feature (B, default 10)"))
          .add(&P::quantile_bins,
               param::choice("bins", "quantiles",
                             "quantiles: exact quantile edges of the training rows (PrivaTree*, not private); "
                             "uniform: HEAD's public edges"),
               {{"quantiles", true}, {"uniform", false}})
          .add(&P::success_prob,
               param::share("leaf_label_success_prob", "0.99", "p_s in the leaf-budget formula (privatree.md §3), < 1"))
          .add(&P::leaf_share, param::share("max_leaf_epsilon_share", "0.5", "largest share of ε the leaves may get"))
          .add(&P::strict, param::flag("strict", false,
                                       "no repaired variant here: the repaired algorithm is `privatree` (HEAD); true "
                                       "is refused")));
}

}  // namespace dpf
