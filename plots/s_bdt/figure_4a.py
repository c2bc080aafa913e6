"""S-BDT Figure 4a: Abalone stream test MSE (rings²) against epsilon for S-BDT with the Rényi filter, S-BDT
naive and the Maddock et al. emulation naive; the authors' values (RMSE squared) as crosses. Abalone is not
mirrored.
Usage: python3 -m plots.s_bdt.figure_4a [RESULT_DIR]"""
from plots import common
from plots.s_bdt import sbdt_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "s-bdt", "figure-4a", argv)
    sbdt_plots.draw(result_dir, "figure-4a", "figure-4a", "S-BDT Figure 4a: Abalone, stream", metric="mse",
                    ylabel="test MSE in rings² (mean ± sd over folds)")


if __name__ == "__main__":
    main()
