"""The published copy of the leaderboard (results/reference/benchmark/leaderboard/, tracked in git) and
README.md's leaderboard block, which is made from that copy alone."""
import csv
import math
import os
import re
from collections import defaultdict

from plots.benchmark.data import short_name
from plots.benchmark.stats import fmt_p
from plots.common import replace_marked_block

PUBLISH_FILES = ["leaderboard.md", "headline.png", "ranks.csv", "summary.csv", "wtl.md", "wtl.csv",
                 "wtl-datasets.csv", "fit-time.md", "fit-time.csv", "fit-time.png", "completeness.csv",
                 "incomplete.md", "headline-private-selection.png", "tracks.csv", "accuracy.csv", "regimes.csv",
                 "growth.csv"]

# Every figure the report references is published: the critical-difference diagrams at every epsilon and
# every track, and the panels of every task.
PUBLISH_PATTERNS = [r"cd-.*\.png", r"panels-.*\.png"]

README_BEGIN, README_END = "<!-- leaderboard:begin -->", "<!-- leaderboard:end -->"

# What a private-selection row guarantees: the tuned pipeline is as private as its base at the row's ε
# (DP-EBM and S-BDT are (ε, δ)-DP, and so is their selection, accounted in Rényi DP).
SELECTION_PRIVACY = "ε-DP at the row's ε, (ε, δ)-DP where the tuned forest is"


def read_ranks(path):
    """ranks.csv -> {(task, scope): {eps: {"labels": [(label, rank)], "k", "n", "cd", "friedman_p", "id_p"}}}."""
    out = defaultdict(dict)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            e = out[(r["task"], r["scope"])].setdefault(float(r["epsilon"]), {
                "labels": [], "k": int(r["k"]), "n": int(r["n_datasets"]), "cd": float(r["cd"]),
                "friedman_p": float(r["friedman_p"]), "id_p": float(r["iman_davenport_p"])})
            e["labels"].append((r["label"], float(r["mean_rank"])))
    return out


def readme_block(pub_dir, rel_dir):
    """The README's leaderboard block, from the published ranks.csv and completeness.csv alone: the headline
    figure, then per scope and epsilon the best DP algorithm and every one within the critical difference."""
    ranks = read_ranks(os.path.join(pub_dir, "ranks.csv"))
    with open(os.path.join(pub_dir, "completeness.csv"), newline="") as f:
        comp = list(csv.DictReader(f))
    have = sum(int(r["present_folds"]) for r in comp)
    expected = sum(int(r["expected_folds"]) for r in comp)
    done = sum(1 for r in comp if r["status"] == "complete")
    lines = [README_BEGIN, f"![DP forests: mean rank against epsilon]({rel_dir}/headline.png)", "",
             "| task, datasets | ε | best DP forest (mean rank) | not significantly worse (Nemenyi, within CD) | "
             "k / CD | Friedman p |", "|---|---|---|---|---|---|"]
    for (task, scope), per_eps in sorted(ranks.items()):
        for eps in sorted(per_eps):
            e = per_eps[eps]
            order = sorted(e["labels"], key=lambda x: x[1])
            best = order[0]
            tied = [f"{short_name(lab)} ({r:.2f})" for lab, r in order[1:] if math.isnan(e["cd"]) or r - best[1] < e["cd"]]
            lines.append(f"| {task}, {scope} (N={e['n']}) | {eps:g} | **{short_name(best[0])}** ({best[1]:.2f}) | "
                         f"{', '.join(tied) or 'none'} | {e['k']} / {e['cd']:.2f} | {fmt_p(e['friedman_p'])} |")
    lines += [""] + finding_lines(ranks, pub_dir)
    if done < len(comp):
        lines += ["", f"**Partial run, not a complete leaderboard:** {len(comp) - done} of {len(comp)} blocks are "
                  "incomplete (see incomplete.md); ranks are over the complete blocks only."]
    lines += ["", f"From `{rel_dir}/` ({done} of {len(comp)} (dataset, algorithm, ε) blocks complete, {have} of "
              f"{expected} folds); the full report with CD diagrams, panels, W/T/L and fit times is "
              f"[{rel_dir}/leaderboard.md]({rel_dir}/leaderboard.md).", README_END]
    return "\n".join(lines)


