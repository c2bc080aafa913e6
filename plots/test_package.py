"""ctest `plots_package`: the Python tooling is packages run with `python3 -m`, from the repository root:

  - no module under plots/ or experiments/tools/ edits the import path (they import each other as
    plots.<...> and experiments.tools.<...>), and the Makefile and CMakeLists.txt run no script by path;
  - every figure and table config (configs/<paper>/{figure,table}-*.yaml) has its module
    plots.<package>.<module> with main(argv), every module of the package imports without drawing
    anything, and `python3 -m plots PAPER EXPERIMENT --help` reaches the module's argparse main;
  - the SLURM finishing job (`dpforest slurm --dry-run`, the binary named by $DPFOREST) draws each
    experiment with `python3 -m plots PAPER EXPERIMENT`, dipreme-v1 included;
  - the interpreter lookup: experiments/tools/plot_python.sh prints the first python3 with matplotlib and,
    with none, names the Debian package and deps.sh; plots.mpl says the same under a python3 without it.

    DPFOREST=build/dpforest python3 -m plots.test_package [-v]"""
import glob
import importlib
import inspect
import os
import pkgutil
import re
import stat
import subprocess
import sys
import tempfile
import unittest

import plots
from plots import ROOT, module_name, module_path

# An edit of the import path: its insert / append / extend / remove, an item or slice assignment, or an
# assignment or += to it (the pattern is written so that this file does not match itself).
PATH_EDIT = re.compile(r"\bsys\s*\.\s*path\s*(?:\.\s*(?:insert|append|extend|remove)\s*\(|\[|\+?=(?!=))")
FINDER = os.path.join(ROOT, "experiments", "tools", "plot_python.sh")


def path_edits(paths):
    """[(path, line number, line)] of every import-path edit in the given files."""
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if PATH_EDIT.search(line):
                    out.append((os.path.relpath(p, ROOT), i, line.strip()))
    return out


def python_files(*folders):
    return sorted(p for d in folders for p in glob.glob(os.path.join(ROOT, d, "**", "*.py"), recursive=True))


def experiments():
    """(paper, experiment) of every figure and table config."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "configs", "*", "*.yaml"))):
        name = os.path.basename(path)[:-5]
        if name.startswith(("figure-", "table-")):
            out.append((os.path.basename(os.path.dirname(path)), name))
    return out


def fake_python(folder, name="python3"):
    """An executable named python3 that cannot import anything (exit 1)."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\nexit 1\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


class NoPathEdits(unittest.TestCase):
    def test_no_module_edits_the_import_path(self):
        files = python_files("plots", "experiments/tools")
        self.assertGreater(len(files), 60)
        self.assertEqual(path_edits(files), [], "import as plots.<...> / experiments.tools.<...> instead")

    def test_the_check_catches_an_edit(self):
        with tempfile.TemporaryDirectory() as t:
            bad = os.path.join(t, "bad.py")
            with open(bad, "w") as f:
                f.write("import os\nimport sys\n\nsys.path" + ".insert(0, os.path.dirname(__file__))\n"
                        "sys.path" + " += ['x']\nif sys.path" + " == []:\n    pass\n")
            self.assertEqual([e[1] for e in path_edits([bad])], [4, 5])

    def test_make_and_ctest_run_modules_not_script_paths(self):
        for name in ("Makefile", "CMakeLists.txt"):
            with open(os.path.join(ROOT, name), encoding="utf-8") as f:
                text = f.read()
            self.assertEqual(re.findall(r"(?:PY\w*\)|python3?\w*\})\s+\S+\.py\b", text), [], name)


class Modules(unittest.TestCase):
    def test_every_figure_and_table_has_a_module_with_main(self):
        exps = experiments()
        self.assertGreater(len(exps), 45)
        for paper, exp in exps:
            with self.subTest(paper=paper, experiment=exp):
                self.assertTrue(os.path.exists(module_path(paper, exp)), module_path(paper, exp))
                main = getattr(importlib.import_module(module_name(paper, exp)), "main", None)
                self.assertTrue(callable(main))
                self.assertIn("argv", inspect.signature(main).parameters)

    def test_every_module_imports_without_drawing(self):
        before = set(os.listdir(os.getcwd()))
        names = [m.name for m in pkgutil.walk_packages(plots.__path__, "plots.")]
        self.assertIn("plots.report.sources", names)
        for name in names:
            importlib.import_module(name)
        self.assertEqual(set(os.listdir(os.getcwd())), before)

    def test_dispatcher_reaches_the_module(self):
        p = subprocess.run([sys.executable, "-m", "plots", "dipreme-v1", "figure-2", "--help"], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("python3 -m plots.dipreme_v1.figure_2", p.stdout)
        self.assertIn("results/dipreme-v1/figure-2", p.stdout)
        p = subprocess.run([sys.executable, "-m", "plots", "dipreme", "figure-99"], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("no module plots.dipreme.figure_99", p.stderr)


class Slurm(unittest.TestCase):
    def test_finishing_job_draws_with_the_modules(self):
        dpforest = os.environ.get("DPFOREST")
        if not dpforest:
            self.skipTest("DPFOREST (the dpforest binary) not set; ctest sets it")
        configs = ["configs/dipreme-v1/figure-2.yaml", "configs/privatree/table-appendix.yaml"]
        with tempfile.TemporaryDirectory() as t:
            p = subprocess.run([dpforest, "slurm", *configs, "--tasks", "2", "--results", t, "--dry-run"], cwd=ROOT,
                               capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        finish = p.stdout[p.stdout.index("finish.sbatch"):]
        self.assertIn("PLOT_PY=$(experiments/tools/plot_python.sh)", finish)
        for paper, exp in (("dipreme-v1", "figure-2"), ("privatree", "table-appendix")):
            self.assertIn(f"step \"$PLOT_PY\" -m plots '{paper}' '{exp}' '{t}/{paper}/{exp}'", finish)
        self.assertNotIn("nothing to draw", finish)


class Interpreter(unittest.TestCase):
    def test_finder_takes_the_first_python3_with_matplotlib(self):
        with tempfile.TemporaryDirectory() as t:
            fake = fake_python(t)
            p = subprocess.run([FINDER, fake, sys.executable], capture_output=True, text=True)
            self.assertEqual((p.returncode, p.stdout.strip()), (0, sys.executable), p.stderr)

    def test_finder_names_the_package_when_there_is_none(self):
        with tempfile.TemporaryDirectory() as t:
            p = subprocess.run([FINDER, fake_python(t), os.path.join(t, "missing")], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        self.assertIn("python3-matplotlib", p.stderr)
        self.assertIn("experiments/tools/deps.sh plots", p.stderr)

    def test_plots_say_so_without_matplotlib(self):
        p = subprocess.run([sys.executable, "-c", "import sys; sys.modules['matplotlib'] = None; import plots.common"],
                           cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"plots: {sys.executable} has no matplotlib", p.stderr)
        self.assertNotIn("Traceback", p.stderr)


if __name__ == "__main__":
    unittest.main()
