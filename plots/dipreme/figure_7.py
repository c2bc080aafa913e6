"""dipreme Figure 7: DiPriMeExp test MSE heatmaps on Appliances ((a) epsilon x rho, (b) K x N_T, partitioned;
(c), (d) not partitioned), drawn by heatmaps.draw; the bottom row is the strict (epsilon-DP) variant.
Usage: python3 -m plots.dipreme.figure_7 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes figure-7.pdf/.png there)
"""
from plots import common
from plots.dipreme import heatmaps


def main(argv=None):
    heatmaps.draw(common.result_dir_arg(__doc__, "dipreme", "figure-7", argv), "figure-7", "DiPriMeExp")


if __name__ == "__main__":
    main()
