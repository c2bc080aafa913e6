"""dipreme Table 2: classification error (mean ± std over 10 random 90/10 splits), Markdown + CSV.
DP-ERT (quirk l1_error) is scored by mean |y - p| as published; "DP-ERT (0/1 error)" thresholds it.

Usage: table_2.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes table-2.md/.csv there)"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import tables  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/dipreme/table-2"
rows = tables.select(common.load_rows(result_dir))
order = ["DP-DF (as run)", "DP-RF", "RF", "ERT", "Median", "DiPriMe (as coded)", "DiPriMeExp", "DiPriMeFlip",
         "DP-ERT", "DiPriMe", "DP-ERT (0/1 error)", "DP-DF", "DiPriMe (strict)", "DiPriMeExp (strict)",
         "DiPriMeFlip (strict)", "DP-DF (strict)"]
cols = ["banknote", "credit-default", "wall-robot:24", "higgs", "puc-rio"]
present = {r["dataset"] for r in rows}
common.render_table(rows, result_dir, "table-2", "error", row_order=[o for o in order if any(r["label"] == o for r in rows)],
                    col_order=[c for c in cols if c in present],
                    title="dipreme Table 2: classification error, ε = 2, N_T = 10, ρ = 0.5")
