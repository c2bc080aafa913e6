#!/usr/bin/env python3
"""Fit the cost model (experiments/cost/cost_model.hpp) on measured per-task CPU times; `make calibrate`.

Usage: python3 -m experiments.tools.calibrate_cost --out experiments/cost/cost_table.inc
           [--paper-results DIR ... --dpforest build/dpforest --cells-dir DIR2] [--validate]
           CELLS.tsv RESULTS.csv [CELLS.tsv RESULTS.csv ...]

CELLS.tsv is `dpforest run CONFIG --dry-run --cells-tsv CELLS.tsv` (each cell's shape as the C++ model
sees it: task kind, training rows, features, numeric features, trees, depth); RESULTS.csv the results
table of a run of the same config (one row per task, with `cpu_seconds`). With --paper-results, every
config of configs/<paper>/ whose results.csv exists under DIR/<paper>/<experiment>/ is added as one more
pair (its cells table written under --cells-dir by --dpforest; with several roots, the first that
has the experiment): the papers' own runs, whose shapes (up to 3 million rows, 1,385 trees) the
calibration sweeps do not reach. Every task is one observation of

    log(cpu_seconds) = a[key, task] + t log(trees) + r log(train_rows) + d log(depth) + f log(features)
                       + n log(1 + numeric features) + c log(classes)

(key: the cells table's cost_key, the algorithm or a variant with its own row). The tasks of one cell
share their shape, so the fit works on cells, each the mean log CPU of its tasks, weighted by its
number of tasks times its mean CPU^COST_WEIGHT (the long tasks make up a run's total). Fitted in two
stages, in log space: (1) one intercept per (key, task kind) with exponents shared by all; (2) per
(key, task kind) exponents shrunk towards the shared ones with a ridge penalty lam * n * |b - b_shared|^2
(n the key's tasks: lam is per task). Trees, rows and depth exponents are held >= 0. lam is chosen by
leave-one-dataset-out cross-validation (each dataset's tasks predicted from a fit on the others) among
a few values, lam = inf being the shared exponents. Each row's factor then includes the mean of
exp(residual) over its tasks (Duan's smearing estimate), so that exp(prediction) estimates the mean
CPU of a task, which is what the shard plan and the ETA add up, rather than its geometric mean.
--validate also prints each paper run's estimate by fits without its paper and without the run. Writes
the C++ table with a header naming the runs (by paper and experiment, never by path)."""
import argparse
import csv
import datetime
import glob
import math
import os
import re
import subprocess
import sys
from collections import defaultdict

import numpy as np

FLOOR = 1e-5  # cpu_seconds below timer resolution
LAMS = [0.0, 0.01, 0.1, 1.0, math.inf]
NAMES = ["trees", "rows", "depth", "features", "numeric", "classes"]
NX = len(NAMES)
NONNEG = [0, 1, 2]  # trees, rows, depth: exponents >= 0
# Each task's weight in the least-squares fit: its cell's mean CPU seconds to this power. With 0 (every
# task alike) the many sub-second tasks decide the exponents and the few long ones, which make up a
# run's total, are underestimated. On the calibration sweeps and the papers' runs of 2026-11-28:
# multinomial-rf Table 2 in-sample 0.65 of its measured CPU with 0, 0.93 with 0.5, 1.02 with 1; the
# runs' log(estimate / measured), RMS weighted by CPU, 0.33, 0.16 and 0.20 in-sample, and with each
# run's paper left out of the fit 0.85, 0.90 and 0.94 (0.5 buys the table's fit to the runs it has
# seen at a small cost on unseen ones).
COST_WEIGHT = 0.5


def shape_x(s, where):
    if "numeric_features" not in s:
        sys.exit(f"{where}: no numeric_features column: written by an older dpforest; rerun its --dry-run --cells-tsv")
    return [math.log(float(s["trees"])), math.log(float(s["train_rows"])), math.log(float(s["depth"])),
            math.log(float(s["features"])), math.log(1 + float(s["numeric_features"])), math.log(float(s["classes"]))]


