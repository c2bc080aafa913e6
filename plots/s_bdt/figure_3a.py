"""S-BDT Figure 3a: Abalone test MSE (rings², the square of the paper's RMSE) against epsilon for S-BDT's best
published row per epsilon and the Maddock et al. emulation, as run and strict; the authors' values as crosses.
Abalone is not mirrored: without results the figure is drawn from the snapshot, which holds none.
Usage: python3 -m plots.s_bdt.figure_3a [RESULT_DIR]"""
from plots import common
from plots.s_bdt import sbdt_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "s-bdt", "figure-3a", argv)
    sbdt_plots.draw(result_dir, "figure-3a", "figure-3a", "S-BDT Figure 3a: Abalone, IID", metric="mse",
                    ylabel="test MSE in rings² (mean ± sd over folds)")


if __name__ == "__main__":
    main()
