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

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/privatree/bins.hpp"
#include "algorithms/privatree/privatree.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

const ParamSet<PrivaTreeParams>& privatree_v2_params() {
  using P = PrivaTreeParams;
  static const ParamSet<P> set =
      ParamSet<P>()
          .add(&P::epsilon, param::epsilon("nominal privacy budget ε (PrivaTreeClassifier default 1.0)"))
          .add(&P::max_depth, param::max_depth(3, "largest depth d (code default 3; experiments 4)", 1, 16))
          .add(&P::max_bins, param::max_bins(10, "bins per numerical feature (B, default 10)"))
          .add(&P::quantile_bins,
               {.name = "bins", .default_value = "quantiles",
                .doc = "quantiles: exact quantile edges of the training rows (PrivaTree*, not private); uniform: HEAD's "
                       "public edges"},
               {{"quantiles", true}, {"uniform", false}})
          .add(&P::success_prob, {.name = "leaf_label_success_prob", .default_value = "0.99", .min = 0, .max = 1,
                                  .min_exclusive = true, .doc = "p_s in the leaf-budget formula (privatree.md §3), < 1"})
          .add(&P::leaf_share, {.name = "max_leaf_epsilon_share", .default_value = "0.5", .min = 0, .max = 1,
                                .min_exclusive = true, .doc = "largest share of ε the leaves may get"})
          .add(&P::strict, {.name = "strict", .default_value = "false",
                            .doc = "no repaired variant here: the repaired algorithm is `privatree` (HEAD); true is "
                                   "refused"});
  return set;
}

class PrivaTreeV2Learner : public Learner {
 public:
  explicit PrivaTreeV2Learner(const PrivaTreeParams& p)
      : epsilon_(p.epsilon), max_depth_(p.max_depth), max_bins_(p.max_bins), success_prob_(p.success_prob),
        leaf_share_(p.leaf_share), edges_(p.quantile_bins ? PrivaTreeEdges::kExactQuantiles : PrivaTreeEdges::kUniform) {
    check_epsilon_param("privatree-v2", epsilon_);
    require(!p.strict, "privatree-v2: there is no strict variant; the repaired PrivaTree is `privatree`");
    require(success_prob_ < 1.0, "privatree-v2: leaf_label_success_prob must be < 1, got ", success_prob_);
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    require(data.task() == TaskKind::kClassification, "privatree-v2: classification only");
    require(data.n_features() >= 1, "privatree-v2: needs at least one feature");
    const int k = static_cast<int>(data.n_classes());
    require(k >= 1, "privatree-v2: the schema lists no classes");
    for (const Feature& f : data.schema().features)
      require(f.kind == FeatureKind::kNumeric || (k == 2 && f.n_categories() <= 64), "privatree-v2: categorical feature '",
              f.name, "' needs binary classification and at most 64 categories (the v2 bin ordering, privatree.md §5)");
    const double n = static_cast<double>(rows.size());  // exact n, as the code reads self.n_samples_
    const double required = n > 0 ? privatree_worst_expected_error(k) * std::ldexp(1.0, max_depth_) /
                                         (n * (1.0 - success_prob_))
                                   : std::numeric_limits<double>::infinity();
    State st{data, privatree_bins(data, rows, max_bins_, edges_), k, 0.0, 0.0, ctx.ledger, Tree(k),
             std::vector<uint32_t>(rows.begin(), rows.end())};
    st.eps_leaf = std::min(leaf_share_ * epsilon_, required);
    st.eps_node = (epsilon_ - st.eps_leaf) / max_depth_;
    st.tree.add_nodes(1, 0);
    grow(st, 0, 0, st.rows.size(), 0, PrivacyLedger::kRoot, ctx.rng.derive("tree").derive(uint64_t{0}));

    auto model = std::make_unique<ForestModel>("privatree-v2", TaskKind::kClassification, k, Vote::kHard);
    model->set_n_train(rows.size());
    model->add_tree(std::move(st.tree));
    ctx.ledger.check_within(epsilon_, "privatree-v2");
    model->set_ledger_summary(ctx.ledger.summary());
    return model;
  }

