"""The reference snapshot (README.md "Reference snapshot and verify"): one compact summary per
experiment of a full run, kept in git under results/reference/<paper>/, and what snapshot.py, verify.py
and plots/common.py share to read and write it.

<experiment>.csv has one row per finished cell, in the order of results.csv (the config's order):
cell, label, algorithm, dataset, the columns constant within the cell (swept and resolved parameters),
n, then for every metric column M its mean `M` and sample sd `M_sd` over the cell's tasks (6
significant digits, "nan" when undefined), then `folds:<primary>`: the primary metric of every task in
(repetition, fold) order, space separated, 6 significant digits. Folds and seeds come from task
coordinates, so two runs of a cell are paired fold by fold (design.md §5).
"""
import csv
import math
import os
import subprocess
from collections import OrderedDict

# Task identity, run bookkeeping and the lead columns: never summarised as parameters or metrics.
IDENTITY = {"paper", "experiment", "cell_id", "task", "repetition", "fold", "seed"}
RUN_INFO = {"git_commit", "threads", "host", "started_at"}
LEAD = ["label", "algorithm", "dataset"]
# Metrics even where a cell has one task (and so nothing varies within it): the results schema's
# measured columns (design.md §7, README "Result files").
KNOWN_METRICS = {"accuracy", "error", "l1_error", "auc", "f1", "mse", "rmse", "mae", "r2", "value",
                 "epsilon_spent", "epsilon_spent_conservative", "delta_spent", "fit_seconds",
                 "predict_seconds", "n_leaves", "empty_leaf_fraction", "mean_tree_depth", "n_train", "n_test"}
PRIMARY_ORDER = ["accuracy", "error", "rmse", "mse", "l1_error", "value"]
FOLDS_PREFIX = "folds:"


def file_sha256(path):
    """sha256 of a file's bytes (published.json records the published.yaml its verdicts came from)."""
    import hashlib
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def published_json_is_current(published_json_doc, published_yaml):
    """(True, "") when the snapshot's verdicts were made with this published.yaml, else (False, why)."""
    recorded = (published_json_doc or {}).get("published_yaml_sha256")
    if not os.path.exists(published_yaml):
        return True, ""
    if not recorded:
        return False, "records no published.yaml hash (written before the hash was kept)"
    if recorded != file_sha256(published_yaml):
        return False, f"was made with another {published_yaml} (edited since)"
    return True, ""