def load(cells_tsv, results_csv):
    """The measured cells of one run: [{key, dataset, run, x, y (mean log CPU), n, cpu}], and its metadata."""
    with open(cells_tsv, newline="") as f:
        shapes = {r["cell_id"]: r for r in csv.DictReader(f, delimiter="\t")}
    logs, cpu, meta = defaultdict(list), defaultdict(float), defaultdict(set)
    with open(results_csv, newline="") as f:
        for r in csv.DictReader(f):
            if "cpu_seconds" not in r or r["cpu_seconds"] == "":
                sys.exit(f"{results_csv}: row without cpu_seconds (cell {r.get('cell_id')}): rerun with a "
                         "dpforest that records it")
            if r["cell_id"] not in shapes:
                sys.exit(f"{results_csv}: cell {r['cell_id']} is not in {cells_tsv}: not the same config")
            logs[r["cell_id"]].append(math.log(max(float(r["cpu_seconds"]), FLOOR)))
            cpu[r["cell_id"]] += float(r["cpu_seconds"])
            for k in ("git_commit", "host", "started_at"):
                meta[k].add(r.get(k, ""))
            meta["run"].add(f"{r.get('paper', '?')}/{r.get('experiment', '?')}")
    run = ",".join(sorted(meta["run"]))
    cells = []
    for cid, ys in logs.items():
        s = shapes[cid]
        # cost_key: the cost table's row (cost_model.hpp), e.g. rgv/published apart from strict rgv.
        cells.append({"key": (s.get("cost_key") or s["algorithm"], s["task"]), "dataset": s["dataset"], "run": run,
                      "x": shape_x(s, cells_tsv), "y": sum(ys) / len(ys), "n": len(ys), "cpu": cpu[cid],
                      "ys": ys})
    return cells, meta


def config_run(path):
    """(paper, experiment) of a config file, or None for a formula (closed-form) experiment."""
    with open(path) as f:
        text = f.read()
    paper = re.search(r"^paper:\s*(\S+)", text, re.M)
    experiment = re.search(r"^experiment:\s*(\S+)", text, re.M)
    if not paper or not experiment or re.search(r"^formula:", text, re.M):
        return None
    return paper.group(1).strip("\"'"), experiment.group(1).strip("\"'")


def paper_pairs(roots, dpforest, cells_dir):
    """(CELLS.tsv, RESULTS.csv) for every config of configs/*/ whose results.csv exists under one of the
    results roots (the first that has it)."""
    pairs = []
    for cfg in sorted(glob.glob("configs/*/*.yaml")):
        run = config_run(cfg)
        found = [r for r in roots if run and os.path.exists(os.path.join(r, run[0], run[1], "results.csv"))]
        if not found:
            continue
        results = os.path.join(found[0], run[0], run[1], "results.csv")
        with open(results, newline="") as f:
            if "cell_id" not in (csv.DictReader(f).fieldnames or []):
                continue  # a table computed from other experiments' results
        tsv = os.path.join(cells_dir, run[0], run[1] + ".cells.tsv")
        os.makedirs(os.path.dirname(tsv), exist_ok=True)
        subprocess.run([dpforest, "run", cfg, "--results", found[0], "--dry-run", "--cells-tsv", tsv],
                       check=True, stdout=subprocess.DEVNULL)
        pairs.append((tsv, results))
    if not pairs:
        sys.exit(f"--paper-results {' '.join(roots)}: no configs/<paper>/<experiment>.yaml has a results.csv there")
    return pairs


def lstsq_nonneg(A, y, nonneg):
    """Least squares with the coefficients of the columns `nonneg` held >= 0: the most negative one is
    fixed at 0 and the rest refitted until none is negative (a task never gets cheaper with more trees,
    rows or depth; where two of them move together, e.g. depth = log2 rows without max_depth, a free
    fit can trade one against the other)."""
    free = list(range(A.shape[1]))
    while True:
        sol = np.zeros(A.shape[1])
        sol[free] = np.linalg.lstsq(A[:, free], y, rcond=None)[0]
        neg = [j for j in nonneg if j in free and sol[j] < 0]
        if not neg:
            return sol
        free.remove(min(neg, key=lambda j: sol[j]))


