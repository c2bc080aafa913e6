"""python3 -m plots PAPER EXPERIMENT [RESULT_DIR] [OPTION...]: draws one figure or table of a paper with
its module (plots.<package>.<module>, e.g. dipreme-v1 figure-2 -> plots.dipreme_v1.figure_2), which gets
the arguments after EXPERIMENT (RESULT_DIR defaults to results/PAPER/EXPERIMENT; --help is the module's).
The Makefile's reproduce targets and the SLURM finishing job call this."""
import argparse
import importlib
import os
import sys

from plots import ROOT, module_name, module_path


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m plots", description=__doc__.split("\n\n")[0],
                                 epilog="docs/plots.md: the package layout and how to add a figure.")
    ap.add_argument("paper", help="paper id, as in configs/ (dipreme, dipreme-v1, matrix-rf, ...)")
    ap.add_argument("experiment", help="figure-N or table-N, as configs/PAPER/EXPERIMENT.yaml")
    ap.add_argument("args", nargs=argparse.REMAINDER, metavar="RESULT_DIR [OPTION...]",
                    help="the module's arguments: RESULT_DIR (default results/PAPER/EXPERIMENT), its options")
    a = ap.parse_args(argv)
    name = module_name(a.paper, a.experiment)
    if not os.path.exists(module_path(a.paper, a.experiment)):
        sys.exit(f"python3 -m plots: no module {name} ({os.path.relpath(module_path(a.paper, a.experiment), ROOT)}) "
                 f"draws {a.paper} {a.experiment}")
    module = importlib.import_module(name)
    return module.main(a.args)


if __name__ == "__main__":
    sys.exit(main())
