"""DP-EBM on adult (configs/dp-ebm/figure-accuracy-vs-epsilon.yaml): accuracy and AUC per method and epsilon,
mean ± sd over the 25 holdout splits, and each method's mean fit time. Reads only results.csv; writes
figure-accuracy-vs-epsilon.md and figure-accuracy-vs-epsilon.csv next to it.

usage: python3 -m plots.dp_ebm.figure_accuracy_vs_epsilon [RESULT_DIR]"""
from collections import defaultdict

from plots import common
from plots.common import load_rows, metric, summarize, write_md_csv


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dp-ebm", "figure-accuracy-vs-epsilon", argv)
    vals, fit = defaultdict(list), defaultdict(list)
    labels, epsilons, status = [], set(), {}
    for r in load_rows(result_dir):
        eps = float(r["epsilon"])
        for m in ("accuracy", "auc"):
            vals[(r["label"], eps, m)].append(metric(r, m))
        fit[r["label"]].append(float(r["fit_seconds"]))
        status[r["label"]] = r["privacy_status"].split(":")[0]
        if r["label"] not in labels:
            labels.append(r["label"])
        epsilons.add(eps)
    eps_list = sorted(epsilons)
    md = ["# DP-EBM on adult: accuracy / AUC, mean ± sd over 25 holdout splits (80/20), delta = 1e-6", "",
          "| method | privacy | " + " | ".join(f"ε = {e:g}" for e in eps_list) + " | fit s (mean) |",
          "|---" * (len(eps_list) + 3) + "|"]
    out = []
    for lab in labels:
        cells = []
        for e in eps_list:
            acc, auc = vals.get((lab, e, "accuracy")), vals.get((lab, e, "auc"))
            if not acc:
                cells.append("—")
                continue
            mu, sd, _ = summarize(acc)
            mu_auc, sd_auc, _ = summarize(auc)
            cells.append(f"{mu:.3f} ± {sd:.3f} / {mu_auc:.3f}")
            out.append({"method": lab, "epsilon": e, "accuracy": f"{mu:.4f}", "sd": f"{sd:.4f}",
                        "auc": f"{mu_auc:.4f}", "auc_sd": f"{sd_auc:.4f}", "n": len(acc)})
        md.append(f"| {lab} | {status[lab]} | " + " | ".join(cells) + f" | {sum(fit[lab]) / len(fit[lab]):.2f} |")
    md += ["", "Cells: accuracy ± sd / AUC. DP-EBM rows are (epsilon, delta) at delta = 1e-6 (the strict one is "
           "(epsilon, delta)-DP by the GDP ledger; the others are the published mechanisms); diffprivlib's are pure "
           "epsilon. The claims in configs/dp-ebm/published.yaml compare DP-EBM with diffprivlib's forest "
           "(make check-published PAPER=dp-ebm)."]
    write_md_csv(result_dir, "figure-accuracy-vs-epsilon", md, out, ["method", "epsilon", "accuracy", "sd", "auc", "auc_sd", "n"])


if __name__ == "__main__":
    main()
