// FS split policy (smooth-rdf.md §2.2 steps 1-5) against an independent slow reference: the reference
// recomputes every interval's max-operator score by scanning all of the node's rows (no sorting sweep, no
// presort), builds the same interval breaks and calls the same mechanisms in the same order. Trees grown
// with the fast policy must equal the reference trees bit for bit (structure, thresholds, leaf values,
// ledger), for distinct rows, rows with copies, one policy reused over several trees (RGV shares it) and
// a dataset whose values change in place between trees.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "algorithms/common/leaves.hpp"
#include "algorithms/common/fs_split.hpp"
#include "core/privacy/mechanisms.hpp"

using namespace dpf;

namespace {

class ReferenceFs : public SplitPolicy {
 public:
  ReferenceFs(double eps, int k) : eps_(eps), k_(k) {}
  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override {
    const Dataset& d = node.data;
    const double n = std::max(0.0, laplace_mechanism(rng, static_cast<double>(node.rows.size()), 1.0, eps_));
    ledger.charge(node.scope, "laplace", eps_, 1.0, true);
    int t = 2;
    for (int f : node.active) {
      const Feature& feat = d.schema().features[static_cast<std::size_t>(f)];
      if (feat.kind == FeatureKind::kCategorical) t = std::max(t, static_cast<int>(feat.n_categories()));
    }
    if (n / (static_cast<double>(t) * k_) <= std::sqrt(2.0) / eps_) return std::nullopt;
    std::vector<double> score;
    std::vector<SplitChoice> cand;
    for (int f : node.active) {
      const auto fu = static_cast<std::size_t>(f);
      const Feature& feat = d.schema().features[fu];
      SplitChoice c;
      c.feature = f;
      if (feat.kind == FeatureKind::kCategorical) {
        double s = 0;
        for (std::size_t v = 0; v < feat.n_categories(); ++v) {
          int best = 0;
          for (int cl = 0; cl < k_; ++cl) {
            int m = 0;
            for (uint32_t r : node.rows) m += d.x(r, fu) == static_cast<double>(v) && d.label(r) == cl;
            best = std::max(best, m);
          }
          s += best;
        }
        c.kind = SplitKind::kMultiway;
        cand.push_back(c);
        score.push_back(s);
        continue;
      }
      const FeatureDomain& dom = node.domains[fu];
      std::set<double> values;
      for (uint32_t r : node.rows) values.insert(d.x(r, fu));
      // Score of "x < p" for p just above every value below `cut` (cut = +inf: all rows left).
      auto q = [&](double cut) {
        int ml = 0, mr = 0;
        for (int cl = 0; cl < k_; ++cl) {
          int l = 0, rr = 0;
          for (uint32_t r : node.rows)
            if (d.label(r) == cl) (d.x(r, fu) < cut ? l : rr) += 1;
          ml = std::max(ml, l);
          mr = std::max(mr, rr);
        }
        return static_cast<double>(ml + mr);
      };
      std::vector<double> breaks{dom.lo}, scores;
      for (double v : values) {
        scores.push_back(q(v));
        breaks.push_back(std::max(std::clamp(v, dom.lo, dom.hi), breaks.back()));
      }
      scores.push_back(q(INFINITY));
      breaks.push_back(std::max(dom.hi, breaks.back()));
      const IntervalDraw draw = interval_exponential_mechanism(rng, breaks, scores, eps_, 1.0);
      ledger.charge(node.scope, "interval-em", eps_, 1.0, true);
      c.kind = SplitKind::kThreshold;
      c.threshold = draw.value;
      cand.push_back(c);
      score.push_back(scores[draw.interval]);
    }
    if (cand.empty()) return std::nullopt;
    const std::size_t pick = exponential_mechanism(rng, score, eps_, 1.0);
    ledger.charge(node.scope, "exponential", eps_, 1.0, true);
    return cand[pick];
  }

 private:
  double eps_;
  int k_;
};

// Three numeric features (continuous, integer-valued with many ties, continuous) and one categorical
// (three values); k = 3 classes that depend on features 0, 1 and 3 (k = 2: classes 1 and 2 merged).
Dataset toy(std::size_t n, uint64_t seed, int k = 3) {
  Schema s;
  s.features = {{"a", FeatureKind::kNumeric, -3, 3, {}},
                {"b", FeatureKind::kNumeric, 0, 6, {}},
                {"c", FeatureKind::kNumeric, -3, 3, {}},
                {"d", FeatureKind::kCategorical, 0, 0, {"x", "y", "z"}}};
  s.target.classes = {"0", "1", "2"};
  s.target.classes.resize(static_cast<std::size_t>(k));
  Dataset d("fs-toy", s);
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = rng.uniform(-3, 3), b = std::floor(rng.uniform(0, 6)), c = rng.uniform(-3, 3);
    const double cat = static_cast<double>(rng.below(3));
    int y = (a + 0.5 * b > 1.5) ? 2 : (cat == 1 ? 1 : 0);
    if (rng.uniform() < 0.15) y = static_cast<int>(rng.below(3));
    const double x[4] = {a, b, c, cat};
    d.add_row(x, std::min(y, k - 1));
  }
  return d;
}

