"""Shared helpers of the figure and table modules. They read only the results table (design.md §2)."""
import argparse
import csv
import math
import os
import statistics
import sys
from collections import defaultdict

from plots import ROOT, module_name
from plots.mpl import plt  # noqa: F401  (the modules draw with common.plt)


def entry_parser(doc, paper, experiment):
    """The argparse parser of a figure or table module: one optional RESULT_DIR, by default
    results/<paper>/<experiment> (relative to the working directory, the repository root)."""
    ap = argparse.ArgumentParser(prog=f"python3 -m {module_name(paper, experiment)}", description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result_dir", nargs="?", default=f"results/{paper}/{experiment}", metavar="RESULT_DIR",
                    help=f"reads RESULT_DIR/results.csv and writes there (default results/{paper}/{experiment}; "
                         f"without results.csv the reference snapshot's rows)")
    return ap


def result_dir_arg(doc, paper, experiment, argv=None):
    """RESULT_DIR from the command line (argv: sys.argv[1:] when None)."""
    return entry_parser(doc, paper, experiment).parse_args(argv).result_dir


def load_rows(result_dir, dpforest=None, config=None):
    """The rows of <result_dir>/results.csv (results/<paper>/<experiment>).

    Without a results.csv: when the directory has finished cells (cells/*.csv) it says how many of the
    config's cells are finished and the `dpforest merge` command, and stops; when it has none and the
    reference snapshot results/reference/<paper>/<experiment>.csv exists, the rows are rebuilt from the
    snapshot (snapshot_rows) and one line on stderr says so. A results.csv that holds fewer cells than
    cells/ is drawn with a warning naming the merge command. dpforest / config default to
    build/dpforest and configs/<paper>/<experiment>.yaml of this checkout."""
    result_dir = os.path.normpath(result_dir)
    path = os.path.join(result_dir, "results.csv")
    experiment = os.path.basename(result_dir)
    paper = os.path.basename(os.path.dirname(result_dir))
    root = os.path.dirname(os.path.dirname(result_dir))
    dpforest = dpforest or _short(os.path.join(ROOT, "build", "dpforest"))
    config = config or _short(os.path.join(ROOT, "configs", paper, experiment + ".yaml"))
    finished = _finished_cells(result_dir)
    if not os.path.exists(path):
        if finished:
            sys.exit(f"{path}: no results table; {_cells_progress(len(finished), dpforest, config, root)}; "
                     f"run `{dpforest} merge {config} --results {root}`"
                     f" (add --allow-partial to draw the finished cells only)")
        snapshot = os.path.join(root, "reference", paper, experiment + ".csv")
        if os.path.exists(snapshot):
            print(f"{experiment}: drawn from the reference snapshot ({snapshot})", file=sys.stderr)
            os.makedirs(result_dir, exist_ok=True)  # the figure is written there
            return snapshot_rows(snapshot, paper, experiment)
        sys.exit(f"{path}: no results table; run the experiment first (make reproduce-{experiment} PAPER={paper})")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: the results table is empty")
    merged = {r.get("cell_id") for r in rows}
    if finished and not finished <= merged:
        print(f"{path}: warning: stale table, it holds {len(merged)} cells but cells/ has {len(finished | merged)} "
              f"finished; run `{dpforest} merge {config} --results {root}`", file=sys.stderr)
    return rows


