// DP-RF (dipreme.md §3.3, §3.4): policies and registry entry.
#include "algorithms/dp_rf/dp_rf.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/common/code_class_counts.hpp"
#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/leaves.hpp"
#include "algorithms/common/occupancy.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "core/privacy/mechanisms.hpp"
#include "core/util/error.hpp"

namespace dpf {

namespace {

struct DpRfParams {
  double epsilon = 1.0;
  int n_trees = 10;
  int max_depth = 3;         // d_mult in the papers' tables
  int occupancy = 0;         // > 0: max_depth = d_mult = floor(log5(n_train / occupancy))
  int k = 0;                 // candidate attributes per node; 0 = all
  double subsample = 1.0;    // b: one subsample of floor(b n) rows shared by all trees
  bool strict = false;
  bool split_eps_quirk = false;  // dprf_reg_split_eps: the regression split EM spends ε_tree
};

// The first min(k, |A|) attributes of a uniformly random permutation of the usable ones.
std::vector<int> candidates(const NodeView& node, int k, Rng& rng) {
  std::vector<int> cand(node.active.begin(), node.active.end());
  const std::size_t kk = k <= 0 ? cand.size() : std::min<std::size_t>(static_cast<std::size_t>(k), cand.size());
  for (std::size_t i = 0; i < kk; ++i) std::swap(cand[i], cand[i + rng.below(cand.size() - i)]);
  cand.resize(kk);
  return cand;
}

// The noisy class fractions a split policy released at a node that it then made a leaf; the leaf
// policy reuses them instead of drawing again (the node's count query is one query).
struct Stash {
  int32_t node = -1;
  std::vector<double> value;
};

// Noisy class fractions of a node (dipreme.md §3.3): ñ_c = max(0, n_c + Lap(1/ε_count)) for every
// class, normalised; all zero gives (0, ..., 0, 1) (the code's [0, 1]: predict class 1). Under
// add/remove one record changes one class count by one: L1 sensitivity 1 (Laplace mechanism).
std::vector<double> noisy_fractions(const NodeView& node, std::size_t n_classes, double eps, Rng& rng,
                                    PrivacyLedger& ledger) {
  std::vector<double> f(n_classes, 0.0);
  for (uint32_t r : node.rows) f[static_cast<std::size_t>(node.data.label(r))] += 1.0;
  for (double& v : f) v = std::max(0.0, v + sample_laplace(rng, 1.0 / eps));  // Patil & Singh §4: Lap(1/ε)
  if (node.scope >= 0) ledger.charge(node.scope, "laplace-class-counts", eps, 1.0, true);
  double total = 0;
  for (double v : f) total += v;
  if (total <= 0) {
    std::fill(f.begin(), f.end(), 0.0);
    f.back() = 1.0;
    return f;
  }
  for (double& v : f) v /= total;
  return f;
}

class DpRfClfSplit : public SplitPolicy {
 public:
  DpRfClfSplit(const DpRfParams& p, double eps_level, std::size_t n_classes, Stash& stash, CodeClassCounts& counts)
      : p_(p), eps_half_(eps_level / 2.0), n_classes_(n_classes), stash_(stash), counts_(counts) {}

  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override {
    Rng count_rng = rng.derive("counts");
    std::vector<double> frac = noisy_fractions(node, n_classes_, eps_half_, count_rng, ledger);
    // §3.3: stop when some noisy fraction is exactly 1 (post-processing of the noisy counts).
    if (std::any_of(frac.begin(), frac.end(), [](double v) { return v == 1.0; })) {
      stash_ = {node.node_id, std::move(frac)};
      return std::nullopt;
    }
    stash_.node = -1;
    Rng cand_rng = rng.derive("candidates");
    std::vector<int> cand = candidates(node, p_.k, cand_rng);
    // Score g_a = Σ_v (n_v/n) Σ_c (n_vc/n_v)^2 - 1 (minus the weighted Gini impurity), in [-1, 0].
    std::vector<double> score(cand.size(), 0.0);
    const double n = static_cast<double>(node.rows.size());
    for (std::size_t i = 0; i < cand.size() && n > 0; ++i) {
      const auto f = static_cast<std::size_t>(cand[i]);
      const std::size_t nv = node.data.schema().features[f].n_categories();
      counts_.count(node.data, f, node.rows, cnt_, tot_);
      const std::vector<double>& cnt = cnt_;
      const std::vector<double>& tot = tot_;
      double g = 0;
      for (std::size_t v = 0; v < nv; ++v) {
        if (tot[v] == 0) continue;
        double sq = 0;
        for (std::size_t c = 0; c < n_classes_; ++c) sq += (cnt[v * n_classes_ + c] / tot[v]) * (cnt[v * n_classes_ + c] / tot[v]);
        g += tot[v] / n * sq;
      }
      score[i] = g - 1.0;
    }
    // §3.3 (Patil & Singh Alg. 1): EM with P ∝ exp(ε_split g_a / 2), i.e. sensitivity taken as 1,
    // a valid bound since g_a ranges over [-1, 0] (conservative: near-uniform choice for small ε).
    Rng em_rng = rng.derive("select");
    const std::size_t pick = exponential_mechanism(em_rng, score, eps_half_, 1.0);
    if (node.scope >= 0) ledger.charge(node.scope, "em-gini", eps_half_, 1.0, true);
    SplitChoice c;
    c.kind = SplitKind::kMultiway;
    c.feature = cand[pick];
    return c;
  }