def fit_once(cells, lam, weight):
    """Returns ({key: (a, b[NX])}, b_shared): least squares in log space, cell i weighted by weight[i]."""
    keys = sorted({c["key"] for c in cells})
    idx = np.array([keys.index(c["key"]) for c in cells])
    X = np.array([c["x"] for c in cells])
    y = np.array([c["y"] for c in cells])
    w = np.sqrt(weight)
    K = len(keys)
    A = np.zeros((len(cells), K + NX))
    A[np.arange(len(cells)), idx] = 1
    A[:, K:] = X
    sol = lstsq_nonneg(A * w[:, None], y * w, [K + j for j in NONNEG])
    shared = sol[K:]
    out = {}
    for i, k in enumerate(keys):
        if lam == math.inf:
            out[k] = (sol[i], shared.copy())
            continue
        m = idx == i
        # min sum_tasks w (y - a - x b)^2 + lam n_k |b - shared|^2, n_k the key's tasks (the sum of its
        # weights): augmented least squares, a unpenalised. The penalty grows with the key's tasks, so a
        # key with 30,000 tasks is held to the shared exponents as firmly as one with 40 (lam per task).
        Ak = np.hstack([np.ones((m.sum(), 1)), X[m]]) * w[m][:, None]
        yk = y[m] * w[m]
        if lam > 0:
            r = math.sqrt(lam * float(np.sum(weight[m])))
            Ak = np.vstack([Ak, np.hstack([np.zeros((NX, 1)), r * np.eye(NX)])])
            yk = np.concatenate([yk, r * shared])
        s = lstsq_nonneg(Ak, yk, [1 + j for j in NONNEG])
        out[k] = (s[0], s[1:])
    return out, shared


def fit(cells, lam):
    """The fit with each task weighted by its cell's measured mean CPU seconds^COST_WEIGHT, the weights of
    one key scaled to add up to its number of tasks (so that lam weighs the same against every key)."""
    n = np.array([float(c["n"]) for c in cells])
    w = n * np.array([c["cpu"] / c["n"] + FLOOR for c in cells]) ** COST_WEIGHT
    total_n, total_w = defaultdict(float), defaultdict(float)
    for c, ni, wi in zip(cells, n, w):
        total_n[c["key"]] += ni
        total_w[c["key"]] += wi
    scale = np.array([total_n[c["key"]] / total_w[c["key"]] for c in cells])
    return fit_once(cells, lam, w * scale)


def predict(model, c):
    a, b = model.get(c["key"], (None, None))
    return None if a is None else a + float(np.dot(b, c["x"]))


def smear(model, cells):
    """Adds to each row's factor log(mean exp(residual)) over its tasks (Duan's smearing)."""
    res = defaultdict(list)
    for c in cells:
        p = predict(model, c)
        res[c["key"]] += [y - p for y in c["ys"]]
    return {k: (a + math.log(float(np.mean(np.exp(res[k])))), b) for k, (a, b) in model.items()}


def held_out_errors(cells, lam, group):
    """Log errors (one per task) of each group's cells predicted by a fit without that group (log-space
    predictions, without the smearing term, which shifts every log error by design)."""
    errs = []
    for g in sorted({group(c) for c in cells}):
        model = fit([c for c in cells if group(c) != g], lam)[0]
        for c in cells:
            if group(c) == g and (p := predict(model, c)) is not None:
                errs += [p - y for y in c["ys"]]
    return np.array(errs)


def cross_validate(cells, lam):
    """RMS log error and median |log error| over leave-one-dataset-out predictions."""
    e = held_out_errors(cells, lam, lambda c: c["dataset"])
    return math.sqrt(float(np.mean(e ** 2))), float(np.median(np.abs(e))), len(e)


def paper_of(c):
    return c["run"].split("/")[0]


