"""smooth-rdf Table 3: % of empty leaves (disjoint data, eps = 1) with 1 and 30 trees, ours next to the
paper's (smooth-rdf.md §5.3). Usage: python3 -m plots.smooth_rdf.table_3 [RESULT_DIR]"""
import os

from plots import common
from plots.smooth_rdf import srdf_common as S

PAPER = {  # dataset: (1 tree mean, sd, 30 trees mean, sd), Table 3
    "synth-a": (49.8, 12.8, 68.5, 2.0), "synth-b": (79.1, 6.3, 90.3, 0.7), "synth-c": (95.0, 1.5, 98.5, 0.1),
    "synth-d": (95.7, 1.3, 98.5, 0.1), "synth-e": (63.3, 1.8, 73.7, 0.1), "synth-f": (79.2, 6.2, 89.9, 0.7),
    "synth-g": (98.7, 0.4, 99.7, 0.0), "wall-robot:4": (48.6, 12.3, 65.1, 2.1), "pendigits": (92.4, 1.2, 97.7, 0.1),
    "magic-gamma": (86.2, 3.8, 93.5, 0.5), "adult:train": (99.8, 0.0, 99.9, 0.0),
    "mushroom:drop-missing": (99.9, 0.0, 99.9, 0.0), "clave": (0.0, 0.0, 28.7, 0.4), "nursery": (0.2, 0.5, 7.2, 0.8),
}


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "table-3", argv)
    rows = common.load_rows(d)
    lines = ["| dataset | records | depth | 1 tree (ours) | 1 tree (paper) | 30 trees (ours) | 30 trees (paper) |",
             "|---|---|---|---|---|---|---|"]
    for ds in S.datasets_in(rows):
        sub = [r for r in rows if r["dataset"] == ds]
        n = int(sub[0]["n_train"]) + int(sub[0]["n_test"])
        depth = sub[0].get("tree_depth", "")
        cells = [S.name(ds), str(n), depth]
        for k, t in enumerate(("1", "30")):
            m, s, _ = common.summarize([100 * common.metric(r, "empty_leaf_fraction") for r in sub if r["n_trees"] == t])
            p = PAPER.get(ds)
            cells += [common.fmt_pm(m, s, 3), f"{p[2 * k]} ± {p[2 * k + 1]}" if p else "—"]
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(d, "table-3.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
