"""smooth-rdf Figure 6: accuracy at depth m/2, the proposed depth and m (eps = 1).
Usage: python3 -m plots.smooth_rdf.figure_6 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-6", argv)
    labels = ["Depth m/2", "Proposed depth", "Depth m"]
    rows = S.bars_by_dataset(d, "accuracy", labels, "figure-6", "Figure 6: tree depth (eps = 1, 100 trees)", "accuracy")
    S.wilcoxon_table(rows, d, "figure-6-wilcoxon", "accuracy", "Proposed depth", ["Depth m/2", "Depth m"])


if __name__ == "__main__":
    main()
