"""smooth-rdf Figure 8: % of non-empty leaves whose label differs from the true majority, vs number of
trees (eps = 1). Usage: python3 -m plots.smooth_rdf.figure_8 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-8", argv)
    S.lines_vs_x(d, "flipped_fraction", "n_trees", "figure-8", "Figure 8: flipped leaves", "% flipped leaves", scale=100.0)


if __name__ == "__main__":
    main()
