"""smooth-rdf Figure 11: accuracy, Ours vs JPW (and JPW original) vs FS, Breiman RF outlined; Wilcoxon p-values.
Usage: python3 -m plots.smooth_rdf.figure_11 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-11", argv)
    labels = ["Ours", "JPW", "JPW (original)", "FS", "Breiman RF"]
    rows = S.bars_by_dataset(d, "accuracy", labels, "figure-11", "Figure 11: accuracy (eps = 1)", "accuracy", outlined="Breiman RF")
    S.wilcoxon_table(rows, d, "figure-11-wilcoxon", "accuracy", "Ours", ["JPW", "JPW (original)", "FS", "Breiman RF"])


if __name__ == "__main__":
    main()
