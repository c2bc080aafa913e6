"""smooth-rdf Figure 13: F1 (least frequent class positive), Ours vs JPW (and JPW original), Breiman RF outlined; Wilcoxon p-values.
Usage: figure_13.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-13"
labels = ["Ours", "JPW", "JPW (original)", "Breiman RF"]
rows = S.bars_by_dataset(d, "f1", labels, "figure-13", "Figure 13: F1 (least frequent class positive) (eps = 1)", "F1 (least frequent class positive)", outlined="Breiman RF")
S.wilcoxon_table(rows, d, "figure-13-wilcoxon", "f1", "Ours", ["JPW", "JPW (original)", "Breiman RF"])