def fallback(model, shared, c):
    """The prediction of cost_row (cost_model.cpp) for a key the model lacks: the same algorithm's row
    for the other task kind, else the shared exponents with the median factor."""
    same = [k for k in model if k[0] == c["key"][0]]
    if same:
        a, b = model[same[0]]
    else:
        a, b = float(np.median([v[0] for v in model.values()])), shared
    return a + float(np.dot(b, c["x"]))


def held_out_totals(cells, lam, group):
    """Per run: estimated CPU seconds of its cells from a fit without the run's group (its keys absent
    from the other runs fall back as cost_row does)."""
    totals = defaultdict(float)
    for g in sorted({group(c) for c in cells if paper_of(c) != "calibration"}):
        train = [c for c in cells if group(c) != g]
        held, shared = fit(train, lam)
        held = smear(held, train)
        for c in cells:
            if group(c) == g:
                out = predict(held, c)
                totals[c["run"]] += c["n"] * math.exp(out if out is not None else fallback(held, shared, c))
    return totals


def validate(cells, lam, model):
    """Per paper run: measured CPU, the fitted table's estimate, the estimates of a fit without the run's
    paper and of one without the run itself, and each column's log ratio RMS over runs weighted by
    measured CPU."""
    measured, fitted = defaultdict(float), defaultdict(float)
    for c in cells:
        if paper_of(c) != "calibration":
            measured[c["run"]] += c["cpu"]
            fitted[c["run"]] += c["n"] * math.exp(predict(model, c))
    columns = [fitted, held_out_totals(cells, lam, paper_of), held_out_totals(cells, lam, lambda c: c["run"])]
    print("CPU-min per run: measured; estimate (ratio estimate / measured) in-sample, with the run's paper left "
          "out, with the run left out")
    per_paper = defaultdict(lambda: [0.0] * 4)
    for run in sorted(measured):
        v = [measured[run]] + [col[run] for col in columns]
        print(f"  {run:40s} {v[0] / 60:8.2f}" + "".join(f" {e / 60:8.2f} ({e / v[0]:5.2f})" for e in v[1:]))
        for i, x in enumerate(v):
            per_paper[run.split("/")[0]][i] += x
    for p, v in sorted(per_paper.items()):
        print(f"  paper {p:34s} {v[0] / 60:8.2f}" + "".join(f" {e / 60:8.2f} ({e / v[0]:5.2f})" for e in v[1:]))
    m = np.array([measured[r] for r in sorted(measured)])
    rms = [math.sqrt(float(np.sum(m * np.log(np.array([col[r] for r in sorted(measured)]) / m) ** 2) / np.sum(m)))
           for col in columns]
    print("  runs' log(estimate / measured), RMS weighted by measured CPU: in-sample %.3f, paper left out %.3f, "
          "run left out %.3f" % tuple(rms))


def main():
    ap = argparse.ArgumentParser(prog="python3 -m experiments.tools.calibrate_cost", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--paper-results", action="append", default=[], metavar="DIR",
                    help="a results root holding <paper>/<experiment>/results.csv of configs/ (repeatable: "
                         "the first root that has an experiment's results is used)")
    ap.add_argument("--dpforest", default="build/dpforest", help="writes the papers' cells tables (--paper-results)")
    ap.add_argument("--cells-dir", default="results/calibration/papers", help="where those tables go")
    ap.add_argument("--validate", action="store_true", help="print each paper run's estimate by fits without its paper and without the run")
    ap.add_argument("pairs", nargs="*", help="CELLS.tsv RESULTS.csv ...")
    a = ap.parse_args()
    if len(a.pairs) % 2:
        sys.exit("give CELLS.tsv RESULTS.csv pairs")
    pairs = [(a.pairs[i], a.pairs[i + 1]) for i in range(0, len(a.pairs), 2)]
    if a.paper_results:
        pairs += paper_pairs(a.paper_results, a.dpforest, a.cells_dir)
    if not pairs:
        sys.exit("nothing to fit: give CELLS.tsv RESULTS.csv pairs or --paper-results")
    cells, runs, meta_all = [], [], defaultdict(set)
    for tsv, results in pairs:
        c, meta = load(tsv, results)
        cells += c
        for k, v in meta.items():
            meta_all[k] |= v
        runs.append((",".join(sorted(meta["run"])), sum(x["n"] for x in c)))
    write(a.out, cells, runs, meta_all, a.validate)


