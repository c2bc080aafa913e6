"""[v1] Figure 2: tail probability P(|Ñ_i - N/2^d| >= t) of a leaf count in a depth-d DiPriMe tree,
empirical (leaf occupancies recorded by the run) against [v1] Thm 2 (A.2.2):
  Chebyshev:        γ / (ε₁² t²),                          γ = 8 (1 - 2^(-2d)) / 3
  sub-exponential:  2 exp(-ε₁² t² / (4γ)) for t <= 2βγ/ε₁,  2 exp(-ε₁ β t / 2) beyond,  β² = (√(1 - 2/e) + 1)/2
with ε₁ = ρε/(2 d_max), the budget of one median draw ([v1] Alg. 1 line 12). The red line is the tighter
(smaller) of the two, as in the paper. N is a tree's row count: the partitioned forest cuts n_train
rows into N_T chunks (sizes differ by at most one), so N/2^d = n_train / (N_T 2^d) up to 1/2^d.
Panel (a): histogram of Ñ_i - N/2^d; panel (b): the tails and the bound (log scale).
Usage: python3 -m plots.dipreme_v1.figure_2 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-2.pdf/.png there)"""
import math
import sys
from collections import defaultdict

from plots import common


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme-v1", "figure-2", argv)
    rows = common.load_rows(result_dir)

    devs = defaultdict(list)
    params = {}
    for r in rows:
        occ = [float(v) for v in r.get("leaf_occupancy", "").split()]
        if not occ:
            continue
        n_train, n_trees, d = int(r["n_train"]), int(r["n_trees"]), int(r["max_depth"])
        expected = n_train / n_trees / 2 ** d
        devs[r["label"]] += [round(o * n_train) - expected for o in occ]
        eps1 = float(r["rho"]) * float(r["epsilon"]) / (2 * d)
        params[r["label"]] = (eps1, d, expected)

    if not devs:
        sys.exit(f"{result_dir}/results.csv: no leaf_occupancy values (the config needs record: [leaf_occupancy])")
    eps1, d, expected = next(iter(params.values()))
    gamma = 8 * (1 - 2.0 ** (-2 * d)) / 3
    beta = math.sqrt((math.sqrt(1 - 2 / math.e) + 1) / 2)

    def cheb(t):
        return gamma / (eps1 ** 2 * t ** 2)

    def subexp(t):
        return 2 * math.exp(-eps1 ** 2 * t ** 2 / (4 * gamma)) if t <= 2 * beta * gamma / eps1 else 2 * math.exp(-eps1 * beta * t / 2)

    colors = {0: "tab:blue", 1: "tab:green", 2: "tab:orange", 3: "tab:purple"}
    labels = sorted(devs)
    tmax = max(max(abs(v) for v in vals) for vals in devs.values())
    ts = [0.25 * i for i in range(1, int(4 * min(tmax, 12 * math.sqrt(gamma) / eps1)) + 2)]

    fig, axes = common.plt.subplots(1, 2, figsize=(12, 4.4))
    for i, label in enumerate(labels):
        vals = devs[label]
        sd = math.sqrt(sum(v * v for v in vals) / len(vals))
        # Counts are integers: one bin per integer value of Ñ_i (deviations live on Z - N/2^d).
        off = -expected % 1.0
        lo_edge = math.floor(min(vals)) - 0.5 + off - 1
        edges = [lo_edge + k for k in range(int(max(vals) - lo_edge) + 3)]
        axes[0].hist(vals, bins=edges, density=True, histtype="step", color=colors.get(i), linewidth=1.5,
                     label=f"{label} (rms {sd:.1f})")
        n = len(vals)
        tail = [sum(1 for v in vals if abs(v) >= t) / n for t in ts]
        axes[1].plot(ts, [max(p, 0.5 / n) for p in tail], color=colors.get(i), label=f"empirical: {label} ({n} leaves)")
    axes[0].set_xlabel("Ñ_i - N/2^d")
    axes[0].set_ylabel("density")
    axes[0].set_title(f"(a) leaf counts around N/2^d = {expected:.1f}; Thm 2's model has sd √γ/ε₁ = "
                      f"{math.sqrt(gamma) / eps1:.2f}", fontsize=9)
    axes[0].legend(fontsize=8)
    axes[1].plot(ts, [min(1.0, cheb(t), subexp(t)) for t in ts], color="tab:red", linewidth=2,
                 label="Thm 2: tighter bound")
    axes[1].plot(ts, [min(1.0, cheb(t)) for t in ts], color="tab:red", linestyle=":", label="Chebyshev γ/(ε₁²t²)")
    axes[1].plot(ts, [min(1.0, subexp(t)) for t in ts], color="tab:red", linestyle="--", label="sub-exponential")
    axes[1].set_yscale("log")
    axes[1].set_ylim(0.3 / max(len(v) for v in devs.values()), 1.5)
    axes[1].set_xlabel("t")
    axes[1].set_ylabel("P(|Ñ_i - N/2^d| >= t)")
    axes[1].set_title(f"(b) tails vs [v1] Thm 2 (d = {d}, ε₁ = {eps1:g}, γ = {gamma:.3f}, β = {beta:.3f})", fontsize=9)
    axes[1].legend(fontsize=7)
    for ax in axes:
        ax.grid(True, alpha=0.3)
    fig.suptitle("[v1] Figure 2: leaf counts of depth-10 DiPriMe trees (uniform-position median unless marked)")
    common.save(fig, result_dir, "figure-2")
    for label in labels:
        vals = devs[label]
        for t in (10, 20, 30):
            p = sum(1 for v in vals if abs(v) >= t) / len(vals)
            print(f"{label}: P(|dev| >= {t}) = {p:.4g}  bound {min(1.0, cheb(t), subexp(t)):.4g}")


if __name__ == "__main__":
    main()
