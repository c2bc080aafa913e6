"""The leaderboard's reading of the benchmark results (configs/benchmark/*.yaml): every (task, dataset,
label, epsilon) block of per-fold metrics, the blocks each results directory expects, failed cells with
their reasons, fit times, and the labels' groups ("[DP]", "[published]", "[non-private]")."""
import csv
import glob
import math
import os
import re
import statistics
import sys
from collections import defaultdict

from plots.common import metric


# ----------------------------------------------------------------------------------------------------------
# Labels

def group_of(label):
    """'dp', 'published', 'non-private' or 'other', from the label's trailing [...]."""
    m = re.search(r"\[([^\]]*)\]\s*$", label)
    tag = m.group(1).strip().lower() if m else ""
    if tag == "dp" or tag.startswith("dp,"):
        return "dp"
    if tag.startswith("published"):
        return "published"
    if tag.startswith("non-private"):
        return "non-private"
    if tag.startswith("oracle"):
        return "oracle"
    return "other"


TRACKS = ("paper", "private-selection")  # the DP tracks, each ranked on its own


def track_of(label):
    """The tuning track of a label: 'paper' (a "[DP]" label: paper settings), 'private-selection' ("[DP,
    private selection]": tuned by the epsilon-DP selection), 'oracle' ("[oracle, not DP]": tuned by
    non-private nested CV, an upper bound that is never ranked with the DP tracks), or None (reference and
    published labels)."""
    g = group_of(label)
    if g == "oracle":
        return "oracle"
    if g != "dp":
        return None
    return "private-selection" if "private selection" in label.lower() else "paper"


def short_name(label):
    """The label without its group bracket; a delta is kept: "Lumberjack [DP, delta 1e-6]" -> "Lumberjack (δ=1e-6)".
    The tuning track is dropped: "PrivaTree [DP, private selection]" -> "PrivaTree" (track_of says which)."""
    m = re.search(r"\s*\[([^\]]*)\]\s*$", label)
    if not m:
        return label
    base = label[: m.start()]
    d = re.search(r"delta\s*=?\s*([0-9.eE+-]+)", m.group(1))
    return f"{base} (δ={d.group(1)})" if d else base


def fmt_delta(d):
    """A delta as the configs write it in labels: 9.99999999999996e-07 -> "1e-6"."""
    m = re.fullmatch(r"([0-9.]+)e([+-])0*(\d+)", f"{d:.2g}")
    return f"{m.group(1)}e{'-' if m.group(2) == '-' else ''}{m.group(3)}" if m else f"{d:.2g}"


def delta_marked_labels(rows):
    """Label -> the same label with its delta in the bracket, for the DP and oracle labels whose rows spent a
    delta (the ledger's delta_apriori) but whose text does not say so: a tuned (epsilon, delta)-DP forest,
    "Lumberjack [DP, private selection]" -> "Lumberjack [DP, private selection, delta 1e-6]", so that it is
    marked like its paper-settings row and joins it in the tracks table."""
    deltas = defaultdict(float)
    for r in rows:
        try:
            deltas[r["label"]] = max(deltas[r["label"]], float(r.get("delta_apriori") or 0))
        except ValueError:
            pass
    out = {}
    for lab, d in deltas.items():
        m = re.search(r"\]\s*$", lab)
        if d > 0 and m and group_of(lab) in ("dp", "oracle") and not re.search(r"\[[^\]]*delta[^\]]*\]\s*$", lab):
            out[lab] = f"{lab[:m.start()]}, delta {fmt_delta(d)}]"
    return out


def fmt_eps(e):
    return "non-private" if e is None else f"{e:g}"


# ----------------------------------------------------------------------------------------------------------
# Reading

class Data:
    def __init__(self):
        self.values = defaultdict(dict)   # (task, dataset, label, eps) -> {(rep, fold): metric}
        self.expected = defaultdict(set)  # same key -> expected (rep, fold) pairs
        self.fit = defaultdict(list)      # label -> [(fit_seconds, n_train)]
        self.n_train = {}                 # dataset -> n_train (max over folds)
        self.binary = set()               # datasets whose rows report an AUC
        self.auc = defaultdict(list)      # (task, dataset, label, eps) -> AUC per fold (binary datasets)
        self.shape = {}                   # dataset -> (features, categorical features, classes) from the rows
        self.large = set()                # datasets of the large tier (a results directory named large*)
        self.task_of = {}                 # dataset -> task
        self.failures = {}                # (dataset, label, eps) -> reason
        self.status = defaultdict(set)    # label -> privacy_status values
        self.cpu = {}                     # results directory -> (tasks with a cpu_seconds, their sum)
        self.duplicates = 0
        self.rows = 0
        self.dirs = []


def parse_eps(s):
    s = (s or "").strip()
    return None if s in ("", "nan") else float(s)


