"""Helpers of the dipreme balance figures (3 and 4): the space-separated diagnostics that
`record: [leaf_occupancy, left_fraction]` writes into a results row, and their summaries."""
import math
import statistics


def values(row, column):
    """The row's recorded list (floats); an empty list when the column is missing or empty."""
    text = (row.get(column) or "").strip()
    return [float(v) for v in text.split()] if text else []


def is_true(v):
    return str(v).strip().lower() in ("true", "1")


def per_tree_occupancy(row):
    """Leaf occupancies relative to the rows the tree was grown on: count / n_train, times N_T for a
    partitioned forest (each tree holds one of N_T near-equal chunks)."""
    occ = values(row, "leaf_occupancy")
    if is_true(row.get("partition", "")):
        nt = float(row["n_trees"])
        occ = [v * nt for v in occ]
    return occ


def cv(xs):
    """Coefficient of variation (population std / mean), the notebook's leaf-count diagnostic."""
    if not xs:
        return math.nan
    m = statistics.fmean(xs)
    return statistics.pstdev(xs) / m if m > 0 else math.nan


def share_between(xs, lo, hi):
    return sum(lo <= x <= hi for x in xs) / len(xs) if xs else math.nan
