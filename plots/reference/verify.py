"""Compares results with the reference snapshot, cell by cell (README.md "Reference snapshot and verify").

    python3 -m plots.reference.verify --paper dipreme [--experiment table-1 ...] [--results results] [--reference results/reference]

For every experiment of the snapshot (or those named): uses results/<paper>/<experiment>/results.csv
when it is complete (--rerun: never; everything is run into a temporary root), else runs the experiment first (`dpforest run CONFIG --results RESULTS`), then
for every cell compares the primary metric's per-task values with the snapshot's. Folds and seeds
come from task coordinates, so the two vectors are paired fold by fold:

  unchanged        the values are identical (to the snapshot's 6 significant digits);
  within noise     they differ, but a paired t-test on the per-fold differences does not reject "no
                   change" at --alpha after Holm's correction over the experiment's compared cells;
  FLAGGED          it does (a constant shift on every fold has p = 0), or the cell has one task, so
                   that any change is beyond what fold noise can explain.

A cell is matched by its id; a cell whose id changed (a parameter of the config changed) is matched
by (label, algorithm, dataset), among several such cells the one differing in the fewest parameters
(when unique), and the changed parameters are named. Cells only in the snapshot are failures; cells only in the results are reported. Exit 1 when
a cell is flagged or missing from the results, 2 on bad input, 0 otherwise.
"""
import argparse
import math
import os
import subprocess
import sys

import yaml
from scipy import stats

from plots.reference import reference as ref


def paired_p(a, b):
    """Two-sided paired t-test p of b - a; 0 for a constant non-zero difference, 1 for none."""
    d = [y - x for x, y in zip(a, b)]
    n = len(d)
    mean = math.fsum(d) / n
    if all(x == 0 for x in d):
        return 1.0
    if n < 2:
        return math.nan
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in d) / (n - 1))
    if sd == 0:
        return 0.0
    t = mean / (sd / math.sqrt(n))
    return float(2 * stats.t.sf(abs(t), n - 1))


def holm(pvals):
    """Holm-adjusted p values (same order), monotone, capped at 1."""
    order = sorted(range(len(pvals)), key=lambda i: pvals[i])
    adj, running = [1.0] * len(pvals), 0.0
    m = len(pvals)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvals[i]))
        adj[i] = running
    return adj


def describe(row, shown_columns):
    shown = [f"{c}={row[c]}" for c in shown_columns if row.get(c, "") != ""]
    return f"{row.get('label', '')} on {row.get('dataset', '')}" + (f" ({', '.join(shown)})" if shown else "")


def distinguishing(rows, params):
    """epsilon, and the parameters that tell apart cells sharing a label and dataset (a swept column)."""
    groups = {}
    for r in rows:
        groups.setdefault((r.get("label", ""), r.get("dataset", "")), []).append(r)
    sweep = [c for c in params if any(len({r.get(c, "") for r in g}) > 1 for g in groups.values())]
    return (["epsilon"] if "epsilon" in params and "epsilon" not in sweep else []) + sweep


def match_cells(snap_rows, new_rows, params):
    """[(snapshot row, results row, how)], snapshot-only rows, results-only rows."""
    new_by_id = {r["cell"]: r for r in new_rows}
    pairs, left = [], []
    for s in snap_rows:
        if s["cell"] in new_by_id:
            pairs.append((s, new_by_id.pop(s["cell"]), None))
        else:
            left.append(s)
    key = lambda r: (r.get("label", ""), r.get("algorithm", ""), r.get("dataset", ""))  # noqa: E731
    differing = lambda s, r: [c for c in params if s.get(c, "") != r.get(c, "")]  # noqa: E731
    only_snap = []
    for s in left:
        # Same label, algorithm and dataset; among several (a swept parameter), the one differing from s in
        # the fewest parameters, when that one is unique.
        cands = sorted((len(differing(s, r)), i, r) for i, r in enumerate(new_by_id.values()) if key(r) == key(s))
        if cands and (len(cands) == 1 or cands[0][0] < cands[1][0]):
            r = cands[0][2]
            del new_by_id[r["cell"]]
            diff = [f"{c} {s.get(c, '')} -> {r.get(c, '')}" for c in differing(s, r)]
            pairs.append((s, r, "cell id " + s["cell"] + " -> " + r["cell"] + (": " + ", ".join(diff) if diff else "")))
        else:
            only_snap.append(s)
    return pairs, only_snap, list(new_by_id.values())


