"""Small hand-made inputs for the report's tests (plots/report/test_report.py, test_browser.py), written per
the formats of results/README.md without any other part of the project:

  snapshot(ref_root, paper)  results/reference/<paper>/{<exp>.csv, meta.yaml, published.json}; the
                             verdicts cycle within / outside explained / outside unexplained / no data
                             over the paper's numbers and holds / fails / no data over its claims;
                             returns the expected counts.
  privatree_results(root)    a fresh results/privatree/table-appendix/results.csv (2 repetitions x 5
                             folds per cell) for the labels and datasets of published.yaml.
  fake_dpforest(path, ...)   a stand-in `dpforest` answering `status` and `check-published --json`
                             (or refusing --json, as an older binary does)."""
import csv
import json
import os
import stat

from plots.report import sources as S

CYCLE = ["within", "outside_explained", "outside_unexplained", "no_data"]
CLAIM_CYCLE = ["holds", "fails", "no data"]


def number_entry(paper, n, cls, mean=None):
    value = float(n["value"])
    tol = float(n["tolerance"])
    if mean is None:
        mean = {"within": value + tol / 2, "outside_explained": value + 2 * tol + 0.01,
                "outside_unexplained": value - 2 * tol - 0.01}.get(cls)
    # as dpforest check-published --json writes it: a given series without data has mean/sd null, n 0
    ours = {"label": n["paper_method"].get("label"), "selector": n["paper_method"], "mean": mean,
            "sd": None if mean is None else 0.01, "n": 0 if mean is None else 10}
    return {"id": n["id"], "source": n.get("source", ""), "experiment": n["experiment"], "metric": n["metric"],
            "value": value, "spread": n.get("spread"), "tolerance": tol,
            "verdict": {"within": "within", "no_data": "no data"}.get(cls, "outside"),
            "explained": cls == "outside_explained", "explanation": f"fixture {cls}",
            "explanation_warning": "fixture warning" if cls == "outside_unexplained" else None,
            "ours": {"paper_method": ours, "with_quirks": None, "strict": None},
            "command": S.make_command(paper, n["experiment"]), "future_field": {"ignored": True}}


def published_doc(paper, numbers, claims, results_root="results"):
    nums = [number_entry(paper, n, CYCLE[i % 4]) for i, n in enumerate(numbers)]
    cls = []
    for i, c in enumerate(claims):
        v = CLAIM_CYCLE[i % 3]
        exps = S.claim_experiments(c)
        cls.append({"id": c["id"], "source": c.get("source", ""), "text": c.get("statement", ""),
                    "experiment": exps[0], "experiments": exps, "verdict": v,
                    "measured": f"fixture measured {v}", "missing": "", "effect": 0.03 if v != "no data" else None,
                    "p": 0.001 if v != "no data" else None, "explanation": f"fixture claim {v}"})
    return {"paper": paper, "published_yaml": f"configs/{paper}/published.yaml", "results_root": results_root,
            "numbers": nums, "claims": cls, "counts": S.count(nums, cls)}


def snapshot(ref_root, paper, commit="0123456789abcdef0123", date="2026-11-27T06:00:00Z"):
    numbers, claims = S.published_yaml(paper)
    d = os.path.join(ref_root, paper)
    os.makedirs(d, exist_ok=True)
    exps = S.experiments_of(paper)
    for e in exps:
        with open(os.path.join(d, e + ".csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["cell", "label", "algorithm", "dataset", "epsilon", "n", "accuracy", "accuracy_sd",
                        "folds:accuracy"])
            w.writerow(["c0", "tree", "rf", "adult", "", 5, 0.84, 0.01, "0.83 0.84 0.85 0.84 0.84"])
    with open(os.path.join(d, "meta.yaml"), "w") as f:
        f.write(f"paper: {paper}\ngit_commit: {commit}\ndate: {date}\nexperiments:\n")  # unquoted: a YAML timestamp
        for e in exps:
            f.write(f"  {e}: {{config: configs/{paper}/{e}.yaml, cells_done: 1, cells_total: 1, tasks_done: 5, "
                    f"tasks_total: 5, primary_metric: accuracy, complete: true}}\n")
    doc = published_doc(paper, numbers, claims)
    with open(os.path.join(d, "published.json"), "w") as f:
        json.dump(doc, f, indent=1)
    return doc["counts"]


def privatree_results(results_root, reps=2, folds=5):
    numbers, _ = S.published_yaml("privatree")
    d = os.path.join(results_root, "privatree", "table-appendix")
    os.makedirs(d, exist_ok=True)
    sels = {}
    for n in numbers:
        for k in ("paper_method", "strict"):
            s = n.get(k)
            if s:
                sels[(s["label"], s["dataset"], str(s.get("epsilon", "")))] = s
    rows = []
    for ci, (label, ds, eps) in enumerate(sorted(sels)):
        for r in range(reps):
            for fo in range(folds):
                rows.append({"paper": "privatree", "experiment": "table-appendix", "cell_id": f"cell{ci}",
                             "algorithm": "x", "label": label, "dataset": ds, "epsilon": eps, "repetition": r,
                             "fold": fo, "reference_quirks": "", "accuracy": 0.80 + 0.01 * fo})
    with open(os.path.join(d, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return os.path.join(d, "results.csv"), len(sels)


def fake_dpforest(path, done, total, json_doc=None):
    """json_doc None: `check-published --json` is refused as an unknown option (exit 2)."""
    jpath = path + ".json"
    if json_doc is not None:
        with open(jpath, "w") as f:
            json.dump(json_doc, f)
    if json_doc is not None:
        check = ('out=""; prev=""; for a in "$@"; do [ "$prev" = --json ] && out=$a; prev=$a; done; '
                 'cp ' + jpath + ' "$out"; exit 0')
    else:
        check = "echo \"dpforest: unrecognised option '--json'\" >&2; exit 2"
    script = ("#!/bin/sh\ncase \"$1\" in\n"
              f"  status) echo 'x/y (dir)'; echo '  cells: {done}/{total} done (50%); tasks: 1/2 done'; exit 0;;\n"
              f"  check-published) {check};;\n"
              "esac\nexit 2\n")
    with open(path, "w") as f:
        f.write(script)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path
