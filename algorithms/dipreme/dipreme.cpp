// DiPriMe forests (dipreme.md §2.3, Algorithm 2) and their registry entries.
#include "algorithms/dipreme/dipreme.hpp"

#include <cmath>

#include "algorithms/common/forest_fit.hpp"
#include "algorithms/common/leaves.hpp"
#include "algorithms/common/occupancy.hpp"
#include "algorithms/common/param_set.hpp"
#include "algorithms/common/shared_params.hpp"
#include "algorithms/dipreme/split.hpp"
#include "core/tree/forest.hpp"
#include "core/util/error.hpp"

namespace dpf {

DiPrimeBudget dipreme_budget(const DiPrimeParams& p) {
  DiPrimeBudget b{};
  if (!std::isfinite(p.epsilon)) {
    b.eps_tree = b.eps_split = b.eps_select = b.eps_leaf = p.epsilon;
    return b;
  }
  // §2.3: ε per tree when the trees see disjoint data (parallel composition), ε/N_T otherwise
  // ([v1] footnote 3, sequential composition).
  b.eps_tree = p.partition ? p.epsilon : p.epsilon / p.n_trees;
  const double d = p.max_depth;
  // §2.2: DiPriMeExp/Flip ε_s = ε_a = ρε/(2 d_max) ([ICML] §4, [v1] Alg. 1 line 12);
  // DiPriMe (one random attribute) ε_s = ρε/d_max, ε_a = 0 ([ICML] §4), or ρε/(2 d_max) as coded.
  if (p.select == AttributeSelect::kUniform) {
    b.eps_split = p.split_budget_as_coded ? p.rho * b.eps_tree / (2 * d) : p.rho * b.eps_tree / d;
    b.eps_select = 0;
  } else {
    b.eps_split = b.eps_select = p.rho * b.eps_tree / (2 * d);
  }
  b.eps_leaf = (1 - p.rho) * b.eps_tree;  // §2.8: ε_ℓ = (1 - ρ) ε_tree
  return b;
}

namespace {

class DiPrimeLearner : public Learner {
 public:
  explicit DiPrimeLearner(DiPrimeParams p) : p0_(std::move(p)) {
    if (std::isfinite(p0_.epsilon)) check_epsilon_param(p0_.name, p0_.epsilon);
    require(p0_.max_depth >= 1, p0_.name, ": max_depth must be >= 1 (the budget is divided by d_max)");
    if (std::isfinite(p0_.epsilon))
      require(p0_.rho > 0 && p0_.rho < 1, p0_.name, ": rho must be in (0, 1), got ", p0_.rho,
              " (the leaves get (1 - rho) epsilon, dipreme.md §2.2; rho = 1 leaves them no budget)");
  }

  std::unique_ptr<Model> fit(const Dataset& data, std::span<const uint32_t> rows, FitContext& ctx) const override {
    // §6.1 depth rule: d_part = floor(log2(n_train / (occ N_T))) for partitioned forests, else d_full.
    // Strict: n is private (add/remove-one), so the rule reads a noisy n paid from the budget (occupancy.hpp).
    DiPrimeParams p_ = p0_;
    const double epsilon_total = p_.epsilon;
    if (p_.occupancy > 0) {
      const RowCountForDepth n(ctx, rows.size(), p_.epsilon, p_.strict);
      p_.max_depth = occupancy_depth(n.n(), p_.occupancy, 2.0, p_.partition ? p_.n_trees : 1);
      p_.epsilon = n.epsilon_left();
    }
    const bool clf = data.task() == TaskKind::kClassification;
    if (clf)
      require(data.n_classes() == 2, p_.name, ": classification is binary in the DiPriMe papers (dipreme.md §1); '",
              data.name(), "' has ", data.n_classes(), " classes — choose a binarised variant");
    for (const Feature& f : data.schema().features)
      require(f.kind == FeatureKind::kNumeric || f.n_categories() <= 64, p_.name, ": categorical feature '", f.name,
              "' has ", f.n_categories(), " categories; subset splits support at most 64");
    const DiPrimeBudget b = dipreme_budget(p_);
    const double y_lo = clf ? 0.0 : data.schema().target.lo;
    const double y_hi = clf ? 1.0 : data.schema().target.hi;
    DiPrimeSplit split(p_, b, y_lo, y_hi);
    std::unique_ptr<LeafPolicy> leaf;
    if (clf) leaf = std::make_unique<ClassCountLeaf>(2, b.eps_leaf, p_.strict, /*uniform_empty=*/true);
    else leaf = std::make_unique<MeanLeaf>(y_lo, y_hi, b.eps_leaf, p_.strict, p_.leaf_scale_2b);

    ForestFitSpec spec;
    spec.algorithm = p_.name;
    spec.n_trees = p_.n_trees;
    spec.max_depth = p_.max_depth;
    spec.rows = p_.partition ? (p_.strict ? TreeRows::kRandomAssignment : TreeRows::kPartition) : TreeRows::kAll;
    spec.epsilon = epsilon_total;
    spec.vote = clf ? (p_.hard_vote ? Vote::kHard : Vote::kSoft) : Vote::kMean;
    return fit_forest(data, rows, ctx, spec, split, *leaf);
  }

