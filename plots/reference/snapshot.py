"""Writes the reference snapshot of a paper's full results (README.md "Reference snapshot and verify").

    python3 -m plots.reference.snapshot --paper dipreme [--experiment figure-2 ...] [--results results] [--out results/reference]
    python3 -m plots.reference.snapshot --config tests/reference/quick.yaml --results /tmp/r --out /tmp/ref   (any config)

For each experiment with results it writes <out>/<paper>/<experiment>.csv (reference.py describes the
columns), then <out>/<paper>/meta.yaml (git commit, date, per experiment: config, cells and tasks done
and in total, primary metric, complete) and, when configs/<paper>/published.yaml exists,
<out>/<paper>/published.json from `dpforest check-published --json`. An experiment whose results are
incomplete (cells unfinished, or results.csv missing or stale) is refused with the command that
completes it; --allow-partial writes what there is with `complete: false`. Exit 1 when something was
refused, 0 otherwise.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

import yaml

from plots.reference import from_snapshot
from plots.reference import reference as ref


def git(*args):
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def load_meta(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return yaml.safe_load(f) or {}


def snapshot_experiment(args, config, paper, experiment, out_dir):
    """Writes one experiment's CSV; returns (meta entry or None, message, refused)."""
    result_dir = os.path.join(args.results, paper, experiment)
    if not os.path.isdir(result_dir):
        return None, f"{paper}/{experiment}: no results in {result_dir} (skipped)", False
    complete, counts, problem = ref.completeness(args.dpforest, config, args.results, result_dir)
    csv_path = os.path.join(result_dir, "results.csv")
    if not complete and not (args.allow_partial and os.path.exists(csv_path)):
        how = (" (cells that cannot run, e.g. for missing data, keep it incomplete: --allow-partial, or ALLOW_PARTIAL=1 "
               "for make snapshot, writes the finished cells marked complete: false)") if os.path.exists(csv_path) else \
            " (--allow-partial needs a results.csv: `dpforest merge --allow-partial`)"
        return None, f"{paper}/{experiment}: NOT written, results incomplete: {problem}{how}", True
    header, rows = ref.read_csv(csv_path)
    if not rows:
        return None, f"{paper}/{experiment}: NOT written, {csv_path} is empty", True
    columns, out_rows, info = ref.summarize_table(header, rows)
    path = os.path.join(out_dir, experiment + ".csv")
    ref.write_snapshot_csv(path, columns, out_rows)
    entry = {"config": config, "cells_done": counts["cells_done"], "cells_total": counts["cells_total"],
             "tasks_done": counts["tasks_done"], "tasks_total": counts["tasks_total"],
             "cells_in_snapshot": info["cells_in_table"], "tasks_in_snapshot": info["tasks_in_table"],
             "primary_metric": info["primary_metric"], "complete": bool(complete),
             "metric_columns": info["metric_columns"], "dropped_columns": info["dropped_columns"],
             "results_git_commits": info["results_git_commits"],
             "snapshot_date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
             "bytes": os.path.getsize(path)}
    if counts.get("cells_unavailable"):
        entry["cells_not_runnable_here"] = counts["cells_unavailable"]
        entry["datasets_not_in_mirror"] = counts["unavailable_datasets"]
    if counts.get("excluded"):
        entry["excluded_by_config"] = counts["excluded"]
    if not complete:
        entry["incomplete"] = problem
    msg = (f"{paper}/{experiment}: {info['cells_in_table']} cells, {info['tasks_in_table']} tasks, primary "
           f"{info['primary_metric']} -> {path} ({entry['bytes']} bytes)" + ("" if complete else f" [complete: false: {problem}]"))
    return entry, msg, False


def write_published_json(doc, pub, out_dir):
    """Writes <out_dir>/published.json with the sha256 of the published.yaml its verdicts came from."""
    # The verdicts depend on published.yaml (tolerances, explanations, `unexplained`): record which one,
    # so the report and ctest `report` can tell when the snapshot's verdicts are older than the record.
    doc["published_yaml_sha256"] = ref.file_sha256(pub)
    path = os.path.join(out_dir, "published.json")
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(path + ".tmp", path)
    c = doc["counts"]
    return (f"{c['numbers']} numbers ({c['within']} within, {c['outside_explained']} outside "
            f"explained, {c['outside_unexplained']} outside unexplained, {c['no_data']} no data), {c['claims']} claims "
            f"({c['claims_hold']} hold, {c['claims_fail']} fail, {c['claims_no_data']} no data)")


