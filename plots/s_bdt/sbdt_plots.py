"""Shared drawing for the S-BDT figures: each config row is one printed point, labelled "<series> eps=E
(<variant>)"; rows are grouped into series by dropping " eps=E", and the authors' values from
configs/s-bdt/published.yaml are drawn as crosses beside ours."""
import os
import re

import yaml

from plots import ROOT, common

PUBLISHED = os.path.join(ROOT, "configs", "s-bdt", "published.yaml")
_EPS = re.compile(r" eps=[0-9.]+")


def series_name(label):
    return _EPS.sub("", label)


def published(experiment, metric="auc"):
    """{series name: [(epsilon, value)]} of the paper_method selectors (with_quirks where given)."""
    with open(PUBLISHED) as f:
        doc = yaml.safe_load(f)
    out = {}
    for e in doc.get("numbers", []):
        if e["experiment"] != experiment or e["metric"] != metric:
            continue
        label = (e.get("with_quirks") or e["paper_method"])["label"]
        eps = float(re.search(r"eps=([0-9.]+)", label).group(1))
        out.setdefault(series_name(label).replace(" (as run)", ""), []).append((eps, float(e["value"])))
    return out


def draw(result_dir, experiment, stem, title, metric="auc", ylabel="test AUC (mean ± sd over folds)"):
    rows = common.load_rows(result_dir)
    for r in rows:
        r["series"] = series_name(r["label"])
    data = common.series(rows, metric, "epsilon", label_column="series")
    names = sorted(data)
    fig, ax = common.plt.subplots(figsize=(8, 5))
    common.plot_vs_x(ax, data, names, {}, [])
    for name, pts in sorted(published(experiment, metric).items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "x", ms=8, label=f"{name} (paper)")
    ax.set_xscale("log")
    ax.set_xlabel("epsilon (delta = 5e-8)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="lower right" if metric == "auc" else "upper right")
    common.save(fig, result_dir, stem)
