#include "algorithms/common/forest_fit.hpp"

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
  for (std::size_t t = 0; t < n_trees; ++t) {
    GrowOptions opt;
    opt.max_depth = spec.max_depth;
    opt.unlimited_depth = spec.unlimited_depth;
    opt.track_privacy = priv;
    opt.tree_scope = forest_scope;
    Rng tree_rng = ctx.rng.derive("tree").derive(static_cast<uint64_t>(t));
    model->add_tree(grow_tree(data, tree_rows[t], domains, active, split, leaf, opt, tree_rng, ctx.ledger));
  }
  if (priv) {
    ctx.ledger.check_within(spec.epsilon, spec.algorithm);
    model->set_ledger_summary(ctx.ledger.summary());
  }
  return model;
}

}  // namespace dpf
