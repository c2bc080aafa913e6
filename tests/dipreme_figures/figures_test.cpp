// dipreme Figures 1, 3-8: the configs express the panels dipreme.md §6.3 describes (grids, fixed
// settings, the as-run 2ε / ε/2 series of Figs 1c/5c), and the balance diagnostic of Figure 4
// separates DiPriMe's private median splits from random splits ([ICML] Cor. 3.1, §5 "balance check").
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "algorithms/algo_fixtures.hpp"
#include "datasets/registry.hpp"
#include "experiments/config/config.hpp"
#include "experiments/config/sweep.hpp"

using namespace dpf;
using dpf::test::fit_registry;

namespace {

std::vector<Cell> cells_of(const std::string& figure) {
  const std::string path = project_root() + "/configs/dipreme/" + figure + ".yaml";
  REQUIRE(std::filesystem::exists(path));
  return expand_cells(load_experiment(path));
}

std::vector<const Cell*> with_label(const std::vector<Cell>& cells, const std::string& label) {
  std::vector<const Cell*> out;
  for (const Cell& c : cells)
    if (c.label == label) out.push_back(&c);
  return out;
}

std::set<double> values(const std::vector<const Cell*>& cells, const std::string& param) {
  std::set<double> out;
  for (const Cell* c : cells) out.insert(c->params.get_double(param));
  return out;
}

// Share of a forest's binary nodes whose first child holds between 40 % and 60 % of the node's rows.
double central_share(const ForestModel& f) {
  const std::vector<double> lf = f.left_fraction();
  REQUIRE(!lf.empty());
  const auto mid = std::count_if(lf.begin(), lf.end(), [](double v) { return v >= 0.4 && v <= 0.6; });
  return static_cast<double>(mid) / static_cast<double>(lf.size());
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("Figures 1 and 5: panel grids, one shared point, the as-run 2ε / ε/2 series of panel (c)") {
    for (const char* fig : {"figure-1", "figure-5"}) {
      CAPTURE(fig);
      const std::vector<Cell> cells = cells_of(fig);
      const bool part = std::string(fig) == "figure-1";
      // As described: d_max 3..10 at (N_T, ε) = (10, 10) in (a); N_T 1..28 at d_max 8 in (b); ε 0.3..300 at
      // (8, 10) in (c); the shared point d_max 8, N_T 10, ε 10 is run once, in (a).
      auto settings = [&](const std::string& label, const char* swept) {
        std::set<double> out;
        for (const Cell* c : with_label(cells, label)) {
          CHECK(c->params.get_int("k") == 10);
          CHECK(c->params.get_double("rho") == 0.5);
          CHECK(c->params.get_bool("partition") == part);
          for (const char* fixed : {"max_depth", "n_trees", "epsilon"}) {
            if (std::string(fixed) == swept) continue;
            CHECK(c->params.get_double(fixed) == (std::string(fixed) == "max_depth" ? 8 : 10));
          }
          out.insert(c->params.get_double(swept));
        }
        return out;
      };
      const std::set<double> depths = settings("DiPriMeExp (a)", "max_depth");
      CHECK(depths == std::set<double>{3, 4, 5, 6, 7, 8, 9, 10});
      CHECK(settings("DiPriMeExp (b)", "n_trees") == std::set<double>{1, 4, 7, 13, 16, 19, 22, 25, 28});
      CHECK(settings("DiPriMeExp (c)", "epsilon") == std::set<double>{0.3, 1, 3, 30, 100, 300});
      const std::set<double> eps{0.3, 1, 3, 10, 30, 100, 300};
      // As run in (c): DiPriMe variants spend 2ε (the row keeps ε), DP-ERT's leaves get ε/2.
      for (const char* lab : {"DiPriMe (as coded; 2ε) (c)", "DiPriMeExp (2ε) (c)", "DiPriMeFlip (2ε) (c)"}) {
        CAPTURE(lab);
        const auto run = with_label(cells, lab);
        REQUIRE(run.size() == 7);
        for (const Cell* c : run) {
          CHECK(c->params.list_contains("reference_quirks", "double_epsilon_sweep"));
          CHECK(c->params.get_bool("partition") == part);
        }
        CHECK(values(run, "epsilon") == eps);
      }
      std::set<double> halved;
      for (double e : eps) halved.insert(e / 2);
      CHECK(values(with_label(cells, "DP-ERT (ε/2) (c)"), "epsilon") == halved);
      for (const Cell* c : with_label(cells, "DiPriMe (as coded; 2ε) (c)"))
        CHECK(c->params.list_contains("reference_quirks", "split_budget_as_coded"));
      // Non-private baselines take the panel's d_max and N_T, K = 10; they have no (c) cells.
      for (const Cell* c : with_label(cells, "RF (a)")) CHECK(c->params.get_int("max_features") == 10);
      CHECK(with_label(cells, "Median (a)").size() == 8);
      CHECK(with_label(cells, "Median (b)").size() == 9);
      CHECK(with_label(cells, "Median (c)").empty());
      for (const Cell& c : cells) CHECK(c.dataset == "appliances-energy");
    }
  }

  TEST_CASE("Figures 7 and 8: the four heatmap grids of one variant, partitioned and not, single run") {
    for (const auto& [fig, algo] : std::map<std::string, std::string>{{"figure-7", "dipreme-exp"},
                                                                      {"figure-8", "dipreme-flip"}}) {
      CAPTURE(fig);
      const std::string path = project_root() + "/configs/dipreme/" + fig + ".yaml";
      const ExperimentSpec spec = load_experiment(path);
      CHECK(spec.protocol.repetitions == 1);
      const std::vector<Cell> cells = expand_cells(spec);
      CHECK(cells.size() == 2 * 4 * 16);  // (a)-(d), published and strict
      int rho_grid = 0, k_grid = 0;
      for (const Cell& c : cells) {
        CHECK(c.algorithm == algo);
        CHECK(c.params.get_int("max_depth") == 8);
        const char letter = c.label[c.label.size() - 2];
        CHECK(c.params.get_bool("partition") == (letter == 'a' || letter == 'b'));
        if (letter == 'a' || letter == 'c') {
          ++rho_grid;
          CHECK(c.params.get_double("rho") != 0.5);
          CHECK(c.params.get_int("n_trees") == 10);
          CHECK(c.params.get_int("k") == 10);
        } else {
          ++k_grid;
          CHECK(c.params.get_double("rho") == 0.5);
          CHECK(c.params.get_double("epsilon") == 10);
        }
      }
      CHECK(rho_grid == 2 * 2 * 16);
      CHECK(k_grid == 2 * 2 * 16);
    }
  }

  TEST_CASE("Figures 3 and 4 record the balance diagnostics; Figure 6 is Figure 2 without partitioning") {
    const ExperimentSpec f3 = load_experiment(project_root() + "/configs/dipreme/figure-3.yaml");
    CHECK(f3.record == std::vector<std::string>{"leaf_occupancy"});
    const ExperimentSpec f4 = load_experiment(project_root() + "/configs/dipreme/figure-4.yaml");
    CHECK(f4.record == std::vector<std::string>{"left_fraction"});
    for (const Cell& c : expand_cells(f4)) {
      CHECK(c.params.get_int("n_trees") == 100);
      CHECK(c.params.get_int("max_depth") == 5);
      if (c.algorithm == "dipreme") CHECK_FALSE(c.params.get_bool("partition"));
    }
    const std::vector<Cell> f6 = cells_of("figure-6"), f2 = cells_of("figure-2");
    CHECK(f6.size() == f2.size());
    for (const Cell& c : f6)
      if (c.algorithm.rfind("dipreme", 0) == 0) CHECK_FALSE(c.params.get_bool("partition"));
  }
}

TEST_SUITE("reproduction") {
  // [ICML] Figure 4 / Cor. 3.1 (no printed number): DiPriMe's left-child fractions peak at 0.5 while
  // random splits spread towards 0 and 1. Settings of the notebook cell (100 trees, depth 5, K = 1,
  // all rows, ε = 100, ρ = 0.5) on the data the caption names. Tolerance: DiPriMe must put at least
  // 35 % of its nodes in [0.4, 0.6] and three times the share of random splits, which must stay at or
  // below 20 % (this seed: 0.48 vs 0.08; at ε_s = 0.05 per node the median is loose in small nodes).
  TEST_CASE("Figure 4: private median splits are balanced, random splits are not (Banknote)") {
    const auto data = dpf::test::banknote();
    if (!data) return;
    const std::map<std::string, std::string> settings = {{"epsilon", "100"}, {"n_trees", "100"}, {"max_depth", "5"}};
    auto med_params = settings;
    med_params["rho"] = "0.5";
    med_params["partition"] = "false";
    med_params["reference_quirks"] = "split_budget_as_coded";
    const auto dipreme = fit_registry("dipreme", med_params, *data, 11);
    const auto random = fit_registry("dp-ert", settings, *data, 11);
    const double med_share = central_share(*dipreme.forest());
    const double rnd_share = central_share(*random.forest());
    CAPTURE(med_share);
    CAPTURE(rnd_share);
    CHECK(med_share >= 0.35);
    CHECK(med_share >= 3 * rnd_share);
    CHECK(rnd_share <= 0.2);
  }

  // [ICML] §4.3 / Figure 3: DiPriMe trees avoid low-occupancy leaves. With 10 trees of depth 4 on
  // 4,000 synthetic rows (all rows per tree, ε = 2), no DiPriMeExp leaf is empty and the leaf counts
  // vary little (the notebook's coefficient of variation on Robot: 0.56), while depth-7 random trees
  // leave many leaves empty or nearly so. Tolerance: DiPriMeExp CV below 1.0, DP-ERT CV above 1.5
  // (this seed: 0.36 vs 2.27).
  TEST_CASE("Figure 3: DiPriMe leaf occupancy is even, random trees' is heavy-tailed") {
    const Dataset d = dpf::test::synthetic(4000, TaskKind::kClassification, 17);
    const auto med = fit_registry("dipreme-exp", {{"epsilon", "2"}, {"n_trees", "10"}, {"max_depth", "4"},
                                                  {"k", "5"}, {"partition", "false"}}, d, 3);
    const auto rnd = fit_registry("dp-ert", {{"epsilon", "2"}, {"n_trees", "10"}, {"max_depth", "7"}}, d, 3);
    auto cv = [](const std::vector<double>& xs) {
      double m = 0, v = 0;
      for (double x : xs) m += x;
      m /= static_cast<double>(xs.size());
      for (double x : xs) v += (x - m) * (x - m);
      return std::sqrt(v / static_cast<double>(xs.size())) / m;
    };
    const std::vector<double> occ_med = med.forest()->leaf_occupancy(), occ_rnd = rnd.forest()->leaf_occupancy();
    CHECK(occ_med.size() == 10 * 16);
    CHECK(occ_rnd.size() == 10 * 128);
    CAPTURE(cv(occ_med));
    CAPTURE(cv(occ_rnd));
    CHECK(cv(occ_med) < 1.0);
    CHECK(cv(occ_rnd) > 1.5);
  }
}
