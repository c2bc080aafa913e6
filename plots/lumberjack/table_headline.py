"""Lumberjack headline (configs/lumberjack/table-headline.yaml): accuracy on adult per method and epsilon,
mean ± sd over the 10 holdout splits, and each method's mean fit time. Reads only results.csv; writes
table-headline.md and table-headline.csv next to it.

usage: python3 -m plots.lumberjack.table_headline [RESULT_DIR]"""
from collections import defaultdict

from plots import common
from plots.common import load_rows, metric, summarize, write_md_csv


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "lumberjack", "table-headline", argv)
    acc, fit = defaultdict(list), defaultdict(list)
    labels, epsilons, status = [], set(), {}
    for r in load_rows(result_dir):
        eps = float(r["epsilon"]) if r.get("epsilon") else None
        acc[(r["label"], eps)].append(metric(r, "accuracy"))
        fit[r["label"]].append(float(r["fit_seconds"]))
        status[r["label"]] = r["privacy_status"].split(":")[0]
        if r["label"] not in labels:
            labels.append(r["label"])
        if eps is not None:
            epsilons.add(eps)
    eps_list = sorted(epsilons)
    md = ["# Lumberjack headline on adult: accuracy, mean ± sd over 10 holdout splits (90/10)", "",
          "| method | privacy | " + " | ".join(f"ε = {e:g}" for e in eps_list) + " | fit s (mean) |",
          "|---" * (len(eps_list) + 3) + "|"]
    out = []
    for m in labels:
        cells = []
        for e in eps_list:
            v = acc.get((m, e)) or acc.get((m, None))
            if not v:
                cells.append("—")
                continue
            mu, sd, _ = summarize(v)
            cells.append(f"{mu:.3f} ± {sd:.3f}")
            out.append({"method": m, "epsilon": e, "accuracy": f"{mu:.4f}", "sd": f"{sd:.4f}", "n": len(v)})
        md.append(f"| {m} | {status[m]} | " + " | ".join(cells) + f" | {sum(fit[m]) / len(fit[m]):.2f} |")
    md += ["", "Lumberjack rows are (epsilon, delta)-DP at delta = 1e-6; the strict baselines are epsilon-DP; "
           "'published, not epsilon-DP' rows are the published mechanisms. The claims in "
           "configs/lumberjack/published.yaml test Lumberjack against each baseline (make check-published PAPER=lumberjack)."]
    write_md_csv(result_dir, "table-headline", md, out, ["method", "epsilon", "accuracy", "sd", "n"])


if __name__ == "__main__":
    main()
