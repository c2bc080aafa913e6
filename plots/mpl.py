"""matplotlib with the Agg backend, for every module that draws. Under a python3 without matplotlib the
import stops with a message that names the Debian package, the install script and, when this machine
has one, a python3 that does have matplotlib (experiments/tools/plot_python.sh finds it; `make` uses it)."""
import os
import subprocess
import sys

from plots import ROOT

FINDER = os.path.join(ROOT, "experiments", "tools", "plot_python.sh")


def missing_message():
    """What to do when this interpreter has no matplotlib."""
    found = ""
    try:
        p = subprocess.run([FINDER], capture_output=True, text=True, timeout=60)
        found = p.stdout.strip() if p.returncode == 0 else ""
    except OSError:
        pass
    if found and os.path.realpath(found) != os.path.realpath(sys.executable):
        hint = f"this machine's python3 with matplotlib is {found}: run `{found} -m plots ...` from the repository root"
    else:
        hint = "install Debian's python3-matplotlib (experiments/tools/deps.sh plots, as root)"
    return f"plots: {sys.executable} has no matplotlib; {hint}"


try:
    import matplotlib
except ModuleNotFoundError:
    sys.exit(missing_message())

matplotlib.use("Agg")
import matplotlib.figure  # noqa: E402  (plots/report patches Figure.savefig)
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["matplotlib", "plt"]
