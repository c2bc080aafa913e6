"""[v1] Table 2: classification error (mean ± std over 10 random 90/10 splits), Markdown + CSV.
"DP-ERT" (quirk l1_error) is scored by mean |y - p| as the authors did; "DP-ERT (0/1 error)" thresholds it.

Usage: table_2.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes table-2.md/.csv there)"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import tables  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/dipreme-v1/table-2"
rows = tables.select(common.load_rows(result_dir))
order = ["Random Forest", "ERT", "Median Trees", "DP-DF (as run)", "DP-ERT", "DiPriMe", "DiPriMe (as coded)",
         "DiPriMe (Lebesgue)", "DiPriMe (strict)", "DP-DF", "DP-DF (strict)", "DP-ERT (0/1 error)", "DP-ERT (strict)",
         "DP-ERT (leaves ε/(2N_T))"]
cols = ["banknote", "credit-default", "wall-robot:24"]
present = {r["dataset"] for r in rows}
common.render_table(rows, result_dir, "table-2", "error",
                    row_order=[o for o in order if any(r["label"] == o for r in rows)],
                    col_order=[c for c in cols if c in present],
                    title="[v1] Table 2: classification error, ε = 2, N_T = 10, K = 5, d_max = 5, ρ = 0.5")
