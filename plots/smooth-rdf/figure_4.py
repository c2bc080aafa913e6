"""smooth-rdf Figure 4: accuracy, smooth vs global sensitivity (and the strict variant), SynthA-G, eps = 1.
Usage: figure_4.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-4"
rows = S.bars_by_dataset(d, "accuracy", ["Smooth sensitivity", "Global sensitivity", "Strict (permute-and-flip)"],
                         "figure-4", "Figure 4: smooth vs global sensitivity (eps = 1, 100 trees)", "accuracy")
S.wilcoxon_table(rows, d, "figure-4-wilcoxon", "accuracy", "Smooth sensitivity",
                 ["Global sensitivity", "Strict (permute-and-flip)"])