def write(out, cells, runs, meta_all, do_validate):
    cv = {lam: cross_validate(cells, lam) for lam in LAMS}
    ntasks = sum(c["n"] for c in cells)
    print("leave-one-dataset-out cross-validation (log-space errors of CPU seconds):")
    for lam in LAMS:
        rms, med, n = cv[lam]
        print(f"  lam = {lam:>5}: RMS {rms:.3f} (x{math.exp(rms):.2f}), median |error| {med:.3f} "
              f"(x{math.exp(med):.2f}) over {n} tasks")
    best = min(LAMS, key=lambda l: cv[l][0])
    model, shared = fit(cells, best)
    model = smear(model, cells)
    print(f"chosen lam = {best}; shared exponents: " + ", ".join(f"{n} {v:.3f}" for n, v in zip(NAMES, shared)))
    if do_validate:
        validate(cells, best, model)
    resid = defaultdict(list)
    for c in cells:
        resid[c["key"]] += [predict(model, c) - y for y in c["ys"]]
    median_a = float(np.median([model[k][0] for k in model]))
    commits = ",".join(sorted(c for c in meta_all["git_commit"] if c))
    hosts = ",".join(sorted(h for h in meta_all["host"] if h))
    started = sorted(s for s in meta_all["started_at"] if s)
    by_paper = defaultdict(list)
    for run, n in runs:
        by_paper[run.split("/")[0]].append((run.split("/", 1)[-1], n))
    lines = [
        "// Generated by `make calibrate` (experiments/tools/calibrate_cost.py); do not edit by hand.",
        "// The cost model of cost_model.hpp: log(cpu s) = log_factor + trees log(n_trees) + rows log(training rows)",
        "//   + depth log(depth) + features log(features) + numeric log(1 + numeric features) + classes log(classes),",
        "//   per (cost key, task kind).",
        f"// Fitted on {ntasks} measured tasks ({len(cells)} cells; results column cpu_seconds) of the runs, tasks each:",
    ]
    for paper, rs in sorted(by_paper.items(), key=lambda kv: (kv[0] != "calibration", kv[0])):
        where = "experiments/cost/calibration" if paper == "calibration" else f"configs/{paper}"
        lines.append(f"//   {where}: " + ", ".join(f"{e} {n}" for e, n in sorted(rs)))
    lines += [
        f"// dpforest commits {commits or 'unknown'}, host {hosts or 'unknown'}, tasks started "
        f"{started[0] if started else '?'} .. {started[-1] if started else '?'}; written "
        f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}.",
        "// Leave-one-dataset-out cross-validation, RMS log error per shrinkage lam (inf = shared exponents):",
    ]
    for lam in LAMS:
        rms, med, n = cv[lam]
        lines.append(f"//   lam {lam}: RMS {rms:.3f} (x{math.exp(rms):.2f}), median |error| x{math.exp(med):.2f}, {n} tasks")
    lines.append(f"// Chosen lam = {best}; factors include the smearing term. Per row: in-sample RMS log error, tasks.")
    lines.append("constexpr AlgorithmCost kSharedCost{\"*\", \"*\", %.6f, %.6f, %.6f, %.6f, %.6f, %.6f, %.6f, %d};"
                 % (median_a, *shared, ntasks))
    lines.append("constexpr AlgorithmCost kAlgorithmCosts[] = {")
    for k in sorted(model):
        av, b = model[k]
        r = np.array(resid[k])
        lines.append("    {\"%s\", \"%s\", %.6f, %.6f, %.6f, %.6f, %.6f, %.6f, %.6f, %d},  // RMS %.2f"
                     % (k[0], k[1], av, *b, len(r), math.sqrt(float(np.mean(r ** 2)))))
    lines.append("};")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out}: {len(model)} (key, task) rows from {ntasks} tasks")


if __name__ == "__main__":
    main()
