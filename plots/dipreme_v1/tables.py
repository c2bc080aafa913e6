"""Shared selection for the [v1] tables: Table 1 sweeps max_depth over {5, 10} in one config because
[v1] used d_max = 5 for the UCI sets and 10 for Flight (dipreme.md §6.2); keep, per dataset, the
cells of its depth. Table 2 uses d_max = 5 throughout."""


def depth_of(dataset):
    return 10 if dataset.split(":")[0] == "flight-delay" else 5


def select(rows):
    return [r for r in rows if not r.get("max_depth") or int(r["max_depth"]) == depth_of(r["dataset"])]
