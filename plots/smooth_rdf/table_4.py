"""smooth-rdf Table 4: continuous / discrete features and tree depth, ours (authors' rule and Theorem 2
read literally) next to the paper's. Usage: python3 -m plots.smooth_rdf.table_4 [RESULT_DIR]"""
import os

from plots import common
from plots.smooth_rdf import srdf_common as S

PAPER = {"synth-a": (5, 0, 5), "synth-b": (10, 0, 8), "synth-c": (15, 0, 12), "synth-d": (15, 0, 12),
         "synth-e": (15, 0, 12), "synth-f": (10, 0, 8), "synth-g": (20, 0, 15), "wall-robot:4": (4, 0, 4),
         "pendigits": (16, 0, 12), "magic-gamma": (10, 0, 8), "adult:train": (6, 8, 9),
         "mushroom:drop-missing": (0, 22, 11), "clave": (0, 16, 8), "nursery": (0, 8, 4)}


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "table-4", argv)
    rows = common.load_rows(d)
    lines = ["| dataset | continuous (paper) | discrete (paper) | depth, authors' rule | depth, Theorem 2 literal | "
             "depth (paper) | match |", "|---|---|---|---|---|---|---|"]
    for ds in S.datasets_in(rows):
        ours = {r["label"]: r.get("tree_depth", "") for r in rows if r["dataset"] == ds}
        p = PAPER.get(ds, ("—", "—", "—"))
        a = ours.get("Ours", "")
        lines.append(f"| {S.name(ds)} | {p[0]} | {p[1]} | {a} | {ours.get('Theorem 2 (literal)', '')} | {p[2]} | "
                     f"{'yes' if str(p[2]) == a else 'NO'} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(d, "table-4.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