 private:
  const DpRfParams& p_;
  double eps_half_;
  std::size_t n_classes_;
  Stash& stash_;
  CodeClassCounts& counts_;
  std::vector<double> cnt_, tot_;  // one candidate's (category, class) and category counts
};

class DpRfClfLeaf : public LeafPolicy {
 public:
  DpRfClfLeaf(double eps_level, std::size_t n_classes, Stash& stash)
      : eps_half_(eps_level / 2.0), n_classes_(n_classes), stash_(stash) {}
  int n_outputs() const override { return static_cast<int>(n_classes_); }
  void release(const NodeView& node, Rng& rng, PrivacyLedger& ledger, std::span<double> out) override {
    std::vector<double> frac;
    if (stash_.node == node.node_id) {
      frac = std::move(stash_.value);  // released (and charged) by the split policy at this node
      stash_.node = -1;
    } else {
      frac = noisy_fractions(node, n_classes_, eps_half_, rng, ledger);
    }
    std::copy(frac.begin(), frac.end(), out.begin());
  }

 private:
  double eps_half_;
  std::size_t n_classes_;
  Stash& stash_;
};

class DpRfRegSplit : public SplitPolicy {
 public:
  DpRfRegSplit(const DpRfParams& p, double eps_select, double y_lo, double y_hi)
      : p_(p), eps_(eps_select), y_lo_(y_lo), y_hi_(y_hi) {}

  std::optional<SplitChoice> choose(const NodeView& node, Rng& rng, PrivacyLedger& ledger) override {
    Rng cand_rng = rng.derive("candidates");
    std::vector<int> cand = candidates(node, p_.k, cand_rng);
    const double n = static_cast<double>(node.rows.size());
    std::span<const double> y = node.data.y();
    std::vector<double> score(cand.size(), 0.0);
    for (std::size_t i = 0; i < cand.size(); ++i) {
      const auto f = static_cast<std::size_t>(cand[i]);
      const std::size_t nv = node.data.schema().features[f].n_categories();
      std::vector<double> cnt(nv, 0.0), s(nv, 0.0), s2(nv, 0.0);
      std::span<const double> col = node.data.column(f);
      for (uint32_t r : node.rows) {
        const auto v = static_cast<std::size_t>(col[r]);
        cnt[v] += 1;
        s[v] += y[r];
        s2[v] += y[r] * y[r];
      }
      double sse = 0;  // Σ_v n_v Var(y_v), empty children skipped (§3.4)
      for (std::size_t v = 0; v < nv; ++v)
        if (cnt[v] > 0) sse += std::max(0.0, s2[v] - s[v] * s[v] / cnt[v]);
      score[i] = p_.strict ? -sse : (n > 0 ? -sse / n : 0.0);
    }
    const double bound = std::max(std::fabs(y_lo_), std::fabs(y_hi_));
    // §3.4: EM on -MSE with Δ = 4B²/n ([ICML] App. A), as coded; strict (§4 P4): -SSE with
    // Δ = (B_U - B_L)², independent of the private n.
    const double sens = p_.strict ? (y_hi_ - y_lo_) * (y_hi_ - y_lo_) : (n > 0 ? 4.0 * bound * bound / n : 1.0);
    Rng em_rng = rng.derive("select");
    const std::size_t pick = exponential_mechanism(em_rng, score, eps_, sens);
    if (node.scope >= 0) ledger.charge(node.scope, "em-mse", eps_, sens, p_.strict);
    SplitChoice c;
    c.kind = SplitKind::kMultiway;
    c.feature = cand[pick];
    return c;
  }

