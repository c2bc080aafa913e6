"""smooth-rdf Figure 12: AUC (least frequent class positive), Ours vs JPW (and JPW original), Breiman RF outlined; Wilcoxon p-values.
Usage: python3 -m plots.smooth_rdf.figure_12 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-12", argv)
    labels = ["Ours", "JPW", "JPW (original)", "Breiman RF"]
    rows = S.bars_by_dataset(d, "auc", labels, "figure-12", "Figure 12: AUC (least frequent class positive) (eps = 1)", "AUC (least frequent class positive)", outlined="Breiman RF")
    S.wilcoxon_table(rows, d, "figure-12-wilcoxon", "auc", "Ours", ["JPW", "JPW (original)", "Breiman RF"])


if __name__ == "__main__":
    main()