def finding_lines(ranks, pub_dir):
    """The finding and its caveats, generated from the published ranks (and tracks.csv when the copy has it)."""
    out = ["**Finding** (generated from the published copy):"]
    caveats = []
    for (task, scope), per_eps in sorted(ranks.items()):
        eps = sorted(per_eps)
        best = defaultdict(int)
        for e in eps:
            best[short_name(min(per_eps[e]["labels"], key=lambda x: x[1])[0])] += 1
        lead, n_lead = max(best.items(), key=lambda kv: (kv[1], kv[0]))
        always = None
        for e in eps:
            order = sorted(per_eps[e]["labels"], key=lambda x: x[1])
            cd = per_eps[e]["cd"]
            within = {short_name(lab) for lab, r in order if math.isnan(cd) or r - order[0][1] < cd}
            always = within if always is None else always & within
        ks = sorted({per_eps[e]["k"] for e in eps})
        out.append(f"- {task}, {scope} datasets (N={per_eps[eps[0]]['n']}, k={'/'.join(map(str, ks))}): **{lead}** has "
                   f"the best mean rank at {n_lead} of {len(eps)} ε; within the critical difference of the best at every "
                   f"ε: {', '.join(sorted(always - {lead})) or 'none'}.")
        weak = [f"{e:g}" for e in eps if not per_eps[e]["friedman_p"] < 0.05]
        if weak:
            caveats.append(f"{task}, {scope}: the Friedman test is not significant at ε = {', '.join(weak)} "
                           "(no ranking is supported there)")
    tracks = os.path.join(pub_dir, "tracks.csv")
    tuned = os.path.exists(tracks)
    if tuned:
        out += selection_lines(tracks)
    caveats.insert(0, "ranks are of each forest at its paper settings" + (
        f"; the private-selection track (tuned, {SELECTION_PRIVACY}) is ranked apart in the report, the oracle "
        "(non-private tuning) never" if tuned else ", untuned (one configuration each)"))
    caveats.append("with N datasets and k forests the Nemenyi test separates only large rank gaps: the best few "
                   "are usually not significantly different")
    out += ["", "Caveats: " + "; ".join(caveats) + ". The protocol, data tiers and the rest: "
            "[docs/leaderboard.md](docs/leaderboard.md)."]
    return out


def selection_lines(tracks_csv):
    """Per task and scope with a private-selection track in tracks.csv: the forest with the best mean rank
    in that track at the most ε, and in how many (forest, ε) pairs private selection beat the same forest
    at its paper settings (mean accuracy higher, or mean MSE lower, over the scope's datasets)."""
    by = defaultdict(lambda: defaultdict(list))
    with open(tracks_csv, newline="") as f:
        for r in csv.DictReader(f):
            by[(r["task"], r["scope"])][float(r["epsilon"])].append(r)
    out = []
    for (task, scope), per_eps in sorted(by.items()):
        best = defaultdict(int)
        n_eps = better = pairs = 0
        for eps, rows in sorted(per_eps.items()):
            ranked = [r for r in rows if not math.isnan(float(r["selection_rank"]))]
            if not ranked:
                continue
            n_eps += 1
            best[min(ranked, key=lambda r: (float(r["selection_rank"]), r["algorithm"]))["algorithm"]] += 1
            for r in ranked:
                p, q = float(r["paper_mean"]), float(r["selection_mean"])
                if math.isnan(p) or math.isnan(q):
                    continue
                pairs += 1
                better += (q < p) if task == "regression" else (q > p)
        if not n_eps:
            continue
        lead, n_lead = max(best.items(), key=lambda kv: (kv[1], kv[0]))
        metric = "MSE" if task == "regression" else "accuracy"
        out.append(f"- tuned by private selection ({SELECTION_PRIVACY}; ranked apart), {task}, {scope} datasets: "
                   f"**{short_name(lead)}** has the best mean rank at {n_lead} of {n_eps} ε; private selection beat "
                   f"the forest's paper settings (mean {metric}) in {better} of {pairs} (forest, ε) pairs.")
    return out


def update_readme(readme, block, check_only=False):
    try:
        return replace_marked_block(readme, README_BEGIN, README_END, block, check_only)
    except ValueError as e:
        raise SystemExit(str(e)) from None


def incomplete_blocks(outdir):
    """(incomplete, total) blocks of completeness.csv in outdir."""
    with open(os.path.join(outdir, "completeness.csv"), newline="") as f:
        comp = list(csv.DictReader(f))
    return sum(1 for r in comp if r["status"] != "complete"), len(comp)


def partial_banner(bad, total, subset=None):
    """The line a partial copy's report opens with ("" for a complete run of the whole protocol). `subset`
    says what a run of part of the protocol covers (e.g. "binary scope, epsilon 1"): its blocks can all be
    complete, and it is still not the leaderboard."""
    what = f" This run covers a subset of the protocol: {subset}." if subset else ""
    if bad:
        return (f"> **Partial run, not a complete leaderboard:** {bad} of {total} blocks are incomplete "
                f"(incomplete.md); every rank below is over the complete blocks only.{what}\n\n")
    if subset:
        return f"> **Partial run, not a complete leaderboard:**{what} Every block of it is complete.\n\n"
    return ""


def compact_png(src, dst):
    """The tracked copy of a figure: the same pixels reduced to a 256-colour palette (the figures draw a few
    dozen colours and their anti-aliasing), about a third of matplotlib's RGBA file, so that publishing
    every CD diagram and panel keeps the repository small."""
    from PIL import Image
    with Image.open(src) as im:
        pal = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    pal.save(dst, optimize=True)


