"""matrix-rf Appendix Figure 5: Car subsample-and-aggregate (ε = 2) vs depth (τ = 16) and vs τ (h = 3).

Usage: python3 -m plots.matrix_rf.figure_a5 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-a5.pdf/.png there)
"""
from plots import common
from plots.matrix_rf import mrf_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "figure-a5", argv)
    rows = common.load_rows(result_dir)
    depth = [dict(r, panel="depth") for r in rows if not r["label"].endswith(" τ")]
    trees = [dict(r, panel="trees", label=r["label"][:-2]) for r in rows if r["label"].endswith(" τ")]
    fig_rows = [dict(r, dataset="(a) vs depth h (τ = 16)") for r in depth]
    mrf_plots.draw_panels(fig_rows, "max_depth", [("(a) vs depth h (τ = 16)", "(a) vs depth h (τ = 16)", None)],
                          result_dir, "figure-a5a", "Appendix Figure 5a: Car subsample", "depth h", log_x=False, ncols=1)
    fig_rows = [dict(r, dataset="(b) vs τ (h = 3)") for r in trees]
    mrf_plots.draw_panels(fig_rows, "n_trees", [("(b) vs τ (h = 3)", "(b) vs τ (h = 3)", None)],
                          result_dir, "figure-a5", "Appendix Figure 5b: Car subsample", "number of trees τ", ncols=1)


if __name__ == "__main__":
    main()
