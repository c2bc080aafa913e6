"""dipreme Table 1: regression MSE (mean ± std over 10 random 90/10 splits), Markdown + CSV.

Usage: python3 -m plots.dipreme.table_1 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes table-1.md/.csv there)"""
from plots import common
from plots.dipreme import tables


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme", "table-1", argv)
    rows = tables.select(common.load_rows(result_dir))
    order = ["RF", "ERT", "Median", "Median (as coded)", "DP-RF (as coded)", "DP-ERT", "DiPriMe (as coded)", "DiPriMeExp", "DiPriMeFlip",
             "DP-RF", "DiPriMe", "DP-RF (strict)", "DP-ERT (strict)", "DiPriMe (strict)", "DiPriMeExp (strict)",
             "DiPriMeFlip (strict)"]
    cols = ["parkinsons-telemonitoring:total", "appliances-energy", "metro-traffic", "gas-turbine:tey", "flight-delay"]
    present = {r["dataset"] for r in rows}
    scale = {"parkinsons-telemonitoring:total": 1e2, "appliances-energy": 1e3, "metro-traffic": 1e3,
             "gas-turbine:tey": 1e4, "flight-delay": 1e4}
    common.render_table(rows, result_dir, "table-1", "mse", row_order=[o for o in order if any(r["label"] == o for r in rows)],
                        col_order=[c for c in cols if c in present], scale=scale,
                        title="dipreme Table 1: regression MSE, ε = 10, N_T = 10, K = 5, ρ = 0.5")


if __name__ == "__main__":
    main()
