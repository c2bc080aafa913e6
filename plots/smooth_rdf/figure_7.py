"""smooth-rdf Figure 7: accuracy vs number of trees, (a) eps = 0.2, (b) eps = 1.
Usage: python3 -m plots.smooth_rdf.figure_7 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-7", argv)
    S.lines_vs_x(d, "accuracy", "n_trees", "figure-7", "Figure 7: accuracy vs trees", "accuracy", panel_column="epsilon")


if __name__ == "__main__":
    main()
