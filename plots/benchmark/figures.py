"""The leaderboard's figures: critical-difference diagrams, the metric-against-epsilon panels, the headline
mean-rank figure and the fit times (PNG and SVG each)."""
import math
import os
import statistics
from collections import defaultdict

from plots.benchmark.data import datasets_of, epsilons_of, group_of, labels_of, short_name
from plots.benchmark.stats import ALPHA, SIZE_CLASSES, cd_cliques, p_is
from plots.common import plt

def savefig(fig, outdir, stem):
    paths = []
    for ext in ("png", "svg"):
        p = os.path.join(outdir, f"{stem}.{ext}")
        fig.savefig(p, dpi=150, bbox_inches="tight")
        paths.append(p)
    plt.close(fig)
    print("wrote " + ", ".join(paths))
    return stem + ".png"


def cd_diagram(entry, outdir):
    """Demšar-style diagram: the mean-rank axis on top, each algorithm a line to its name, bold bars joining
    the algorithms whose ranks differ by less than the critical difference."""
    labs, mr, cd = entry["labels"], entry["mean_rank"], entry["cd"]
    k = len(labs)
    order = sorted(range(k), key=lambda i: mr[i])
    names = [short_name(labs[i]) for i in order]
    rks = [mr[i] for i in order]
    cliques = cd_cliques(rks, cd) if not math.isnan(cd) else []
    half = (k + 1) // 2
    step = 0.32
    height = 1.2 + step * (half + 1) + 0.15 * len(cliques)
    fig, ax = plt.subplots(figsize=(10, height))
    lo, hi = 1, max(k, 2)
    ax.set_xlim(lo - 0.25 * (hi - lo) - 0.3, hi + 0.25 * (hi - lo) + 0.3)
    ax.set_ylim(-(step * (half + 1) + 0.15 * len(cliques) + 0.2), 0.9)
    ax.axis("off")
    ax.plot([lo, hi], [0, 0], color="black", lw=1)
    for t in range(lo, hi + 1):
        ax.plot([t, t], [0, 0.07], color="black", lw=1)
        ax.text(t, 0.12, str(t), ha="center", va="bottom", fontsize=9)
    for t in range(lo, hi):
        ax.plot([t + 0.5, t + 0.5], [0, 0.035], color="black", lw=0.7)
    if not math.isnan(cd):
        ax.plot([lo, lo + cd], [0.6, 0.6], color="black", lw=1.5)
        for x in (lo, lo + cd):
            ax.plot([x, x], [0.55, 0.65], color="black", lw=1)
        ax.text(lo + cd / 2, 0.68, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)
    base = -0.15 * len(cliques) - 0.25
    for idx, (name, r) in enumerate(zip(names, rks)):
        if idx < half:
            y = base - step * idx
            xe, ha = lo - 0.2 * (hi - lo) - 0.1, "right"
        else:
            y = base - step * (k - 1 - idx)
            xe, ha = hi + 0.2 * (hi - lo) + 0.1, "left"
        ax.plot([r, r, xe], [0, y, y], color="0.3", lw=0.9)
        ax.text(xe + (-0.05 if ha == "right" else 0.05), y, f"{name} ({r:.2f})", ha=ha, va="center", fontsize=9)
    for c, (i, j) in enumerate(cliques):
        y = -0.12 - 0.15 * c
        ax.plot([rks[i] - 0.03, rks[j] + 0.03], [y, y], color="black", lw=3.5, solid_capstyle="round")
    fr = entry["friedman"]
    sub = (f"Friedman χ²={fr[0]:.2f} (p {p_is(fr[1])}), Iman-Davenport F={fr[2]:.2f} (p {p_is(fr[3])})"
           if fr else "too few datasets for the Friedman test")
    track = entry.get("track", "paper")
    tr_title, tr_stem = ("", "") if track == "paper" else (f", {track} track", f"-{track}")
    ax.set_title(f"{entry['task']}, {entry['scope']} datasets (N={len(entry['datasets'])}){tr_title}, ε = {entry['eps']:g}: "
                 f"mean rank, 1 = best\n{sub}; Nemenyi α={ALPHA}", fontsize=10)
    return savefig(fig, outdir, f"cd-{entry['task']}-{entry['scope']}{tr_stem}-eps{entry['eps']:g}")


