"""smooth-rdf Figure 11: accuracy, Ours vs JPW (and JPW original) vs FS, Breiman RF outlined; Wilcoxon p-values.
Usage: figure_11.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-11"
labels = ["Ours", "JPW", "JPW (original)", "FS", "Breiman RF"]
rows = S.bars_by_dataset(d, "accuracy", labels, "figure-11", "Figure 11: accuracy (eps = 1)", "accuracy", outlined="Breiman RF")
S.wilcoxon_table(rows, d, "figure-11-wilcoxon", "accuracy", "Ours", ["JPW", "JPW (original)", "FS", "Breiman RF"])
