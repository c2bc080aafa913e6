"""dipreme Figure 5: Appliances MSE vs d_max, N_T and epsilon, DiPriMe* trees on all rows (part = False).

Drawn by regression_sweeps.draw (panels, series and the as-run / as-described rows are described there).
Usage: python3 -m plots.dipreme.figure_5 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes figure-5.pdf/.png there)
"""
from plots import common
from plots.dipreme import regression_sweeps


def main(argv=None):
    regression_sweeps.draw(common.result_dir_arg(__doc__, "dipreme", "figure-5", argv), "figure-5", partitioned=False)


if __name__ == "__main__":
    main()
