"""Compares merged results with a reference run: same rows (keyed by cell_id, repetition, fold) and the
same value in every column but those that describe the run rather than the result."""
import csv
import sys

VOLATILE = {"fit_seconds", "predict_seconds", "cpu_seconds", "threads", "host", "started_at", "git_commit"}


def rows(path):
    with open(path, newline="") as f:
        return {(r["cell_id"], r["repetition"], r["fold"]): r for r in csv.DictReader(f)}


def main():
    ref_root, got_root, exps = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    for exp in exps:
        ref, got = rows(f"{ref_root}/{exp}/results.csv"), rows(f"{got_root}/{exp}/results.csv")
        if ref.keys() != got.keys():
            print(f"{exp}: rows differ: {len(ref)} reference, {len(got)} merged")
            bad += 1
            continue
        diffs = [(k, c) for k, r in ref.items() for c in r if c not in VOLATILE and r[c] != got[k].get(c)]
        for k, c in diffs[:5]:
            print(f"{exp}: {k} {c}: {ref[k][c]!r} vs {got[k].get(c)!r}")
        bad += bool(diffs)
        print(f"{exp}: {len(ref)} rows, {len(next(iter(ref.values())))} columns: "
              + ("identical but for timing and host" if not diffs else f"{len(diffs)} values differ"))
    sys.exit(1 if bad else 0)


main()
