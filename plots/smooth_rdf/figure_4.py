"""smooth-rdf Figure 4: accuracy, smooth vs global sensitivity (and the strict variant), SynthA-G, eps = 1.
Usage: python3 -m plots.smooth_rdf.figure_4 [RESULT_DIR]"""
from plots import common
from plots.smooth_rdf import srdf_common as S


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-4", argv)
    rows = S.bars_by_dataset(d, "accuracy", ["Smooth sensitivity", "Global sensitivity", "Strict (permute-and-flip)"],
                             "figure-4", "Figure 4: smooth vs global sensitivity (eps = 1, 100 trees)", "accuracy")
    S.wilcoxon_table(rows, d, "figure-4-wilcoxon", "accuracy", "Smooth sensitivity",
                     ["Global sensitivity", "Strict (permute-and-flip)"])


if __name__ == "__main__":
    main()
