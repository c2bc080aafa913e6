#include "algorithms/common/forest_fit.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"

namespace dpf {

void check_epsilon_param(const std::string& algorithm, double epsilon) {
  require(std::isfinite(epsilon) && epsilon > 0, algorithm, ": epsilon must be > 0 and finite, got ", epsilon);
}

std::unique_ptr<Model> fit_forest(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx,
                                  const ForestFitSpec& spec, SplitPolicy& split, LeafPolicy& leaf) {
  require(spec.n_trees >= 1, spec.algorithm, ": n_trees must be >= 1");
  const bool priv = std::isfinite(spec.epsilon);
  if (priv) {
    check_epsilon_param(spec.algorithm, spec.epsilon);
    require(spec.rows != TreeRows::kBootstrap, spec.algorithm, ": bootstrap rows are not supported in a private fit");
  }
  const auto n_trees = static_cast<std::size_t>(spec.n_trees);

  // Rows of each tree.
  std::vector<std::vector<uint32_t>> tree_rows(n_trees);
  Rng rows_rng = ctx.rng.derive("tree-rows");
  switch (spec.rows) {
    case TreeRows::kAll:
      for (auto& t : tree_rows) t.assign(rows.begin(), rows.end());
      break;
    case TreeRows::kPartition: {
      std::vector<uint32_t> perm(rows.begin(), rows.end());
      rows_rng.shuffle(std::span<uint32_t>(perm));
      // numpy.array_split: the first n % N_T chunks get one extra row.
      const std::size_t n = perm.size(), base = n / n_trees, extra = n % n_trees;
      std::size_t at = 0;
      for (std::size_t t = 0; t < n_trees; ++t) {
        std::size_t len = base + (t < extra ? 1 : 0);
        tree_rows[t].assign(perm.begin() + static_cast<std::ptrdiff_t>(at), perm.begin() + static_cast<std::ptrdiff_t>(at + len));
        at += len;
      }
      break;
    }
    case TreeRows::kRandomAssignment:
      for (uint32_t r : rows) tree_rows[rows_rng.below(n_trees)].push_back(r);
      break;
    case TreeRows::kBootstrap:
      for (std::size_t t = 0; t < n_trees; ++t) {
        Rng b = rows_rng.derive(static_cast<uint64_t>(t));
        tree_rows[t].resize(rows.size());
        for (auto& r : tree_rows[t]) r = rows[b.below(rows.size())];
      }
      break;
  }

  const Schema& schema = data.schema();
  std::vector<FeatureDomain> domains = schema_domains(schema);
  std::vector<int> active;
  for (std::size_t f = 0; f < schema.n_features(); ++f) {
    const Feature& feat = schema.features[f];
    bool constant = feat.kind == FeatureKind::kNumeric ? !(feat.hi > feat.lo) : feat.n_categories() < 2;
    if (!(spec.drop_constant_domains && constant)) active.push_back(static_cast<int>(f));
  }

  const bool disjoint = spec.rows == TreeRows::kPartition || spec.rows == TreeRows::kRandomAssignment;
  PrivacyLedger::ScopeId forest_scope =
      priv ? ctx.ledger.open_scope(PrivacyLedger::kRoot, disjoint ? Composition::kParallel : Composition::kSequential,
                                   spec.algorithm + " forest")
           : PrivacyLedger::kRoot;
  auto model = std::make_unique<ForestModel>(spec.algorithm, data.task(),
                                             static_cast<int>(data.n_classes()), spec.vote);
  model->set_n_train(rows.size());
  auto grow_one = [&](std::size_t t, SplitPolicy& sp, LeafPolicy& lp, PrivacyLedger& ledger,
                      PrivacyLedger::ScopeId parent) {
    GrowOptions opt;
    opt.max_depth = spec.max_depth;
    opt.unlimited_depth = spec.unlimited_depth;
    opt.track_privacy = priv;
    opt.tree_scope = parent;
    opt.categorical_threshold_masks = spec.categorical_threshold_masks;
    opt.node_columns = spec.node_columns;
    opt.presort = spec.presort;
    Rng tree_rng = ctx.rng.derive("tree").derive(static_cast<uint64_t>(t));
    return grow_tree(data, tree_rows[t], domains, active, sp, lp, opt, tree_rng, ledger);
  };

  // Trees in parallel only when the caller gives this fit more than one thread (the runner does so
  // when tasks are fewer than threads) and the policies can be cloned. Each tree keeps its own RNG
  // stream and ledger, grafted in tree order, so the forest is the same either way.
  const int threads = spec.presort != nullptr ? 1 : std::min<int>(ctx.threads, spec.n_trees);
  std::unique_ptr<SplitPolicy> split_probe = threads > 1 ? split.clone() : nullptr;
  std::unique_ptr<LeafPolicy> leaf_probe = threads > 1 ? leaf.clone() : nullptr;
  if (split_probe && leaf_probe) {
    std::vector<Tree> trees(n_trees);
    std::vector<PrivacyLedger> ledgers(n_trees);
    std::vector<std::string> errors(n_trees);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::size_t t = 0; t < n_trees; ++t) {
      try {
        std::unique_ptr<SplitPolicy> sp = split.clone();
        std::unique_ptr<LeafPolicy> lp = leaf.clone();
        trees[t] = grow_one(t, *sp, *lp, ledgers[t], PrivacyLedger::kRoot);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    }
    for (std::size_t t = 0; t < n_trees; ++t) {
      if (!errors[t].empty()) throw Error(errors[t]);
      if (priv) ctx.ledger.absorb(forest_scope, ledgers[t]);
      model->add_tree(std::move(trees[t]));
    }
  } else {
    for (std::size_t t = 0; t < n_trees; ++t)
      model->add_tree(grow_one(t, split, leaf, ctx.ledger, forest_scope));
  }
  if (priv) {
    ctx.ledger.check_within(spec.epsilon, spec.algorithm);
    model->set_ledger_summary(ctx.ledger.summary());
  }
  return model;
}

}  // namespace dpf
