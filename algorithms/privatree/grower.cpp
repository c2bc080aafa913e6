#include "algorithms/privatree/grower.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "algorithms/common/occupancy.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

struct Grower {
  const Dataset& data;
  PrivaTreeBins binned;
  int k, max_depth;
  double eps_leaf, eps_node;
  bool leaf_certified;
  PrivacyLedger& ledger;
  const PrivaTreeRule& rule;
  Tree tree;
  std::vector<uint32_t> rows;

  void grow(int32_t node, std::size_t begin, std::size_t end, int depth, PrivacyLedger::ScopeId parent,
            const Rng& tree_rng) {
    const std::span<uint32_t> node_rows(rows.data() + begin, end - begin);
    tree.mutable_nodes()[static_cast<std::size_t>(node)].count = static_cast<int32_t>(node_rows.size());
    const PrivacyLedger::ScopeId scope = ledger.open_scope(parent, Composition::kSequential);
    Rng rng = tree_rng.derive(static_cast<uint64_t>(node));
    std::vector<double> counts(static_cast<std::size_t>(k), 0.0);
    for (uint32_t r : node_rows) counts[static_cast<std::size_t>(data.label(r))] += 1.0;
    const std::optional<PrivaTreeSplit> split =
        rule(PrivaTreeNode{data, binned, node_rows, counts, depth, max_depth, eps_node, ledger, scope, rng});
    if (!split) {
      leaf(node, counts, scope, rng);
      return;
    }
    const auto fu = static_cast<std::size_t>(split->feature);
    std::vector<bool> goes_left(static_cast<std::size_t>(binned.n_bins[fu]), false);
    for (int i = 0; i <= split->last; ++i)
      goes_left[static_cast<std::size_t>(split->order.empty() ? i : split->order[static_cast<std::size_t>(i)])] = true;
    const int32_t first = tree.add_nodes(2, static_cast<int16_t>(depth + 1));
    route(tree.mutable_nodes()[static_cast<std::size_t>(node)], *split, goes_left);
    tree.mutable_nodes()[static_cast<std::size_t>(node)].first_child = first;
    tree.mutable_nodes()[static_cast<std::size_t>(node)].n_children = 2;
    auto mid = std::partition(node_rows.begin(), node_rows.end(),
                              [&](uint32_t r) { return goes_left[binned.bins[fu][r]]; });
    const std::size_t split_at = begin + static_cast<std::size_t>(mid - node_rows.begin());
    const PrivacyLedger::ScopeId children = ledger.open_scope(scope, Composition::kParallel);
    grow(first, begin, split_at, depth + 1, children, tree_rng);
    grow(first + 1, split_at, end, depth + 1, children, tree_rng);
  }

  // Leaf: PermuteAndFlip(ε_leaf, sensitivity 1, monotonic) on the class counts, value one-hot
  // (privatree.md §4 Leaf, §5 item 4; privatree.py __create_leaf). Ours accepts with
  // exp(ε (u − max) / (2Δ)): Δ = 1/2 is diffprivlib's monotonic scale ε/1.
  void leaf(int32_t node, const std::vector<double>& counts, PrivacyLedger::ScopeId scope, Rng& rng) {
    const std::size_t label = permute_and_flip(rng, counts, eps_leaf, 0.5);
    ledger.charge(scope, "permute-and-flip (leaf)", eps_leaf, 1.0, leaf_certified);
    std::vector<double> value(static_cast<std::size_t>(k), 0.0);
    value[label] = 1.0;
    tree.mutable_nodes()[static_cast<std::size_t>(node)].leaf = tree.add_leaf_values(value);
  }

  // privatree.py routes a numerical split as x <= edges[b]; our Tree sends x < threshold to child 0
  // (privatree_threshold). Categorical codes in natural order: code <= b, threshold b + 0.5; in an order
  // chosen from the data: the subset of codes that goes left.
  void route(Node& nd, const PrivaTreeSplit& split, const std::vector<bool>& goes_left) const {
    const auto fu = static_cast<std::size_t>(split.feature);
    const Feature& feat = data.schema().features[fu];
    nd.feature = split.feature;
    nd.kind = SplitKind::kThreshold;
    if (feat.kind == FeatureKind::kNumeric) {
      require(split.order.empty(), "privatree: a numerical split is in the bins' natural order");
      nd.threshold = privatree_threshold(binned.edges[fu][static_cast<std::size_t>(split.last)], feat.hi);
    } else if (split.order.empty()) {
      nd.threshold = split.last + 0.5;
    } else {
      nd.kind = SplitKind::kSubset;
      for (std::size_t c = 0; c < goes_left.size(); ++c)
        if (goes_left[c]) nd.mask |= uint64_t{1} << c;
    }
  }
};

}  // namespace

int privatree_classes(const char* name, const Dataset& data) {
  require(data.task() == TaskKind::kClassification, name, ": classification only");
  require(data.n_features() >= 1, name, ": needs at least one feature");
  const int k = static_cast<int>(data.n_classes());  // public class list (schema), not np.unique(y)
  require(k >= 1, name, ": the schema lists no classes");
  return k;
}

std::unique_ptr<Model> fit_privatree(const PrivaTreeVariant& variant, const PrivaTreeParams& p, const Dataset& data,
                                     std::span<const uint32_t> rows, FitContext& ctx, const PrivaTreeRule& rule) {
  const int k = privatree_classes(variant.name, data);
  // Budget (privatree.md §3, privatree.py __distribute_epsilon, "auto" shares). Published: the exact n
  // (self.n_samples_). Strict: ñ paid with kNEpsilonShare of ε.
  const RowCountForDepth n(ctx, rows.size(), p.epsilon, p.strict);
  const double eps = n.epsilon_left();
  const double required = n.n() > 0 ? privatree_worst_expected_error(k) * std::ldexp(1.0, p.max_depth) /
                                          (n.n() * (1.0 - p.success_prob))
                                    : std::numeric_limits<double>::infinity();
  const double eps_leaf = std::min(p.leaf_share * eps, required);  // §3 step 3
  const double eps_node = (eps - eps_leaf) / p.max_depth;           // §3 step 4 (HEAD): per level
  Grower g{data,     privatree_bins(data, rows, p.max_bins, variant.edges),
           k,        p.max_depth,
           eps_leaf, eps_node,
           variant.leaf_certified, ctx.ledger,
           rule,     Tree(k),
           std::vector<uint32_t>(rows.begin(), rows.end())};
  g.tree.add_nodes(1, 0);
  g.grow(0, 0, g.rows.size(), 0, PrivacyLedger::kRoot, ctx.rng.derive("tree").derive(uint64_t{0}));

  auto model = std::make_unique<ForestModel>(variant.name, TaskKind::kClassification, k, Vote::kHard);
  model->set_n_train(rows.size());
  model->add_tree(std::move(g.tree));
  ctx.ledger.check_within(p.epsilon, variant.name);
  model->set_ledger_summary(ctx.ledger.summary());
  return model;
}

}  // namespace dpf
