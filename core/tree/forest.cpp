#include "core/tree/forest.hpp"

#include <algorithm>

#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "core/util/named.hpp"

namespace dpf {

Release Model::released() const {
  fail("this model does not expose its released output (Model::released), so the privacy audit cannot read it");
}

void Model::save(JsonWriter&) const {
  fail("this model cannot be saved: its release is not a stored structure (it is recomputed at predict time)");
}

std::vector<double> Predictions::class_score(int c) const {
  std::vector<double> s(label.size());
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = value[i * static_cast<std::size_t>(n_classes) + static_cast<std::size_t>(c)];
  return s;
}

namespace {

constexpr NamedValue<Vote> kVotes[] = {
    {"soft", Vote::kSoft}, {"hard", Vote::kHard}, {"weighted", Vote::kWeighted}, {"mean", Vote::kMean}};

}  // namespace

Vote parse_vote(const std::string& s) {
  if (const Vote* v = value_named(kVotes, s)) return *v;
  fail("unknown vote '", s, "' (expected soft, hard, weighted or mean)");
}

const char* to_string(Vote v) { return name_of(kVotes, v); }

void ForestModel::add_tree(Tree t) {
  mirrors_.push_back(t.route_mirror());
  trees_.push_back(std::move(t));
}

// Rows in blocks (core/tree/route.hpp) routed through each tree's routing mirror; each row's sums
// run over the trees in tree order, as a tree-by-tree loop over all rows would.
Predictions ForestModel::predict(const Dataset& data, std::span<const uint32_t> rows) const {
  Predictions p;
  p.task = task_;
  p.n_classes = n_classes_;
  const std::size_t n = rows.size();
  const bool regression = task_ == TaskKind::kRegression;
  const auto c = static_cast<std::size_t>(n_classes_);
  p.value.assign(regression ? n : n * c, 0.0);
  // Super-blocks of row blocks (about 2 MiB of values), each tree routing all of them in turn: a
  // tree's upper levels stay in cache across thousands of rows (fully grown trees do not fit in L2).
  const std::size_t kBlocks = std::clamp<std::size_t>(
      (std::size_t{2} << 20) / (RowBlock::kRows * sizeof(double) * std::max<std::size_t>(data.n_features(), 1)), 8, 256);
  std::vector<RowBlock> blocks(std::min(kBlocks, (n + RowBlock::kRows - 1) / RowBlock::kRows), RowBlock(data));
  int32_t at[RowBlock::kRows];
  for (std::size_t sb = 0; sb < n; sb += blocks.size() * RowBlock::kRows) {
    const std::size_t used = std::min(blocks.size(), (n - sb + RowBlock::kRows - 1) / RowBlock::kRows);
    for (std::size_t j = 0; j < used; ++j) {
      const std::size_t b = sb + j * RowBlock::kRows;
      blocks[j].load(rows.subspan(b, std::min(RowBlock::kRows, n - b)));
    }
    for (std::size_t t = 0; t < trees_.size(); ++t) {
      const Tree& tree = trees_[t];
      for (std::size_t j = 0; j < used; ++j) {
        const std::size_t b = sb + j * RowBlock::kRows;
        blocks[j].route(mirrors_[t], at);
        for (std::size_t k = 0; k < blocks[j].size(); ++k) {
          auto leaf = tree.leaf_value(mirrors_[t].code(at[k]));
          if (regression) {
            p.value[b + k] += leaf[0];
            continue;
          }
          double* out = &p.value[(b + k) * c];
          if (vote_ == Vote::kSoft) {
            for (std::size_t v = 0; v < c; ++v) out[v] += leaf[v];
          } else {
            auto best = static_cast<std::size_t>(std::max_element(leaf.begin(), leaf.end()) - leaf.begin());
            out[best] += vote_ == Vote::kWeighted ? leaf[best] : 1.0;
          }
        }
      }
    }
  }
  if (regression) {
    const double k = trees_.empty() ? 1.0 : static_cast<double>(trees_.size());
    for (double& v : p.value) v /= k;
    return p;
  }
  const double k = trees_.empty() ? 1.0 : static_cast<double>(trees_.size());
  for (double& v : p.value) v /= k;
  p.label.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double* s = &p.value[i * c];
    if (vote_ == Vote::kSoft && c == 2) {
      p.label[i] = s[1] >= 0.5 ? 1 : 0;  // dipreme.md §2.3: predict 1 iff the mean class-1 fraction >= 0.5
    } else {
      p.label[i] = static_cast<int>(std::max_element(s, s + c) - s);  // first maximum: ties to the lowest class
      if (vote_ == Vote::kHard && tie_rng_) {
        const double top = s[p.label[i]];
        std::size_t ties = 0;
        for (std::size_t k = 0; k < c; ++k) ties += s[k] == top;
        if (ties > 1) {
          Rng r = tie_rng_->derive(static_cast<uint64_t>(rows[i]));
          std::size_t pick = r.below(ties);
          for (std::size_t k = 0; k < c; ++k)
            if (s[k] == top && pick-- == 0) { p.label[i] = static_cast<int>(k); break; }
        }
      }
    }
  }
  return p;
}

