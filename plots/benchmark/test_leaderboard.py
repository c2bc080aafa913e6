"""Self test of the leaderboard (plots/benchmark), no pytest needed; from the repository root:

    python3 -m plots.benchmark.test_leaderboard            # run the checks
    python3 -m plots.benchmark.test_leaderboard --make-sample DIR
        # write the synthetic 10 x 10-fold sample (DIR/classification, DIR/binary, DIR/regression) and stop

The statistics are checked against hand-computed values (Demšar 2006's worked example) and scipy; the whole
script runs end to end on the synthetic sample, which has a clear winner, a binary-only algorithm, a failed
cell and a block with missing folds."""
import csv
import math
import os
import random
import re
import subprocess
import sys
import tempfile

from plots import ROOT
from plots.benchmark import data as bench_data
from plots.benchmark import publish as bench_publish
from plots.benchmark import stats as bench_stats

LEADERBOARD = [sys.executable, "-m", "plots.benchmark.leaderboard"]

EPS = [0.1, 0.3, 1, 3, 10]
FIELDS = ["paper", "experiment", "label", "algorithm", "dataset", "task", "epsilon", "repetition", "fold",
          "n_train", "accuracy", "auc", "mse", "fit_seconds", "predict_seconds", "privacy_status", "epsilon_spent",
          "delta_spent", "n_features", "n_categorical", "n_classes", "cpu_seconds"]
# The sample datasets' shapes (features, categorical, classes): two feature bins, numeric / mixed /
# categorical, 2 and 3+ classes.
SHAPES = {"bin-a": (4, 0, 2), "bin-b": (4, 0, 2), "bin-c": (20, 5, 2), "bin-d": (20, 5, 2), "multi-e": (40, 40, 3),
          "multi-f": (40, 40, 7), "reg-a": (8, 0, 0), "reg-b": (8, 0, 0), "reg-c": (12, 3, 0)}
FAILURES = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def close(a, b, tol):
    return abs(a - b) <= tol


# ----------------------------------------------------------------------------------------------------------
# The synthetic sample

