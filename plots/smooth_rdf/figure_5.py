"""smooth-rdf Figure 5: (a) accuracy and (b) mean smooth sensitivity, disjoint vs all data per tree.
Usage: python3 -m plots.smooth_rdf.figure_5 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-5", argv)
    labels = ["Disjoint data", "All data (eps/tau)"]
    rows = S.bars_by_dataset(d, "accuracy", labels, "figure-5a", "Figure 5a: disjoint vs all data (eps = 1)", "accuracy")
    S.bars_by_dataset(d, "mean_smooth_sensitivity", labels, "figure-5b",
                      "Figure 5b: mean smooth sensitivity e^(-j eps) over non-empty leaves", "smooth sensitivity")
    S.wilcoxon_table(rows, d, "figure-5-wilcoxon", "accuracy", "Disjoint data", ["All data (eps/tau)"])


if __name__ == "__main__":
    main()
