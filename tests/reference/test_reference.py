"""ctest `reference`: the reference snapshot and `verify` on a real run (tests/reference/quick.yaml).

  1. run the config, write its snapshot (python3 -m plots.reference.snapshot);
  2. a fresh run into a new results root: verify says every cell is unchanged (exit 0);
  3. a copy of the results with one cell's accuracy shifted by +0.02 on every fold: that cell and
     no other is flagged (exit 1);
  4. a rerun with DiPriMe's epsilon changed from 2 to 0.05 in the config (through dpforest): that cell
     is matched by (label, algorithm, dataset), named with "epsilon 2 -> 0.05" and flagged; the other
     two are unchanged;
  5. a rerun with another master seed (other folds, other noise): nothing flagged;
  6. an incomplete run (a cell deleted): snapshot refuses it and names the cells finished;
  7. plots/common.py: load_rows falls back on the snapshot with the same means and sds, and says so;
     with cells but no results.csv it says how many cells are finished and the merge command;
  8. snapshot --published-only without full results: recomputed from the snapshot (the same verdicts
     as from the full results), paired claims kept while unchanged, refused when one changed.
Usage (from the repository root): python3 -m tests.reference.test_reference BUILD/dpforest
"""
import csv
import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr

from plots import common
from plots.reference import reference as refmod

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PY = sys.executable
SNAPSHOT = ["-m", "plots.reference.snapshot"]
VERIFY = ["-m", "plots.reference.verify"]
CONFIG = os.path.join(ROOT, "tests", "reference", "quick.yaml")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, **kw)
    return p.returncode, p.stdout + p.stderr


def dpf_run(dpforest, config, results):
    rc, out = run([dpforest, "run", config, "--results", results, "--quiet", "--threads", "2"])
    if rc != 0:
        sys.exit(f"dpforest run failed ({rc}):\n{out}")


def verify(dpforest, results, ref, *extra):
    return run([PY, *VERIFY, "--paper", "selftest", "--results", results, "--reference", ref, "--dpforest", dpforest, *extra])


def flagged_lines(out):
    return [line for line in out.splitlines() if "FLAGGED" in line]


PUBLISHED = """paper: selftest
numbers:
  - id: rf-accuracy
    source: "a number on the primary metric"
    experiment: verify-quick
    metric: accuracy
    value: {rf_value}
    tolerance: {rf_tol}
    paper_method: {{label: RF}}
    explanation: "{note} ours {{ours}}"
  - id: dpert-f1
    source: "a number on another metric"
    experiment: verify-quick
    metric: f1
    value: 0.5
    tolerance: 0.5
    paper_method: {{label: "DP-ERT (strict)"}}
claims:
  - id: rf-beats-dpert
    statement: "RF beats DP-ERT"
    type: paired
    experiment: verify-quick
    metric: accuracy
    a: {{label: RF}}
    b: {{label: "DP-ERT (strict)"}}
    expect: {{min_difference: {min_diff}}}
  - id: best-epsilon
    statement: "argmax over epsilon"
    type: argmax
    experiment: verify-quick
    metric: accuracy
    series: {{label: "DiPriMe (strict)"}}
    over: epsilon
    expect: {{argmax_in: [0, 10]}}
"""


def write_published(cfg, commit, **kw):
    values = dict(rf_value=0.5, rf_tol=0.6, note="first", min_diff=0)
    values.update(kw)
    path = os.path.join(cfg, "selftest", "published.yaml")
    with open(path, "w") as f:
        f.write(PUBLISHED.format(**values))
    if commit:
        run(["git", "-C", cfg, "add", "-A"])
        run(["git", "-C", cfg, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "v"])


