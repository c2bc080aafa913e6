"""dipreme Table 2: classification error (mean ± std over 10 random 90/10 splits), Markdown + CSV.
DP-ERT (quirk l1_error) is scored by mean |y - p| as published; "DP-ERT (0/1 error)" thresholds it.

Usage: python3 -m plots.dipreme.table_2 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes table-2.md/.csv there)"""
from plots import common
from plots.dipreme import tables


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme", "table-2", argv)
    rows = tables.select(common.load_rows(result_dir))
    order = ["DP-DF (as run)", "DP-RF", "RF", "ERT", "Median", "DiPriMe (as coded)", "DiPriMeExp", "DiPriMeFlip",
             "DP-ERT", "DiPriMe", "DP-ERT (0/1 error)", "DP-DF", "DiPriMe (strict)", "DiPriMeExp (strict)",
             "DiPriMeFlip (strict)", "DP-DF (strict)"]
    cols = ["banknote", "credit-default", "wall-robot:24", "higgs", "puc-rio"]
    present = {r["dataset"] for r in rows}
    common.render_table(rows, result_dir, "table-2", "error", row_order=[o for o in order if any(r["label"] == o for r in rows)],
                        col_order=[c for c in cols if c in present],
                        title="dipreme Table 2: classification error, ε = 2, N_T = 10, ρ = 0.5")


if __name__ == "__main__":
    main()
