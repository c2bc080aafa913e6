"""[v1] Figure 4: Banknote accuracy vs ε of DiPriMe (partitioned (part = True)), RF, ERT, DP-ERT and DP-DF
(banknote_sweep.py draws both panels).
Usage: python3 -m plots.dipreme_v1.figure_4 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-4.pdf/.png there)"""
from plots import common
from plots.dipreme_v1 import banknote_sweep


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme-v1", "figure-4", argv)
    banknote_sweep.draw(result_dir, "figure-4", "partitioned (part = True)")


if __name__ == "__main__":
    main()
