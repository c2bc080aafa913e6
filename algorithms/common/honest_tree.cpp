#include "algorithms/common/honest_tree.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"

namespace dpf {

std::size_t structure_size(std::size_t n, double r) {
  // §1.2: |S| = ceil(n r / (r + 1)), computed so that r = 1 gives exactly ceil(n / 2).
  const double s = std::ceil(static_cast<double>(n) * r / (r + 1.0) - 1e-9);
  return std::min(n, static_cast<std::size_t>(std::max(0.0, s)));
}

std::vector<double> class_counts(std::span<const int> labels, std::span<const uint32_t> rows, int n_classes) {
  std::vector<double> c(static_cast<std::size_t>(n_classes), 0.0);
  for (uint32_t r : rows) c[static_cast<std::size_t>(labels[r])] += 1;
  return c;
}

int argmax_uniform_ties(std::span<const double> counts, Rng& rng) {
  const double mx = *std::max_element(counts.begin(), counts.end());
  std::size_t ties = 0;
  for (double c : counts) ties += c == mx;
  std::size_t pick = ties > 1 ? rng.below(ties) : 0;
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (counts[i] == mx && pick-- == 0) return static_cast<int>(i);
  return 0;
}

void estimation_histogram(const HonestView& node, int n_classes, std::span<double> out) {
  std::vector<double> n = class_counts(node.labels, node.e, n_classes);
  const double tot = static_cast<double>(node.e.size());
  for (std::size_t c = 0; c < n.size(); ++c) out[c] = tot > 0 ? n[c] / tot : 1.0 / static_cast<double>(n_classes);
}

int sample_poisson(Rng& rng, double lambda) {
  // Knuth: count uniforms until their product drops below e^-lambda, in log space for large lambda.
  double log_p = 0.0;
  int k = -1;
  do {
    log_p += std::log(rng.uniform_open());
    ++k;
  } while (log_p > -lambda);
  return k;
}

namespace {

struct Pending {
  int32_t node;
  std::size_t s0, s1, e0, e1;  // ranges in the S and E arrays
  int depth;
  PrivacyLedger::ScopeId scope;
  std::vector<FeatureDomain> domains;  // strict only
};

// A child's public domains after split c (k = 0: x < t or the category; k = 1: the rest).
std::vector<FeatureDomain> narrowed(std::vector<FeatureDomain> d, const SplitChoice& c, int k) {
  FeatureDomain& f = d[static_cast<std::size_t>(c.feature)];
  if (c.kind == SplitKind::kThreshold) {
    if (k == 0) f.hi = std::min(f.hi, c.threshold);
    else f.lo = std::max(f.lo, c.threshold);
  } else if (!f.all_categories) {
    f.categories = k == 0 ? (f.categories & c.mask) : (f.categories & ~c.mask);
  }
  return d;
}

}  // namespace

Tree grow_honest_tree(const Dataset& data, std::span<const int> labels, std::span<const uint32_t> rows,
                      HonestPolicy& policy, const HonestOptions& opt, const Rng& tree_rng, PrivacyLedger& ledger) {
  require(opt.min_leaf >= 1, "honest tree: min_leaf must be >= 1");
  require(opt.partition_rate > 0, "honest tree: partition_rate must be > 0");
  const int C = static_cast<int>(data.n_classes());

  // A fresh uniform S/E partition for this tree (§1.2: re-drawn for every tree).
  std::vector<uint32_t> S, E;
  Rng part_rng = tree_rng.derive("partition");
  if (opt.strict) {
    // Each record independently in S with probability r/(r+1): its presence changes nothing else,
    // so it is read by the structure or by the labels, never both (the parallel S/E step of §1.10).
    const double p_s = opt.partition_rate / (opt.partition_rate + 1.0);
    for (uint32_t r : rows) (part_rng.bernoulli(p_s) ? S : E).push_back(r);
  } else {
    std::vector<uint32_t> perm(rows.begin(), rows.end());
    part_rng.shuffle(std::span<uint32_t>(perm));
    const std::size_t ns = structure_size(perm.size(), opt.partition_rate);
    S.assign(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(ns));
    E.assign(perm.begin() + static_cast<std::ptrdiff_t>(ns), perm.end());
  }

  // Ledger (§1.10): tree = (structure path scopes) composed with (one parallel scope of leaves),
  // in parallel when S and E are disjoint reads (the paper) or sequentially (cautious reading).
  PrivacyLedger::ScopeId tree_scope = -1, labels_scope = -1, root_scope = -1;
  if (opt.track_privacy) {
    tree_scope = ledger.open_scope(opt.forest_scope, opt.parallel_s_e ? Composition::kParallel : Composition::kSequential,
                                   "tree");
    labels_scope = ledger.open_scope(tree_scope, Composition::kParallel, "leaf labels");
    root_scope = ledger.open_scope(tree_scope, Composition::kSequential, "structure");
  }

  Tree tree(C);
  tree.add_nodes(1, 0);
  std::vector<Pending> stack;
  stack.push_back({0, 0, S.size(), 0, E.size(), 0, root_scope, {}});
  if (opt.strict) stack.back().domains = schema_domains(data.schema());
  std::vector<double> out(static_cast<std::size_t>(C));
  while (!stack.empty()) {
    Pending p = std::move(stack.back());
    stack.pop_back();
    std::span<uint32_t> s(S.data() + p.s0, p.s1 - p.s0), e(E.data() + p.e0, p.e1 - p.e0);
    HonestView view{data, labels, s, e, p.depth, p.scope, p.s0, p.domains};
    Rng node_rng = tree_rng.derive("node").derive(static_cast<uint64_t>(p.node));
    tree.mutable_nodes()[static_cast<std::size_t>(p.node)].count = static_cast<int32_t>(s.size() + e.size());

    auto make_leaf = [&](LeafReason why) {
      PrivacyLedger::ScopeId ls = opt.track_privacy ? ledger.open_scope(labels_scope, Composition::kSequential) : -1;
      Rng leaf_rng = node_rng.derive("leaf");
      std::fill(out.begin(), out.end(), 0.0);
      policy.leaf(view, why, leaf_rng, ledger, ls, out);
      Node& nd = tree.mutable_nodes()[static_cast<std::size_t>(p.node)];
      nd.kind = SplitKind::kLeaf;
      nd.leaf = tree.add_leaf_values(out);
    };

    if (opt.max_depth > 0 && p.depth >= opt.max_depth) { make_leaf(LeafReason::kStop); continue; }
    bool pure = !s.empty() && !opt.strict;
    for (uint32_t r : s) pure = pure && labels[r] == labels[s[0]];
    if (pure) { make_leaf(LeafReason::kStop); continue; }
    std::optional<SplitChoice> choice = policy.choose(view, node_rng, ledger);
    if (!choice) { make_leaf(LeafReason::kStop); continue; }

    auto left = [&](uint32_t r) { return goes_left(data, *choice, r); };
    const std::size_t sl = static_cast<std::size_t>(std::partition(s.begin(), s.end(), left) - s.begin());
    const std::size_t el = static_cast<std::size_t>(std::partition(e.begin(), e.end(), left) - e.begin());
    const std::size_t er = e.size() - el;
    if (!opt.strict && (el == 0 || er == 0)) { make_leaf(LeafReason::kEmptyChild); continue; }
    const auto k = static_cast<std::size_t>(opt.min_leaf);
    if (!opt.strict && opt.stop == HonestStop::kPaper && (el < k || er < k)) { make_leaf(LeafReason::kStop); continue; }

    const int32_t first = tree.add_nodes(2, static_cast<int16_t>(p.depth + 1));
    Node& nd = tree.mutable_nodes()[static_cast<std::size_t>(p.node)];
    nd.kind = choice->kind;
    nd.feature = choice->feature;
    nd.threshold = choice->threshold;
    nd.mask = choice->mask;
    nd.first_child = first;
    nd.n_children = 2;
    PrivacyLedger::ScopeId kids = opt.track_privacy ? ledger.open_scope(p.scope, Composition::kParallel) : -1;
    Pending child[2] = {{first, p.s0, p.s0 + sl, p.e0, p.e0 + el, p.depth + 1, -1, {}},
                        {first + 1, p.s0 + sl, p.s1, p.e0 + el, p.e1, p.depth + 1, -1, {}}};
    if (opt.strict)
      for (int c = 0; c < 2; ++c) child[c].domains = narrowed(p.domains, *choice, c);
    for (int c = 1; c >= 0; --c) {
      Pending q = std::move(child[c]);
      if (opt.track_privacy) q.scope = ledger.open_scope(kids, Composition::kSequential);
      const std::size_t ne = q.e1 - q.e0;
      if (!opt.strict && opt.stop == HonestStop::kRef && ne <= k) {
        // §1.7 step 5: a child with at most k estimation points is a leaf at once.
        std::span<uint32_t> cs(S.data() + q.s0, q.s1 - q.s0), ce(E.data() + q.e0, q.e1 - q.e0);
        HonestView cv{data, labels, cs, ce, q.depth, q.scope, q.s0, q.domains};
        PrivacyLedger::ScopeId ls = opt.track_privacy ? ledger.open_scope(labels_scope, Composition::kSequential) : -1;
        Rng leaf_rng = tree_rng.derive("node").derive(static_cast<uint64_t>(q.node)).derive("leaf");
        std::fill(out.begin(), out.end(), 0.0);
        policy.leaf(cv, LeafReason::kStop, leaf_rng, ledger, ls, out);
        Node& cn = tree.mutable_nodes()[static_cast<std::size_t>(q.node)];
        cn.count = static_cast<int32_t>(cs.size() + ce.size());
        cn.leaf = tree.add_leaf_values(out);
        continue;
      }
      stack.push_back(std::move(q));
    }
  }
  return tree;
}

std::unique_ptr<Model> fit_honest_forest(const std::string& name, const Dataset& data, std::span<const uint32_t> rows,
                                         FitContext& ctx, int n_trees, HonestPolicy& policy, const HonestOptions& opt,
                                         Vote vote) {
  require(data.task() == TaskKind::kClassification, name, ": classification only");
  require(n_trees >= 1, name, ": n_trees must be >= 1");
  const std::vector<int> labels = data.labels();
  auto model = std::make_unique<ForestModel>(name, data.task(), static_cast<int>(data.n_classes()), vote);
  model->set_n_train(rows.size());
  for (int t = 0; t < n_trees; ++t) {
    Rng tree_rng = ctx.rng.derive("tree").derive(static_cast<uint64_t>(t));
    model->add_tree(grow_honest_tree(data, labels, rows, policy, opt, tree_rng, ctx.ledger));
  }
  return model;
}

}  // namespace dpf