 private:
  struct State {
    const Dataset& data;
    PrivaTreeBins binned;
    int k;
    double eps_leaf, eps_node;
    PrivacyLedger& ledger;
    Tree tree;
    std::vector<uint32_t> rows;
  };

  void grow(State& st, int32_t node, std::size_t begin, std::size_t end, int depth, PrivacyLedger::ScopeId parent,
            const Rng& tree_rng) const {
    const std::span<uint32_t> rows(st.rows.data() + begin, end - begin);
    st.tree.mutable_nodes()[static_cast<std::size_t>(node)].count = static_cast<int32_t>(rows.size());
    const PrivacyLedger::ScopeId scope = st.ledger.open_scope(parent, Composition::kSequential);
    Rng rng = tree_rng.derive(static_cast<uint64_t>(node));
    const auto kk = static_cast<std::size_t>(st.k);
    std::vector<double> counts(kk, 0.0);
    for (uint32_t r : rows) counts[static_cast<std::size_t>(st.data.label(r))] += 1.0;
    const bool pure = std::count_if(counts.begin(), counts.end(), [](double c) { return c > 0; }) == 1;
    // 2aff7a0 __fit_recursive: depth, pure node or fewer than min_samples_split = 2 rows (leaks, §5 item 1).
    bool leaf = depth == max_depth_ || pure || rows.size() < 2;
    int best_f = -1, best_b = -1;
    std::vector<int> best_order;
    if (!leaf) {
      double best_gini = std::numeric_limits<double>::infinity();
      for (std::size_t f = 0; f < st.binned.n_bins.size(); ++f) {
        const auto nb = static_cast<std::size_t>(st.binned.n_bins[f]);
        std::vector<double> hist(nb * kk, 0.0);  // [bin][class]
        for (uint32_t r : rows) hist[st.binned.bins[f][r] * kk + static_cast<std::size_t>(st.data.label(r))] += 1.0;
        // private_bincount per class: GeometricTruncated(ε_node, sensitivity 1, lower 0) on every bin
        // count (privatree.md §5 item 2). The K class histograms hold disjoint rows: one ε_node per feature.
        Rng h_rng = rng.derive("histogram").derive(static_cast<uint64_t>(f));
        for (double& c : hist) c = std::max(0.0, c + static_cast<double>(sample_two_sided_geometric(h_rng, st.eps_node)));
        std::vector<int> order(nb);
        for (std::size_t b = 0; b < nb; ++b) order[b] = static_cast<int>(b);
        if (st.data.schema().features[f].kind == FeatureKind::kCategorical) {
          // Bins by noisy class-1 fraction, 0.5 for a noisy total of 0 (np.argsort; stable here).
          std::vector<double> p1(nb);
          for (std::size_t b = 0; b < nb; ++b) {
            const double tot = hist[b * kk] + hist[b * kk + 1];
            p1[b] = tot != 0 ? hist[b * kk + 1] / tot : 0.5;
          }
          std::stable_sort(order.begin(), order.end(), [&](int a, int c) { return p1[static_cast<std::size_t>(a)] < p1[static_cast<std::size_t>(c)]; });
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
            best_f = static_cast<int>(f);
            best_b = static_cast<int>(i);
            best_order = order;
          }
        }
      }
      // The code's accounting: ε_node for the node's histograms, uncertified (the p features compose
      // sequentially, so the mechanism's true cost is p ε_node; header).
      st.ledger.charge(scope, "geometric histograms (v2 split, as claimed)", st.eps_node, 1.0, false);
      leaf = best_f < 0;  // "No threshold found!"
    }
    if (leaf) {
      // Leaf: PermuteAndFlip(ε_leaf, 1, monotonic) as HEAD (privatree.md §5 item 4); Δ = 1/2 in our form.
      const std::size_t label = permute_and_flip(rng, counts, st.eps_leaf, 0.5);
      st.ledger.charge(scope, "permute-and-flip (leaf)", st.eps_leaf, 1.0, false);
      std::vector<double> value(kk, 0.0);
      value[label] = 1.0;
      st.tree.mutable_nodes()[static_cast<std::size_t>(node)].leaf = st.tree.add_leaf_values(value);
      return;
    }
    const auto fu = static_cast<std::size_t>(best_f);
    const Feature& feat = st.data.schema().features[fu];
    std::vector<bool> goes_left(static_cast<std::size_t>(st.binned.n_bins[fu]), false);
    for (int i = 0; i <= best_b; ++i) goes_left[static_cast<std::size_t>(best_order[static_cast<std::size_t>(i)])] = true;
    const int32_t first = st.tree.add_nodes(2, static_cast<int16_t>(depth + 1));
    {
      Node& nd = st.tree.mutable_nodes()[static_cast<std::size_t>(node)];
      nd.feature = best_f;
      if (feat.kind == FeatureKind::kNumeric) {
        nd.kind = SplitKind::kThreshold;
        nd.threshold = privatree_threshold(st.binned.edges[fu][static_cast<std::size_t>(best_b)], feat.hi);
      } else {
        nd.kind = SplitKind::kSubset;
        for (std::size_t c = 0; c < goes_left.size(); ++c)
          if (goes_left[c]) nd.mask |= uint64_t{1} << c;
      }
      nd.first_child = first;
      nd.n_children = 2;
    }
    auto mid = std::partition(rows.begin(), rows.end(), [&](uint32_t r) { return goes_left[st.binned.bins[fu][r]]; });
    const std::size_t split_at = begin + static_cast<std::size_t>(mid - rows.begin());
    const PrivacyLedger::ScopeId children = st.ledger.open_scope(scope, Composition::kParallel);
    grow(st, first, begin, split_at, depth + 1, children, tree_rng);
    grow(st, first + 1, split_at, end, depth + 1, children, tree_rng);
  }

  double epsilon_;
  int max_depth_, max_bins_;
  double success_prob_, leaf_share_;
  PrivaTreeEdges edges_;
};

}  // namespace

