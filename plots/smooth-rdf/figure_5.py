"""smooth-rdf Figure 5: (a) accuracy and (b) mean smooth sensitivity, disjoint vs all data per tree.
Usage: figure_5.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-5"
labels = ["Disjoint data", "All data (eps/tau)"]
rows = S.bars_by_dataset(d, "accuracy", labels, "figure-5a", "Figure 5a: disjoint vs all data (eps = 1)", "accuracy")
S.bars_by_dataset(d, "mean_smooth_sensitivity", labels, "figure-5b",
                  "Figure 5b: mean smooth sensitivity e^(-j eps) over non-empty leaves", "smooth sensitivity")
S.wilcoxon_table(rows, d, "figure-5-wilcoxon", "accuracy", "Disjoint data", ["All data (eps/tau)"])