def published_json(args, paper, out_dir):
    pub = os.path.join(args.configs, paper, "published.yaml")
    if not os.path.exists(pub):
        return None
    tmp = os.path.join(out_dir, "published.json.tmp")
    p = subprocess.run([args.dpforest, "check-published", pub, "--results", args.results, "--json", tmp],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{args.dpforest} check-published {pub} failed (exit {p.returncode}): {p.stderr.strip()}")
    with open(tmp) as f:
        doc = json.load(f)
    os.remove(tmp)
    label = recorded_root(args)
    if label != args.results:
        doc = ref.strip_root(doc, args.results, label)
    return f"{paper}: published.json: " + write_published_json(doc, pub, out_dir)


def recorded_root(args):
    """The results root as the committed snapshot records it (reference.portable_root)."""
    return ref.portable_root(args.results, os.path.dirname(os.path.abspath(args.configs)))


def published_only(args, by_paper):
    """Rewrites published.json of each paper: from the full results when the results root holds every
    experiment the snapshot holds, with the same cells; otherwise from the snapshot itself
    (from_snapshot.py says what that recomputes exactly and when it must refuse)."""
    rc = 0
    for paper, items in by_paper.items():
        out_dir = os.path.join(args.out, paper)
        meta = load_meta(os.path.join(out_dir, "meta.yaml"))
        missing = []
        for config, experiment in items:
            entry = (meta.get("experiments") or {}).get(experiment)
            if not entry:
                continue
            result_dir = os.path.join(args.results, paper, experiment)
            csv_path = os.path.join(result_dir, "results.csv")
            if not os.path.exists(csv_path):
                missing.append(f"{experiment} (no {csv_path})")
                continue
            complete, counts, problem = ref.completeness(args.dpforest, config, args.results, result_dir)
            if counts.get("cells_done") != entry.get("cells_done"):
                missing.append(f"{experiment} ({counts.get('cells_done')} cells done, the snapshot has "
                               f"{entry.get('cells_done')}: {problem or 'different results'})")
        if not missing:
            msg = published_json(args, paper, out_dir)
            print(msg or f"{paper}: no published.yaml")
            continue
        pub = os.path.join(args.configs, paper, "published.yaml")
        if not os.path.exists(pub):
            print(f"{paper}: no published.yaml")
            continue
        doc, why = from_snapshot.published_from_snapshot(args.dpforest, args.configs, out_dir, paper)
        if doc is None:
            print(f"{paper}: published.json NOT rewritten; {args.results} lacks full results the snapshot holds ("
                  + "; ".join(missing) + ") and the snapshot alone cannot give every verdict: " + why
                  + ". Rerun them (make reproduce-... PAPER=" + paper + ") or `make snapshot`.", file=sys.stderr)
            rc = 1
            continue
        print(f"{paper}: published.json from the snapshot ({args.results} lacks " + "; ".join(missing) + "): "
              + write_published_json(doc, pub, out_dir))
    return rc


def main():
    ap = argparse.ArgumentParser(prog="python3 -m plots.reference.snapshot", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--paper", help="configs/<paper>/*.yaml (every experiment with results)")
    ap.add_argument("--experiment", action="append", default=[], help="only these experiments of --paper")
    ap.add_argument("--config", action="append", default=[], help="a config file (instead of --paper)")
    ap.add_argument("--results", default="results", help="results root (holds <paper>/<experiment>/results.csv)")
    ap.add_argument("--out", default=os.path.join("results", "reference"), help="reference root")
    ap.add_argument("--configs", default="configs", help="configs root (for --paper and published.yaml)")
    ap.add_argument("--dpforest", default=os.path.join("build", "dpforest"))
    ap.add_argument("--allow-partial", action="store_true", help="write incomplete experiments with complete: false")
    ap.add_argument("--published-only", action="store_true",
                    help="rewrite only <out>/<paper>/published.json (after an edit of published.yaml), from full "
                         "results of every experiment the snapshot holds, or else from the snapshot itself "
                         "(from_snapshot.py); the experiment CSVs stay as they are")
    args = ap.parse_args()
    if not args.paper and not args.config:
        ap.error("give --paper or --config")
    if not os.access(args.dpforest, os.X_OK):
        sys.exit(f"snapshot: {args.dpforest} is not an executable (build it: make tool)")

    configs = list(args.config)
    if args.paper:
        found = ref.config_paths(args.configs, args.paper)
        if not found:
            sys.exit(f"snapshot: no configs in {os.path.join(args.configs, args.paper)}")
        names = {os.path.splitext(os.path.basename(c))[0]: c for c in found}
        for e in args.experiment:
            if e not in names:
                sys.exit(f"snapshot: {args.paper} has no experiment '{e}' (configs: {', '.join(sorted(names))})")
        configs += [names[e] for e in args.experiment] if args.experiment else found

    by_paper = {}
    for c in configs:
        ident = ref.config_identity(c)
        if ident is None:
            if c in args.config:
                sys.exit(f"snapshot: {c} is not an experiment config (no 'paper' and 'experiment' keys)")
            continue
        by_paper.setdefault(ident[0], []).append((c, ident[1]))
    if args.published_only:
        return published_only(args, by_paper)
    refused = 0
    for paper, items in by_paper.items():
        out_dir = os.path.join(args.out, paper)
        os.makedirs(out_dir, exist_ok=True)
        meta_path = os.path.join(out_dir, "meta.yaml")
        meta = load_meta(meta_path)
        experiments = meta.get("experiments") or {}
        wrote = 0
        for config, experiment in items:
            entry, msg, bad = snapshot_experiment(args, config, paper, experiment, out_dir)
            print(msg, file=sys.stderr if bad else sys.stdout)
            refused += bad
            if entry:
                experiments[experiment] = entry
                wrote += 1
        if wrote == 0:
            print(f"{paper}: nothing written in {out_dir}", file=sys.stderr)
            if not os.listdir(out_dir):
                os.rmdir(out_dir)
            continue
        msg = published_json(args, paper, out_dir) if args.paper or os.path.exists(
            os.path.join(args.configs, paper, "published.yaml")) else None
        if msg:
            print(msg)
        meta = {"paper": paper,
                "git_commit": git("rev-parse", "HEAD") or "unknown",
                # Uncommitted changes to tracked files other than the snapshot itself (rewritten just now).
                "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", ".",
                                      ":(exclude)results/reference")),
                "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "results_root": recorded_root(args),
                "format": "reference snapshot v1 (plots/reference/reference.py)",
                "experiments": dict(sorted(experiments.items()))}
        with open(meta_path + ".tmp", "w") as f:
            yaml.safe_dump(meta, f, sort_keys=False, allow_unicode=True, width=120)
        os.replace(meta_path + ".tmp", meta_path)
        total = sum(os.path.getsize(os.path.join(out_dir, f)) for f in os.listdir(out_dir))
        print(f"{paper}: {wrote} experiments written; {out_dir} holds {total} bytes")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
