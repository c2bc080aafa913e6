"""The cost-model fit (experiments/tools/calibrate_cost.py, `make calibrate`): it recovers known exponents,
including the numeric-feature one, from synthetic measurements; trees, rows and depth never get a
negative exponent; the papers' own runs are found under --paper-results (in any of several roots) and
named in the table's header by paper and experiment, never by path; a cells table
without the numeric_features column is refused.

usage (from the repository root): python3 -m tests.cost.test_calibrate_cost BUILD/dpforest
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []

SHAPE_HEADER = ["cell_id", "algorithm", "label", "dataset", "task", "train_rows", "features", "trees", "depth",
                "classes", "tasks", "done", "est_task_seconds", "cost_key", "numeric_features"]


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def calibrate(args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "experiments.tools.calibrate_cost"] + args, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True)


def write_run(folder, name, cells, cost):
    """A cells table and a results table (2 tasks a cell) whose CPU seconds are cost(cell)."""
    tsv, res = os.path.join(folder, name + ".cells.tsv"), os.path.join(folder, name + ".csv")
    with open(tsv, "w", newline="") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow(SHAPE_HEADER)
        for c in cells:
            w.writerow([c["id"], c["key"], c["key"], c["dataset"], "classification", c["rows"], c["features"],
                        c["trees"], c["depth"], 2, 2, 0, 1.0, c["key"], c["numeric"]])
    with open(res, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["paper", "experiment", "cell_id", "cpu_seconds", "git_commit", "host", "started_at"])
        for c in cells:
            for rep in range(2):
                noise = 1.0 + 0.02 * (rep - 0.5)
                w.writerow(["calibration", name, c["id"], cost(c) * noise, "abc1234", "h", "2026-01-01T00:00:00Z"])
    return tsv, res


def synthetic_cells(key):
    cells = []
    for d, (rows, features, numeric) in enumerate([(1000, 10, 10), (5000, 20, 2), (20000, 8, 8), (3000, 30, 0),
                                                   (50000, 14, 6), (800, 5, 5), (12000, 40, 20)]):
        for trees in (10, 100):
            for depth in (4, 8):
                cells.append({"id": f"{key}-{d}-{trees}-{depth}", "key": key, "dataset": f"ds{d}", "rows": rows,
                              "features": features, "numeric": numeric, "trees": trees, "depth": depth})
    return cells


def row_of(table, key):
    m = re.search(r'\{"%s", "classification", ([^}]*)\}' % re.escape(key), table)
    return [float(v) for v in m.group(1).split(", ")[:7]] if m else None


def test_fit(tmp):
    # "sort": CPU = 1e-7 trees rows depth (1 + numeric): the numeric exponent is 1, the features one 0.
    sort = synthetic_cells("sort")
    a = write_run(tmp, "cost-a", sort, lambda c: 1e-7 * c["trees"] * c["rows"] * c["depth"] * (1 + c["numeric"]))
    # "odd": cheaper with more trees (a bimodal mix the model cannot express): its trees exponent stays 0.
    odd = synthetic_cells("odd")
    b = write_run(tmp, "cost-b", odd, lambda c: 1e-6 * c["rows"] / c["trees"])
    out = os.path.join(tmp, "table.inc")
    r = calibrate(["--out", out, *a, *b])
    check(r.returncode == 0, "fit on synthetic runs exits 0: " + r.stderr[-300:])
    table = open(out).read()
    s = row_of(table, "sort")
    check(s is not None, "the table has a row per key")
    if s:
        # log_factor, trees, rows, depth, features, numeric, classes
        check(abs(s[1] - 1) < 0.05 and abs(s[2] - 1) < 0.05 and abs(s[3] - 1) < 0.05,
              f"trees, rows and depth exponents recovered (1): {s[1]:.3f} {s[2]:.3f} {s[3]:.3f}")
        check(abs(s[5] - 1) < 0.1 and abs(s[4]) < 0.1,
              f"numeric-feature exponent 1 and features exponent 0 recovered: {s[5]:.3f} {s[4]:.3f}")
        pred = math.exp(s[0] + s[1] * math.log(100) + s[2] * math.log(20000) + s[3] * math.log(8) +
                        s[4] * math.log(8) + s[5] * math.log(9) + s[6] * math.log(2))
        check(abs(pred / (1e-7 * 100 * 20000 * 8 * 9) - 1) < 0.1, f"a cell's cost predicted within 10 %: {pred:.3f}")
    o = row_of(table, "odd")
    check(o is not None and o[1] == 0 and o[2] > 0.9, f"a falling cost gets trees exponent 0, not negative: {o}")
    check("experiments/cost/calibration: cost-a 56, cost-b 56" in table, "the header names the runs and their tasks")
    check(tmp not in table and "/tmp" not in table, "no path in the table")


def test_paper_results(tmp, dpforest):
    # A work folder with configs/<paper>/<experiment>.yaml and two results roots: the first empty, the
    # second with the run; an experiment without results is left out.
    work = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(work, "configs", "testpaper"))
    cfg = os.path.join(work, "configs", "testpaper", "tiny.yaml")
    with open(cfg, "w") as f:
        f.write("paper: testpaper\nexperiment: tiny\nseed: 3\nprotocol: {type: holdout, test_fraction: 0.25, repetitions: 2}\n"
                "datasets: [\"synthetic:classification:n=300,d=4,seed=1\"]\n"
                "algorithms:\n  - {name: rf, params: {n_trees: [2, 8], max_depth: 3}}\n")
    with open(os.path.join(work, "configs", "testpaper", "other.yaml"), "w") as f:
        f.write(open(cfg).read().replace("experiment: tiny", "experiment: other"))
    first, second = os.path.join(tmp, "first"), os.path.join(tmp, "second")
    r = subprocess.run([dpforest, "run", cfg, "--results", second, "--threads", "1", "--quiet"], cwd=work,
                       capture_output=True, text=True)
    check(r.returncode == 0, "tiny run: " + r.stderr[-300:])
    os.makedirs(first)
    sweep = write_run(tmp, "cost-a", synthetic_cells("sort"), lambda c: 1e-7 * c["trees"] * c["rows"])
    out = os.path.join(tmp, "papers.inc")
    r = calibrate(["--out", out, "--paper-results", first, "--paper-results", second, "--dpforest", dpforest,
                   "--cells-dir", os.path.join(tmp, "cells"), *sweep], cwd=work)
    check(r.returncode == 0, "fit with --paper-results exits 0: " + r.stderr[-300:])
    table = open(out).read() if r.returncode == 0 else ""
    check("//   configs/testpaper: tiny 4" in table, "the paper's run is in the header as configs/testpaper: tiny")
    check("other" not in table, "a config without results is left out")
    check(row_of(table, "rf") is not None, "the paper's algorithm has a row")
    check(tmp not in table, "no path of the results roots in the table")
    r = calibrate(["--out", out, "--paper-results", first, "--dpforest", dpforest, *sweep], cwd=work)
    check(r.returncode != 0 and "no configs/<paper>/<experiment>.yaml has a results.csv" in r.stdout + r.stderr,
          "a results root without any paper run is refused")


def test_old_cells_table(tmp):
    tsv, res = write_run(tmp, "cost-c", synthetic_cells("sort"), lambda c: 1.0)
    rows = open(tsv).read().splitlines()
    with open(tsv, "w") as f:
        f.write("\n".join("\t".join(line.split("\t")[:-1]) for line in rows) + "\n")
    r = calibrate(["--out", os.path.join(tmp, "x.inc"), tsv, res])
    check(r.returncode != 0 and "no numeric_features column" in r.stdout + r.stderr,
          "a cells table of an older dpforest is refused, naming the column")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    dpforest = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        test_fit(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        test_paper_results(tmp, dpforest)
    with tempfile.TemporaryDirectory() as tmp:
        test_old_cells_table(tmp)
    if failures:
        sys.exit(f"{len(failures)} failed")
    print("all passed")


if __name__ == "__main__":
    main()
