"""smooth-rdf Figure 9: accuracy vs number of generated SynthF records, eps = 0.01, 0.1, 1.
Usage: python3 -m plots.smooth_rdf.figure_9 [RESULT_DIR]"""
from collections import defaultdict

from plots import common


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-9", argv)
    rows = common.load_rows(d)
    for r in rows:  # dataset "synth-f:n=N" -> column n_records
        spec = r["dataset"]
        r["n_records"] = spec.split("n=")[1].split(",")[0] if "n=" in spec else "30000"
        r["dataset"] = "synth-f"
    fig, ax = common.plt.subplots(figsize=(7, 4.5))
    for eps in sorted({r["epsilon"] for r in rows}, key=float):
        g = defaultdict(list)
        for r in rows:
            if r["epsilon"] == eps:
                g[float(r["n_records"])].append(common.metric(r, "accuracy"))
        xs = sorted(g)
        st = [common.summarize(g[x]) for x in xs]
        ax.errorbar(xs, [s[0] for s in st], yerr=[s[1] for s in st], marker="o", capsize=2, label=f"eps = {eps}")
    ax.set_xscale("log")
    ax.set_xlabel("records generated (SynthF)")
    ax.set_ylabel("accuracy")
    ax.grid(True, alpha=0.3)
    ax.legend()
    ax.set_title("Figure 9: SynthF, accuracy vs number of records (100 trees)")
    common.save(fig, d, "figure-9")


if __name__ == "__main__":
    main()