AlgorithmInfo privatree_v2_algorithm() {
  AlgorithmInfo a{
      .name = "privatree-v2",
      .summary =
          "PrivaTree as in arXiv v2 (authors' code 2aff7a0, privatree.md §5): noisy per-class histograms per feature, "
          "the smallest noisy Gini taken deterministically, data-dependent stopping, permute-and-flip leaves; bins "
          "from "
          "exact quantiles of the training rows (the paper's PrivaTree*, use_private_quantiles = False) or uniform. "
          "Published, not epsilon-DP; the JointExp private quantiles of the paper's default are not implemented",
      .papers = "privatree (the arXiv-v2 code, for comparison with the paper)",
      .tasks = {TaskKind::kClassification},
      .params = privatree_v2_params().specs({}),
      .privacy_status = [](const Params& p, TaskKind) -> std::string {
        std::string s = "published, not epsilon-DP: ";
        if (p.get_string("bins") == "quantiles") s += "bin edges are exact quantiles of the training rows; ";
        return s +
               "stops on pure nodes and on fewer than 2 rows, the leaf budget reads the exact n, and the p features' "
               "noisy histograms at one node cost p epsilon_node, not epsilon_node (privatree.md §5)";
      },
      .privacy_bound =
          [](const Params&, TaskKind) {
            const double inf = std::numeric_limits<double>::infinity();
            return PrivacyBound{inf, inf, 0.0};
          },
      .make = learner_factory<PrivaTreeV2Learner>(privatree_v2_params())};
  return a;
}

}  // namespace dpf
