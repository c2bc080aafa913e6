"""[v1] Figure 3: Appliances MSE of DiPriMe (partitioned (part = True)), RF, ERT, Median trees and DP-ERT against
d_max, N_T and ε; the Lebesgue-median and strict DiPriMe are comparison series (regression_sweep.py).
Usage: python3 -m plots.dipreme_v1.figure_3 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-3.pdf/.png there)"""
from plots import common
from plots.dipreme_v1 import regression_sweep


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme-v1", "figure-3", argv)
    regression_sweep.draw(result_dir, "figure-3", "partitioned (part = True)")


if __name__ == "__main__":
    main()
