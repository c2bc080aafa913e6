"""smooth-rdf Figure 12: AUC (least frequent class positive), Ours vs JPW (and JPW original), Breiman RF outlined; Wilcoxon p-values.
Usage: figure_12.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-12"
labels = ["Ours", "JPW", "JPW (original)", "Breiman RF"]
rows = S.bars_by_dataset(d, "auc", labels, "figure-12", "Figure 12: AUC (least frequent class positive) (eps = 1)", "AUC (least frequent class positive)", outlined="Breiman RF")
S.wilcoxon_table(rows, d, "figure-12-wilcoxon", "auc", "Ours", ["JPW", "JPW (original)", "Breiman RF"])