 private:
  DiPrimeParams p0_;
};

}  // namespace

std::unique_ptr<Learner> make_dipreme_learner(DiPrimeParams p) { return std::make_unique<DiPrimeLearner>(std::move(p)); }

}  // namespace dpf

namespace dpf {

namespace {

enum class Family { kDiPriMe, kExp, kFlip, kMedian };

std::vector<QuirkSpec> family_quirks(Family f) {
  std::vector<QuirkSpec> q;
  if (f == Family::kDiPriMe)
    q.push_back({"split_budget_as_coded",
                 "the authors' code gives DiPriMe's median ε_s = ρε/(2 d_max), half the ρε/d_max of [ICML] §4; "
                 "every published DiPriMe number used it (dipreme.md §2.2, §6.4 item 1)",
                 /*privacy_neutral=*/true});
  if (f != Family::kMedian)
    q.push_back({"double_epsilon_sweep",
                 "in the regression ε-sweeps (ICML Figs 1c and 5c) the notebook passed 2ε to the DiPriMe variants "
                 "while DP-ERT got ε; with this quirk the forest spends 2ε and the row keeps the nominal ε "
                 "(dipreme.md §6.3 Fig 1 row, §6.4 item 2)",
                 /*privacy_neutral=*/true});
  q.push_back({"cat_score_bug",
               "the code scores a categorical candidate on the rows in C only: 2 n_C Var(y_C)/N (dipreme.md §2.7)"});
  return q;
}

std::string family_status(Family f, const Params& p, TaskKind task) {
  if (f == Family::kMedian) return "non-private";
  if (p.get_bool("strict")) return "epsilon-DP";
  std::string why;
  auto add = [&](const char* s) { why += (why.empty() ? "" : "; ") + std::string(s); };
  if (task == TaskKind::kRegression) add("leaf noise scale depends on the private leaf count (P2)");
  if (p.has("median_base") && p.get_string("median_base") == "uniform_positions")
    add("uniform_positions median draws r uniformly between order statistics, so r leaks data values (P7)");
  if (p.list_contains("reference_quirks", "double_epsilon_sweep")) add("spends 2x the nominal epsilon (§6.4 item 2)");
  if (p.get_int("occupancy") > 0)
    add("the occupancy depth rule reads the exact training-set size, which is private under add/remove-one (P11)");
  if (f == Family::kFlip && p.get_string("flip_numeric") == "code")
    add("PFM over data-dependent intervals with a ln(length) score (P3)");
  if (f != Family::kDiPriMe) add("attribute-selection sensitivity 4B²/N_n uses the private N_n (P4)");
  add("empty leaves switch to a uniform value (P5)");
  if (p.get_bool("partition")) add("array_split partition shifts rows between trees under add/remove (P9)");
  return "published, not epsilon-DP: " + why + " (dipreme.md §4)";
}

// A-priori bound (registry.hpp PrivacyBound). The ledger is checked against the total epsilon (2ε with
// double_epsilon_sweep), so that bounds the claimed accounting. Conservatively, DiPriMeExp/Flip's K
// candidate medians per node cost K ε_s instead of ε_s (privacy.md §6.5): per tree at most
// d_max (K ε_s + ε_a) + ε_ℓ = ε_tree (ρ (K + 1) / 2 + 1 − ρ), since ε_s = ε_a = ρ ε_tree / (2 d_max); the
// noisy n of a strict occupancy rule (ε_n) comes on top of the trees' share.
PrivacyBound family_bound(Family f, const Params& p) {
  double eps = p.get_double("epsilon");
  if (p.list_contains("reference_quirks", "double_epsilon_sweep")) eps *= 2;
  PrivacyBound b{eps, eps, 0.0};
  if (f == Family::kExp || f == Family::kFlip) {
    const double share = p.get_bool("strict") && p.get_int("occupancy") > 0 ? kNEpsilonShare : 0.0;
    const double eps_n = share * eps, rho = p.get_double("rho"), k = p.get_int("k");
    b.epsilon_conservative = eps_n + (eps - eps_n) * std::max(1.0, rho * (k + 1) / 2 + 1 - rho);
  }
  return b;
}

// The parameters of one variant (dipreme.md §2, §6.1). Published numbers need the quirks; the
// regression ε-sweep quirk doubles the forest's budget (§6.4 item 2: the notebook passed 2ε to every
// DiPriMe variant while the row keeps the nominal ε).
ParamSet<DiPrimeParams> variant_params(Family f) {
  using P = DiPrimeParams;
  const bool private_variant = f != Family::kMedian;
  ParamSet<P> set;
  if (private_variant) set.add(&P::epsilon, param::epsilon());
  set.add(&P::n_trees, param::n_trees(10, "N_T trees"))
      .add(&P::max_depth, param::max_depth(5, "d_max (splits at depths 0..d_max-1)"))
      .add(&P::occupancy, occupancy_param("floor(log2(n_train / (occupancy N_T))) when partitioned, else "
                                          "floor(log2(n_train / occupancy))"));
  if (f != Family::kDiPriMe) set.add(&P::k, param::count("k", 5, 1, 1e6, "K candidate attributes per node"));
  if (private_variant) set.add(&P::rho, param::share("rho", "0.5", "ρ: split share of the budget"));
  set.add(&P::partition, param::flag("partition", f != Family::kMedian,
                                     "disjoint rows per tree (ε each) instead of all rows (ε/N_T each)"))
      .add(&P::hard_vote,
           param::choice("clf_vote", "soft",
                         "soft: mean class-1 fraction >= 0.5 (the code); hard: majority of tree labels"),
           {{"soft", false}, {"hard", true}});
  if (private_variant)
    set.add(&P::leaf_scale_2b,
            param::choice("leaf_scale", "range",
                          "regression leaf noise (B_U-B_L)/(Nε) (code, [v1]) or 2B/(Nε) ([ICML] text)"),
            {{"range", false}, {"2B", true}});
  if (f == Family::kDiPriMe || f == Family::kExp)
    set.add(&P::numeric,
            param::choice("median_base", "lebesgue",
                          "numeric median: EM over data intervals with Lebesgue base ([ICML] §3, §2.5a) or EM over "
                          "positions then uniform within the interval ([v1] Alg. 1, §2.5b; not DP, P7; strict uses "
                          "the Lebesgue EM)"),
            {{"lebesgue", NumericMedian::kExponential}, {"uniform_positions", NumericMedian::kUniformPositions}});
  if (f == Family::kFlip)
    set.add(&P::numeric,
            param::choice("flip_numeric", "code",
                          "numeric PFM median: over data intervals as coded, or over a public 256-point grid"),
            {{"code", NumericMedian::kFlipCode}, {"grid", NumericMedian::kFlipGrid}});
  return set.add(&P::strict, param::strict())
      .quirk(&P::split_budget_as_coded, "split_budget_as_coded")
      .quirk(&P::cat_score_bug, "cat_score_bug")
      .then([](P& d, const Params& v) {
        if (v.list_contains("reference_quirks", "double_epsilon_sweep")) d.epsilon *= 2;
      });
}

// What each variant fixes before its parameters are read.
DiPrimeParams variant_base(Family f, const std::string& name) {
  DiPrimeParams d;
  d.name = name;
  switch (f) {
    case Family::kDiPriMe: d.select = AttributeSelect::kUniform; break;
    case Family::kExp: d.select = AttributeSelect::kExponential; break;
    case Family::kFlip:
      d.select = AttributeSelect::kPermuteAndFlip;
      d.categorical = CategoricalMedian::kPermuteAndFlip;
      break;
    case Family::kMedian:
      d.select = AttributeSelect::kArgmin;
      d.numeric = NumericMedian::kExact;
      d.categorical = CategoricalMedian::kExact;
      d.rho = 0.5;
      break;
  }
  return d;
}

AlgorithmInfo family_entry(Family f) {
  const char* names[] = {"dipreme", "dipreme-exp", "dipreme-flip", "median-forest"};
  const char* summaries[] = {
      "DiPriMe: one random attribute per node, EM private median (Lebesgue base), noisy leaves",
      "DiPriMeExp: K private medians, attribute chosen by the exponential mechanism on -MSE",
      "DiPriMeFlip: K private medians by permute-and-flip, attribute chosen by permute-and-flip",
      "Non-private median forest: exact medians, attribute by least within-child variance"};
  const std::string name = names[static_cast<int>(f)];
  AlgorithmInfo a{.name = name,
                  .summary = summaries[static_cast<int>(f)],
                  .papers = "dipreme, dipreme-v1",
                  .tasks = {TaskKind::kClassification, TaskKind::kRegression},
                  .quirks = family_quirks(f),
                  .private_algorithm = f != Family::kMedian,
                  .binary_classification_only = true,  // dipreme.md §1: classification is binary in the papers
                  .privacy_status = [f](const Params& p, TaskKind t) { return family_status(f, p, t); }};
  if (a.private_algorithm) a.privacy_bound = [f](const Params& p, TaskKind) { return family_bound(f, p); };
  return with_learner<DiPrimeLearner>(std::move(a), variant_params(f), variant_base(f, name));
}

}  // namespace

std::vector<AlgorithmInfo> dipreme_algorithms() {
  return {family_entry(Family::kDiPriMe), family_entry(Family::kExp), family_entry(Family::kFlip),
          family_entry(Family::kMedian)};
}

}  // namespace dpf
