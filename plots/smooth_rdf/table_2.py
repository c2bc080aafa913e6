"""smooth-rdf Table 2: smooth sensitivity e^(-j eps), ours (the library function, results.csv of the
formula table) next to the paper's printed cells (smooth-rdf.md §5.3; the paper truncates to five
decimals and prints the tiny values in scientific notation). Usage: python3 -m plots.smooth_rdf.table_2 [RESULT_DIR]"""
import os

from plots import common

# The paper's printed cells, (j, eps) -> text, for display beside ours; check-published compares them.
PAPER = {
    (0, "0.01"): "1.00000", (0, "0.1"): "1.00000", (0, "1.0"): "1.00000",
    (1, "0.01"): "0.99004", (1, "0.1"): "0.90483", (1, "1.0"): "0.36788",
    (5, "0.01"): "0.95122", (5, "0.1"): "0.60653", (5, "1.0"): "0.00674",
    (10, "0.01"): "0.90483", (10, "0.1"): "0.36788", (10, "1.0"): "0.00005",
    (50, "0.01"): "0.60653", (50, "0.1"): "0.00674", (50, "1.0"): "1.93e-22",
    (100, "0.01"): "0.36788", (100, "0.1"): "0.00005", (100, "1.0"): "3.72e-44",
    (500, "0.01"): "0.00674", (500, "0.1"): "1.93e-22", (500, "1.0"): "7.12e-218",
}


def fmt(v):
    # Six decimals, so that the paper's truncation to five stays visible (0.990050 vs 0.99004).
    return f"{v:.6f}" if v >= 1e-5 else f"{v:.3g}"


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "table-2", argv)
    rows = common.load_rows(d)
    eps = []
    for r in rows:
        if r["epsilon"] not in eps:
            eps.append(r["epsilon"])
    js = sorted({int(r["j"]) for r in rows})
    value = {(int(r["j"]), r["epsilon"]): float(r["value"]) for r in rows}
    lines = ["| j | " + " | ".join(f"eps = {e} (ours / paper)" for e in eps) + " |", "|---" * (len(eps) + 1) + "|"]
    for j in js:
        cells = [str(j)]
        for e in eps:
            cells.append(f"{fmt(value[(j, e)])} / {PAPER.get((j, e), '—')}")
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(d, "table-2.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
