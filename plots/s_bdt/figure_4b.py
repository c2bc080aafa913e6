"""S-BDT Figure 4b: Adult stream test AUC against epsilon for S-BDT with the individual Rényi filter (as run
and strict), S-BDT naive and the Maddock et al. emulation naive; the authors' values as crosses.
Usage: python3 -m plots.s_bdt.figure_4b [RESULT_DIR]"""
from plots import common
from plots.s_bdt import sbdt_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "s-bdt", "figure-4b", argv)
    sbdt_plots.draw(result_dir, "figure-4b", "figure-4b", "S-BDT Figure 4b: Adult, stream")


if __name__ == "__main__":
    main()
