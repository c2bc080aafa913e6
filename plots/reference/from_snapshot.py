"""published.json from the reference snapshot alone (snapshot.py --published-only without full results).

`dpforest check-published` reads results.csv tables. The snapshot keeps, per cell, the parameters, n,
the mean and sd of every metric and the per-task values of the primary metric in (repetition, fold)
order (reference.py). What each part of the check needs, and what the snapshot gives:

  numbers  the mean (and sd, n) of a metric over the rows a selector picks. Selectors name parameter
           columns, constant within a cell, so the rows are whole cells; the pooled mean and sd of
           whole cells follow from each cell's n, mean and sd. Rebuilt rows with those per-cell means
           and sds (plots/common.py's spread) give the same pooled values. Exact up to the snapshot's
           6 significant digits, except that a metric that is undefined (NaN) on some tasks has its
           mean over the defined ones while n counts them all: only the primary metric's per-task
           values show which ones.
  argmax   per-value means of a series: as numbers.
  paired   per-fold differences of two series (their mean, the sds of the paired values, the
           Wilcoxon signed-rank p). The snapshot keeps per-fold values of the primary metric only, and
           to 6 significant digits: accuracies k/n_test that differ in the 7th digit make fold
           differences that tie at full precision (ranks averaged) stop tying, which moves p. Tried on
           the committed snapshots: dipreme-v1's fig4-dpdf-underperforms p 0.139 -> 0.123,
           multinomial-rf's fig5-car-significant rule text "p 0.71" -> "p 0.7". So no paired claim is
           recomputed.

Every number and argmax claim is recomputed from rebuilt rows (on the committed snapshots of all seven
papers: the same verdicts, means, sds and n as the full-results published.json; the {delta}
placeholder of an explanation can differ in its 4th significant digit). Every paired claim keeps the
verdict, measurement and rules the snapshot's published.json records, provided its definition
(everything but id, source, statement and explanation) is the one they were computed from: that
definition is read from the published.yaml version whose sha256 published.json records (the file
itself, or its git history). Otherwise the rewrite is refused, naming the claim and the experiments
to rerun in full.
"""
import csv
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

import yaml

from plots.reference import reference as ref

COMPUTED_CLAIM_FIELDS = ("verdict", "effect", "p", "measured", "rules", "missing")
TEXT_CLAIM_KEYS = {"id", "source", "statement", "explanation"}


def _spread(n):
    """n numbers with mean 0 and sample sd 1 (n >= 2), as plots/common.py draws snapshot rows."""
    half = n // 2
    a = ((n - 1) / (2 * half)) ** 0.5
    return [a] * half + [-a] * half + ([0.0] if n % 2 else [])


def rebuild_experiment(snapshot_csv, paper, experiment, out_csv):
    """Writes per-task rows rebuilt from one snapshot CSV: every metric with the cell's mean and sd,
    the primary metric with its stored per-task values (which also say where it is undefined)."""
    columns, cells, primary, metrics = ref.read_snapshot(snapshot_csv)
    fixed = [c for c in columns if c not in metrics and not c.endswith("_sd") and c not in ("cell", "n")
             and not c.startswith(ref.FOLDS_PREFIX)]
    header = ["paper", "experiment", "cell_id", "repetition", "fold"] + fixed + metrics
    rows = []
    for cell in cells:
        n = int(cell["n"])
        z = _spread(n) if n >= 2 else [0.0]
        folds = (cell.get(ref.FOLDS_PREFIX + primary) or "").split() if primary else []
        for i in range(n):
            r = {"paper": paper, "experiment": experiment, "cell_id": cell["cell"], "repetition": str(i), "fold": "0"}
            for c in fixed:
                r[c] = cell[c]
            for m in metrics:
                if m == primary and len(folds) == n:
                    r[m] = "" if folds[i] == "nan" else folds[i]
                    continue
                mean, sd = ref.as_float(cell[m]), ref.as_float(cell[m + "_sd"])
                r[m] = "" if mean != mean else cell[m] if (sd != sd or sd == 0) else repr(mean + sd * z[i % len(z)])
            rows.append(r)
    os.makedirs(os.path.dirname(out_csv), exist_ok=True)
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def _listed(v):
    return v if isinstance(v, list) else [v]


def claims_needing_folds(claims):
    """{claim id: reason} for the claims the snapshot cannot recompute: the paired ones."""
    return {str(c.get("id")): "a paired claim needs per-fold values at full precision, which the snapshot does not keep"
            for c in claims or [] if c.get("type") == "paired"}


def _definition(claim):
    return json.dumps({k: v for k, v in claim.items() if k not in TEXT_CLAIM_KEYS}, sort_keys=True, default=str)