def g6(x):
    """6 significant digits, 'nan' for an undefined value (the snapshot's number format)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "nan"
    return f"{x:.6g}"


def as_float(v):
    """A results cell as a number (NaN when empty, 'nan' or not a number)."""
    if v in (None, "", "nan", "NaN"):
        return math.nan
    try:
        return float(v)
    except ValueError:
        return math.nan


def is_number_text(v):
    if v in ("", "nan", "NaN", "inf", "-inf"):
        return True
    try:
        float(v)
        return True
    except ValueError:
        return False


def mean_sd(values):
    vals = [v for v in values if not math.isnan(v)]
    if not vals:
        return math.nan, math.nan
    m = math.fsum(vals) / len(vals)
    if len(vals) < 2:
        return m, math.nan
    return m, math.sqrt(math.fsum((v - m) ** 2 for v in vals) / (len(vals) - 1))


def read_csv(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        return list(r.fieldnames or []), list(r)


def task_order(row):
    def num(v):
        try:
            return int(v)
        except (TypeError, ValueError):
            return 0
    return num(row.get("repetition")), num(row.get("fold"))


def group_cells(header, rows):
    """OrderedDict cell id -> rows (in (repetition, fold) order), cells in first-seen order. A table
    without cell_id (a formula table) has one cell per row, named row-<i>."""
    cells = OrderedDict()
    for i, r in enumerate(rows):
        cid = r.get("cell_id") if "cell_id" in header else f"row-{i}"
        cells.setdefault(cid, []).append(r)
    for cid in cells:
        cells[cid].sort(key=task_order)
    return cells


def classify(header, cells):
    """(parameter columns, metric columns, dropped columns) of one results table.

    A metric is a known measured column, or a numeric column that varies within some cell; a
    parameter is constant within every cell; a text column that varies (per-leaf lists recorded with
    `record:`) cannot be summarised by a mean and is dropped (listed in meta.yaml)."""
    params, metrics, dropped = [], [], []
    for c in header:
        if c in IDENTITY or c in RUN_INFO or c in LEAD:
            continue
        varies = any(len({r.get(c, "") for r in rs}) > 1 for rs in cells.values())
        numeric = all(is_number_text(r.get(c, "")) for rs in cells.values() for r in rs)
        if c in KNOWN_METRICS and numeric:
            metrics.append(c)
        elif not varies:
            params.append(c)
        elif numeric:
            metrics.append(c)
        else:
            dropped.append(c)
    return params, metrics, dropped


def primary_metric(metrics, cells):
    for m in PRIMARY_ORDER:
        if m in metrics and any(not math.isnan(as_float(r.get(m))) for rs in cells.values() for r in rs):
            return m
    return metrics[0] if metrics else None


def summarize_table(header, rows):
    """The snapshot of one results table: (columns, list of row dicts, info dict)."""
    cells = group_cells(header, rows)
    params, metrics, dropped = classify(header, cells)
    primary = primary_metric(metrics, cells)
    columns = ["cell"] + LEAD + params + ["n"]
    for m in metrics:
        columns += [m, m + "_sd"]
    if primary:
        columns.append(FOLDS_PREFIX + primary)
    out = []
    for cid, rs in cells.items():
        row = {"cell": cid}
        for c in LEAD + params:
            row[c] = rs[0].get(c, "")
        row["n"] = str(len(rs))
        for m in metrics:
            mu, sd = mean_sd([as_float(r.get(m)) for r in rs])
            row[m], row[m + "_sd"] = g6(mu), g6(sd)
        if primary:
            row[FOLDS_PREFIX + primary] = " ".join(g6(as_float(r.get(primary))) for r in rs)
        out.append(row)
    commits = sorted({r.get("git_commit", "") for r in rows if r.get("git_commit")})
    info = {"primary_metric": primary, "metric_columns": metrics, "parameter_columns": params,
            "dropped_columns": dropped, "results_git_commits": commits,
            "cells_in_table": len(cells), "tasks_in_table": len(rows)}
    return columns, out, info


def write_snapshot_csv(path, columns, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def read_snapshot(path):
    """(columns, rows, primary metric, metric columns) of a snapshot CSV."""
    columns, rows = read_csv(path)
    folds = [c for c in columns if c.startswith(FOLDS_PREFIX)]
    primary = folds[0][len(FOLDS_PREFIX):] if folds else None
    metrics = [c[:-3] for c in columns if c.endswith("_sd") and c[:-3] in columns]
    return columns, rows, primary, metrics


def fold_values(row, primary):
    return [as_float(x) for x in (row.get(FOLDS_PREFIX + primary) or "").split()]


def strip_root(value, root, label):
    """`value` (a string, or lists and dicts of them) with the results root `root` made portable: a
    command's ` RESULTS=<root>` is dropped (the command then targets the default results/), and any
    other mention of `root` becomes `label`."""
    if isinstance(value, str):
        return value.replace(" RESULTS=" + root, "").replace(root, label)
    if isinstance(value, list):
        return [strip_root(v, root, label) for v in value]
    if isinstance(value, dict):
        return {k: strip_root(v, root, label) for k, v in value.items()}
    return value


def portable_root(results_root, checkout):
    """How a snapshot records its results root: as given when relative, relative to the checkout when
    inside it, else `results` (a folder elsewhere on the machine that took the snapshot means nothing
    to a reader of the committed copy, who reruns into the default results/)."""
    if not os.path.isabs(results_root):
        return results_root
    rel = os.path.relpath(os.path.realpath(results_root), os.path.realpath(checkout))
    return "results" if rel == ".." or rel.startswith(".." + os.sep) else rel


def experiment_status(dpforest, config, results_root):
    """Progress of a config's run from `dpforest status`: dict(cells_done, cells_total, tasks_done,
    tasks_total), or {"formula": True} for a formula table (complete once results.csv exists)."""
    p = subprocess.run([dpforest, "status", config, "--results", results_root], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{dpforest} status {config} failed (exit {p.returncode}): {p.stderr.strip()}")
    st = None
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("a formula table"):
            return {"formula": True}
        if line.startswith("cells:"):
            # cells: 3/100 done (3%); tasks: 30/1000 done (3%); ...
            parts = line.replace(";", " ").split()
            cd, ct = parts[1].split("/")
            td, tt = parts[parts.index("tasks:") + 1].split("/")
            st = {"cells_done": int(cd), "cells_total": int(ct), "tasks_done": int(td), "tasks_total": int(tt),
                  "cells_unavailable": 0, "unavailable_datasets": [], "excluded": []}
        elif line.startswith("not runnable here:") and st is not None:
            # not runnable here: 72 cells (datasets the offline mirror does not hold: higgs, puc-rio)
            st["cells_unavailable"] = int(line.split()[3])
            st["unavailable_datasets"] = [d.strip() for d in line.rsplit(":", 1)[1].rstrip(")").split(",")]
        elif line.startswith("excluded by the config:") and st is not None:
            # excluded by the config: 'label' on dataset: reason (the config's exclude_datasets; no cells)
            st["excluded"].append(line.split(":", 1)[1].strip())
    if st is None:
        raise RuntimeError(f"{dpforest} status {config}: unexpected output:\n{p.stdout}")
    return st


def completeness(dpforest, config, results_root, result_dir):
    """(complete, counts dict, problem text or None) of one experiment's results directory: complete
    when every cell of the config is finished AND results.csv holds every task of them (a results.csv
    older than the cells, or missing, needs `dpforest merge`)."""
    csv_path = os.path.join(result_dir, "results.csv")
    st = experiment_status(dpforest, config, results_root)
    header, rows = read_csv(csv_path) if os.path.exists(csv_path) else ([], [])
    merge = f"{dpforest} merge {config} --results {results_root}"
    if st.get("formula"):
        counts = {"cells_done": len(rows), "cells_total": len(rows), "tasks_done": len(rows), "tasks_total": len(rows)}
        if not rows:
            return False, counts, f"{csv_path} is missing: run `{dpforest} run {config} --results {results_root}`"
        return True, counts, None
    counts = dict(st)
    cells_in_csv = len({r.get("cell_id") for r in rows})
    counts["cells_in_table"], counts["tasks_in_table"] = cells_in_csv, len(rows)
    # Cells on a dataset the offline mirror does not hold can never run from it: the results are
    # complete when every other cell is finished (meta.yaml names the datasets and the cells left out).
    runnable = st["cells_total"] - st["cells_unavailable"]
    if st["cells_done"] < runnable:
        more = (f"; {st['cells_unavailable']} more cannot run from the mirror ({', '.join(st['unavailable_datasets'])})"
                if st["cells_unavailable"] else "")
        return False, counts, (f"{st['cells_done']} of {runnable} cells finished ({st['tasks_done']} of "
                               f"{st['tasks_total']} tasks{more}): run `{dpforest} run {config} --results {results_root}` "
                               f"to finish it")
    if not rows:
        return False, counts, f"every cell is finished but {csv_path} is missing: run `{merge}`"
    if cells_in_csv < st["cells_done"] or len(rows) < st["tasks_done"]:
        return False, counts, (f"{csv_path} holds {cells_in_csv} of {st['cells_done']} finished cells ({len(rows)} of "
                               f"{st['tasks_done']} tasks) (stale): run `{merge}`")
    return True, counts, None


def config_paths(configs_root, paper):
    d = os.path.join(configs_root, paper)
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, f) for f in sorted(os.listdir(d))
            if f.endswith(".yaml") and f != "published.yaml"]


def config_identity(path):
    """(paper, experiment) of an experiment config, read from its YAML; None for another YAML file
    (configs/audit holds audit matrices, not experiments)."""
    import yaml
    with open(path) as f:
        doc = yaml.safe_load(f)
    if not isinstance(doc, dict) or "paper" not in doc or "experiment" not in doc:
        return None
    return str(doc["paper"]), str(doc["experiment"])
