"""smooth-rdf Figure 14: accuracy, Ours vs RGV (reconstructed, both ends of the paper's 110-1385 tree range);
Wilcoxon p-values and the paper's win/loss/tie tally (Ours wins 5, loses 4, ties on Adult; our gains 1.5-13.0 %,
RGV's gains 1.2-6.2 %).
Usage: python3 -m plots.smooth_rdf.figure_14 [RESULT_DIR]"""
import os

from plots.smooth_rdf import srdf_common as S

from plots import common


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-14", argv)
    rgv = ["RGV (reconstructed, 110 trees)", "RGV (reconstructed, 1385 trees)"]
    rows = S.bars_by_dataset(d, "accuracy", ["Ours"] + rgv, "figure-14", "Figure 14: accuracy, Ours vs RGV (eps = 1)",
                             "accuracy")
    S.wilcoxon_table(rows, d, "figure-14-wilcoxon", "accuracy", "Ours", rgv)

    # The paper's tally: a tie when the means differ by less than one sd (the paper's reading of "tie"); gains as
    # relative % (the reading that fits the JPW reference run, smooth-rdf.md §7.13) and in percentage points.
    lines = ["| RGV series | Ours wins | RGV wins | ties | Ours' gains (rel. %) | RGV's gains (rel. %) | gains (pp) |",
             "|---|---|---|---|---|---|---|"]
    for peer in rgv:
        wins, losses, ties, ours_gain, peer_gain, pp = [], [], [], [], [], []
        for ds in S.datasets_in(rows):
            o = common.summarize([common.metric(r, "accuracy") for r in rows if r["dataset"] == ds and r["label"] == "Ours"])
            p = common.summarize([common.metric(r, "accuracy") for r in rows if r["dataset"] == ds and r["label"] == peer])
            if not o[2] or not p[2]:
                continue
            diff = o[0] - p[0]
            pp.append(f"{S.name(ds)} {100 * diff:+.1f}")
            if abs(diff) < max(o[1], p[1]):
                ties.append(S.name(ds))
            elif diff > 0:
                wins.append(S.name(ds))
                ours_gain.append(100 * diff / p[0])
            else:
                losses.append(S.name(ds))
                peer_gain.append(-100 * diff / o[0])
        rng = lambda g: f"{min(g):.1f}-{max(g):.1f}" if g else "—"  # noqa: E731
        lines.append(f"| {peer} | {len(wins)} ({', '.join(wins)}) | {len(losses)} ({', '.join(losses)}) | "
                     f"{len(ties)} ({', '.join(ties)}) | {rng(ours_gain)} | {rng(peer_gain)} | {'; '.join(pp)} |")
    lines.append("| paper | 5 | 4 | 1 (Adult) | 1.5-13.0 | 1.2-6.2 | — |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(d, "figure-14-tally.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