 private:
  const DpRfParams& p_;
  double eps_, y_lo_, y_hi_;
};

// §3.4 leaf: mean(y) + Lap((C_U - C_L)/(n ε_mean)), not clipped (the code); an empty node gets
// Uniform(C_L, C_U). The scale depends on the private n (§4 P2): uncertified.
class DpRfRegLeaf : public LeafPolicy {
 public:
  DpRfRegLeaf(double eps, double lo, double hi) : eps_(eps), lo_(lo), hi_(hi) {}
  int n_outputs() const override { return 1; }
  void release(const NodeView& node, Rng& rng, PrivacyLedger& ledger, std::span<double> out) override {
    const auto n = static_cast<double>(node.rows.size());
    if (n == 0) {
      out[0] = rng.uniform(lo_, hi_);
    } else {
      double sum = 0;
      for (uint32_t r : node.rows) sum += node.data.y()[r];
      out[0] = sum / n + sample_laplace(rng, (hi_ - lo_) / (n * eps_));  // dprf_Reg.py: Lap(range/(n ε_mean))
    }
    if (node.scope >= 0) ledger.charge(node.scope, "laplace-mean-local-scale", eps_, (hi_ - lo_) / std::max(n, 1.0), false);
  }

 private:
  double eps_, lo_, hi_;
};

class DpRfLearner : public Learner {
 public:
  explicit DpRfLearner(DpRfParams p) : p0_(p) { check_epsilon_param("dp-rf", p.epsilon); }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    // Strict: the occupancy rule reads a noisy n paid from the budget (common/occupancy.hpp).
    DpRfParams p_ = p0_;
    const double epsilon_total = p_.epsilon;
    if (p_.occupancy > 0) {
      const RowCountForDepth n(ctx, rows.size(), p_.epsilon, p_.strict);
      p_.max_depth = occupancy_depth(n.n(), p_.occupancy, 5.0, 1);
      p_.epsilon = n.epsilon_left();
    }
    for (const Feature& f : data.schema().features)
      require(f.kind == FeatureKind::kCategorical, "dp-rf: feature '", f.name,
              "' is numeric; DP-RF takes binned inputs (set `preprocess: {bins: 5}` for it, dipreme.md §6.1)");
    // §3.3: one subsample of floor(b n) rows, drawn without replacement and shared by every tree.
    std::vector<uint32_t> sub(rows.begin(), rows.end());
    if (p_.subsample < 1.0) {
      Rng s = ctx.rng.derive("subsample");
      s.shuffle(std::span<uint32_t>(sub));
      sub.resize(static_cast<std::size_t>(std::floor(p_.subsample * static_cast<double>(rows.size()))));
      require(!sub.empty(), "dp-rf: subsample ", p_.subsample, " of ", rows.size(), " rows leaves no row");
    }
    // §3.3: ε/N_T per tree (every tree reads the same rows: sequential composition), and per level
    // ε_tree/(d_max + 1), half for the counts (or means) and half for the split.
    const double eps_tree = p_.epsilon / p_.n_trees;
    const double eps_level = eps_tree / (p_.max_depth + 1);
    ForestFitSpec spec;
    spec.algorithm = "dp-rf";
    spec.n_trees = p_.n_trees;
    spec.max_depth = p_.max_depth;
    spec.rows = TreeRows::kAll;
    spec.epsilon = epsilon_total;
    if (data.task() == TaskKind::kClassification) {
      Stash stash;
      CodeClassCounts counts(data);
      DpRfClfSplit split(p_, eps_level, data.n_classes(), stash, counts);
      DpRfClfLeaf leaf(eps_level, data.n_classes(), stash);
      spec.vote = Vote::kHard;  // scipy mode of the per-tree labels: ties to the smaller label
      return fit_forest(data, sub, ctx, spec, split, leaf);
    }
    const double lo = data.schema().target.lo, hi = data.schema().target.hi;
    // dprf_reg_split_eps (§3.4, §4 P8): the code's split EM uses the whole ε_tree at every level.
    const double eps_select = p_.split_eps_quirk ? eps_tree : eps_level / 2.0;
    if (p_.split_eps_quirk)  // the ledger shows what that spends: d_max ε_tree + the leaf, per tree
      spec.epsilon = (epsilon_total - p_.epsilon + p_.n_trees * (p_.max_depth * eps_tree + eps_level / 2.0)) * (1 + 1e-12);
    DpRfRegSplit split(p_, eps_select, lo, hi);
    std::unique_ptr<LeafPolicy> leaf;
    if (p_.strict) leaf = std::make_unique<MeanLeaf>(lo, hi, eps_level / 2.0, true);
    else leaf = std::make_unique<DpRfRegLeaf>(eps_level / 2.0, lo, hi);
    spec.vote = Vote::kMean;
    return fit_forest(data, sub, ctx, spec, split, *leaf);
  }

 private:
  DpRfParams p0_;
};

}  // namespace

