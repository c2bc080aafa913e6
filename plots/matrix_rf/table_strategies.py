"""matrix-rf strategy investigation: identity vs HDMM templates vs A = T (the Laplace baseline).

Usage: python3 -m plots.matrix_rf.table_strategies [RESULT_DIR]
(reads results.csv, writes table-strategies.md/.csv there)
loss/identity = strategy_loss / identity_loss (< 1: the strategy beats identity); error/identity =
expected_error relative to the identity row of the same dataset, τ and method family (training or
prediction), which also covers the Laplace baseline (A = T, loss τ²·o).
"""
import csv
import os
import statistics
from collections import defaultdict

from plots import common


def mean(rs, col):
    vals = [float(x[col]) for x in rs if x.get(col, "") not in ("", "nan")]
    return statistics.mean(vals) if vals else float("nan")


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "table-strategies", argv)
    rows = common.load_rows(result_dir)
    groups = defaultdict(list)
    for r in rows:
        fam = "pred" if r["algorithm"] == "mrf-predict" else "train"
        p = r.get("p", "") if r.get("strategy", "identity") not in ("", "identity") else ""
        groups[(r["dataset"], int(r["n_trees"]), fam, r["label"], p)].append(r)

    ident_err = {}
    for (ds, tau, fam, label, p), rs in groups.items():
        if label.endswith("identity"):
            ident_err[(ds, tau, fam)] = mean(rs, "expected_error")

    lines = ["| dataset | τ | method | p | templates (first rep.) | loss/identity | error/identity | accuracy | optimise s |",
             "|---|---|---|---|---|---|---|---|---|"]
    out = []
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[2], k[3], int(k[4] or 0))):
        ds, tau, fam, label, p = key
        rs = groups[key]
        ratios = [float(x["strategy_loss"]) / float(x["identity_loss"]) for x in rs
                  if x.get("identity_loss", "") not in ("", "0", "nan")]
        ratio = statistics.mean(ratios) if ratios else float("nan")
        err = mean(rs, "expected_error") / ident_err.get((ds, tau, fam), float("nan"))
        tmpl = rs[0].get("strategy_templates", "")
        tmpl = tmpl if len(tmpl) <= 40 else tmpl[:37] + "..."
        acc = mean(rs, "accuracy")
        opt = mean(rs, "optimise_seconds")
        lines.append(f"| {ds} | {tau} | {label} | {p} | {tmpl} | {ratio:.4f} | {err:.4g} | {acc:.3f} | {opt:.3g} |")
        out.append([ds, tau, label, p, rs[0].get("strategy_templates", ""), ratio, err, acc, opt])
    reps = len({r["repetition"] for r in rows})
    text = f"# Strategy investigation at ε = 1 (mean over {reps} repetitions)\n\n" + "\n".join(lines) + "\n"
    with open(os.path.join(result_dir, "table-strategies.md"), "w") as fh:
        fh.write(text)
    with open(os.path.join(result_dir, "table-strategies.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "n_trees", "method", "p", "templates", "loss_over_identity", "error_over_identity", "accuracy", "optimise_s"])
        w.writerows(out)
    print(text)


if __name__ == "__main__":
    main()