def verify_experiment(args, paper, experiment, entry, snap_path):
    config = args.config or entry.get("config")
    if not config or not os.path.exists(config):
        print(f"{paper}/{experiment}: the snapshot's config {config!r} does not exist (pass --config)", file=sys.stderr)
        return 2
    result_dir = os.path.join(args.results, paper, experiment)
    # A snapshot taken from incomplete results (complete: false, e.g. a dataset not mirrored) is compared
    # on the cells the run can produce; its missing cells stay missing on both sides.
    partial = not entry.get("complete", False)
    complete, counts, problem = (False, {}, "no results") if not os.path.isdir(result_dir) else \
        ref.completeness(args.dpforest, config, args.results, result_dir)
    if complete:
        print(f"{paper}/{experiment}: using the complete results in {result_dir}")
    else:
        print(f"{paper}/{experiment}: results not complete ({problem}); running {config}")
        p = subprocess.run([args.dpforest, "run", config, "--results", args.results, "--quiet"] +
                           (["--threads", str(args.threads)] if args.threads else []))
        # 3: some cells failed, 4: every cell skipped (missing data); both leave cells out, as the snapshot did.
        if p.returncode != 0 and not (partial and p.returncode in (3, 4)):
            print(f"{paper}/{experiment}: dpforest run exited {p.returncode}", file=sys.stderr)
            return 2
        complete, counts, problem = ref.completeness(args.dpforest, config, args.results, result_dir)
        if not complete and not partial:
            print(f"{paper}/{experiment}: still incomplete after the run: {problem}", file=sys.stderr)
            return 2
        if not os.path.exists(os.path.join(result_dir, "results.csv")):
            print(f"{paper}/{experiment}: no results.csv after the run: {problem}", file=sys.stderr)
            return 2
    snap_cols, snap_rows, primary, _ = ref.read_snapshot(snap_path)
    header, rows = ref.read_csv(os.path.join(result_dir, "results.csv"))
    new_cols, new_rows, info = ref.summarize_table(header, rows)
    if primary is None:
        print(f"{paper}/{experiment}: {snap_path} has no folds:<metric> column", file=sys.stderr)
        return 2
    if info["primary_metric"] != primary and primary not in info["metric_columns"]:
        print(f"{paper}/{experiment}: the results have no column {primary} (the snapshot's primary metric)", file=sys.stderr)
        return 2
    params = [c for c in snap_cols if c in set(new_cols)
              and c not in ("cell", "n") and not c.startswith(ref.FOLDS_PREFIX)
              and not c.endswith("_sd") and c + "_sd" not in snap_cols]
    # The results' per-task values of the snapshot's primary metric, rounded as the snapshot stores them.
    cells = ref.group_cells(header, rows)
    for r in new_rows:
        r[ref.FOLDS_PREFIX + primary] = " ".join(ref.g6(ref.as_float(t.get(primary))) for t in cells[r["cell"]])
    pairs, only_snap, only_new = match_cells(snap_rows, new_rows, params)
    shown = distinguishing(snap_rows, params)

    unchanged, tested = 0, []
    problems = []
    for s, r, how in pairs:
        a, b = ref.fold_values(s, primary), [float(x) for x in r[ref.FOLDS_PREFIX + primary].split()]
        if len(a) != len(b):
            problems.append(f"  FLAGGED {s['cell']} {describe(s, shown)}: {len(a)} tasks in the snapshot, {len(b)} now")
            continue
        same = all((x == y) or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))
        if same and how is None:
            unchanged += 1
            continue
        pa = [x for x, y in zip(a, b) if not (math.isnan(x) or math.isnan(y))]
        pb = [y for x, y in zip(a, b) if not (math.isnan(x) or math.isnan(y))]
        p = paired_p(pa, pb) if pa else math.nan
        delta = (math.fsum(pb) - math.fsum(pa)) / len(pa) if pa else math.nan
        tested.append((s, r, how, p, delta, len(pa)))
    adjusted = holm([0.0 if math.isnan(t[3]) else t[3] for t in tested]) if tested else []
    within, flagged = 0, 0
    lines = []
    for (s, r, how, p, delta, n), q in zip(tested, adjusted):
        what = f"{s['cell']} {describe(s, shown)}" + (f" [{how}]" if how else "")
        if math.isnan(p):
            flagged += 1
            lines.append(f"  FLAGGED {what}: {primary} changed by {delta:+.4g} on its {n} task(s): "
                         f"no fold noise to judge a one-task cell by")
        elif q < args.alpha:
            flagged += 1
            lines.append(f"  FLAGGED {what}: {primary} mean change {delta:+.4g} over {n} paired tasks, "
                         f"p {p:.2g} (Holm {q:.2g} < {args.alpha:g})")
        else:
            within += 1
            if args.verbose:
                lines.append(f"  within noise {what}: {primary} mean change {delta:+.4g}, p {p:.2g} (Holm {q:.2g})")
    flagged += len(problems)
    lines = problems + lines
    for s in only_snap:
        lines.append(f"  MISSING {s['cell']} {describe(s, shown)}: in the snapshot, not in {result_dir}/results.csv")
    for r in only_new:
        lines.append(f"  new {r['cell']} {describe(r, shown)}: in the results, not in the snapshot")
    print(f"{paper}/{experiment}: {len(pairs)} cells compared on {primary}: {unchanged} unchanged, {within} changed "
          f"within fold noise, {flagged} flagged; {len(only_snap)} only in the snapshot, {len(only_new)} only in the "
          f"results (alpha {args.alpha:g}, Holm over {len(tested)} changed cells)")
    for line in lines:
        print(line)
    return 1 if flagged or only_snap else 0