STYLE_MARKERS = "os^vD<>pPX*h"


def label_styles(labels):
    """One style per label, the same in every figure: the ten tab10 colours first, then the light tab20 ones,
    each with its own marker; published labels dashed with an x."""
    tab10, tab20 = plt.get_cmap("tab10"), plt.get_cmap("tab20")
    colors = [tab10(i) for i in range(10)] + [tab20(2 * i + 1) for i in range(10)]
    # A DP algorithm and its published variant share a colour (the published one is dashed).
    bases = sorted({short_name(lab) for lab in labels if group_of(lab) != "non-private"})
    out = {}
    for lab in sorted(labels):
        g = group_of(lab)
        i = bases.index(short_name(lab)) if short_name(lab) in bases else 0
        st = {"color": colors[i % 20], "marker": STYLE_MARKERS[i % len(STYLE_MARKERS)], "markersize": 4,
              "lw": 1.2}
        if g == "published":
            st.update(ls="--", marker="x", lw=1.0)
        out[lab] = st
    return out


def panel_title(ds, n_train, width=30):
    """A panel's title: the dataset id and its training size, the id broken after its last ':' when it
    is long (a synthetic spec such as synthetic:friedman1:n=20000,d=10,seed=1,noise=1 is wider than a
    panel and ran into its neighbours' titles)."""
    if len(ds) > width and ":" in ds:
        head, tail = ds.rsplit(":", 1)
        return f"{head}:\n{tail} (n_train {n_train})"
    return f"{ds} (n_train {n_train})"


def panels(data, task, outdir, styles):
    dss = datasets_of(data, task)
    eps = epsilons_of(data, task)
    if not dss or not eps:
        return None
    labs = labels_of(data, task, "dp", "paper") + labels_of(data, task, "published")
    refs = labels_of(data, task, "non-private")
    ncol = min(4, len(dss))
    nrow = math.ceil(len(dss) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.6 * ncol, 2.9 * nrow), squeeze=False)
    name = "MSE" if task == "regression" else "accuracy"
    # MSEs span orders of magnitude (a boosted ensemble at ε = 0.1 sits 100 x above the forests), so a
    # linear axis flattens every other line onto zero: regression panels use a log axis.
    log_y = task == "regression"
    handles = {}
    for ax, ds in zip(axes.flat, dss):
        for lab in labs:
            xs, ms, es = [], [], []
            for e in eps:
                v = [x for x in data.values.get((task, ds, lab, e), {}).values() if not math.isnan(x)]
                if v:
                    xs.append(e)
                    ms.append(statistics.mean(v))
                    es.append(statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else 0.0)
            if xs:
                h = ax.errorbar(xs, ms, yerr=es, capsize=2, label=short_name(lab) + (
                    " [published, not DP]" if group_of(lab) == "published" else ""), **styles[lab])
                handles.setdefault(h.get_label(), h)
        for i, r in enumerate(refs):
            v = [x for x in data.values.get((task, ds, r, None), {}).values() if not math.isnan(x)]
            if v:
                h = ax.axhline(statistics.mean(v), color="black", lw=1.1, ls=[":", "-."][i % 2],
                               label=short_name(r) + " [non-private]")
                handles.setdefault(h.get_label(), h)
        ax.set_xscale("log")
        ax.set_xticks(eps)
        ax.set_xticklabels([f"{e:g}" for e in eps], fontsize=7)
        ax.minorticks_off()
        ax.tick_params(labelsize=7)
        if log_y:
            ax.set_yscale("log", nonpositive="clip")
        ax.grid(True, alpha=0.3)
        ax.set_title(panel_title(ds, data.n_train.get(ds, "?")), fontsize=8)
    for ax in list(axes.flat)[len(dss):]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"{name} (log scale)" if log_y else name, fontsize=8)
    for c in range(ncol):  # the lowest panel of each column carries the x label
        last = max(r for r in range(nrow) if r * ncol + c < len(dss))
        axes[last, c].set_xlabel("ε", fontsize=8)
    fig.suptitle(f"{task}: {name} against ε, mean over folds ± standard error; dashed × = published, not DP; "
                 f"black = non-private", fontsize=10)
    rank = {"published": 1, "non-private": 2}  # legend: DP (short names), then published, then non-private
    names = sorted(handles, key=lambda h: (rank.get(group_of(h), 0), h))
    # Bottom: the legend's rows; top: the suptitle's line (0.4 in), so neither overlaps a panel title.
    fig.tight_layout(rect=(0, (0.17 * math.ceil(len(names) / 4) + 0.15) / (2.9 * nrow), 1, 1 - 0.4 / (2.9 * nrow)))
    fig.legend([handles[h] for h in names], names, loc="lower center", ncol=4, fontsize=8, frameon=False)
    return savefig(fig, outdir, f"panels-{task}")


