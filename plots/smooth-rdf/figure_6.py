"""smooth-rdf Figure 6: accuracy at depth m/2, the proposed depth and m (eps = 1).
Usage: figure_6.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-6"
labels = ["Depth m/2", "Proposed depth", "Depth m"]
rows = S.bars_by_dataset(d, "accuracy", labels, "figure-6", "Figure 6: tree depth (eps = 1, 100 trees)", "accuracy")
S.wilcoxon_table(rows, d, "figure-6-wilcoxon", "accuracy", "Proposed depth", ["Depth m/2", "Depth m"])
