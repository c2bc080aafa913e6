"""S-BDT Figure 3b: Adult test AUC against epsilon for S-BDT's best published row per epsilon and the
authors' Maddock et al. emulation, each as run (halved hessian noise) and strict; the authors' values
(published.yaml) as crosses.
Usage: python3 -m plots.s_bdt.figure_3b [RESULT_DIR]"""
from plots import common
from plots.s_bdt import sbdt_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "s-bdt", "figure-3b", argv)
    sbdt_plots.draw(result_dir, "figure-3b", "figure-3b", "S-BDT Figure 3b: Adult, IID")


if __name__ == "__main__":
    main()