def recorded_yaml(pub_path, sha):
    """The text of the published.yaml whose sha256 is `sha`: the file itself or a version in git."""
    with open(pub_path, "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() == sha:
            with open(pub_path) as g:
                return g.read()
    d, name = os.path.split(os.path.abspath(pub_path))
    p = subprocess.run(["git", "-C", d, "log", "--format=%H", "--", name], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    top = subprocess.run(["git", "-C", d, "rev-parse", "--show-prefix"], capture_output=True, text=True).stdout.strip()
    for commit in p.stdout.split():
        s = subprocess.run(["git", "-C", d, "show", f"{commit}:{top}{name}"], capture_output=True)
        if s.returncode == 0 and hashlib.sha256(s.stdout).hexdigest() == sha:
            return s.stdout.decode()
    return None


def _recount(doc):
    c = doc["counts"]
    c["claims_hold"] = sum(1 for e in doc["claims"] if e["verdict"] == "holds")
    c["claims_fail"] = sum(1 for e in doc["claims"] if e["verdict"] == "fails")
    c["claims_no_data"] = sum(1 for e in doc["claims"] if e["verdict"] == "no data")


def _agrees(a, b, rel):
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= rel * max(1.0, abs(a), abs(b))


def keep_full_precision(doc, old):
    """Where a number's measurement agrees with the recorded one to the snapshot's 6 significant
    digits (same selector and n), keep the recorded full-precision mean, sd and delta: they came from
    the full results, and the rebuilt values differ from them only by the snapshot's rounding."""
    before = {e["id"]: e for e in (old or {}).get("numbers", [])}
    for e in doc["numbers"]:
        o = before.get(e["id"])
        if not o:
            continue
        same = True
        for s in ("paper_method", "with_quirks", "strict"):
            x, y = (e.get("ours") or {}).get(s), (o.get("ours") or {}).get(s)
            if x is None or y is None:
                same = same and x is None and y is None
                continue
            same = same and x.get("selector") == y.get("selector") and x.get("n") == y.get("n") \
                and (x.get("mean") == y.get("mean") or _agrees(x.get("mean"), y.get("mean"), 2e-5)) \
                and (x.get("sd") == y.get("sd") or _agrees(x.get("sd"), y.get("sd"), 1e-4))
        if not same or not (e.get("delta") == o.get("delta") or _agrees(e.get("delta"), o.get("delta"), 2e-5)):
            continue
        for s in ("paper_method", "with_quirks", "strict"):
            if e["ours"].get(s) is not None:
                e["ours"][s]["mean"], e["ours"][s]["sd"] = o["ours"][s]["mean"], o["ours"][s]["sd"]
        e["delta"] = o.get("delta")


def published_from_snapshot(dpforest, configs_root, ref_dir, paper, cwd=None):
    """(doc, None) with published.json recomputed from the snapshot in ref_dir, or (None, why)."""
    pub = os.path.join(configs_root, paper, "published.yaml")
    old_path = os.path.join(ref_dir, "published.json")
    meta_path = os.path.join(ref_dir, "meta.yaml")
    if not os.path.exists(meta_path):
        return None, f"{ref_dir} holds no snapshot (meta.yaml)"
    with open(meta_path) as f:
        experiments = (yaml.safe_load(f) or {}).get("experiments") or {}
    old = None
    if os.path.exists(old_path):
        with open(old_path) as f:
            old = json.load(f)
    with open(pub) as f:
        new_yaml = yaml.safe_load(f) or {}
    tmp = tempfile.mkdtemp(prefix="dpf-published-from-snapshot-")
    try:
        for experiment in experiments:
            csv_path = os.path.join(ref_dir, experiment + ".csv")
            if os.path.exists(csv_path):
                rebuild_experiment(csv_path, paper, experiment, os.path.join(tmp, paper, experiment, "results.csv"))
        out = os.path.join(tmp, "published.json")
        p = subprocess.run([dpforest, "check-published", pub, "--results", tmp, "--json", out],
                           capture_output=True, text=True, cwd=cwd)
        if p.returncode != 0:
            return None, f"{dpforest} check-published {pub} failed (exit {p.returncode}): {p.stderr.strip()}"
        with open(out) as f:
            doc = json.load(f)
        doc = ref.strip_root(doc, tmp, (old or {}).get("results_root", "results"))
        keep_full_precision(doc, old)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    needing = claims_needing_folds(new_yaml.get("claims"))
    if needing:
        previous = {}
        sha = (old or {}).get("published_yaml_sha256")
        text = recorded_yaml(pub, sha) if sha else None
        if text is not None:
            previous = {str(c.get("id")): c for c in (yaml.safe_load(text) or {}).get("claims") or []}
        old_entries = {e["id"]: e for e in (old or {}).get("claims", [])}
        current = {str(c.get("id")): c for c in new_yaml.get("claims") or []}
        refused = []
        for cid, why in needing.items():
            before = previous.get(cid)
            if before is None or cid not in old_entries or _definition(before) != _definition(current[cid]):
                state = ("its definition changed since the snapshot's verdicts" if before is not None else
                         "the published.yaml the snapshot's verdicts came from was not found" if text is None else
                         "it is new since the snapshot's verdicts")
                exps = ", ".join(sorted({str(e) for e in _listed(current[cid].get("experiment"))}))
                refused.append(f"claim {cid}: {why}, and {state}: rerun {exps} in full")
                continue
            for e in doc["claims"]:
                if e["id"] == cid:
                    for k in COMPUTED_CLAIM_FIELDS:
                        e[k] = old_entries[cid].get(k)
        if refused:
            return None, "; ".join(refused)
        _recount(doc)
    doc["verdicts_from"] = "the reference snapshot's per-cell summaries (snapshot.py --published-only)"
    return doc, None
