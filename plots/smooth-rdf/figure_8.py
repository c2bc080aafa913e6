"""smooth-rdf Figure 8: % of non-empty leaves whose label differs from the true majority, vs number of
trees (eps = 1). Usage: figure_8.py RESULT_DIR"""
import sys

import srdf_common as S

d = sys.argv[1] if len(sys.argv) > 1 else "results/smooth-rdf/figure-8"
S.lines_vs_x(d, "flipped_fraction", "n_trees", "figure-8", "Figure 8: flipped leaves", "% flipped leaves", scale=100.0)
