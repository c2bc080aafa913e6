"""dipreme Figure 2: accuracy on Banknote vs epsilon (d_max = 5, N_T = 10, rho = 0.5); series and
panels as described in banknote_sweep.py.
Usage: python3 -m plots.dipreme.figure_2 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes figure-2.pdf/.png there)
"""
from plots import common
from plots.dipreme import banknote_sweep


def main(argv=None):
    banknote_sweep.draw(common.result_dir_arg(__doc__, "dipreme", "figure-2", argv), "figure-2",
                        "Banknote, d_max = 5, N_T = 10, rho = 0.5, K = 4")


if __name__ == "__main__":
    main()
