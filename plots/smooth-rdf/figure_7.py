"""smooth-rdf Figure 7: accuracy vs number of trees, (a) eps = 0.2, (b) eps = 1. Usage: figure_7.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-7"
S.lines_vs_x(d, "accuracy", "n_trees", "figure-7", "Figure 7: accuracy vs trees", "accuracy", panel_column="epsilon")
