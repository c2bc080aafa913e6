"""The drawing half of the fidelity report: the paper's own plot module per experiment, run on a temporary
copy of the layout, and the chart of published values against ours. Both run in forked workers (two at a
time by default) that inherit an already imported matplotlib: on a 2-core machine matplotlib's start-up,
not the drawing, is what a process per script would cost."""
import contextlib
import glob
import importlib
import io
import math
import multiprocessing
import os
import signal
import time
import traceback

from plots.mpl import matplotlib, plt


def stage(tmp, paper, exp, source):
    """Lays out tmp/<paper>/<exp>/ (results.csv linked for fresh data) and tmp/reference/<paper>/<exp>.csv
    (linked for snapshot data, where plots/common.py's load_rows falls back to it). Returns the result dir."""
    d = os.path.join(tmp, paper, exp)
    os.makedirs(d, exist_ok=True)
    if source["kind"] in ("fresh", "partial"):
        os.symlink(os.path.abspath(source["path"]), os.path.join(d, "results.csv"))
    elif source["kind"] == "snapshot":
        rd = os.path.join(tmp, "reference", paper)
        os.makedirs(rd, exist_ok=True)
        os.symlink(os.path.abspath(source["path"]), os.path.join(rd, exp + ".csv"))
    return d


_savefig = matplotlib.figure.Figure.savefig


def _png_only(fig, fname, *args, **kwargs):
    """Figure.savefig inside the report's workers: the page embeds PNGs, so the scripts' PDFs (a third
    of their time) are not written."""
    if isinstance(fname, str) and fname.lower().endswith(".pdf"):
        return None
    return _savefig(fig, fname, *args, **kwargs)


def run_module(entry, result_dir):
    """Runs a plot module's main ("plots.<package>.<module>:main") on result_dir, as
    `python3 -m plots.<package>.<module> result_dir` would, in this (forked) process, without writing its
    PDFs. Returns (ok, log): ok is False when it raised or exited non-zero."""
    matplotlib.figure.Figure.savefig = _png_only
    out = io.StringIO()
    ok = True
    module, _, function = entry.partition(":")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            getattr(importlib.import_module(module), function or "main")([result_dir])
        except SystemExit as e:
            if e.code not in (None, 0):
                ok = False
                if not isinstance(e.code, int):
                    print(e.code)
        except Exception:  # noqa: BLE001 - a broken module is shown in the page, not fatal
            ok = False
            traceback.print_exc(limit=4)
    plt.close("all")
    return ok, out.getvalue()


def outputs(result_dir):
    """(png paths, md paths) a script wrote, sorted."""
    return sorted(glob.glob(os.path.join(result_dir, "*.png"))), sorted(glob.glob(os.path.join(result_dir, "*.md")))


# ---------------------------------------------------------------------------------------------------
# Published vs ours


def _num(v):
    try:
        x = float(v)
        return x if math.isfinite(x) else None
    except (TypeError, ValueError):
        return None


def chart_points(entries):
    """Panels of points for the chart. Each entry: the number's JSON entry with its YAML (selectors).
    x is the swept column (epsilon first, else another numeric selector column with >= 2 values, else
    a category per label); a panel per (metric, dataset and the other selector columns)."""
    sels = [e["yaml"].get("paper_method") or {} for e in entries]
    numeric = sorted({k for s in sels for k, v in s.items() if k != "label" and _num(v) is not None})

    def sweeps(k):
        """How many series (the selector without k) hold >= 2 values of k: k is swept within a series."""
        groups = {}
        for s in sels:
            if _num(s.get(k)) is None:
                continue
            rest = tuple(sorted((a, str(b)) for a, b in s.items() if a != k))
            groups.setdefault(rest, set()).add(_num(s[k]))
        return sum(1 for v in groups.values() if len(v) >= 2)

    score = {k: sweeps(k) for k in numeric}
    if score.get("epsilon", 0) > 0:
        xkey = "epsilon"
    else:
        cand = sorted((k for k in numeric if score[k] > 0), key=lambda k: (-score[k], k))
        xkey = cand[0] if cand else None
    panels = {}
    for e, s in zip(entries, sels):
        pkey = (str(e.get("metric", "")),) + ((f"dataset={s['dataset']}",) if "dataset" in s else ())
        p = panels.setdefault(pkey, {"series": {}})
        rest = [f"{k}={s[k]}" for k in sorted(s) if k not in ("label", "dataset", xkey)]
        if "label" in s:
            label = str(s["label"]) + (f" ({', '.join(rest)})" if rest else "")
        else:  # a formula table: the other columns name the series
            label = ", ".join(rest) or str(e["id"])
        x = _num(s.get(xkey)) if xkey else None
        p["series"].setdefault(label, []).append((x, e))
    return xkey, panels


