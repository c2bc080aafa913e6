"""python/setup.py under an interpreter that cannot build offline (no wheel, no numpy: a pyenv python3
or a venv made from one) stops with what is missing and how to make a venv that has it, instead of
pip's bare "invalid command 'bdist_wheel'"."""
import os
import subprocess
import sys

SETUP = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "setup.py")

# Runs setup.py --name with the named modules made unimportable (None in sys.modules).
RUN = """import runpy, sys
for m in sys.argv[1].split(","):
    if m:
        sys.modules[m] = None
sys.argv = ["setup.py", "--name"]
runpy.run_path({setup!r}, run_name="__main__")
"""


def _setup(blocked):
    code = RUN.format(setup=SETUP)
    return subprocess.run([sys.executable, "-c", code, ",".join(blocked)], capture_output=True, text=True,
                          cwd=os.path.dirname(SETUP))


def test_setup_names_the_package_when_the_build_tools_are_there():
    p = _setup([])
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().splitlines()[-1] == "dpforest"


def test_setup_without_wheel_or_numpy_says_what_is_missing_and_how_to_make_the_venv():
    p = _setup(["wheel", "setuptools.command.bdist_wheel", "numpy"])
    assert p.returncode != 0
    assert f"{sys.executable} has no wheel and no numpy" in p.stderr, p.stderr
    assert "/usr/bin/python3 -m venv --system-site-packages" in p.stderr
    assert "experiments/tools/deps.sh python" in p.stderr