ModelStats ForestModel::stats() const {
  ModelStats s;
  s.n_trees = trees_.size();
  std::size_t empty = 0;
  double depth = 0;
  for (const Tree& t : trees_) {
    s.n_leaves += t.n_leaves();
    for (const Node& nd : t.nodes())
      if (nd.kind == SplitKind::kLeaf && nd.count == 0) ++empty;
    depth += t.max_depth();
  }
  s.empty_leaf_fraction = s.n_leaves ? static_cast<double>(empty) / static_cast<double>(s.n_leaves) : 0.0;
  s.mean_depth = trees_.empty() ? 0.0 : depth / static_cast<double>(trees_.size());
  return s;
}

std::vector<double> ForestModel::leaf_occupancy() const {
  std::vector<double> out;
  for (const Tree& t : trees_)
    for (const Node& nd : t.nodes())
      if (nd.kind == SplitKind::kLeaf)
        out.push_back(n_train_ ? static_cast<double>(nd.count) / static_cast<double>(n_train_) : 0.0);
  return out;
}

std::vector<double> ForestModel::left_fraction() const {
  std::vector<double> out;
  for (const Tree& t : trees_)
    for (const Node& nd : t.nodes())
      if (nd.kind != SplitKind::kLeaf && nd.n_children == 2 && nd.count > 0)
        out.push_back(static_cast<double>(t.nodes()[static_cast<std::size_t>(nd.first_child)].count) /
                      static_cast<double>(nd.count));
  return out;
}

Release ForestModel::released() const {
  // Per tree, every node in storage order (the grower's order depends only on the structure):
  // kind, depth, feature, mask, child count (discrete) and threshold (continuous); then leaf values.
  // Node counts are diagnostics and are left out.
  Release r;
  r.discrete.push_back(static_cast<int64_t>(trees_.size()));
  for (const Tree& t : trees_) {
    r.discrete.push_back(static_cast<int64_t>(t.nodes().size()));
    for (const Node& n : t.nodes()) {
      r.discrete.push_back(static_cast<int64_t>(n.kind));
      r.discrete.push_back(n.depth);
      if (n.kind == SplitKind::kLeaf) {
        for (double v : t.leaf_value(n.leaf)) r.continuous.push_back(v);
        continue;
      }
      r.discrete.push_back(n.feature);
      r.discrete.push_back(n.n_children);
      if (n.kind == SplitKind::kSubset) r.discrete.push_back(static_cast<int64_t>(n.mask));
      if (n.kind == SplitKind::kThreshold) r.continuous.push_back(n.threshold);
    }
  }
  return r;
}

std::string ForestModel::describe() const {
  JsonWriter w;
  w.begin_object();
  w.field("algorithm", algorithm_);
  w.field("task", to_string(task_));
  w.field("n_classes", n_classes_);
  w.field("n_train", static_cast<int64_t>(n_train_));
  w.field("ledger", ledger_summary_);
  // Diagnostics for the balance figures (dipreme.md §8): leaf occupancy (count / n_train) and,
  // per binary internal node, the fraction of its rows sent to child 0.
  w.key("leaf_occupancy").begin_array();
  for (double v : leaf_occupancy()) w.value(v);
  w.end_array();
  w.key("left_fraction").begin_array();
  for (double v : left_fraction()) w.value(v);
  w.end_array();
  w.key("trees").begin_array();
  for (const Tree& t : trees_) t.describe(w);
  w.end_array();
  w.end_object();
  return w.str();
}

}  // namespace dpf