def published_from_snapshot(dpforest, tmp, res):
    """8. snapshot.py --published-only without full results: numbers and argmax claims recomputed from
    the snapshot, paired claims kept from the recorded published.json while their definition is
    unchanged (its published.yaml found in git), refused when it changed."""
    cfg = os.path.join(tmp, "configs")
    os.makedirs(os.path.join(cfg, "selftest"))
    run(["git", "init", "-q", cfg])
    write_published(cfg, commit=True)
    ref8 = os.path.join(tmp, "reference-published")
    base = [PY, *SNAPSHOT, "--config", CONFIG, "--out", ref8, "--configs", cfg, "--dpforest", dpforest]
    rc, out = run(base + ["--results", res])
    check(rc == 0 and "published.json" in out, f"snapshot with a published.yaml (exit {rc}): {out.strip()}")
    jpath = os.path.join(ref8, "selftest", "published.json")
    with open(jpath) as f:
        first = json.load(f)
    # An edited record: a new explanation and a tolerance that turns the number's verdict.
    write_published(cfg, commit=True, rf_tol=0.01, note="second")
    empty = os.path.join(tmp, "results-none")
    rc, out = run(base + ["--results", empty, "--published-only"])
    check(rc == 0 and "from the snapshot" in out, f"--published-only from the snapshot alone (exit {rc}): {out.strip()}")
    with open(jpath) as f:
        snap = json.load(f)
    rc, out = run(base + ["--results", res, "--published-only"])
    with open(jpath) as f:
        full = json.load(f)
    check(rc == 0 and "from the snapshot" not in out, f"--published-only from full results (exit {rc}): {out.strip()}")
    nums = {n["id"]: n for n in snap["numbers"]}
    check(first["numbers"][0]["verdict"] == "within" and nums["rf-accuracy"]["verdict"] == "outside"
          and "second" in nums["rf-accuracy"]["explanation"], "the edited tolerance and explanation are applied")
    same = snap["counts"] == full["counts"]
    for a, b in zip(snap["numbers"], full["numbers"]):
        for s in ("paper_method",):
            x, y = a["ours"][s], b["ours"][s]
            same = same and a["verdict"] == b["verdict"] and x["n"] == y["n"] \
                and math.isclose(x["mean"], y["mean"], rel_tol=1e-5) and math.isclose(x["sd"], y["sd"], rel_tol=1e-4)
    for a, b in zip(snap["claims"], full["claims"]):
        same = same and all(a[k] == b[k] for k in ("verdict", "measured", "rules"))
    check(same, "from the snapshot: the same verdicts, means, sds, n and claims as from the full results")
    check(snap["published_yaml_sha256"] == refmod_sha(os.path.join(cfg, "selftest", "published.yaml")),
          "published.json records the edited published.yaml")
    # A paired claim whose definition changed cannot be recomputed from the snapshot: refused.
    write_published(cfg, commit=False, rf_tol=0.01, note="second", min_diff=0.5)
    with open(jpath) as f:
        before = f.read()
    rc, out = run(base + ["--results", empty, "--published-only"])
    with open(jpath) as f:
        after = f.read()
    check(rc == 1 and "rf-beats-dpert" in out and "definition changed" in out and "rerun verify-quick" in out
          and before == after, f"a changed paired claim: refused, published.json untouched (exit {rc}): {out.strip()}")


