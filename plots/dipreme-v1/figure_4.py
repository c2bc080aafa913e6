"""[v1] Figure 4: Banknote accuracy vs ε of DiPriMe (partitioned (part = True)), RF, ERT, DP-ERT and DP-DF
(banknote_sweep.py draws both panels).
Usage: figure_4.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-4.pdf/.png there)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import banknote_sweep  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/dipreme-v1/figure-4"
banknote_sweep.draw(result_dir, "figure-4", "partitioned (part = True)")