def draw_chart(entries, out_png, title):
    """Paper values (black diamonds; a bar for a printed ±) and ours (mean ± sd: paper method, with quirks,
    strict, side by side) per panel. Returns the number of points drawn."""
    xkey, panels = chart_points(entries)
    items = sorted(panels.items())
    n = len(items)
    maxp = 24
    shown = items[:maxp]
    ncol = min(3, len(shown)) or 1
    nrow = max(1, math.ceil(len(shown) / ncol))
    all_labels = []
    for _, p in shown:
        for label in p["series"]:
            if label not in all_labels:
                all_labels.append(label)
    # A fixed layout: tight_layout and bbox_inches="tight" measure every tick label and took most of
    # the time of a chart with many panels.
    leg_cols = 4 if max((len(lb) for lb in all_labels), default=0) <= 30 else 2
    leg_rows = math.ceil(len(all_labels) / leg_cols)
    head, foot, row_h = 0.9, 0.25 + 0.2 * leg_rows, 3.4
    height = head + foot + row_h * nrow
    fig, axes = plt.subplots(nrow, ncol, figsize=(max(5.2 * ncol, 9.0), height), squeeze=False)
    fig.subplots_adjust(left=0.07, right=0.98, top=1 - head / height, bottom=(foot + 0.9) / height,
                        hspace=0.75, wspace=0.25)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    kinds = [("paper_method", "o", "ours"), ("with_quirks", "s", "ours, quirks"), ("strict", "^", "ours, strict")]
    drawn = 0
    for ax, (pkey, p) in zip(axes.flat, shown):
        labels = list(p["series"])
        cats = {}
        pxs = [x for pts in p["series"].values() for x, _ in pts if x is not None]
        swept = bool(xkey and pxs)  # else one category per series
        logx = swept and min(pxs) > 0 and max(pxs) / min(pxs) > 20
        span = (max(pxs) - min(pxs)) if swept and max(pxs) > min(pxs) else 1.0
        for label in labels:
            color = colors[all_labels.index(label) % len(colors)]
            pts = sorted(p["series"][label], key=lambda t: (t[0] is None, t[0] or 0))
            paper = ([], [], [])  # x, value, spread
            ours = {k: ([], [], []) for k, _, _ in kinds}  # x, mean, sd
            for j, (x, e) in enumerate(pts):
                value = _num(e.get("value"))
                if value is None:
                    continue
                o_all = e.get("ours") if isinstance(e.get("ours"), dict) else {}
                if swept and x is None:
                    # no value of the swept column (a non-private baseline): flat lines across the panel
                    ax.axhline(value, color="black", ls=":", lw=1.2)
                    o = o_all.get("paper_method")
                    if isinstance(o, dict) and _num(o.get("mean")) is not None:
                        ax.axhline(_num(o["mean"]), color=color, ls="--", lw=1.2)
                    drawn += 1
                    continue
                if x is None:
                    x = cats.setdefault((label, j), len(cats))
                paper[0].append(x)
                paper[1].append(value)
                paper[2].append(_num(e.get("spread")) or 0.0)
                for ki, (k, _, _) in enumerate(kinds):
                    o = o_all.get(k)
                    if not isinstance(o, dict) or _num(o.get("mean")) is None:
                        continue
                    off = (ki - 1) * 0.06  # ours beside the paper's marker, the three variants apart
                    ours[k][0].append(x * (1 + off) if logx else x + (off - 0.06) * (span * 0.3 if swept else 1.5))
                    ours[k][1].append(_num(o["mean"]))
                    ours[k][2].append(_num(o.get("sd")) or 0.0)
            # one errorbar call per series and kind: a call per point costs seconds on a large table
            if paper[0]:
                ax.errorbar(paper[0], paper[1], yerr=paper[2] if any(paper[2]) else None, fmt="D", color="black",
                            markersize=7, mfc="none", mew=1.6, capsize=3, zorder=5, ls="none")
                drawn += len(paper[0])
            for k, marker, _ in kinds:
                xs, ms, sds = ours[k]
                if xs:
                    ax.errorbar(xs, ms, yerr=sds, fmt=marker, color=color, capsize=2, markersize=5, ls="none",
                                alpha=0.9 if k == "paper_method" else 0.6)
                    drawn += len(xs)
        if swept:
            if logx:
                ax.set_xscale("log")
            ax.set_xlabel(xkey)
        else:
            ax.set_xticks(list(cats.values()))
            ax.set_xticklabels([c[0][:28] for c in cats], rotation=30, ha="right", fontsize=7)
            ax.set_xlim(-0.6, max(len(cats), 1) - 0.4)
        ax.set_title(", ".join(k for k in pkey if k)[:70], fontsize=8)
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(shown):]:
        ax.axis("off")
    extra = f" (first {maxp} of {n} panels)" if n > maxp else ""
    fig.suptitle(title + extra + "\n◇ paper (± printed spread)   ● ours, paper method   ■ with quirks   ▲ strict"
                 " (mean ± sd); dotted / dashed: paper / ours without the swept column", fontsize=9)
    handles = [plt.Line2D([], [], marker="o", ls="", color=colors[i % len(colors)]) for i in range(len(all_labels))]
    fig.legend(handles, [lb[:60] for lb in all_labels], loc="lower center", ncol=min(leg_cols, len(all_labels)) or 1,
               fontsize=7, bbox_to_anchor=(0.5, 0.005))
    fig.savefig(out_png, dpi=90)
    plt.close(fig)
    return drawn


