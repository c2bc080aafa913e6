#include "algorithms/brf/brf.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/honest_tree.hpp"
#include "core/tree/split_search.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

struct BrfParams {
  int n_trees = 100, min_leaf = 5, max_features = 0;
  double p1 = 0.05, p2 = 0.05, partition_rate = 1;
  Vote vote = Vote::kHard;
};

class BrfPolicy : public HonestPolicy {
 public:
  BrfPolicy(const BrfParams& p, int n_features, int n_classes)
      : p_(p), n_classes_(n_classes), search_(n_classes) {
    k_ = p.max_features > 0 ? std::min(p.max_features, n_features)
                            : std::max(1, static_cast<int>(std::sqrt(static_cast<double>(n_features))));
    order_.resize(static_cast<std::size_t>(n_features));
  }

  std::optional<SplitChoice> choose(const HonestView& node, Rng& rng, PrivacyLedger&) override {
    // §2.3: b1 = 1 -> one candidate feature, else sqrt(D); b2 = 1 -> a random value per feature.
    const int want = rng.bernoulli(p_.p1) ? 1 : k_;
    const bool random_value = rng.bernoulli(p_.p2);
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
    double best_gain = -1;
    SplitChoice best;
    int seen = 0;
    for (std::size_t i = 0; i < order_.size() && seen < want; ++i) {
      std::swap(order_[i], order_[i + rng.below(order_.size() - i)]);
      const int f = order_[i];
      if (candidates(node, f) < 2) continue;
      ++seen;
      const SplitGain* g = nullptr;
      if (random_value) {
        g = &gains_[rng.below(gains_.size())];
      } else {
        g = &*std::max_element(gains_.begin(), gains_.end(),
                               [](const SplitGain& a, const SplitGain& b) { return a.gain < b.gain; });
      }
      if (g->gain > best_gain) {
        best_gain = g->gain;
        best.kind = SplitKind::kThreshold;
        best.feature = f;
        best.threshold = g->threshold;
      }
    }
    if (best.feature < 0) return std::nullopt;
    return best;
  }

  void leaf(const HonestView& node, LeafReason, Rng&, PrivacyLedger&, PrivacyLedger::ScopeId,
            std::span<double> out) override {
    estimation_histogram(node, n_classes_, out);
  }

  // Every threshold of feature f on the node's structure points, into gains_ (shared search of
  // core/tree: categorical codes by histogram, numeric values by the presorted radix sweep).
  std::size_t candidates(const HonestView& node, int f) {
    std::span<const double> col = node.data.column(static_cast<std::size_t>(f));
    const Feature& feat = node.data.schema().features[static_cast<std::size_t>(f)];
    if (feat.kind == FeatureKind::kCategorical) return search_.codes(col, node.labels, node.s, feat.n_categories(), gains_);
    index_.sort_rows(node.data, node.s, f, sorted_);
    return search_.numeric_sorted(col, node.labels, sorted_, gains_);
  }

 private:
  BrfParams p_;
  int n_classes_, k_;
  GiniSplitSearch search_;
  RankIndex index_;
  std::vector<uint32_t> sorted_;
  std::vector<SplitGain> gains_;
  std::vector<int> order_;
};

class BrfLearner : public Learner {
 public:
  explicit BrfLearner(BrfParams p) : p_(p) {}
  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    BrfPolicy policy(p_, static_cast<int>(data.n_features()), static_cast<int>(data.n_classes()));
    HonestOptions opt;
    opt.min_leaf = p_.min_leaf;
    opt.stop = HonestStop::kPaper;  // both estimation children need >= k points
    opt.partition_rate = p_.partition_rate;
    return fit_honest_forest("brf", data, rows, ctx, p_.n_trees, policy, opt, p_.vote);
  }

 private:
  BrfParams p_;
};

}  // namespace

std::vector<AlgorithmInfo> brf_algorithms() {
  AlgorithmInfo a;
  a.name = "brf";
  a.summary = "Bernoulli random forest (Wang et al. 2018): S/E partition, Bernoulli choice of 1 or sqrt(D) "
              "features and of a random or best split value (reconstructed, multinomial-rf.md §2.3)";
  a.papers = "multinomial-rf";
  a.tasks = {TaskKind::kClassification};
  a.private_algorithm = false;
  a.params = {
      {"n_trees", ParamType::kInt, "100", 1, 100000, false, {}, "number of trees (§2: 100)"},
      {"min_leaf", ParamType::kInt, "5", 1, 1e9, false, {}, "k, minimum estimation points per leaf (§2: 5)"},
      {"max_features", ParamType::kInt, "0", 0, 1e9, false, {}, "candidate features when b1 = 0 (0: sqrt(D))"},
      {"p1", ParamType::kDouble, "0.05", 0, 1, false, {}, "P(b1 = 1): a single candidate feature"},
      {"p2", ParamType::kDouble, "0.05", 0, 1, false, {}, "P(b2 = 1): a random split value per feature"},
      {"partition_rate", ParamType::kDouble, "1", 0, 1e9, true, {}, "r = |S|/|E|"},
      {"vote", ParamType::kString, "hard", 0, 0, false, {"hard", "soft"}, "forest vote"},
  };
  a.privacy_status = [](const Params&, TaskKind) { return std::string("non-private"); };
  a.make = [](const Params& q, const Schema&) -> std::unique_ptr<Learner> {
    BrfParams p;
    p.n_trees = q.get_int("n_trees");
    p.min_leaf = q.get_int("min_leaf");
    p.max_features = q.get_int("max_features");
    p.p1 = q.get_double("p1");
    p.p2 = q.get_double("p2");
    p.partition_rate = q.get_double("partition_rate");
    p.vote = parse_vote(q.get_string("vote"));
    return std::make_unique<BrfLearner>(p);
  };
  return {a};
}

}  // namespace dpf
