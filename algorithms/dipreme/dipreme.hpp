// The DiPriMe family (dipreme.md §2): DiPriMe, DiPriMeExp, DiPriMeFlip and the non-private median
// forest. One split policy (private median per candidate attribute, then attribute selection by
// within-child variance), the shared leaf policies, and the budget rule of §2.2.
#pragma once
#include <limits>
#include <memory>
#include <string>

#include "algorithms/common/occupancy.hpp"
#include "algorithms/dipreme/median.hpp"
#include "algorithms/common/algorithm_info.hpp"

namespace dpf {

enum class AttributeSelect { kUniform, kExponential, kPermuteAndFlip, kArgmin };

struct DiPrimeParams {
  std::string name;           // registry name, for messages and describe()
  double epsilon = kInf;      // total budget ε (kInf: non-private)
  int n_trees = 10;           // N_T
  int max_depth = 5;          // d_max
  int occupancy = 0;          // > 0: d_max from the occupancy rule at fit time (common/occupancy.hpp)
  int k = 1;                  // K candidate attributes
  double rho = 0.5;           // ρ: split share of the budget
  bool partition = true;      // disjoint data per tree (ε each) vs all data per tree (ε / N_T each)
  AttributeSelect select = AttributeSelect::kUniform;
  NumericMedian numeric = NumericMedian::kExponential;
  CategoricalMedian categorical = CategoricalMedian::kExponential;
  bool strict = false;        // dipreme.md §4 repairs: P1, P2, P3, P4, P5, P9
  bool split_budget_as_coded = false;  // quirk: DiPriMe (K = 1) gets ε_s = ρε/(2 d_max) (§2.2)
  bool cat_score_bug = false;          // quirk: categorical candidates scored on C only (§2.7)
  bool leaf_scale_2b = false;          // regression leaf noise 2B/(Nε) ([ICML] text) vs (B_U-B_L)/(Nε) ([code])
  bool hard_vote = false;              // clf_vote = hard
  static constexpr double kInf = std::numeric_limits<double>::infinity();
};

// The per-node and per-leaf budgets of dipreme.md §2.2 for one tree of budget eps_tree.
struct DiPrimeBudget {
  double eps_tree, eps_split, eps_select, eps_leaf;
};
DiPrimeBudget dipreme_budget(const DiPrimeParams& p);

std::unique_ptr<Learner> make_dipreme_learner(DiPrimeParams p);

// Registry entries: dipreme, dipreme-exp, dipreme-flip, median-forest.
std::vector<AlgorithmInfo> dipreme_algorithms();

}  // namespace dpf
