"""smooth-rdf Figure 13: F1 (least frequent class positive), Ours vs JPW (and JPW original), Breiman RF outlined; Wilcoxon p-values.
Usage: python3 -m plots.smooth_rdf.figure_13 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-13", argv)
    labels = ["Ours", "JPW", "JPW (original)", "Breiman RF"]
    rows = S.bars_by_dataset(d, "f1", labels, "figure-13", "Figure 13: F1 (least frequent class positive) (eps = 1)", "F1 (least frequent class positive)", outlined="Breiman RF")
    S.wilcoxon_table(rows, d, "figure-13-wilcoxon", "f1", "Ours", ["JPW", "JPW (original)", "Breiman RF"])


if __name__ == "__main__":
    main()
