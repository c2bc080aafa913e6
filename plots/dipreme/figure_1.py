"""dipreme Figure 1: Appliances MSE vs d_max, N_T and epsilon, DiPriMe* trees on disjoint chunks.

Drawn by regression_sweeps.draw (panels, series and the as-run / as-described rows are described there).
Usage: python3 -m plots.dipreme.figure_1 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes figure-1.pdf/.png there)
"""
from plots import common
from plots.dipreme import regression_sweeps


def main(argv=None):
    regression_sweeps.draw(common.result_dir_arg(__doc__, "dipreme", "figure-1", argv), "figure-1", partitioned=True)


if __name__ == "__main__":
    main()
