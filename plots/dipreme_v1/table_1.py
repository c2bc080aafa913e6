"""[v1] Table 1: regression MSE (mean ± std over 10 random 90/10 splits), Markdown + CSV.

Rows: the paper's five methods, then the earliest authors' code ("as coded": cat_score_bug), the
Lebesgue-median comparison, the strict (epsilon-DP) variants, the DP-ERT budget diagnostic and the
baselines at the notebooks' K = 5.
Usage: python3 -m plots.dipreme_v1.table_1 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes table-1.md/.csv there)"""
from plots import common
from plots.dipreme_v1 import tables


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme-v1", "table-1", argv)
    rows = tables.select(common.load_rows(result_dir))
    order = ["Random Forest", "ERT", "Median Trees", "DP-ERT", "DiPriMe", "DiPriMe (as coded)", "DiPriMe (Lebesgue)",
             "DiPriMe (strict)", "DP-ERT (strict)", "DP-ERT (leaves ε/(2N_T))",
             "Random Forest (K = 5)", "ERT (K = 5)", "Median Trees (K = 5)"]
    cols = ["parkinsons-telemonitoring:total", "appliances-energy", "flight-delay"]
    present = {r["dataset"] for r in rows}
    scale = {"parkinsons-telemonitoring:total": 1e2, "appliances-energy": 1e3, "flight-delay": 1e4}
    common.render_table(rows, result_dir, "table-1", "mse",
                        row_order=[o for o in order if any(r["label"] == o for r in rows)],
                        col_order=[c for c in cols if c in present], scale=scale,
                        title="[v1] Table 1: regression MSE, ε = 10, N_T = 10, K = 10, ρ = 0.5, d_max = 5 (UCI) / 10 (Flight)")
    if "flight-delay" not in present:
        print("flight-delay: no rows (the data set is not mirrored; its cells were skipped)")


if __name__ == "__main__":
    main()