def read_dirs(dirs):
    data = Data()
    for d in dirs:
        path = os.path.join(d, "results.csv")
        errors = sorted(glob.glob(os.path.join(d, "cells", "*.error")))
        if not os.path.exists(path):
            sys.exit(f"{path}: no results table; run the benchmark first (dpforest run configs/benchmark/...)")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows and not errors:
            sys.exit(f"{path}: the results table is empty")
        data.dirs.append((d, len(rows), len(errors)))
        pairs = {(int(r["repetition"]), int(r["fold"])) for r in rows}
        combos = defaultdict(set)  # task -> {(label, dataset, eps)} seen in this directory
        marked = delta_marked_labels(rows)
        for r in rows:
            data.rows += 1
            task, ds, lab, eps = r["task"], r["dataset"], marked.get(r["label"], r["label"]), parse_eps(r.get("epsilon"))
            name = "mse" if task == "regression" else "accuracy"
            key = (task, ds, lab, eps)
            pair = (int(r["repetition"]), int(r["fold"]))
            if pair in data.values[key]:
                data.duplicates += 1
                continue
            data.values[key][pair] = metric(r, name)
            if r.get("cpu_seconds", "") not in ("", "nan"):
                n_cpu, s_cpu = data.cpu.get(d, (0, 0.0))
                data.cpu[d] = (n_cpu + 1, s_cpu + float(r["cpu_seconds"]))
            data.task_of[ds] = task
            if os.path.basename(d).startswith("large"):
                data.large.add(ds)
            combos[task].add((lab, ds, eps))
            data.status[lab].add(r.get("privacy_status", ""))
            try:
                nt = int(float(r.get("n_train") or "nan"))
                data.n_train[ds] = max(nt, data.n_train.get(ds, 0))
            except ValueError:
                nt = None
            if r.get("n_features", "") not in ("", "nan"):
                # Binned copies (DP-RF, DP-DF) see every feature as categorical: the dataset's own count is
                # the smallest over its rows.
                shp = (int(r["n_features"]), int(r["n_categorical"]), int(r["n_classes"]))
                old = data.shape.get(ds)
                data.shape[ds] = shp if old is None else (shp[0], min(old[1], shp[1]), shp[2])
            fs = r.get("fit_seconds", "")
            if fs not in ("", "nan"):
                data.fit[lab].append((float(fs), nt))
            if task == "classification" and r.get("auc", "") not in ("", "nan"):
                data.binary.add(ds)
                data.auc[key].append(float(r["auc"]))
        # A failed cell's task is its dataset's; for a dataset with no rows anywhere, the directory's task.
        tally = defaultdict(int)
        for r in rows:
            tally[r["task"]] += 1
        dir_task = max(tally, key=tally.get) if tally else (
            "regression" if "regression" in os.path.basename(d) else "classification")
        for e in errors:
            with open(e) as f:
                lines = f.read().splitlines()
            parts = lines[0].split("|") if lines else []
            if len(parts) < 7:
                print(f"warning: {e}: unreadable failed-cell header, not counted", file=sys.stderr)
                continue
            lab, ds = marked.get(parts[2], parts[2]), parts[4]
            m = re.search(r"(?:^|;)epsilon=([^;]*)", parts[6])
            eps = parse_eps(m.group(1)) if m else None
            task = data.task_of.get(ds, dir_task)
            reason = lines[1].strip() if len(lines) > 1 else "(no reason given)"
            data.failures[(ds, lab, eps)] = reason
            combos[task].add((lab, ds, eps))
        # The expected grid of this directory: labels x datasets x epsilons x pairs, per task.
        for task, cs in combos.items():
            labs = {c[0] for c in cs}
            dss = {c[1] for c in cs}
            eps_priv = {c[2] for c in cs if c[2] is not None}
            for lab in labs:
                lab_eps = {c[2] for c in cs if c[0] == lab}
                eps_set = {None} if lab_eps == {None} else eps_priv
                for ds in dss:
                    for eps in eps_set:
                        data.expected[(task, ds, lab, eps)] |= pairs
    return data


# ----------------------------------------------------------------------------------------------------------
# Queries

def tasks(data):
    return sorted({k[0] for k in data.expected})


def datasets_of(data, task):
    ds = {k[1] for k in data.expected if k[0] == task}
    return sorted(ds, key=lambda d: (data.n_train.get(d, 0), d))


def labels_of(data, task, group=None, track=None):
    labs = sorted({k[2] for k in data.expected if k[0] == task})
    return [lab for lab in labs if (group is None or group_of(lab) == group) and (track is None or track_of(lab) == track)]


def epsilons_of(data, task):
    return sorted({k[3] for k in data.expected if k[0] == task and k[3] is not None})


def mean_of(vals):
    v = [x for x in vals.values() if not math.isnan(x)] if vals else []
    return statistics.mean(v) if v else math.nan


def scopes(data, task):
    """("all", the datasets of the task outside the large tier), for classification ("binary", the binary ones
    among them) when it differs, and ("large", the large tier's datasets: results directories named large*,
    fewer folds, ranked apart so that methods built for large data are judged there)."""
    every = datasets_of(data, task)
    ds = [d for d in every if d not in data.large]
    out = [("all", ds)] if ds else []
    if task == "classification":
        b = [d for d in ds if d in data.binary]
        if b and len(b) < len(ds):
            out.append(("binary", b))
    large = [d for d in every if d in data.large]
    if large:
        out.append(("large", large))
    return out