def refmod_sha(path):
    import hashlib
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    dpforest = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="dpf-reference-test-")
    try:
        res = os.path.join(tmp, "results")
        ref = os.path.join(tmp, "reference")
        # 0. Cells on datasets the mirror does not hold (dipreme Table 2: HIGGS and PUC-Rio, 2 x 36 cells)
        # are counted apart by status, and the completeness rule leaves them out.
        st = refmod.experiment_status(dpforest, os.path.join(ROOT, "configs", "dipreme", "table-2.yaml"), tmp)
        check(st["cells_unavailable"] == 72 and st["unavailable_datasets"] == ["higgs", "puc-rio"],
              f"status counts the cells on datasets not in the mirror: {st}")
        dpf_run(dpforest, CONFIG, res)
        rc, out = run([PY, *SNAPSHOT, "--config", CONFIG, "--results", res, "--out", ref, "--dpforest", dpforest])
        check(rc == 0, f"snapshot written (exit {rc}): {out.strip()}")
        snap_csv = os.path.join(ref, "selftest", "verify-quick.csv")
        with open(snap_csv, newline="") as f:
            snap = list(csv.DictReader(f))
        check(len(snap) == 3 and all(r["n"] == "10" for r in snap), "3 cells of 10 tasks in the snapshot")
        # The committed copy names no folder of the machine that took it: a results root outside the
        # checkout is recorded as `results`, one inside it relative to the checkout.
        with open(os.path.join(ref, "selftest", "meta.yaml")) as f:
            meta_text = f.read()
        check("results_root: results\n" in meta_text and tmp not in meta_text,
              f"meta.yaml records a portable results root, not {res}")
        check(refmod.portable_root(os.path.join(ROOT, "out", "r"), ROOT) == os.path.join("out", "r")
              and refmod.portable_root("rel/results", ROOT) == "rel/results"
              and refmod.strip_root({"c": [f"make x RESULTS={res}", f"see {res}/a"]}, res, "results")
              == {"c": ["make x", "see results/a"]}, "portable_root and strip_root")
        cells = {r["label"]: r["cell"] for r in snap}

        # 2. A fresh run from scratch in another results root: identical.
        res2 = os.path.join(tmp, "results-rerun")
        dpf_run(dpforest, CONFIG, res2)
        rc, out = verify(dpforest, res2, ref)
        print(out)
        check(rc == 0 and "3 unchanged, 0 changed within fold noise, 0 flagged" in out, "rerun: every cell unchanged")
        # verify also runs the experiment itself when the results are missing.
        res2b = os.path.join(tmp, "results-empty")
        rc, out = verify(dpforest, res2b, ref)
        check(rc == 0 and "running" in out and "3 unchanged" in out, "verify runs a missing experiment, then unchanged")

        # 3. One cell's accuracy + 0.02 on every fold, in a copy of the results.
        res3 = os.path.join(tmp, "results-shifted")
        shutil.copytree(res, res3)
        table = os.path.join(res3, "selftest", "verify-quick", "results.csv")
        with open(table, newline="") as f:
            reader = csv.DictReader(f)
            header, rows = reader.fieldnames, list(reader)
        target = cells["DP-ERT (strict)"]
        for r in rows:
            if r["cell_id"] == target:
                r["accuracy"] = repr(float(r["accuracy"]) + 0.02)
        with open(table, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header)
            w.writeheader()
            w.writerows(rows)
        rc, out = verify(dpforest, res3, ref)
        print(out)
        fl = flagged_lines(out)
        check(rc == 1, f"shifted copy: exit 1 (got {rc})")
        check(len(fl) == 1 and target in fl[0] and "DP-ERT (strict)" in fl[0] and "+0.02" in fl[0],
              f"shifted copy: exactly the shifted cell flagged, with its mean change: {fl}")
        check("2 unchanged" in out, "shifted copy: the other two cells unchanged")

        # 4. A config change run through dpforest: DiPriMe's epsilon 2 -> 0.05.
        changed = os.path.join(tmp, "quick-eps.yaml")
        with open(CONFIG) as f:
            text = f.read()
        needle = "{name: dipreme, label: DiPriMe (strict), params: {epsilon: 2,"
        assert needle in text, "tests/reference/quick.yaml changed: update the test's epsilon edit"
        with open(changed, "w") as f:
            f.write(text.replace(needle, needle.replace("epsilon: 2,", "epsilon: 0.05,")))
        res4 = os.path.join(tmp, "results-eps")
        dpf_run(dpforest, changed, res4)
        rc, out = verify(dpforest, res4, ref, "--experiment", "verify-quick", "--config", changed)
        print(out)
        fl = flagged_lines(out)
        check(rc == 1, f"epsilon changed: exit 1 (got {rc})")
        check(len(fl) == 1 and "DiPriMe (strict)" in fl[0] and "epsilon 2 -> 0.05" in fl[0] and cells["DiPriMe (strict)"] in fl[0],
              f"epsilon changed: exactly DiPriMe's cell flagged, its parameter change named: {fl}")
        check("2 unchanged" in out, "epsilon changed: RF and DP-ERT unchanged")

        # 5. Another master seed: every value moves, but only by fold noise.
        reseeded = os.path.join(tmp, "quick-seed.yaml")
        with open(reseeded, "w") as f:
            f.write(text.replace("seed: 11", "seed: 12"))
        res5 = os.path.join(tmp, "results-seed")
        dpf_run(dpforest, reseeded, res5)
        rc, out = verify(dpforest, res5, ref, "--experiment", "verify-quick", "--config", reseeded, "--verbose")
        print(out)
        check(rc == 0 and "0 flagged" in out and "0 unchanged" in out, "another seed: every cell changed, none flagged")

        # 6. An incomplete run is refused, with what is finished and the command.
        res6 = os.path.join(tmp, "results-partial")
        shutil.copytree(res, res6)
        cdir = os.path.join(res6, "selftest", "verify-quick", "cells")
        for f in os.listdir(cdir):
            if f.startswith(target):
                os.remove(os.path.join(cdir, f))
        rc, out = run([PY, *SNAPSHOT, "--config", CONFIG, "--results", res6, "--out", os.path.join(tmp, "ref6"),
                       "--dpforest", dpforest])
        check(rc == 1 and "2 of 3 cells finished" in out and "NOT written" in out and " run " in out,
              f"incomplete results refused: {out.strip()}")
        rc, out = run([PY, *SNAPSHOT, "--config", CONFIG, "--results", res6, "--out", os.path.join(tmp, "ref6"),
                       "--dpforest", dpforest, "--allow-partial"])
        with open(os.path.join(tmp, "ref6", "selftest", "meta.yaml")) as f:
            meta6 = f.read()
        check(rc == 0 and "complete: false" in meta6, "--allow-partial writes complete: false")

        # 7. plots/common.py: the snapshot fallback and the unmerged-cells message.
        res7 = os.path.join(tmp, "results-plot")
        os.makedirs(os.path.join(res7, "selftest", "verify-quick"))
        shutil.copytree(ref, os.path.join(res7, "reference"))
        err = io.StringIO()
        with redirect_stderr(err):
            rows = common.load_rows(os.path.join(res7, "selftest", "verify-quick"))
        check("verify-quick: drawn from the reference snapshot" in err.getvalue(), f"fallback announced: {err.getvalue()!r}")
        with open(os.path.join(res, "selftest", "verify-quick", "results.csv"), newline="") as f:
            orig = list(csv.DictReader(f))
        ok = len(rows) == len(orig)
        for label in cells:
            for m in ("accuracy", "f1", "fit_seconds", "n_leaves"):
                a = [common.metric(r, m) for r in orig if r["label"] == label]
                b = [common.metric(r, m) for r in rows if r["label"] == label]
                ok = ok and len(a) == len(b) and math.isclose(statistics.mean(a), statistics.mean(b), rel_tol=1e-5, abs_tol=1e-9) \
                    and math.isclose(statistics.stdev(a), statistics.stdev(b), rel_tol=1e-5, abs_tol=1e-9)
        ok = ok and all(r["epsilon"] == "2" for r in rows if r["label"] == "DiPriMe (strict)")
        # Against the stored numbers themselves: mean and sd of the rebuilt values equal them (to rounding).
        for cell in snap:
            got = [float(r["accuracy"]) for r in rows if r["cell_id"] == cell["cell"]]
            ok = ok and math.isclose(statistics.mean(got), float(cell["accuracy"]), rel_tol=1e-12) \
                and math.isclose(statistics.stdev(got), float(cell["accuracy_sd"]), rel_tol=1e-12)
        for n in (2, 3, 7, 10):
            z = common._spread(n)
            ok = ok and len(z) == n and abs(statistics.mean(z)) < 1e-12 and math.isclose(statistics.stdev(z), 1.0)
        check(ok, "fallback rows: same n, means and sds per cell as the full results, parameters copied")
        # cells/ without results.csv: K of N finished and the real merge command.
        res8 = os.path.join(tmp, "results-unmerged")
        shutil.copytree(res6, res8)
        os.remove(os.path.join(res8, "selftest", "verify-quick", "results.csv"))
        err = io.StringIO()
        code = None
        with redirect_stderr(err):
            try:
                common.load_rows(os.path.join(res8, "selftest", "verify-quick"), dpforest=dpforest, config=CONFIG)
            except SystemExit as e:
                code = e.code
        msg = f"{err.getvalue()} {code}"
        check("2 of 3 cells finished" in msg and f"{dpforest} merge {CONFIG} --results {res8}" in msg,
              f"unmerged cells: K of N and the merge command: {msg!r}")
        published_from_snapshot(dpforest, tmp, res)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all reference checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
