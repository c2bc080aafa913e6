"""matrix-rf Figure 2: accuracy vs epsilon, DP batch training / prediction vs the Laplace baselines.

Usage: python3 -m plots.matrix_rf.figure_2 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-2.pdf/.png there)
Each panel shows its own epsilon range (matrix-rf.md §5.3); the config sweeps their union.
"""
from plots import common
from plots.matrix_rf import mrf_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "figure-2", argv)
    rows = common.load_rows(result_dir)
    panels = [
        ("car", "Car (h=4, τ=128)", (0.4, 2)),
        ("iris", "Iris (h=2, τ=64)", (0.4, 2)),
        ("balance-scale", "Balance (h=2, τ=128)", (0.4, 2)),
        ("heart:upload", "Heart, authors' file (h=2, τ=128, q=2, d̄=4)", (0.4, 2)),
        ("heart:cleveland-binary", "Heart, UCI Cleveland (h=2, τ=128, q=2, d̄=4)", (0.4, 2)),
        ("mushroom:declared", "Mushroom (h=3, τ=125, q=5, d̄=4)", (0.01, 0.2)),
        ("adult-libsvm:a1a-test", "Adult a1a (h=8, τ=100, q=4, d̄=10)", (0.001, 2)),
    ]
    mrf_plots.draw_panels(rows, "epsilon", panels, result_dir, "figure-2", "Figure 2: accuracy vs ε", "ε")


if __name__ == "__main__":
    main()
