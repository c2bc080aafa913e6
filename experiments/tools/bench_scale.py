"""Scale: fit time and peak memory at 10^5, 10^6 and 10^7 rows of a HIGGS-shaped dataset (d = 28).

For each algorithm, `dpforest bench-fit` fits once (no warm-up at this size) on
synthetic:classification:n=N,d=28 for N in SIZES, in a fresh process each time, and reports:
  ours_fit_s               the fit's wall time (one thread)
  dataset_mb               N x 29 doubles, the dataset's own size
  ours_peak_rss_mb         the process's peak resident memory (dataset + fit + model), VmHWM
  peak_rss_over_dataset    their ratio (the target: at most 2)
  growth_exponent          least-squares slope of log(fit time) on log(N) over the sizes (1: linear)
  ours_predict_s           scoring the N training rows with the fitted model (wall, one thread)
  predict_over_fit         its ratio to the fit time (the target: at most 1)
RF is one depth-limited tree (max_depth 12, min_samples_leaf 5): fully grown trees on 10^7 rows
would be a multi-gigabyte model whatever the implementation, which is not what this row measures,
and one tree keeps `make bench` within minutes (a forest's time is the trees' times added up).
DPF_BENCH_SCALE_MAX (default 10000000) lowers the largest size for a quick run.
"""
import math
import os

SIZES = [10**5, 10**6, 10**7]
D = 28
ALGORITHMS = [
    ("rf", {"n_trees": 1, "max_depth": 12, "min_samples_leaf": 5}),
    ("dipreme", {"epsilon": 1, "n_trees": 10, "max_depth": 10, "strict": "true"}),
    ("smooth-rdf", {"epsilon": 1, "n_trees": 10, "strict": "true", "domains": "public"}),
    ("dp-ert", {"epsilon": 1, "n_trees": 10, "max_depth": 10, "strict": "true"}),
]


def slope(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    den = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / den if den else float("nan")


def run(ctx):
    top = int(os.environ.get("DPF_BENCH_SCALE_MAX", SIZES[-1]))
    sizes = [n for n in SIZES if n <= top]
    rows = []
    for algo, params in ALGORITHMS:
        got = []
        for n in sizes:
            dataset = f"synthetic:classification:n={n},d={D},seed=1"
            try:
                r = ctx.ours(algo, dataset, params, 1, test_fraction=0.1, warmup=False)
            except Exception as e:  # noqa: BLE001
                ctx.errors.append((f"scale: {algo} at n={n}", str(e)))
                continue
            got.append((n, r))
        if not got:
            continue
        exponent = slope([n for n, _ in got], [r["fit_seconds"]["median"] for _, r in got]) if len(got) > 1 else None
        for n, r in got:
            rows.append({
                "dataset": f"synthetic:classification:n={n},d={D},seed=1", "n_rows": r["n_rows"],
                "n_features": r["n_features"], "ours_algorithm": algo,
                "ours_params": ";".join(f"{k}={v}" for k, v in params.items()),
                "ours_fit_s": f'{r["fit_seconds"]["median"]:.6g}',
                "ours_fits_per_s": f'{1 / r["fit_seconds"]["median"]:.6g}', "repeats": 1,
                "ours_test_accuracy": f'{r["test_accuracy"]:.4f}',
                "dataset_mb": f'{r["dataset_bytes"] / 2**20:.1f}',
                "ours_peak_rss_mb": f'{r["peak_rss_bytes"] / 2**20:.1f}',
                "peak_rss_over_dataset": f'{r["peak_rss_bytes"] / r["dataset_bytes"]:.2f}',
                "growth_exponent": f"{exponent:.3f}" if exponent is not None else "",
                "ours_predict_s": f'{r["predict_seconds"]:.6g}',
                "predict_over_fit": f'{r["predict_seconds"] / r["fit_seconds"]["median"]:.3f}',
            })
    return rows
