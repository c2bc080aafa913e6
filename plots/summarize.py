"""The generic figure of `dpforest summarize`: the metric against the swept parameter, one panel per
dataset, one line (mean ± sd error bars) per series, drawn from the summary table the command writes.

A series without a value of the swept parameter (a non-private baseline in an epsilon sweep) is drawn
as a flat dashed line at its mean across the panel; without any swept parameter the panel shows one
point per series. The x axis is logarithmic when every swept value is positive and they span more
than a factor of 10 (epsilon sweeps).

usage: python3 plots/summarize.py SUMMARY.tsv --out STEM [--xlabel X] [--ylabel Y] [--title T]
writes STEM.png and STEM.pdf."""
import argparse
import csv
import math
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def read_summary(path):
    """{dataset: {series: [(value, mean, sd)]}} in the table's order, and the swept column's name."""
    with open(path, newline="") as f:
        reader = csv.reader(f, delimiter="\t")
        header = next(reader)
        panels = {}
        for row in reader:
            series, dataset, _metric, value, mean, sd = row[:6]
            sd_value = number(sd)
            panels.setdefault(dataset, {}).setdefault(series, []).append(
                (value, float(mean), 0.0 if sd_value is None else sd_value))
    return panels, header[3]


def swept_axis(panels):
    """The numeric swept values of every panel, and whether the axis is logarithmic."""
    xs = [number(v) for series in panels.values() for points in series.values() for v, _, _ in points]
    xs = [x for x in xs if x is not None]
    log = bool(xs) and min(xs) > 0 and max(xs) / min(xs) > 10
    return xs, log


def series_colours(panels):
    """One colour per series across every panel (a series may be absent from some datasets)."""
    names = []
    for series in panels.values():
        names += [n for n in series if n not in names]
    cycle = plt.get_cmap("tab20" if len(names) > 10 else "tab10").colors
    return {n: cycle[i % len(cycle)] for i, n in enumerate(names)}


def draw_panel(ax, series, xs, log, colours):
    lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    for i, (name, points) in enumerate(series.items()):
        c = colours[name]
        swept = [(number(v), m, s) for v, m, s in points if number(v) is not None]
        if swept:
            swept.sort()
            x, m, s = (np.array(col) for col in zip(*swept))
            ax.errorbar(x, m, yerr=s, marker="o", capsize=3, label=name, color=c)
        elif xs:
            _, m, s = points[0]
            ax.plot([lo, hi], [m, m], linestyle="--", label=name, color=c)
            ax.fill_between([lo, hi], [m - s] * 2, [m + s] * 2, color=c, alpha=0.1)
        else:
            _, m, s = points[0]
            ax.errorbar([i], [m], yerr=[s], marker="o", capsize=3, label=name, color=c)
    if log:
        ax.set_xscale("log")
    if not xs:
        ax.set_xticks(range(len(series)))
        ax.set_xticklabels(list(series), rotation=30, ha="right", fontsize=8)
    ax.grid(True, alpha=0.3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("summary", help="summary.tsv written by dpforest summarize")
    ap.add_argument("--out", required=True, help="output stem: STEM.png and STEM.pdf")
    ap.add_argument("--xlabel", default="", help="the swept parameter")
    ap.add_argument("--ylabel", default="", help="the metric and the protocol it is averaged over")
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    panels, swept = read_summary(args.summary)
    if not panels:
        raise SystemExit(f"{args.summary}: no rows")
    xs, log = swept_axis(panels)
    colours = series_colours(panels)
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 4.2 * rows), squeeze=False)
    for i, (ax, (dataset, series)) in enumerate(zip(axes.flat, panels.items())):
        draw_panel(ax, series, xs, log, colours)
        ax.set_title(dataset)
        ax.set_xlabel(args.xlabel or swept)
        if i % cols == 0:
            ax.set_ylabel("\n".join(textwrap.wrap(args.ylabel, 45)))
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    legend = {}  # label -> handle, over every panel (a series may be absent from some datasets)
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, h)
    handles, labels = list(legend.values()), list(legend)
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
    if args.title:
        fig.suptitle("\n".join(textwrap.wrap(args.title, 30 * cols + 30)))
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{args.out}.{ext}", dpi=120, bbox_inches="tight")


if __name__ == "__main__":
    main()
