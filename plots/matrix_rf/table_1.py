"""matrix-rf Table 1: our optimisation / training / prediction seconds next to the paper's.

Usage: python3 -m plots.matrix_rf.table_1 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes table-1.md and table-1.csv there)
Opti. = optimise_seconds; Train. = train_seconds (leaf counts and training noise, tree building
excluded as in the paper); Pred. = predict_seconds minus the optimisation done inside predict()
(batch prediction optimises its strategy on the query batch). The paper's numbers are Python on a
MacBook Air M2 (matrix-rf.md §5.4); ours are one thread of this machine.
"""
import csv
import os
import statistics
from collections import defaultdict

from plots import common

from plots.matrix_rf.paper_timings import TABLE1 as PAPER  # (the paper's Table 1, one copy)


def f(v):
    return "N/A" if v is None else f"{v:.4g}"


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "table-1", argv)
    rows = common.load_rows(result_dir)
    acc = defaultdict(lambda: defaultdict(list))
    for r in rows:
        key = (r["dataset"], r["label"])
        opt = float(r.get("optimise_seconds") or 0)
        pred = float(r["predict_seconds"])
        if r["algorithm"] == "mrf-predict":
            pred -= opt
        acc[key]["opt"].append(opt)
        acc[key]["train"].append(float(r.get("train_seconds") or 0))
        acc[key]["pred"].append(pred)
        acc[key]["acc"].append(float(r["accuracy"]))
        acc[key]["templates"].append(r.get("strategy_templates", ""))

    lines = ["| dataset | method | ours Opti. | ours Train. | ours Pred. | paper Opti. / Train. / Pred. | speed-up (Opti., Train., Pred.) | accuracy | templates (first rep.) |",
             "|---|---|---|---|---|---|---|---|---|"]
    out = []
    for key in sorted(acc):
        a = acc[key]
        o, t, p = (statistics.mean(a[k]) for k in ("opt", "train", "pred"))
        # UCI Cleveland holds the same 297 records as the authors' Heart file (configs/matrix-rf/figure-2.yaml).
        po, pt, pp = PAPER.get(key) or PAPER.get(("heart:upload", key[1]) if key[0].startswith("heart:") else key,
                                                 (None, None, None))
        is_np = key[1] == "Non-DP"
        speed = ", ".join("N/A" if (ref is None or ours <= 0) else f"{ref / ours:.0f}x"
                          for ref, ours in ((None if is_np else po, o), (pt, t), (pp, p)))
        tmpl = a["templates"][0]
        if len(tmpl) > 60:
            tmpl = tmpl[:57] + "..."
        lines.append(f"| {key[0]} | {key[1]} | {'N/A' if is_np else f(o)} | {f(t)} | {f(p)} | {f(po)} / {f(pt)} / {f(pp)} | {speed} | "
                     f"{statistics.mean(a['acc']):.3f} | {tmpl} |")
        out.append([key[0], key[1], o, t, p, po, pt, pp, statistics.mean(a["acc"])])
    reps = len({r["repetition"] for r in rows})
    text = "# Table 1: seconds (mean over %d repetitions, one thread)\n\n" % reps + "\n".join(lines) + "\n"
    with open(os.path.join(result_dir, "table-1.md"), "w") as fh:
        fh.write(text)
    with open(os.path.join(result_dir, "table-1.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "method", "opt_s", "train_s", "pred_s", "paper_opt_s", "paper_train_s", "paper_pred_s", "accuracy"])
        w.writerows(out)
    print(text)


if __name__ == "__main__":
    main()