def main():
    ap = argparse.ArgumentParser(prog="python3 -m plots.reference.verify", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--paper", required=True)
    ap.add_argument("--experiment", action="append", default=[])
    ap.add_argument("--config", help="run this config instead of the one meta.yaml names (one --experiment)")
    ap.add_argument("--results", default="results")
    ap.add_argument("--reference", default=os.path.join("results", "reference"))
    ap.add_argument("--dpforest", default=os.path.join("build", "dpforest"))
    ap.add_argument("--alpha", type=float, default=0.01, help="family-wise level per experiment (Holm)")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--verbose", action="store_true", help="also list the cells that changed within noise")
    ap.add_argument("--rerun", action="store_true",
                    help="ignore existing results: run every experiment into a temporary results root (removed after)")
    args = ap.parse_args()
    if args.rerun:
        import shutil
        import tempfile
        tmp = tempfile.mkdtemp(prefix=f"dpf-verify-{args.paper}-")
        args.results = tmp
        try:
            return run_all(ap, args)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return run_all(ap, args)


def run_all(ap, args):
    ref_dir = os.path.join(args.reference, args.paper)
    meta_path = os.path.join(ref_dir, "meta.yaml")
    if not os.path.exists(meta_path):
        print(f"verify: no snapshot for {args.paper}: {meta_path} is missing (make snapshot PAPER={args.paper} "
              f"writes it from a full run)", file=sys.stderr)
        return 2
    with open(meta_path) as f:
        meta = yaml.safe_load(f) or {}
    experiments = meta.get("experiments") or {}
    names = args.experiment or sorted(experiments)
    if args.config and len(names) != 1:
        ap.error("--config needs exactly one --experiment")
    worst = 0
    for e in names:
        snap = os.path.join(ref_dir, e + ".csv")
        if e not in experiments or not os.path.exists(snap):
            print(f"verify: {args.paper}/{e} is not in the snapshot {ref_dir} (it holds: "
                  f"{', '.join(sorted(experiments)) or 'nothing'})", file=sys.stderr)
            worst = max(worst, 2)
            continue
        if not experiments[e].get("complete", False):
            print(f"{args.paper}/{e}: note: the snapshot was taken from incomplete results "
                  f"({experiments[e].get('incomplete', '')})")
        worst = max(worst, verify_experiment(args, args.paper, e, experiments[e], snap))
    return worst


if __name__ == "__main__":
    sys.exit(main())