def _short(path):
    """path relative to the working directory when it lies below it (build/dpforest from the checkout)."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _finished_cells(result_dir):
    """Cell ids with a finished cell file (cells/<id>.csv; pieces of split cells are not cells)."""
    d = os.path.join(result_dir, "cells")
    if not os.path.isdir(d):
        return set()
    return {f[:-4] for f in os.listdir(d) if f.endswith(".csv") and ".part-" not in f and not f.endswith(".tmp")}


def _cells_progress(k, dpforest, config, root):
    """'K of N cells finished', N from `dpforest status` (when the binary and config exist)."""
    import subprocess
    if os.access(dpforest, os.X_OK) and os.path.exists(config):
        p = subprocess.run([dpforest, "status", config, "--results", root], capture_output=True, text=True)
        for line in p.stdout.splitlines():
            line = line.strip()
            if line.startswith("cells:"):
                done, total = line.split()[1].split("/")
                return f"{done} of {total} cells finished"
    return f"{k} cells finished (total unknown: {dpforest} or {config} missing)"


def _spread(n):
    """n numbers with mean 0 and sample sd 1 (n >= 2): +-a pairs, and a 0 when n is odd."""
    half = n // 2
    a = math.sqrt((n - 1) / (2 * half))
    return [a] * half + [-a] * half + ([0.0] if n % 2 else [])


_INTEGER_COLUMNS = {"n_train", "n_test"}


def snapshot_rows(path, paper, experiment):
    """Per-task pseudo-rows rebuilt from a reference snapshot (plots/reference/reference.py): for each
    cell n rows; every metric column M gets n values whose mean and sample sd are the stored M and
    M_sd exactly (the stored text when the sd is 0 or undefined); the row counts n_train and n_test
    stay integers (exact mean, sd approximate); the other columns are copied."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        columns = reader.fieldnames or []
        cells = list(reader)
    metrics = [c for c in columns if c + "_sd" in columns]
    fixed = [c for c in columns if c not in metrics and not c.endswith("_sd") and c not in ("cell", "n")
             and not c.startswith("folds:")]
    rows = []
    for cell in cells:
        n = int(cell["n"])
        z = _spread(n) if n >= 2 else [0.0]
        for i in range(n):
            r = {"paper": paper, "experiment": experiment, "cell_id": cell["cell"], "repetition": str(i), "fold": "0"}
            for c in fixed:
                r[c] = cell[c]
            for m in metrics:
                mean, sd = _num(cell[m]), _num(cell[m + "_sd"])
                if math.isnan(mean):
                    r[m] = ""
                elif math.isnan(sd) or sd == 0:
                    r[m] = cell[m]  # the stored text: "1234" stays an integer for scripts that int() it
                elif m in _INTEGER_COLUMNS:
                    total = round(mean * n)  # row counts: integers with the exact mean (sd approximate)
                    r[m] = str(total // n + (1 if i < total - (total // n) * n else 0))
                else:
                    r[m] = repr(mean + sd * z[i % len(z)])
            rows.append(r)
    return rows


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def metric(row, name):
    """The row's value of a metric as the paper reported it.

    accuracy/error honour the l1_error reference quirk (DP-ERT scored by mean |y - p|, dipreme.md §3.6)."""
    quirks = (row.get("reference_quirks") or "").split(",")
    if "l1_error" in quirks and name in ("accuracy", "error"):
        l1 = float(row["l1_error"])
        return 1.0 - l1 if name == "accuracy" else l1
    v = row.get(name, "")
    return float(v) if v not in ("", "nan") else math.nan


def summarize(values):
    vals = [v for v in values if not math.isnan(v)]
    if not vals:
        return math.nan, math.nan, 0
    sd = statistics.stdev(vals) if len(vals) > 1 else 0.0
    return statistics.mean(vals), sd, len(vals)


def series(rows, metric_name, x_column, label_column="label"):
    """{label: [(x, mean, std, n), ...]} sorted by x; rows without the x column get x = None."""
    groups = defaultdict(list)
    for r in rows:
        x = r.get(x_column, "")
        groups[(r[label_column], float(x) if x not in ("", None) else None)].append(metric(r, metric_name))
    out = defaultdict(list)
    for (label, x), vals in groups.items():
        m, s, n = summarize(vals)
        out[label].append((x, m, s, n))
    for label in out:
        out[label].sort(key=lambda t: (t[0] is not None, t[0] or 0))
    return out


def save(fig, result_dir, stem):
    paths = []
    for ext in ("pdf", "png"):
        p = os.path.join(result_dir, f"{stem}.{ext}")
        fig.savefig(p, dpi=150, bbox_inches="tight")
        paths.append(p)
    print("wrote " + ", ".join(paths))


def plot_vs_x(ax, data, labels, styles, xs_for_flat):
    """Mean ± std of each label against x; labels without x (non-private) as flat lines with bands."""
    for label in labels:
        if label not in data:
            continue
        pts = data[label]
        style = styles.get(label, {})
        if len(pts) == 1 and pts[0][0] is None:
            _, m, s, _ = pts[0]
            line = ax.plot(xs_for_flat, [m] * len(xs_for_flat), label=label, **style)[0]
            ax.fill_between(xs_for_flat, m - s, m + s, color=line.get_color(), alpha=0.12)
            continue
        xs = [p[0] for p in pts]
        ms = [p[1] for p in pts]
        ss = [p[2] for p in pts]
        ax.errorbar(xs, ms, yerr=ss, label=label, capsize=3, **style)


def protocol_text(protocol):
    """A config's protocol in words, as `dpforest summarize` writes it (experiments/publish/summary.cpp):
    "5-fold CV × 2 repetitions", "10 random 90/10 splits", "3 fits evaluated on their training rows"."""
    kind = protocol.get("type", "holdout")
    reps = int(protocol.get("repetitions", 10))
    if kind == "kfold":
        return f"{int(protocol.get('folds', 10))}-fold CV" + (f" × {reps} repetitions" if reps > 1 else "")
    if kind == "resubstitution":
        return f"{reps} {'fit' if reps == 1 else 'fits'} evaluated on their training rows"
    test = round(100 * float(protocol.get("test_fraction", 0.1)))
    return f"{reps} random {100 - test}/{test} split" + ("" if reps == 1 else "s")


def experiment_protocol(result_dir):
    """The protocol of the experiment whose results are in result_dir: from the experiment.yaml its
    run wrote there, else from configs/<paper>/<experiment>.yaml of this checkout."""
    import yaml
    result_dir = os.path.normpath(result_dir)
    written = os.path.join(result_dir, "experiment.yaml")
    config = os.path.join(ROOT, "configs", os.path.basename(os.path.dirname(result_dir)),
                          os.path.basename(result_dir) + ".yaml")
    path = written if os.path.exists(written) else config
    with open(path) as f:
        return (yaml.safe_load(f) or {}).get("protocol") or {}


def two_panels_vs_epsilon(result_dir, stem, panels, styles, suptitle, xlabel="epsilon", ylabel=None):
    """Accuracy against epsilon (log x) in two panels sharing y, as the DiPriMe Banknote sweeps draw it.

    panels: [(series labels, title, title fontsize or None)] for panels (a) and (b); suptitle may hold
    "{n}", replaced by the number of repetitions in results.csv. The y label names the experiment's
    protocol (experiment_protocol) unless given."""
    if ylabel is None:
        ylabel = f"accuracy (mean ± std over {protocol_text(experiment_protocol(result_dir))})"
    rows = load_rows(result_dir)
    data = series(rows, "accuracy", "epsilon")
    eps = sorted({p[0] for pts in data.values() for p in pts if p[0] is not None})
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, (labels, title, fontsize) in zip(axes, panels):
        plot_vs_x(ax, data, labels, styles, eps)
        ax.set_title(title, **({"fontsize": fontsize} if fontsize else {}))
        ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    axes[0].set_ylabel(ylabel)
    fig.suptitle(suptitle.replace("{n}", str(len({r["repetition"] for r in rows}))))
    save(fig, result_dir, stem)


def fmt_pm(mean, sd, digits=4):
    if math.isnan(mean):
        return "—"
    return f"{mean:.{digits}g} ± {sd:.2g}"


def write_md_csv(result_dir, stem, md_lines, csv_rows, fieldnames):
    """Writes <stem>.md (the lines) and <stem>.csv (dict rows) into result_dir and prints the Markdown."""
    with open(os.path.join(result_dir, stem + ".md"), "w") as f:
        f.write("\n".join(md_lines) + "\n")
    with open(os.path.join(result_dir, stem + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fieldnames)
        w.writeheader()
        w.writerows(csv_rows)
    print("\n".join(md_lines))


def render_table(rows, result_dir, stem, metric_name, row_key="label", col_key="dataset", row_order=None,
                 col_order=None, digits=4, scale=None, title=None):
    """Mean ± std of `metric_name` per (row_key, col_key) as Markdown and CSV, like the papers' tables.

    scale: optional {column value: factor} (e.g. {"parkinsons-telemonitoring": 1e2}) to print in
    the papers' units; the factor is stated in the column header."""
    groups = defaultdict(list)
    for r in rows:
        groups[(r[row_key], r[col_key])].append(metric(r, metric_name))
    rks = row_order or sorted({k[0] for k in groups})
    cks = col_order or sorted({k[1] for k in groups})
    scale = scale or {}
    header = [row_key] + [c + (f" (×{1 / scale[c]:.0e})" if c in scale else "") for c in cks]
    md = []
    if title:
        md.append(f"**{title}** ({metric_name}, mean ± std)\n")
    md.append("| " + " | ".join(header) + " |")
    md.append("|" + "---|" * len(header))
    csv_rows = [["row", "column", "mean", "std", "n"]]
    for rk in rks:
        cells = [rk]
        for ck in cks:
            m, s, n = summarize(groups.get((rk, ck), []))
            f = scale.get(ck, 1.0)
            cells.append(fmt_pm(m * f, s * f, digits) if n else "—")
            csv_rows.append([rk, ck, "" if not n else repr(m), "" if not n else repr(s), str(n)])
        md.append("| " + " | ".join(cells) + " |")
    text = "\n".join(md) + "\n"
    with open(os.path.join(result_dir, stem + ".md"), "w") as f:
        f.write(text)
    with open(os.path.join(result_dir, stem + ".csv"), "w", newline="") as f:
        csv.writer(f).writerows(csv_rows)
    print(text)
    print(f"wrote {os.path.join(result_dir, stem)}.md and .csv")
    return text


def replace_marked_block(path, begin, end, block, check_only=False):
    """Replaces the text from `begin` to `end` (markers included; `block` carries them) in the file at
    `path`: README.md's generated blocks (fidelity, leaderboard). With check_only, returns whether the
    file already holds `block`; otherwise rewrites it atomically when it differs and returns True.
    ValueError when the markers are missing."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise ValueError(f"{path}: no '{begin}' ... '{end}' block")
    new = text[:i] + block + text[j + len(end):]
    if check_only:
        return new == text
    if new != text:
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(path + ".tmp", path)
    return True