# ---------------------------------------------------------------------------------------------------
# Jobs


JOB_SECONDS = 180  # a plot script that hangs is shown as failed after this long


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout(f"stopped after {JOB_SECONDS} s")


def _job(job):
    t0 = time.time()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(JOB_SECONDS)
    try:
        res = _run(job)
    except _Timeout as e:  # raised outside the script's own try (e.g. while saving)
        res = {"ok": False, "log": str(e), "pngs": [], "mds": []}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    res["seconds"] = time.time() - t0
    return res


def _run(job):
    kind = job["kind"]
    try:
        if kind == "script":
            ok, log = run_module(job["entry"], job["result_dir"])
            pngs, mds = outputs(job["result_dir"])
            return {"ok": ok, "log": log, "pngs": pngs, "mds": mds}
        drawn = draw_chart(job["entries"], job["out"], job["title"])
        return {"ok": True, "log": "", "pngs": [job["out"]] if drawn else [], "mds": []}
    except Exception:  # noqa: BLE001
        return {"ok": False, "log": traceback.format_exc(limit=4), "pngs": [], "mds": []}


def run_jobs(jobs, workers=2):
    """Runs the jobs in forked workers (a fresh fork per job, so no plot module sees another's state);
    results in the jobs' order."""
    if workers <= 1:
        return [_job(j) for j in jobs]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, maxtasksperchild=1) as pool:
        return pool.map(_job, jobs, chunksize=1)
