"""dpforest's plots: one module per paper figure or table, run from the repository root as

    python3 -m plots PAPER EXPERIMENT [RESULT_DIR]          e.g. python3 -m plots dipreme-v1 figure-2
    python3 -m plots.<package>.<module> [RESULT_DIR]        e.g. python3 -m plots.dipreme_v1.figure_2

A paper id names its package with '-' as '_' (dipreme-v1 -> plots/dipreme_v1/) and an experiment its
module the same way (figure-3b -> figure_3b.py); RESULT_DIR defaults to results/<paper>/<experiment>.
Shared code: plots/common.py (reading results.csv, drawing helpers), plots/mpl.py (matplotlib),
plots/report/ (the fidelity report), plots/reference/ (snapshot, verify), plots/benchmark/ (the
leaderboard). docs/plots.md describes the layout. This module imports nothing heavy."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def package_name(paper):
    """The package of a paper id: 'dipreme-v1' -> 'dipreme_v1'."""
    return paper.replace("-", "_")


def module_name(paper, experiment):
    """The module that draws one experiment: ('dipreme-v1', 'figure-2') -> 'plots.dipreme_v1.figure_2'."""
    return f"plots.{package_name(paper)}.{experiment.replace('-', '_')}"


def package_dir(paper, root=ROOT):
    """plots/<package> of a paper id in the checkout at root (captions.yaml and the modules live there)."""
    return os.path.join(root, "plots", package_name(paper))


def module_path(paper, experiment, root=ROOT):
    """The file of module_name(paper, experiment) in the checkout at root."""
    return os.path.join(package_dir(paper, root), experiment.replace("-", "_") + ".py")