HIGHLIGHT = 3  # the headline draws the best few of each panel in colour, the rest faint


def spread(ys, gap):
    """Positions for labels wanted at heights ys: every two at least gap apart, in the order of ys,
    each moved as little as that allows (the group of a collision is centred on its members' mean)."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    # Greedy clusters: a label that would come within gap of the cluster above joins it; a cluster of m
    # labels is laid out m - 1 gaps tall around its members' mean, and merged upward again if that
    # now collides.
    clusters = []  # [sum of wanted heights, members]
    for i in order:
        clusters.append([ys[i], [i]])
        while len(clusters) > 1:
            (s1, m1), (s2, m2) = clusters[-2], clusters[-1]
            top1 = s1 / len(m1) + (len(m1) - 1) * gap / 2
            bottom2 = s2 / len(m2) - (len(m2) - 1) * gap / 2
            if bottom2 - top1 >= gap:
                break
            clusters[-2:] = [[s1 + s2, m1 + m2]]
    out = [0.0] * len(ys)
    for s, members in clusters:
        first = s / len(members) - (len(members) - 1) * gap / 2
        for j, i in enumerate(members):
            out[i] = first + j * gap
    return out


def headline_figure(ranks, outdir, styles, stem="headline", what="DP forests at their paper settings"):
    """Mean rank against epsilon, one panel per (task, scope): in each panel the HIGHLIGHT labels with the
    best rank averaged over epsilon are drawn in colour with their ± CD/2 bars and named beside their last
    point; every other label is a thin grey line, so the leaders read at a glance."""
    groups = defaultdict(list)
    for e in ranks:
        if e["mean_rank"]:
            groups[(e["task"], e["scope"])].append(e)
    if not groups:
        return None
    keys = sorted(groups)
    ncol = min(3, len(keys))
    nrow = math.ceil(len(keys) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(5.2 * ncol, 4.4 * nrow), squeeze=False)
    for ax in axes.flat[len(keys):]:
        ax.set_visible(False)
    palette = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
    for ax, key in zip(axes.flat, keys):
        entries = sorted(groups[key], key=lambda e: e["eps"])
        labs = sorted({lab for e in entries for lab in e["labels"]})
        avg = {}
        for lab in labs:
            rs = [e["mean_rank"][e["labels"].index(lab)] for e in entries if lab in e["labels"]]
            avg[lab] = sum(rs) / len(rs)
        top = sorted(labs, key=lambda lab: (avg[lab], lab))[:HIGHLIGHT]
        names = []  # (label, x, y, colour) of the leaders' name tags, placed once every line is drawn
        for lab in sorted(labs, key=lambda lab: lab in top):  # faint ones first, leaders on top
            xs, ys, cds = [], [], []
            for e in entries:
                if lab in e["labels"]:
                    xs.append(e["eps"])
                    ys.append(e["mean_rank"][e["labels"].index(lab)])
                    cds.append(0 if math.isnan(e["cd"]) else e["cd"] / 2)
            if lab in top:
                c = palette[top.index(lab) % len(palette)]
                ax.errorbar(xs, ys, yerr=cds, capsize=3, color=c, lw=2.2, marker="o", ms=5, zorder=3)
                names.append((f"{top.index(lab) + 1}. {short_name(lab)}", xs[-1], ys[-1], c))
            else:
                ax.plot(xs, ys, color="0.75", lw=0.9, zorder=1)
        eps = [e["eps"] for e in entries]
        ax.set_xscale("log")
        ax.set_xticks(eps)
        ax.set_xticklabels([f"{x:g}" for x in eps])
        ax.set_xlim(min(eps) / 1.4, max(eps) * 6)
        ax.minorticks_off()
        # Leaders that end at (nearly) the same rank would print their names over each other: keep the
        # tags 6 % of the axis apart (text height at this size), each beside its line's last point.
        lo, hi = ax.get_ylim()
        placed = spread([y for _, _, y, _ in names], 0.06 * abs(hi - lo))
        for (text, x, y, c), yt in zip(names, placed):
            ax.annotate(text, (x, y), xytext=(x * 1.12, yt), textcoords="data", color=c, fontsize=8.5,
                        va="center", zorder=4)
        # Ranks run from 1 to k: the ± CD/2 bars of the leaders may reach past 1, but an axis showing rank 0
        # or −1 reads as nonsense, so the axis stops half a rank beyond each end; whole ticks, not 2.5, 7.5.
        k_all = max(len(e["labels"]) for e in entries)
        ax.set_ylim(min(hi, k_all + 0.5), max(lo, 0.5))
        ax.yaxis.set_major_locator(plt.MaxNLocator(integer=True))
        ax.set_xlabel("ε")
        ax.set_ylabel("mean rank (1 = best)")
        n = max(len(e["datasets"]) for e in entries)
        k = max(len(e["labels"]) for e in entries)
        ax.set_title(f"{key[0]}, {key[1]} datasets (N={n}, k={k})", fontsize=10)
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"{what}: mean rank per ε\nthe {HIGHLIGHT} best on average in colour (bars ± CD/2, "
                 "Nemenyi α=0.05), the others grey", fontsize=10)
    fig.tight_layout()
    return savefig(fig, outdir, stem)


def fit_time(rows, outdir):
    """The fit-time bars (stats.fit_times rows): median per fit, a mark per size class. Returns the PNG's
    name, or None without rows."""
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(rows) + 1.4))
    colors = {"dp": "tab:blue", "published": "tab:orange", "non-private": "0.4", "oracle": "tab:green",
              "other": "tab:gray"}
    y = list(range(len(rows)))
    ax.barh(y, [float(r["median_s"]) for r in rows], color=[colors[r["group"]] for r in rows], alpha=0.8)
    marks = ["|", "x", "+"]
    for (name, _, _), m in zip(SIZE_CLASSES, marks):
        pts = [(float(r[name]), i) for i, r in enumerate(rows) if r[name]]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=m, color="black", s=30,
                       label=f"median, {name}", zorder=3)
    ax.set_yticks(y)
    ax.set_yticklabels([r["label"] for r in rows], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("fit seconds per fit (bar: median over all fits)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    present = [g for g in ("dp", "oracle", "published", "non-private") if any(r["group"] == g for r in rows)]
    words = {"dp": "blue DP", "oracle": "green oracle-tuned (not DP)", "published": "orange published (not DP)",
             "non-private": "grey non-private"}
    ax.set_title("Fit time (" + ", ".join(words[g] for g in present) + ")", fontsize=10)
    return savefig(fig, outdir, "fit-time")
