"""[v1] Figure 7: Banknote accuracy vs ε of DiPriMe (on all rows (part = False)), RF, ERT, DP-ERT and DP-DF
(banknote_sweep.py draws both panels).
Usage: python3 -m plots.dipreme_v1.figure_7 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-7.pdf/.png there)"""
from plots import common
from plots.dipreme_v1 import banknote_sweep


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme-v1", "figure-7", argv)
    banknote_sweep.draw(result_dir, "figure-7", "on all rows (part = False)")


if __name__ == "__main__":
    main()
