"""The leaderboard's text outputs: completeness.csv, summary.csv, ranks.csv, wtl-datasets.csv, wtl.csv and
wtl.md, fit-time.csv and fit-time.md, and the report itself, leaderboard.md with incomplete.md."""
import csv
import math
import os
import statistics
from collections import defaultdict

from plots.benchmark.data import epsilons_of, fmt_eps, group_of, labels_of, scopes, short_name, tasks
from plots.benchmark.stats import ALPHA, SIZE_CLASSES, fmt_p, p_is


def md_table(header, rows):
    return ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"] + \
           ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


def write_completeness(outdir, comp):
    with open(os.path.join(outdir, "completeness.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(comp[0].keys()))
        w.writeheader()
        w.writerows(comp)


def write_summary(outdir, data):
    """summary.csv: mean, sd and n per task, dataset, label and epsilon."""
    with open(os.path.join(outdir, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "dataset", "label", "group", "epsilon", "mean", "sd", "n"])
        for key in sorted(data.values, key=lambda k: (k[0], k[1], k[2], -1 if k[3] is None else k[3])):
            v = [x for x in data.values[key].values() if not math.isnan(x)]
            w.writerow([key[0], key[1], key[2], group_of(key[2]), fmt_eps(key[3]),
                        f"{statistics.mean(v):.6g}" if v else "", f"{statistics.stdev(v):.4g}" if len(v) > 1 else "",
                        len(v)])


def write_ranks(outdir, ranks):
    with open(os.path.join(outdir, "ranks.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "scope", "epsilon", "label", "mean_rank", "k", "n_datasets", "cd", "friedman_chi2",
                    "friedman_p", "iman_davenport_f", "iman_davenport_p"])
        for e in ranks:
            fr = e["friedman"] or (math.nan,) * 4
            for lab, r in zip(e["labels"], e["mean_rank"]):
                w.writerow([e["task"], e["scope"], f"{e['eps']:g}", lab, f"{r:.4f}", len(e["labels"]),
                            len(e["datasets"]), f"{e['cd']:.4f}", f"{fr[0]:.4f}", f"{fr[1]:.4g}", f"{fr[2]:.4f}",
                            f"{fr[3]:.4g}"])


def write_wtl(outdir, data, per_ds):
    """wtl-datasets.csv (per dataset), wtl.csv and wtl.md (counts per label and epsilon) from the outcomes of
    stats.wins_ties_losses. Returns wtl.md's lines (leaderboard.md repeats them)."""
    with open(os.path.join(outdir, "wtl-datasets.csv"), "w", newline="") as f:
        fields = ["task", "epsilon", "label", "group", "dataset", "reference", "outcome", "p", "pairs", "mean",
                  "reference_mean"]
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(per_ds)
    wtl = defaultdict(lambda: {"W": 0, "T": 0, "L": 0})
    for r in per_ds:
        wtl[(r["task"], r["label"], r["epsilon"])][r["outcome"]] += 1
    wtl_md = []
    with open(os.path.join(outdir, "wtl.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "label", "group", "epsilon", "wins", "ties", "losses", "datasets"])
        for task in tasks(data):
            eps = epsilons_of(data, task)
            labs = [lab for lab in labels_of(data, task, "dp") + labels_of(data, task, "published")
                    if any((task, lab, fmt_eps(e)) in wtl for e in eps)]
            if not labs:
                continue
            trs = []
            for lab in labs:
                cells = []
                for e in eps:
                    c = wtl.get((task, lab, fmt_eps(e)))
                    if c:
                        w.writerow([task, lab, group_of(lab), fmt_eps(e), c["W"], c["T"], c["L"], sum(c.values())])
                        cells.append(f"{c['W']}/{c['T']}/{c['L']}")
                    else:
                        cells.append("—")
                mark = " †" if group_of(lab) == "published" else ""
                trs.append([short_name(lab) + mark] + cells)
            wtl_md += [f"**{task}** (W/T/L over datasets; † published, not DP)", ""]
            wtl_md += md_table(["algorithm"] + [f"ε={e:g}" for e in eps], trs) + [""]
    with open(os.path.join(outdir, "wtl.md"), "w") as f:
        f.write("\n".join(wtl_md) + "\n")
    return wtl_md


def write_fit_time(outdir, rows):
    """fit-time.csv and fit-time.md from stats.fit_times; returns the Markdown table's lines."""
    fields = ["label", "group", "fits", "median_s", "total_s"] + [c[0] for c in SIZE_CLASSES]
    with open(os.path.join(outdir, "fit-time.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    md = ["| algorithm | group | fits | median s/fit | total s | " + " | ".join(
        f"median s/fit, {c[0]}" for c in SIZE_CLASSES) + " |", "|---" * (5 + len(SIZE_CLASSES)) + "|"]
    for r in rows:
        md.append(f"| {r['label']} | {r['group']} | {r['fits']} | {r['median_s']} | {r['total_s']} | " +
                  " | ".join(r[c[0]] or "—" for c in SIZE_CLASSES) + " |")
    with open(os.path.join(outdir, "fit-time.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return md


# ----------------------------------------------------------------------------------------------------------
# leaderboard.md


def headline_lines(ranks):
    """One line per ranking: the best DP algorithm, those within the critical difference, the tests."""
    md = []
    for e in ranks:
        if not e["mean_rank"]:
            md.append(f"- {e['task']}, {e['scope']} datasets, ε={e['eps']:g}: fewer than two DP algorithms have "
                      f"complete results on all {len(e['datasets'])} datasets; no ranking.")
            continue
        order = sorted(range(len(e["labels"])), key=lambda i: e["mean_rank"][i])
        best = e["mean_rank"][order[0]]
        top = [i for i in order if math.isnan(e["cd"]) or e["mean_rank"][i] - best < e["cd"]]
        fr = e["friedman"]
        sig = ("" if not fr else (f"; Friedman p {p_is(fr[1])}, Iman-Davenport p {p_is(fr[3])}" +
                                  ("" if fr[3] < ALPHA else " (not significant: no ranking is supported)")))
        md.append(f"- {e['task']}, {e['scope']} datasets (N={len(e['datasets'])}, k={len(e['labels'])}), "
                  f"ε={e['eps']:g}: best **{short_name(e['labels'][order[0]])}** (mean rank {best:.2f}); "
                  f"not significantly worse (within CD = {e['cd']:.2f}): "
                  + ", ".join(f"{short_name(e['labels'][i])} ({e['mean_rank'][i]:.2f})" for i in top[1:])
                  + (" none" if len(top) == 1 else "") + sig)
    return md


def approx_dp_caveat(data):
    """The (ε, δ)-DP labels ranked with the pure-ε ones (their label names δ), from the run's labels."""
    names = sorted({short_name(lab) for task in tasks(data) for lab in labels_of(data, task, "dp") if "delta" in lab})
    if not names:
        return ""
    return (" " + ", ".join(names) + (" is" if len(names) == 1 else " are") +
            " (ε, δ)-DP, ranked with the pure-ε algorithms and marked δ.")


def caveat_lines(data, comp):
    n_exp = sum(r["expected_folds"] for r in comp)
    n_have = sum(r["present_folds"] for r in comp)
    incomplete = [r for r in comp if r["status"] != "complete"]
    statuses = {lab: s for lab, s in data.status.items()
                if group_of(lab) == "dp" and not s <= {"epsilon-DP", "(epsilon, delta)-DP"}}
    md = ["", "## Caveats", "",
          f"- Completeness: {len(comp) - len(incomplete)} of {len(comp)} expected (dataset, algorithm, ε) blocks "
          f"are complete; {n_have} of {n_exp} expected folds are present"
          f"{'' if not data.duplicates else f'; {data.duplicates} duplicate rows ignored (first kept)'}. "
          "Expected = per results directory, every label, dataset and ε seen in its rows or failed cells, times "
          "its (repetition, fold) pairs. Rankings use complete blocks only: an algorithm incomplete on any "
          "dataset of a scope is left out of that scope's ranking (listed below).",
          "- Ranks are over per-dataset mean metrics (accuracy higher-better, MSE lower-better), ties averaged. "
          "The Friedman chi-square carries the tie correction (as scipy.stats.friedmanchisquare); the "
          "critical difference is Nemenyi's at α = 0.05 (Demšar 2006), a conservative all-pairs test.",
          "- \"[published]\" mechanisms are not DP: they are plotted dashed and listed in the W/T/L table (†), "
          "never ranked." + approx_dp_caveat(data),
          "- W/T/L: each algorithm against the better (by mean) of the non-private forests per dataset, "
          "two-sided Wilcoxon signed-rank over the common (repetition, fold) pairs at p < 0.05; with fewer than "
          "6 pairs no test can reach 0.05, so everything is a tie.",
          "- Binary scope: classification datasets whose rows report an AUC (two classes).",
          "- Fit times are per fit, over every ε and fold the algorithm ran; an algorithm that ran only on some "
          "datasets has a median from those, so compare within the size-class columns."]
    if statuses:
        md.append("- Privacy status check: these [DP] labels have rows whose privacy_status is not a DP label: "
                  + "; ".join(f"{lab}: {sorted(s)}" for lab, s in sorted(statuses.items())))
    others = sorted({k[2] for k in data.values if group_of(k[2]) == "other"})
    if others:
        md.append("- Labels with no recognised group bracket (not ranked, not plotted): " + ", ".join(others))
    return md


def rank_sections(data, ranks, cd_pngs):
    """Per task and scope: the mean ranks per epsilon, who was left out and why, the CD diagrams."""
    md = []
    for task in tasks(data):
        for scope, dss in scopes(data, task):
            es = [e for e in ranks if e["task"] == task and e["scope"] == scope]
            labs = sorted({lab for e in es for lab in e["labels"]})
            md += [f"**{task}, {scope} datasets** (N = {', '.join(str(len(e['datasets'])) for e in es)} per ε)", ""]
            trs = []
            def rank(e, lab):  # None where the label is not ranked (absent, or the only complete one)
                return e["mean_rank"][e["labels"].index(lab)] if lab in e["labels"] and e["mean_rank"] else None
            for lab in sorted(labs, key=lambda lab: sum(99 if rank(e, lab) is None else rank(e, lab) for e in es)):
                trs.append([short_name(lab)] + ["—" if rank(e, lab) is None else f"{rank(e, lab):.2f}" for e in es])
            trs.append(["k / CD"] + [f"{len(e['labels'])} / {e['cd']:.2f}" for e in es])
            trs.append(["Friedman p / Iman-Davenport p"] +
                       [f"{fmt_p(e['friedman'][1])} / {fmt_p(e['friedman'][3])}" if e["friedman"] else "—" for e in es])
            md += md_table(["algorithm"] + [f"ε={e['eps']:g}" for e in es], trs) + [""]
            excl = defaultdict(list)
            for e in es:
                for lab, miss in e["excluded"].items():
                    excl[lab].append(f"ε={e['eps']:g}: {len(miss)} of {len(e['datasets'])}")
            drops = [f"ε={e['eps']:g}: " + ", ".join(e["dropped"]) for e in es if e["dropped"]]
            if drops:
                md += ["Datasets left out (no DP algorithm complete on them): " + "; ".join(drops), ""]
            # Two-class algorithms (DiPriMe, the boosting families, ...) run on the binary datasets only:
            # in a wider scope they are absent by design, not incomplete, and are ranked in the binary one.
            binary_only = []
            if task == "classification" and scope == "all" and any(sc == "binary" for sc, _ in scopes(data, task)):
                for lab in sorted(excl):
                    ran = {k[1] for k in data.values if k[0] == task and k[2] == lab}
                    if ran and ran <= data.binary:
                        binary_only.append(lab)
                        del excl[lab]
            if binary_only:
                md.append("Two-class only, ranked in the binary scope: " + ", ".join(short_name(lab) for lab in binary_only))
                md.append("")
            # A label with no result on any dataset of the scope at any ε did not run there (e.g. a forest
            # outside the large tier): not an incomplete run.
            absent = [lab for lab in sorted(excl)
                      if all(lab not in e["labels"] and len(e["excluded"].get(lab, e["datasets"])) == len(e["datasets"])
                             for e in es)]
            for lab in absent:
                del excl[lab]
            if absent:
                md.append("Not run on this scope's datasets: " + ", ".join(short_name(lab) for lab in absent))
                md.append("")
            if excl:
                md.append("Left out (incomplete on some datasets; datasets lacking per ε): " +
                          "; ".join(f"{short_name(lab)} ({', '.join(v)})" for lab, v in sorted(excl.items())))
                md.append("")
            imgs = [f"![CD {task} {scope} ε={e['eps']:g}]({cd_pngs[(task, scope, e['eps'])]})" for e in es
                    if (task, scope, e["eps"]) in cd_pngs]
            md += imgs + [""]
    return md


def incomplete_sections(comp):
    """(leaderboard.md's lines: one per algorithm with its commonest reason, incomplete.md's: every reason)."""
    incomplete = [r for r in comp if r["status"] != "complete"]
    md = ["## Incomplete blocks", ""]
    detail = ["# Incomplete blocks (every reason)", ""]
    if incomplete:
        agg = defaultdict(list)
        per_label = defaultdict(list)
        for r in incomplete:
            agg[(r["task"], r["label"], r["reason"])].append(f"{r['dataset']} ε={r['epsilon']} "
                                                             f"({r['present_folds']}/{r['expected_folds']})")
            per_label[(r["task"], r["label"])].append(r)
        detail += md_table(["task", "algorithm", "reason", "blocks (present/expected folds)"],
                           [[t, lab, reason.replace("|", "/"), f"{len(v)}: " + ", ".join(v)]
                            for (t, lab, reason), v in sorted(agg.items())])
        rows_md = []
        for (t, lab), rs in sorted(per_label.items()):
            total = [c for c in comp if (c["task"], c["label"]) == (t, lab)]
            reasons = defaultdict(int)
            for r in rs:
                reasons[r["reason"]] += 1
            top = max(reasons, key=reasons.get)
            top = (top[:140] + "…") if len(top) > 140 else top
            more = f" (+{len(reasons) - 1} other reasons)" if len(reasons) > 1 else ""
            rows_md.append([t, lab, f"{len(rs)} of {len(total)}",
                            f"{sum(c['present_folds'] for c in total)}/{sum(c['expected_folds'] for c in total)}",
                            f"{reasons[max(reasons, key=reasons.get)]}× {top.replace('|', '/')}{more}"])
        md += md_table(["task", "algorithm", "incomplete blocks", "folds present/expected", "commonest reason"],
                       rows_md)
        md += ["", "Every block and reason: `incomplete.md`, `completeness.csv`."]
    else:
        md.append("none: every expected block is complete.")
        detail.append("none")
    md.append("")
    return md, detail


def cost_lines(data, cores=2):
    """What the results cost to compute: the tasks' CPU time (the rows' cpu_seconds: each task's fit and
    prediction on its thread) in all and per results directory, and the wall time it takes on `cores`
    fully used cores, against the protocol's budget of a day on a 2-core machine."""
    if not data.cpu:
        return []
    tasks = sum(n for n, _ in data.cpu.values())
    hours = sum(s for _, s in data.cpu.values()) / 3600
    wall = hours / cores
    per = ", ".join(f"{os.path.basename(d)} {s / 3600:.2f} h" for d, (n, s) in sorted(data.cpu.items()))
    verdict = "within a day" if wall <= 24 else "more than a day"
    return [f"**Cost.** {tasks:,} tasks, {hours:.2f} CPU-hours of task time (the rows' `cpu_seconds`): "
            f"{wall:.1f} h of wall on {cores} fully used cores, {verdict} on a {cores}-core machine. "
            f"Per results directory: {per}.", ""]


def write_report(outdir, dirs, data, comp, ranks, figs, wtl_md, time_md):
    """leaderboard.md and incomplete.md. figs: {"headline": png or None, "cd": {(task, scope, eps): png},
    "panels": {task: png or None}, "fit_time": png or None}. Returns leaderboard.md's lines."""
    md = ["# dpforest leaderboard", "",
          "Generated by `plots/benchmark/leaderboard.py " + " ".join(dirs) + "` from "
          + ", ".join(f"`{d}/results.csv` ({n} rows, {ne} failed-cell files)" for d, n, ne in data.dirs) + ".", ""]
    md += cost_lines(data)
    if figs["headline"]:
        md += [f"![mean rank against epsilon]({figs['headline']})", ""]
    md += ["## Headline", ""] + headline_lines(ranks)
    md += caveat_lines(data, comp)
    md += ["", "## Mean ranks (DP algorithms, complete blocks)", ""] + rank_sections(data, ranks, figs["cd"])
    md += ["## Metric against ε", ""] + [f"![{t}]({p})" for t, p in figs["panels"].items() if p] + [""]
    md += ["## Wins/ties/losses against the best non-private forest", "", "(per dataset: `wtl-datasets.csv`)", ""]
    md += wtl_md
    time_png = figs["fit_time"]
    md += ["## Fit time", ""] + time_md + [""] + ([f"![fit time]({time_png})", ""] if time_png else [])
    lines, detail = incomplete_sections(comp)
    md += lines
    with open(os.path.join(outdir, "incomplete.md"), "w") as f:
        f.write("\n".join(detail) + "\n")
    with open(os.path.join(outdir, "leaderboard.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return md
