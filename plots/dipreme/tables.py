"""Shared selection for the DiPriMe tables: one config covers datasets whose depths differ, so the
configs sweep `occupancy` (and RF/ERT's max_depth) and each table keeps, per dataset, the cells of
that dataset's occupancy (10 for Banknote, 25 otherwise; dipreme.md §6.1) and, for RF/ERT, the cells
with max_depth = d_full = floor(log2(n_train / occ))."""
import math


def occupancy_of(dataset):
    return 10 if dataset.split(":")[0] == "banknote" else 25


def select(rows):
    kept = []
    for r in rows:
        occ = occupancy_of(r["dataset"])
        if r.get("occupancy"):
            if int(r["occupancy"]) != occ:
                continue
        elif r["algorithm"] in ("rf", "ert"):
            d_full = int(math.floor(math.log2(int(r["n_train"]) / occ) + 1e-9))
            if int(r["max_depth"]) != d_full:
                continue
        kept.append(r)
    return kept