def publish(outdir, pub_dir, readme, partial=False, subset=None):
    """Copies the leaderboard's light outputs to pub_dir (tracked in git) and rewrites README's block. An
    incomplete run is refused unless `partial`; a partial copy says so in its report and the README block.
    `subset` (with partial) names the part of the protocol a run covers; the copy then holds partial.txt."""
    import shutil
    bad, total = incomplete_blocks(outdir)
    if bad and not partial:
        raise SystemExit(f"refusing to publish: {bad} of {total} blocks are incomplete ({outdir}/incomplete.md); "
                         "finish the run, or pass --partial to publish it marked as partial")
    os.makedirs(pub_dir, exist_ok=True)
    # A fresh copy: files an earlier publication left that this run does not produce (a figure of an ε or
    # track no longer run, partial.txt of a partial copy) would otherwise sit beside the new ones.
    for name in os.listdir(pub_dir):
        if name in PUBLISH_FILES or name == "partial.txt" or any(re.fullmatch(p, name) for p in PUBLISH_PATTERNS):
            os.remove(os.path.join(pub_dir, name))
    names = [n for n in PUBLISH_FILES if os.path.exists(os.path.join(outdir, n))]
    names += sorted(n for n in os.listdir(outdir) if any(re.fullmatch(p, n) for p in PUBLISH_PATTERNS))
    for name in names:
        if name == "leaderboard.md":
            continue
        if name.endswith(".png"):
            compact_png(os.path.join(outdir, name), os.path.join(pub_dir, name))
        else:
            shutil.copyfile(os.path.join(outdir, name), os.path.join(pub_dir, name))
    if "leaderboard.md" in names:
        with open(os.path.join(outdir, "leaderboard.md")) as f:
            md = f.read()

        def link(m):
            if m.group(2) in names:
                return m.group(0)
            return (f"*({m.group(1)}: `{m.group(2)}` is not in this published copy; `make reproduce-benchmark` "
                    f"draws it in results/benchmark/leaderboard/)*")
        md = partial_banner(bad, total, subset if partial else None) + md
        with open(os.path.join(pub_dir, "leaderboard.md"), "w") as f:
            f.write(re.sub(r"!\[([^\]]*)\]\(([^)]+)\)", link, md))
    if partial and subset:
        with open(os.path.join(pub_dir, "partial.txt"), "w") as f:
            f.write(f"A partial run: {subset} ({bad} of {total} blocks incomplete).\n")
    total = sum(os.path.getsize(os.path.join(pub_dir, n)) for n in os.listdir(pub_dir))
    print(f"published {len(os.listdir(pub_dir))} files ({total} bytes) to {pub_dir}")
    if readme:
        write_readme(pub_dir, readme)


def write_readme(pub_dir, readme, check_only=False):
    """README's leaderboard block from the copy in pub_dir, linked relative to the README; with check_only,
    whether the README already holds it."""
    rel = os.path.relpath(os.path.abspath(pub_dir), os.path.dirname(os.path.abspath(readme)))
    ok = update_readme(readme, readme_block(pub_dir, rel), check_only)
    if not check_only:
        print(f"{readme}: leaderboard block rewritten from {pub_dir}")
    return ok


def main(argv=None):
    """On a fresh clone: rewrite (or with --check, verify) README.md's leaderboard block from the committed
    published copy alone, with no results and no rerun."""
    import argparse
    ap = argparse.ArgumentParser(prog="python3 -m plots.benchmark.publish", description=main.__doc__)
    ap.add_argument("--from", dest="pub_dir", default=os.path.join("results", "reference", "benchmark", "leaderboard"),
                    metavar="DIR", help="the published copy (default: %(default)s)")
    ap.add_argument("--readme", default="README.md", help="the README whose block is rewritten (default: %(default)s)")
    ap.add_argument("--check", action="store_true", help="only check that the block is the one the copy gives")
    a = ap.parse_args(argv)
    for need in ("ranks.csv", "completeness.csv"):
        if not os.path.exists(os.path.join(a.pub_dir, need)):
            raise SystemExit(f"{a.pub_dir}: no {need}; not a published leaderboard copy "
                             "(make reproduce-benchmark PUBLISH=1 writes one)")
    if not a.check:
        write_readme(a.pub_dir, a.readme)
    elif not write_readme(a.pub_dir, a.readme, check_only=True):
        raise SystemExit(f"{a.readme}: the leaderboard block differs from the one {a.pub_dir} gives "
                         "(python3 -m plots.benchmark.publish rewrites it)")
    else:
        print(f"{a.readme}: the leaderboard block matches {a.pub_dir}")


if __name__ == "__main__":
    main()