def make_sample(root, seed=7):
    """classification/ (6 datasets, 4 binary), binary/ (a binary-only algorithm), regression/ (3 datasets);
    10 x 10 folds, epsilon in EPS. "Good [DP]" wins everywhere; "Flaky [DP]" misses folds on one dataset at
    epsilon 0.1 and has a failed cell (cells/*.error) on another at epsilon 0.3."""
    rng = random.Random(seed)
    pairs = [(r, f) for r in range(10) for f in range(10)]
    cls = [("bin-a", 150, True), ("bin-b", 600, True), ("bin-c", 3000, True), ("bin-d", 20000, True),
           ("multi-e", 800, False), ("multi-f", 12000, False)]
    reg = [("reg-a", 300), ("reg-b", 5000), ("reg-c", 40000)]

    def write(d, rows):
        os.makedirs(os.path.join(d, "cells"), exist_ok=True)
        with open(os.path.join(d, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(rows)

    def row(exp, label, ds, task, eps, pair, n, value, binary=True, fit=0.01):
        group = bench_data.group_of(label)
        return {"paper": "benchmark", "experiment": exp, "label": label, "algorithm": label.split()[0].lower(),
                "dataset": ds, "task": task, "epsilon": "" if eps is None else f"{eps:g}",
                "repetition": pair[0], "fold": pair[1], "n_train": n,
                "accuracy": f"{value:.6f}" if task == "classification" else "",
                "auc": f"{value:.6f}" if task == "classification" and binary else "",
                "mse": f"{value:.6f}" if task == "regression" else "",
                "fit_seconds": f"{fit * rng.uniform(0.8, 1.2) * n / 1000:.6g}", "predict_seconds": "0.001",
                "privacy_status": {"dp": "epsilon-DP", "published": "published, not epsilon-DP: synthetic",
                                   "oracle": "published, not epsilon-DP: oracle tuning",
                                   "non-private": "non-private"}[group],
                "epsilon_spent": "" if eps is None else f"{eps:g}", "delta_spent": "0",
                "n_features": SHAPES[ds][0], "n_categorical": SHAPES[ds][1], "n_classes": SHAPES[ds][2],
                "cpu_seconds": "0.5"}

    # DP accuracy = reference - gap(eps) + noise; gap shrinks with epsilon.
    dp = {"Good [DP]": 0.02, "Mid [DP]": 0.10, "Bad [DP]": 0.25, "Flaky [DP]": 0.12,
          "Lumberjack [DP, delta 1e-6]": 0.15}
    rows = []
    for ds, n, binary in cls:
        base = rng.uniform(0.75, 0.9)
        for p in pairs:
            noise = rng.gauss(0, 0.01)
            rows.append(row("classification", "Breiman RF [non-private]", ds, "classification", None, p, n,
                            base + noise, binary, fit=0.5))
            rows.append(row("classification", "ERT [non-private]", ds, "classification", None, p, n,
                            base - 0.01 + noise, binary, fit=0.4))
        for eps in EPS:
            # the tuning tracks: two forests under private selection, one oracle (never ranked)
            tuned = [("Good [DP, private selection]", 0.01), ("Mid [DP, private selection]", 0.08),
                     ("Good [oracle, not DP]", 0.0)]
            for lab, gap in list(dp.items()) + [("Leaky [published]", -0.02)] + tuned:
                for p in pairs:
                    if lab == "Flaky [DP]" and ((ds == "bin-b" and eps == 0.1 and p[0] >= 8) or
                                                (ds == "multi-e" and eps == 0.3)):
                        continue
                    g = gap / (1 + math.log10(eps) + 1) if gap > 0 else gap
                    rows.append(row("classification", lab, ds, "classification", eps, p, n,
                                    base - g + rng.gauss(0, 0.015), binary))
    write(os.path.join(root, "classification"), rows)
    with open(os.path.join(root, "classification", "cells", "deadbeef00000000.error"), "w") as f:
        f.write("benchmark|classification|Flaky [DP]|flaky|multi-e|scale=none,domains=registry,bins=0|"
                "epsilon=0.3;strict=true\nflaky: synthetic failure for the self test\n")

    rows = []
    for ds, n, binary in cls:
        if not binary:
            continue
        for eps in EPS:
            for p in pairs:
                rows.append(row("binary", "BinOnly [DP]", ds, "classification", eps, p, n,
                                0.8 + rng.gauss(0, 0.02), True))
    write(os.path.join(root, "binary"), rows)

    rows = []
    for ds, n in reg:
        base = rng.uniform(1, 5)
        for p in pairs:
            rows.append(row("regression", "Breiman RF [non-private]", ds, "regression", None, p, n,
                            base * (1 + rng.gauss(0, 0.02)), fit=0.5))
            rows.append(row("regression", "ERT [non-private]", ds, "regression", None, p, n,
                            base * (1.02 + rng.gauss(0, 0.02)), fit=0.4))
        for eps in EPS:
            for lab, gap in [("RegGood [DP]", 0.1), ("RegBad [DP]", 1.0), ("RegMid [DP]", 0.4)]:
                for p in pairs:
                    rows.append(row("regression", lab, ds, "regression", eps, p, n,
                                    base * (1 + gap / eps ** 0.5 + rng.gauss(0, 0.03))))
    write(os.path.join(root, "regression"), rows)

    # the large tier: its own directory (large*), 1 x 5 folds, where Bad is the best (ranked apart)
    rows = []
    for ds in ("big-a", "big-b", "big-c"):
        SHAPES.setdefault(ds, (28, 0, 2))
        for p in [(0, f) for f in range(5)]:
            rows.append(row("large", "Breiman RF [non-private]", ds, "classification", None, p, 200000, 0.9, fit=0.5))
            for eps in EPS:
                for lab, v in [("Good [DP]", 0.80), ("Bad [DP]", 0.85)]:
                    rows.append(row("large", lab, ds, "classification", eps, p, 200000, v + rng.gauss(0, 0.002)))
    write(os.path.join(root, "large"), rows)
    return [os.path.join(root, d) for d in ("classification", "binary", "regression", "large")]


# ----------------------------------------------------------------------------------------------------------
# Checks

def test_labels():
    check(bench_data.group_of("DP-ERT [DP]") == "dp", "group: [DP]")
    check(bench_data.group_of("Lumberjack [DP, delta 1e-6]") == "dp", "group: [DP, delta 1e-6]")
    check(bench_data.group_of("PrivaTree [published]") == "published", "group: [published]")
    check(bench_data.group_of("ERT [non-private]") == "non-private", "group: [non-private]")
    check(bench_data.group_of("MRF") == "other", "group: no bracket")
    check(bench_data.short_name("Lumberjack [DP, delta 1e-6]") == "Lumberjack (δ=1e-6)", "short name keeps delta")
    # A tuned (epsilon, delta)-DP forest's label need not say delta: its rows' ledger does, and the label is
    # marked from it, so that it reads and joins like its paper-settings row.
    rows = [{"label": "Lumberjack [DP, private selection]", "delta_apriori": "9.99999999999996e-07"},
            {"label": "Lumberjack [oracle, not DP]", "delta_apriori": "1e-06"},
            {"label": "Lumberjack [DP, delta 1e-6]", "delta_apriori": "1e-06"},
            {"label": "PrivaTree [DP, private selection]", "delta_apriori": "0"},
            {"label": "DP-EBM [published, not DP: n read unpaid]", "delta_apriori": "1e-06"}]
    marked = bench_data.delta_marked_labels(rows)
    check(marked == {"Lumberjack [DP, private selection]": "Lumberjack [DP, private selection, delta 1e-6]",
                     "Lumberjack [oracle, not DP]": "Lumberjack [oracle, not DP, delta 1e-6]"},
          "delta marked from the ledger on unmarked DP and oracle labels only")
    check([bench_data.short_name(v) for v in marked.values()] == ["Lumberjack (δ=1e-6)"] * 2 and
          [bench_data.track_of(v) for v in marked.values()] == ["private-selection", "oracle"],
          "a marked tuned label keeps its track and shares the paper row's short name")


def test_spread_label_positions():
    from plots.benchmark import figures  # matplotlib: imported only where needed
    # Apart already: unchanged. Equal or close: at least the gap apart, order kept, centred on the
    # wanted heights' mean.
    assert figures.spread([1.0, 3.0, 5.0], 0.5) == [1.0, 3.0, 5.0]
    out = figures.spread([4.0, 4.0, 2.0], 0.5)
    assert out[2] == 2.0 and abs(out[0] - 3.75) < 1e-12 and abs(out[1] - 4.25) < 1e-12
    ys = [4.0, 4.1, 3.95, 4.3, 9.0]
    out = figures.spread(ys, 0.4)
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    assert all(out[order[j + 1]] - out[order[j]] >= 0.4 - 1e-12 for j in range(len(ys) - 1))
    assert abs(sum(out[:4]) / 4 - sum(ys[:4]) / 4) < 1e-12 and out[4] == 9.0


def test_panel_title():
    from plots.benchmark import figures
    assert figures.panel_title("wdbc", 513) == "wdbc (n_train 513)"
    assert figures.panel_title("synthetic:friedman1:n=20000,d=10,seed=1,noise=1", 18000) == \
        "synthetic:friedman1:\nn=20000,d=10,seed=1,noise=1 (n_train 18000)"


def test_ranks():
    check(bench_stats.rank_row([0.9, 0.8, 0.8, 0.7]) == [1, 2.5, 2.5, 4], "ranks, higher better, tie averaged")
    check(bench_stats.rank_row([0.9, 0.8, 0.8, 0.7], higher_is_better=False) == [4, 2.5, 2.5, 1], "ranks, lower better")
    check(bench_stats.rank_row([0.5, 0.5, 0.5]) == [2, 2, 2], "ranks, all tied")
    mr, _ = bench_stats.mean_ranks([[3, 2, 1], [1, 3, 2]])
    check(mr == [2.0, 1.5, 2.5], "mean ranks over two datasets")


def test_friedman():
    # Demšar (2006) §3.2.4: four C4.5 variants on 14 data sets, mean ranks 3.143, 2.000, 2.893, 1.964;
    # chi2_F = 9.28, F_F = 3.69 (critical F(3, 39) = 2.85).
    chi2, p, ff, pff = bench_stats.friedman_from_mean_ranks([3.143, 2.000, 2.893, 1.964], 14)
    check(close(chi2, 9.28, 0.02), f"Friedman chi2 of Demšar's example: {chi2:.3f} ~ 9.28")
    check(close(ff, 3.69, 0.02), f"Iman-Davenport F of Demšar's example: {ff:.3f} ~ 3.69")
    check(pff < 0.05 < p * 2, f"F significant (p={pff:.3g}), chi2 p={p:.3g}")
    # Against scipy on a matrix with ties (scipy ranks ascending; the statistic is direction-free).
    from scipy import stats
    rng = random.Random(3)
    matrix = [[round(rng.uniform(0, 1), 1) for _ in range(5)] for _ in range(12)]
    _, rows = bench_stats.mean_ranks(matrix)
    chi2, p, _, _ = bench_stats.friedman(rows)
    ref = stats.friedmanchisquare(*[[r[j] for r in matrix] for j in range(5)])
    check(close(chi2, ref.statistic, 1e-9) and close(p, ref.pvalue, 1e-9),
          f"tie-corrected chi2 = scipy.stats.friedmanchisquare ({chi2:.6f} vs {ref.statistic:.6f})")
    # Without ties the rank-row form equals the mean-rank form.
    matrix = [[rng.random() for _ in range(4)] for _ in range(9)]
    mr, rows = bench_stats.mean_ranks(matrix)
    check(close(bench_stats.friedman(rows)[0], bench_stats.friedman_from_mean_ranks(mr, 9)[0], 1e-9), "both Friedman forms agree")


def test_cd():
    q = bench_stats.q_alpha(4)
    cd = bench_stats.critical_difference(4, 14)
    check(close(q, 2.569, 0.001), f"q_0.05(k=4) = {q:.4f} ~ 2.569")
    check(close(cd, 1.25, 0.005), f"CD(k=4, N=14) = {cd:.4f} ~ 1.25")
    check(close(bench_stats.q_alpha(10), 3.164, 0.001), "q_0.05(k=10) ~ 3.164 (Demšar Table 5a)")
    check(bench_stats.cd_cliques([1.0, 1.5, 3.0, 3.2, 5.0], 1.0) == [(0, 1), (2, 3)], "cliques: two pairs")
    check(bench_stats.cd_cliques([1.0, 1.5, 2.2, 2.9, 3.0], 1.25) == [(0, 2), (2, 4)], "cliques: overlapping, the contained (1, 2) dropped")
    check(bench_stats.cd_cliques([1.0, 3.0, 5.0], 1.0) == [], "cliques: none")


def test_wtl():
    rng = random.Random(11)
    ref = {(r, f): 0.8 + rng.gauss(0, 0.01) for r in range(10) for f in range(10)}
    better = {k: v + 0.05 + rng.gauss(0, 0.01) for k, v in ref.items()}
    worse = {k: v - 0.05 + rng.gauss(0, 0.01) for k, v in ref.items()}
    same = {k: v + rng.gauss(0, 0.0001) * (1 if k[1] % 2 else -1) for k, v in ref.items()}
    check(bench_stats.paired_outcome(better, ref)[0] == "W", "W/T/L: clear winner is W")
    check(bench_stats.paired_outcome(worse, ref)[0] == "L", "W/T/L: clear loser is L")
    o, p, n = bench_stats.paired_outcome(same, ref)
    check(o == "T" and n == 100, f"W/T/L: symmetric noise is T (p={p:.3g})")
    check(bench_stats.paired_outcome(better, ref, higher_is_better=False)[0] == "L", "W/T/L: lower-better flips")
    check(bench_stats.paired_outcome(dict(list(better.items())[:5]), ref)[0] == "T", "W/T/L: 5 pairs cannot be significant")
    check(bench_stats.paired_outcome(ref, ref)[0] == "T", "W/T/L: identical is T")


def test_complete():
    pairs = {(0, f) for f in range(3)}
    full = {p: 0.5 for p in pairs}
    blocks = {("d1", "A"): full, ("d2", "A"): full, ("d1", "B"): full, ("d2", "B"): {(0, 0): 0.5, (0, 1): 0.5},
              ("d1", "C"): full, ("d2", "C"): {(0, 0): 0.5, (0, 1): 0.5, (0, 2): math.nan}}
    expected = {k: pairs for k in blocks}
    ok, lacking = bench_stats.complete_algorithms(blocks, expected, ["d1", "d2"], ["A", "B", "C", "D"])
    check(ok == ["A"], "incomplete blocks excluded (missing fold, NaN fold, no block)")
    check(lacking == {"B": ["d2"], "C": ["d2"], "D": ["d1", "d2"]}, "and reported per dataset")


def test_scope_rules():
    """A dataset on which no DP algorithm is complete leaves the scope (named); duplicate rows count once."""
    data = bench_data.Data()
    pairs = {(0, f) for f in range(3)}
    for ds, vals in (("d1", (0.9, 0.8)), ("d2", (0.7, 0.75)), ("d3", None)):
        for lab, v in zip(("A [DP]", "B [DP]"), vals or (None, None)):
            data.expected[("classification", ds, lab, 1.0)] = set(pairs)
            if v is not None:
                data.values[("classification", ds, lab, 1.0)] = {p: v for p in pairs}
    (e,) = bench_stats.rankings(data)
    check(e["dropped"] == ["d3"] and e["datasets"] == ["d1", "d2"] and e["labels"] == ["A [DP]", "B [DP]"],
          "a dataset with no complete DP block is left out of the scope and named")
    check(e["mean_rank"] == [1.5, 1.5], "ranks over the remaining datasets")
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["label", "dataset", "task", "epsilon", "repetition", "fold", "accuracy"])
            w.writeheader()
            for _ in range(2):
                w.writerow({"label": "A [DP]", "dataset": "d", "task": "classification", "epsilon": "1",
                            "repetition": 0, "fold": 0, "accuracy": 0.5})
        d = bench_data.read_dirs([tmp])
        check(d.duplicates == 1 and len(d.values[("classification", "d", "A [DP]", 1.0)]) == 1,
              "a duplicate (label, dataset, epsilon, repetition, fold) row is counted once and reported")


def test_single_complete_label():
    # A scope and epsilon where one DP label alone is complete has labels but no ranks: the report prints a
    # dash for it instead of failing (a partial run of the tuned configs met this).
    from plots.benchmark import tables as bench_tables
    d = bench_data.Data()
    d.expected[("classification", "x", "A [DP]", 1.0)] = {(0, 0)}
    d.n_train["x"] = 10
    e = {"task": "classification", "scope": "all", "eps": 1.0, "datasets": ["x"], "labels": ["A [DP]"],
         "excluded": {}, "mean_rank": [], "friedman": None, "cd": math.nan, "dropped": [], "track": "paper"}
    md = bench_tables.rank_sections(d, [e], {})
    check(any(line.startswith("| A | —") for line in md), "a lone complete label is listed without a rank")


def test_end_to_end():
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(LEADERBOARD + [os.path.join(tmp, "nothing")], capture_output=True, text=True, cwd=ROOT)
        check(r.returncode != 0 and "no results table" in r.stderr, "missing results.csv: clear error")
        dirs = make_sample(os.path.join(tmp, "benchmark"))
        r = subprocess.run(LEADERBOARD + dirs, capture_output=True, text=True, cwd=ROOT)
        check(r.returncode == 0, "script runs on the synthetic sample" + ("" if r.returncode == 0 else r.stderr))
        out = os.path.join(tmp, "benchmark", "leaderboard")
        with open(os.path.join(out, "ranks.csv")) as f:
            ranks = list(csv.DictReader(f))

        def labels(task, scope, eps):
            return {r["label"]: float(r["mean_rank"]) for r in ranks
                    if (r["task"], r["scope"], r["epsilon"]) == (task, scope, eps)}
        a1 = labels("classification", "all", "1")
        check(min(a1, key=a1.get) == "Good [DP]", "Good ranks first (all datasets, eps 1)")
        check("BinOnly [DP]" not in a1 and "BinOnly [DP]" in labels("classification", "binary", "1"),
              "binary-only algorithm ranked on binary datasets only")
        check("Flaky [DP]" not in labels("classification", "binary", "0.1") and
              "Flaky [DP]" not in labels("classification", "all", "0.3") and
              "Flaky [DP]" in labels("classification", "all", "1"), "Flaky excluded where incomplete only")
        check(not any(bench_data.group_of(lab) != "dp" for lab in a1), "only DP labels ranked")
        reg = labels("regression", "all", "1")
        check(min(reg, key=reg.get) == "RegGood [DP]", "regression ranks lower MSE first")
        with open(os.path.join(out, "leaderboard.md")) as f:
            md = f.read()
        check("| classification | Flaky [DP] | 2 of 30 | 2880/3000 |" in md, "leaderboard.md: Flaky's incomplete blocks")
        n_rows = sum(1 for d in dirs for _ in csv.DictReader(open(os.path.join(d, "results.csv"))))
        cost = re.search(r"\*\*Cost\.\*\* ([\d,]+) tasks, ([\d.]+) CPU-hours .*?([\d.]+) h of wall on 2 fully used cores, "
                         r"within a day", md)
        check(cost is not None and int(cost.group(1).replace(",", "")) == n_rows and
              abs(float(cost.group(2)) - n_rows * 0.5 / 3600) < 0.006,
              "leaderboard.md: the run's CPU time, from the rows' cpu_seconds")
        check("Two-class only, ranked in the binary scope: BinOnly" in md and
              not re.search(r"Left out \(incomplete[^\n]*BinOnly", md) and re.search(r"Left out \(incomplete[^\n]*Flaky", md),
              "leaderboard.md: a two-class algorithm is named as such in the all scope, not as incomplete")
        check("Not run on this scope's datasets: BinOnly, Flaky, Lumberjack (δ=1e-6), Mid" in md,
              "leaderboard.md: forests outside the large tier are named as not run there, not as incomplete")
        check("Lumberjack (δ=1e-6) is (ε, δ)-DP, ranked with the pure-ε algorithms" in md,
              "leaderboard.md: the (ε, δ)-DP caveat names the run's δ labels")
        with open(os.path.join(out, "incomplete.md")) as f:
            detail = f.read()
        check("synthetic failure for the self test" in detail and "multi-e ε=0.3 (0/100)" in detail,
              "incomplete.md: failed cell with its reason")
        check("bin-b ε=0.1 (80/100)" in detail, "incomplete.md: partial block with its fold counts")
        with open(os.path.join(out, "wtl.csv")) as f:
            wtl = {(r["task"], r["label"], r["epsilon"]): r for r in csv.DictReader(f)}
        g = wtl[("classification", "Bad [DP]", "1")]
        check(g["losses"] == "6" and g["wins"] == "0", "W/T/L: Bad loses on all 6 datasets")
        g = wtl[("classification", "Leaky [published]", "1")]
        check(g["wins"] == "6", "W/T/L: the published (better than RF) wins, listed apart")
        big = labels("classification", "large", "1")
        check(min(big, key=big.get) == "Bad [DP]" and len(big) == 2, "the large tier is ranked apart (its own scope)")
        check(not any(r["scope"] == "all" and r["label"] == "Bad [DP]" and r["epsilon"] == "1" and
                      int(r["n_datasets"]) > 6 for r in ranks), "the large tier's datasets are not in the 'all' scope")
        check(not any(bench_data.track_of(lab) != "paper" for lab in a1),
              "the paper-settings ranking holds neither the private-selection nor the oracle labels")
        with open(os.path.join(out, "tracks.csv")) as f:
            tr = {(r["task"], r["scope"], r["epsilon"], r["algorithm"]): r for r in csv.DictReader(f)}
        g = tr[("classification", "all", "1", "Good")]
        check(float(g["paper_rank"]) == 1.0 and float(g["selection_rank"]) == 1.0 and g["selection_k"] == "2",
              "tracks.csv: Good first in both tracks, the selection track ranked over its own 2 forests")
        check(g["oracle_mean"] not in ("", "nan") and float(g["oracle_mean"]) > float(g["selection_mean"]),
              "tracks.csv: the oracle's mean beside the ranks, above the private selection's")
        check(all(r["algorithm"] != "Good [oracle, not DP]" for r in tr.values()), "the oracle is never ranked")
        with open(os.path.join(out, "regimes.csv")) as f:
            reg_all = list(csv.DictReader(f))
        reg_rows = [r for r in reg_all if r["track"] == "paper"]
        check(any(r["track"] == "private-selection" and r["best"] == "Good" for r in reg_all),
              "regimes.csv: the private-selection track has its own regimes")
        small = [r for r in reg_rows if r["task"] == "classification" and r["regime"] in ("n·ε < 100", "d > 30")]
        check(len(small) == 2 and all(r["best"] == "Good" for r in small),
              "regimes.csv: Good best in the small-n·ε and many-feature bins")
        check(any(r["best"] == "Bad" and r["regime"] == "n·ε ≥ 10,000" for r in reg_rows),
              "regimes.csv: the large tier's winner (Bad) leads the n·ε ≥ 10,000 bin")
        check(any("Bad" not in r["not_significantly_worse"] for r in reg_rows if int(r["blocks"]) >= 6),
              "regimes.csv: Bad is significantly worse where the bin has enough blocks")
        dims = {(r["task"], r["dimension"], r["regime"]) for r in reg_rows}
        check({("classification", "features", "d ≤ 10"), ("classification", "features", "d > 30"),
               ("classification", "categorical share", "numeric only"), ("classification", "categorical share", "mixed"),
               ("classification", "classes", "2 classes"), ("classification", "classes", "3-5 classes"),
               ("regression", "features", "d ≤ 10")} <= dims and
              not any(t == "regression" and d == "classes" for t, d, _ in dims),
              "regimes.csv: features, categorical share and classes bins from the rows' shape columns")
        with open(os.path.join(out, "growth.csv")) as f:
            gr = {r["label"]: float(r["exponent"]) for r in csv.DictReader(f)}
        check(close(gr["Good [DP]"], 1.0, 0.05), "growth.csv: fit time proportional to n gives exponent 1")
        with open(os.path.join(out, "accuracy.csv")) as f:
            acc = {(r["task"], r["scope"], r["epsilon"], r["label"]): r for r in csv.DictReader(f)}
        check(float(acc[("classification", "all", "1", "Bad [DP]")]["gap"]) < 0 <
              float(acc[("classification", "all", "1", "Leaky [published]")]["gap"])
              if ("classification", "all", "1", "Leaky [published]") in acc else
              float(acc[("classification", "all", "1", "Bad [DP]")]["gap"]) < 0, "accuracy.csv: Bad below the RF")
        for stem in ("headline", "headline-private-selection", "cd-classification-all-private-selection-eps1",
                     "panels-classification", "panels-regression", "fit-time",
                     "cd-classification-all-eps1", "cd-classification-binary-eps0.1", "cd-regression-all-eps10"):
            check(os.path.exists(os.path.join(out, stem + ".png")) and os.path.exists(os.path.join(out, stem + ".svg")),
                  f"{stem}.png/.svg written")


def test_publish_and_readme_block():
    with tempfile.TemporaryDirectory() as tmp:
        dirs = make_sample(os.path.join(tmp, "benchmark"))
        pub = os.path.join(tmp, "ref", "benchmark", "leaderboard")
        readme = os.path.join(tmp, "README.md")
        with open(readme, "w") as f:
            f.write("# x\n\n## Results\n\n" + bench_publish.README_BEGIN + "\nold\n" + bench_publish.README_END + "\n\nafter\n")
        r = subprocess.run(LEADERBOARD + ["--publish", pub, "--readme", readme] + dirs,
                           capture_output=True, text=True, cwd=ROOT)
        check(r.returncode != 0 and "refusing to publish" in r.stderr and not os.path.exists(pub),
              "an incomplete run is not published without --partial")
        r = subprocess.run(LEADERBOARD + ["--publish", pub, "--readme", readme, "--partial"] + dirs,
                           capture_output=True, text=True, cwd=ROOT)
        check(r.returncode == 0, "--publish/--readme --partial run" + ("" if r.returncode == 0 else r.stderr))
        check(all(os.path.exists(os.path.join(pub, n)) for n in ("leaderboard.md", "headline.png", "ranks.csv")),
              "published copy holds the report, the headline figure and the ranks")
        pubs = set(os.listdir(pub))
        from PIL import Image
        src, dst = os.path.join(tmp, "benchmark", "leaderboard", "headline.png"), os.path.join(pub, "headline.png")
        with Image.open(dst) as a, Image.open(src) as b:
            same_size, palette = a.size == b.size, a.mode == "P"
        check(same_size and palette and os.path.getsize(dst) < os.path.getsize(src),
              "published figures: same size in pixels, a 256-colour palette, a smaller file")
        check("cd-classification-all-eps1.png" in pubs and "cd-classification-all-eps0.1.png" in pubs and
              "panels-classification.png" in pubs and "cd-classification-all-private-selection-eps1.png" in pubs,
              "published copy: CD diagrams at every epsilon and track, and the panels")
        with open(os.path.join(pub, "leaderboard.md")) as f:
            pmd = f.read()
        linked = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", pmd)
        check(linked and all(os.path.exists(os.path.join(pub, x)) for x in linked),
              "published leaderboard.md links only images it holds")
        check("`" not in "".join(re.findall(r"is not in this published copy", pmd)) and
              "is not in this published copy" not in pmd, "published leaderboard.md: every referenced figure is there")
        check(pmd.startswith("> **Partial run, not a complete leaderboard:**"), "a partial copy says so first")
        with open(readme) as f:
            text = f.read()
        check("\nold\n" not in text and text.endswith("after\n"), "README block replaced, the rest kept")
        check("**Partial run, not a complete leaderboard:**" in text, "the README block of a partial run says so")
        check("- classification, all datasets (N=6, k=4/5): **Good** has the best mean rank at 5 of 5 ε" in text and
              "private-selection track (tuned" in text, "README block: the finding and its caveats, generated")
        check("- tuned by private selection (ε-DP at the row's ε, (ε, δ)-DP where the tuned forest is; ranked apart), "
              "classification, all datasets: **Good** "
              "has the best mean rank at 5 of 5 ε; private selection beat the forest's paper settings (mean accuracy) in "
              "10 of 10 (forest, ε) pairs." in text, "README block: the private-selection track's finding, generated")
        check("](ref/benchmark/leaderboard/headline.png)" in text, "README block links the headline figure relative")
        check("| classification, all (N=6) | 1 | **Good** (" in text, "README block: Good is best at eps 1")
        check(bench_publish.update_readme(readme, bench_publish.readme_block(pub, "ref/benchmark/leaderboard"), check_only=True),
              "README block is reproducible from the published copy alone")
        # A fresh clone has the published copy and no results: the block regenerates from the copy alone.
        with open(readme) as f:
            good = f.read()
        with open(readme, "w") as f:
            f.write(good.replace("| classification, all (N=6) | 1 | **Good** (", "| classification, all (N=6) | 1 | **Bad** ("))
        cli = [sys.executable, "-m", "plots.benchmark.publish", "--from", pub, "--readme", readme]
        r1 = subprocess.run(cli + ["--check"], capture_output=True, text=True, cwd=ROOT)
        r2 = subprocess.run(cli, capture_output=True, text=True, cwd=ROOT)
        r3 = subprocess.run(cli + ["--check"], capture_output=True, text=True, cwd=ROOT)
        with open(readme) as f:
            check(r1.returncode != 0 and "differs" in r1.stderr and r2.returncode == 0 and r3.returncode == 0
                  and f.read() == good, "publish --check flags an edited block; publish alone regenerates it from the copy")
        r = subprocess.run([sys.executable, "-m", "plots.benchmark.publish", "--from", tmp, "--readme", readme],
                           capture_output=True, text=True, cwd=ROOT)
        check(r.returncode != 0 and "not a published leaderboard copy" in r.stderr, "publish names a folder that is no copy")
        # Publishing again writes a fresh copy: an earlier copy's figures this run does not draw and its
        # partial.txt go; files of other kinds in the folder stay.
        for stale in ("cd-classification-all-eps42.png", "partial.txt", "notes.txt"):
            with open(os.path.join(pub, stale), "w") as f:
                f.write("stale\n")
        r = subprocess.run(LEADERBOARD + ["--publish", pub, "--partial"] + dirs, capture_output=True, text=True, cwd=ROOT)
        left = set(os.listdir(pub))
        check(r.returncode == 0 and "cd-classification-all-eps42.png" not in left and "partial.txt" not in left
              and "notes.txt" in left and left - {"notes.txt"} == pubs - {"partial.txt"},
              "a second publication replaces the copy: stale figures and partial.txt removed, other files kept")
        sub = os.path.join(tmp, "ref", "benchmark", "leaderboard-subset")
        r = subprocess.run(LEADERBOARD + ["--publish", sub, "--partial", "--subset", "two configs, every epsilon"] + dirs,
                           capture_output=True, text=True, cwd=ROOT)
        with open(os.path.join(sub, "leaderboard.md")) as f:
            smd = f.read()
        check(r.returncode == 0 and "covers a subset of the protocol: two configs, every epsilon" in smd.split("\n")[0]
              and os.path.exists(os.path.join(sub, "partial.txt")), "--partial --subset names the subset in the copy")


def test_partial_banner():
    # A run of part of the protocol (one scope, one epsilon) can have every block complete: only the
    # subset it names marks it, and an incomplete run names its subset beside its incomplete blocks.
    check(bench_publish.partial_banner(0, 10) == "", "a complete run of the whole protocol has no banner")
    b = bench_publish.partial_banner(0, 10, "binary scope, epsilon 1")
    check(b.startswith("> **Partial run, not a complete leaderboard:**") and "binary scope, epsilon 1" in b,
          "a complete subset is marked partial, naming the subset")
    b = bench_publish.partial_banner(3, 10, "binary scope")
    check("3 of 10 blocks are incomplete" in b and "binary scope" in b, "an incomplete subset: both")


def test_committed_readme_block():
    # When the repository carries a published leaderboard, README.md's block must be the one it gives.
    pub = os.path.join(ROOT, "results", "reference", "benchmark", "leaderboard")
    if not os.path.exists(os.path.join(pub, "ranks.csv")):
        print("     (no published leaderboard in this checkout)")
        return
    check(bench_publish.update_readme(os.path.join(ROOT, "README.md"),
                           bench_publish.readme_block(pub, "results/reference/benchmark/leaderboard"), check_only=True),
          "README.md's leaderboard block matches results/reference/benchmark/leaderboard "
          "(rerun python3 -m plots.benchmark.leaderboard --publish ... --readme README.md)")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--make-sample":
        for d in make_sample(sys.argv[2]):
            print("wrote " + os.path.join(d, "results.csv"))
        return
    # Every test_* function of this module, in the order defined (a hand-kept list once missed new ones).
    for t in [f for name, f in list(globals().items()) if name.startswith("test_") and callable(f)]:
        print(f"-- {t.__name__}")
        t()
    print(f"{len(FAILURES)} failure(s)" if FAILURES else "all checks passed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