std::vector<AlgorithmInfo> dp_rf_algorithms() {
  AlgorithmInfo a = describe(
      "dp-rf", "dipreme", kBothTasks,
      "DP-RF (Patil & Singh 2014) as the DiPriMe authors ran it: binned inputs, multi-way splits, "
      "noisy counts (clf) / noisy means (reg), one shared subsample");
  a.quirks = {
      {"dprf_reg_split_eps",
       "regression: the authors' dprf_Reg.py exponentiates with the whole per-tree ε_tree instead of "
       "ε_tree/(2(d_max+1)) at every split, overspending the budget (dipreme.md §3.4, §4 P8); the ledger "
       "shows the epsilon actually spent",
       /*privacy_neutral=*/true},
  };
  a.privacy_status = [](const Params& p, TaskKind task) -> std::string {
    const bool exact_n = p.get_int("occupancy") > 0 && !p.get_bool("strict");
    if (task == TaskKind::kClassification || p.get_bool("strict")) {
      if (p.list_contains("reference_quirks", "dprf_reg_split_eps") && task == TaskKind::kRegression)
        return "published, not epsilon-DP: split EM spends ε_tree per level beyond the nominal budget (dipreme.md §4 "
               "P8)";
      if (exact_n)
        return "published, not epsilon-DP: the occupancy depth rule reads the exact training-set size, private under "
               "add/remove-one (dipreme.md §4 P11; strict pays for a noisy n)";
      return "epsilon-DP";
    }
    std::string s =
        "published, not epsilon-DP: leaf noise scale depends on the private count (P2); selection "
        "Δ = 4B²/n uses the private n (P4)";
    if (p.list_contains("reference_quirks", "dprf_reg_split_eps")) s += "; split EM spends ε_tree per level (P8)";
    if (exact_n) s += "; the occupancy depth rule reads the exact n (P11)";
    return s + " (dipreme.md §4)";
  };
  // A subsample of fixed size m = floor(b n) < n: under add/remove-one, the added row x enters the sample
  // with probability q = m / (n + 1) <= b, and then replaces a row of D's sample — a replace-one change,
  // which an add/remove epsilon-DP forest pays with 2 epsilon (group privacy); otherwise the sample is
  // distributed as D's (or gains one row: epsilon). Mixing the two gives the privacy loss at most
  // max(ln(1 + q (e^(2 eps) - 1)), -ln(1 - q (1 - e^(-2 eps)))) (the sampling-without-replacement
  // amplification argument of Balle, Barthe & Gaboardi 2018, with the replace-one cost 2 eps). That is
  // below eps for small b eps (b = 0.25, eps = 1: 0.954) and above it otherwise (eps = 10: 18.6), so the
  // a-priori bound is the larger of the two and the registry withholds the epsilon-DP label above eps.
  a.privacy_bound = [](const Params& p, TaskKind task) {
    const double e = p.get_double("epsilon");
    PrivacyBound b{e, e, 0.0};
    const double q = p.get_double("subsample");
    if (q < 1.0) {
      const double amplified = std::max(std::log1p(q * std::expm1(2 * e)), -std::log1p(-q * -std::expm1(-2 * e)));
      b.epsilon = b.epsilon_conservative = std::max(e, amplified);
    }
    if (task == TaskKind::kRegression && p.list_contains("reference_quirks", "dprf_reg_split_eps")) {
      // d_max ε_tree per tree for the splits plus the leaf: d_max ε + ε / (2 (d_max + 1)); the depth is data
      // dependent under the occupancy rule, so no data-independent bound exists then.
      const double d = p.get_int("max_depth");
      b.epsilon = b.epsilon_conservative = p.get_int("occupancy") > 0 ? HUGE_VAL : d * e + e / (2 * (d + 1));
    }
    return b;
  };
  using P = DpRfParams;
  return {with_learner<DpRfLearner>(
      a,
      ParamSet<P>()
          .add(&P::epsilon, param::epsilon("total privacy budget ε (ε/N_T per tree)"))
          .add(&P::n_trees, param::n_trees(10, "N_T"))
          .add(&P::max_depth, param::max_depth(3, "d_max (d_mult = floor(log5(n_train/occ)) in the papers)"))
          .add(&P::occupancy, occupancy_param("d_mult = floor(log5(n_train / occupancy))"))
          .add(&P::k, param::count("k", 0, 0, 1e6, "candidate attributes per node (0 = all, the Tables)"))
          .add(&P::subsample, param::share("subsample", "1", "b: one subsample of floor(b n) rows shared by all trees"))
          .add(&P::strict, param::strict())
          .quirk(&P::split_eps_quirk, "dprf_reg_split_eps"))};
}

}  // namespace dpf
