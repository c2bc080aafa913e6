"""dipreme Figure 6: Figure 2 without partitioning — Banknote accuracy vs epsilon, every DiPriMe*
tree fitted on all training rows with epsilon / N_T (d_max = 5, N_T = 10, rho = 0.5); series and
panels as described in banknote_sweep.py.
Usage: python3 -m plots.dipreme.figure_6 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes figure-6.pdf/.png there)
"""
from plots import common
from plots.dipreme import banknote_sweep


def main(argv=None):
    banknote_sweep.draw(common.result_dir_arg(__doc__, "dipreme", "figure-6", argv), "figure-6",
                        "Banknote, DiPriMe* not partitioned (all rows, epsilon / N_T per tree), d_max = 5, N_T = 10, "
                        "rho = 0.5, K = 4")


if __name__ == "__main__":
    main()