struct Grown {
  Tree tree;
  PrivacyLedger ledger;
};

Grown grow(const Dataset& d, std::vector<uint32_t> rows, SplitPolicy& split, double eps_op, uint64_t seed) {
  const int k = static_cast<int>(d.n_classes());
  ClassCountLeaf leaf(k, eps_op, true);
  std::vector<int> active{0, 1, 2, 3};
  const std::vector<FeatureDomain> domains = schema_domains(d.schema());
  GrowOptions opt;
  opt.max_depth = 5;
  opt.track_privacy = true;
  Grown g{Tree(k), PrivacyLedger()};
  g.tree = grow_tree(d, rows, domains, active, split, leaf, opt, Rng(seed), g.ledger);
  return g;
}

// Bit-identical trees and ledgers; returns the number of threshold splits (so a test can require some).
int require_same(const Grown& fast, const Grown& ref) {
  REQUIRE(fast.tree.nodes().size() == ref.tree.nodes().size());
  int thresholds = 0;
  for (std::size_t i = 0; i < ref.tree.nodes().size(); ++i) {
    const Node &a = fast.tree.nodes()[i], &b = ref.tree.nodes()[i];
    CHECK(a.kind == b.kind);
    CHECK(a.feature == b.feature);
    CHECK(a.threshold == b.threshold);
    CHECK(a.n_children == b.n_children);
    CHECK(a.count == b.count);
    thresholds += b.kind == SplitKind::kThreshold;
    if (b.kind == SplitKind::kLeaf) {
      auto va = fast.tree.leaf_value(a.leaf), vb = ref.tree.leaf_value(b.leaf);
      CHECK(std::equal(va.begin(), va.end(), vb.begin(), vb.end()));
    }
  }
  CHECK(fast.ledger.n_charges() == ref.ledger.n_charges());
  CHECK(fast.ledger.spent() == ref.ledger.spent());
  CHECK(fast.ledger.summary() == ref.ledger.summary());
  return thresholds;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("fs: the presorted split policy grows exactly the reference trees (slow per-node rescoring)") {
    Dataset d = toy(400, 5);
    const double eps_op = fs_operation_epsilon(20.0, 5, d.schema());
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < d.n_rows(); ++r)
      if (r % 5 != 0) rows.push_back(r);
    ReferenceFs ref(eps_op, 3);
    // One fast policy over several trees, as RGV uses it (its presort and level lists are reused).
    std::unique_ptr<SplitPolicy> fast = make_fs_split(eps_op, 3, true);
    int thresholds = 0, nodes = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      Grown a = grow(d, rows, *fast, eps_op, seed), b = grow(d, rows, ref, eps_op, seed);
      thresholds += require_same(a, b);
      nodes += static_cast<int>(b.tree.nodes().size());
    }
    CHECK(thresholds >= 12);  // the trees are not stumps: the sweep is exercised below the root
    CHECK(nodes >= 40);

    SUBCASE("rows with copies (the per-node sort fallback)") {
      std::vector<uint32_t> boot = rows;
      for (uint32_t r = 0; r < 120; r += 3) boot.push_back(r + 1);
      for (uint64_t seed = 11; seed <= 13; ++seed)
        require_same(grow(d, boot, *fast, eps_op, seed), grow(d, boot, ref, eps_op, seed));
    }
    SUBCASE("two classes (RGV's case)") {
      Dataset b = toy(400, 9, 2);
      std::unique_ptr<SplitPolicy> f2 = make_fs_split(eps_op, 2, true);
      ReferenceFs ref2(eps_op, 2);
      int splits = 0;
      for (uint64_t seed = 31; seed <= 34; ++seed)
        splits += require_same(grow(b, rows, *f2, eps_op, seed), grow(b, rows, ref2, eps_op, seed));
      CHECK(splits >= 8);
    }
    SUBCASE("the same dataset object with changed values (the kept presort is rebuilt)") {
      Dataset e = toy(400, 5);
      std::unique_ptr<SplitPolicy> f2 = make_fs_split(eps_op, 3, true);
      require_same(grow(e, rows, *f2, eps_op, 21), grow(e, rows, ref, eps_op, 21));
      auto col = e.mutable_column(0);
      for (double& v : col) v = -v;
      require_same(grow(e, rows, *f2, eps_op, 22), grow(e, rows, ref, eps_op, 22));
    }
  }
}
