"""Where each experiment's numbers come from, and the published-vs-ours entries of a paper (issue 18).

Data source per experiment (in this order):
  fresh     results/<paper>/<exp>/results.csv, complete (`dpforest status`: every cell done);
  snapshot  results/reference/<paper>/<exp>.csv (the committed reference snapshot, meta.yaml);
  fresh (partial)  a partial fresh table when no snapshot exists (said so in the report);
  none      no data: the report names the command that produces it.

Published-vs-ours entries follow the schema of `dpforest check-published --json` (results/README.md,
results/reference/<paper>/published.json). For experiments read fresh the JSON is made now with
build/dpforest; for snapshot experiments it is the snapshot's published.json. A dpforest without
--json gets the numbers measured here from published.yaml (marked as such: no explanation check, no
claims), so a report can still be drawn during development."""
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reference"))
import reference  # noqa: E402  (plots/reference: the snapshot's reader of `dpforest status`)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ReportError(Exception):
    """Bad input: the message names the file and key."""


def load_yaml(path):
    try:
        with open(path, encoding="utf-8") as f:
            return yaml.safe_load(f)
    except yaml.YAMLError as e:
        raise ReportError(f"{path}: not valid YAML: {e}") from None


def papers_with_published(root=ROOT):
    """Paper ids with a configs/<id>/published.yaml, sorted (the benchmark has none)."""
    cdir = os.path.join(root, "configs")
    return sorted(p for p in os.listdir(cdir) if os.path.isfile(os.path.join(cdir, p, "published.yaml")))


def experiments_of(paper, root=ROOT):
    """Config names (figure-*/table-*) of a paper, sorted."""
    cdir = os.path.join(root, "configs", paper)
    return sorted(f[:-5] for f in os.listdir(cdir)
                  if f.endswith(".yaml") and (f.startswith("figure-") or f.startswith("table-")))


def load_captions(paper, root=ROOT):
    """plots/<paper>/captions.yaml: {paper, title, items: [{experiment, caption, note?}]} in the paper's
    order. Every figure/table config of the paper must be listed exactly once."""
    path = os.path.join(root, "plots", paper, "captions.yaml")
    if not os.path.exists(path):
        raise ReportError(f"{path}: missing (the paper's order of tables and figures and their captions)")
    doc = load_yaml(path)
    if not isinstance(doc, dict) or doc.get("paper") != paper or not isinstance(doc.get("items"), list):
        raise ReportError(f"{path}: expected keys paper: {paper}, title and items (a list)")
    for k in doc:
        if k not in ("paper", "title", "text", "items"):
            raise ReportError(f"{path}: {k}: unknown key (expected paper, title, text, items)")
    seen = set()
    configs = set(experiments_of(paper, root))
    for i, it in enumerate(doc["items"]):
        where = f"{path}: items[{i}]"
        if not isinstance(it, dict) or "experiment" not in it or "caption" not in it:
            raise ReportError(f"{where}: expected a mapping with experiment and caption")
        for k in it:
            if k not in ("experiment", "caption", "note"):
                raise ReportError(f"{where}.{k}: unknown key (expected experiment, caption, note)")
        e = it["experiment"]
        if e in seen:
            raise ReportError(f"{where}.experiment: '{e}' is listed twice")
        if e not in configs:
            raise ReportError(f"{where}.experiment: '{e}' has no configs/{paper}/{e}.yaml")
        seen.add(e)
    missing = sorted(configs - seen)
    if missing:
        raise ReportError(f"{path}: items: configs without a caption entry: {', '.join(missing)}")
    return doc


def make_command(paper, exp):
    return f"make reproduce-{exp} PAPER={paper}"


def plot_script(paper, exp, root=ROOT):
    return os.path.join(root, "plots", paper, exp.replace("-", "_") + ".py")


# ---------------------------------------------------------------------------------------------------
# Data sources


def read_meta(reference_root, paper):
    path = os.path.join(reference_root, paper, "meta.yaml")
    if not os.path.exists(path):
        return None
    meta = load_yaml(path)
    if not isinstance(meta, dict):
        raise ReportError(f"{path}: expected a mapping (paper, git_commit, date, experiments)")
    return meta


def meta_experiment(meta, exp):
    """The per-experiment block of meta.yaml: a mapping under `experiments:` keyed by name, or a list of
    mappings with `experiment`/`name`, or a top-level key named after the experiment."""
    if not meta:
        return {}
    block = meta.get("experiments")
    if isinstance(block, dict) and isinstance(block.get(exp), dict):
        return block[exp]
    if isinstance(block, list):
        for b in block:
            if isinstance(b, dict) and (b.get("experiment") == exp or b.get("name") == exp):
                return b
    if isinstance(meta.get(exp), dict):
        return meta[exp]
    return {}


def cells_status(dpforest, paper, exp, results_root, root=ROOT):
    """(done, runnable) cells from `dpforest status` (plots/reference's reader of it; cells on datasets the
    offline mirror does not hold are not runnable), or None without a binary or on a failure."""
    if not dpforest or not os.access(dpforest, os.X_OK):
        return None
    try:
        st = reference.experiment_status(dpforest, os.path.join(root, "configs", paper, exp + ".yaml"), results_root)
    except (OSError, RuntimeError):
        return None
    if st.get("formula"):
        return None
    return st["cells_done"], st["cells_total"] - st["cells_unavailable"], st.get("unavailable_datasets", [])


def distinct_cells(csv_path):
    with open(csv_path, newline="") as f:
        return len({r.get("cell_id", "") for r in csv.DictReader(f)})


def choose_source(paper, exp, results_root, reference_root, dpforest, meta, root=ROOT):
    """{kind: fresh|snapshot|partial|none, path, detail, command}."""
    cmd = make_command(paper, exp)
    fresh = os.path.join(results_root, paper, exp, "results.csv")
    snap = os.path.join(reference_root, paper, exp + ".csv")
    # Datasets of this experiment the offline mirror does not hold (their cells never run here): from
    # the snapshot's meta.yaml, or from `dpforest status` when fresh results are asked about.
    src = {"kind": "none", "path": None, "detail": "", "command": cmd,
           "not_in_mirror": list(meta_experiment(meta, exp).get("datasets_not_in_mirror") or [])}
    fresh_detail = None
    if os.path.exists(fresh):
        st = cells_status(dpforest, paper, exp, results_root, root)
        if st is not None:
            src["not_in_mirror"] = sorted(set(src["not_in_mirror"]) | set(st[2]))
            complete = st[0] == st[1]
            fresh_detail = f"{st[0]}/{st[1]} cells"
        else:
            total = meta_experiment(meta, exp).get("cells_total")
            n = distinct_cells(fresh)
            if total is not None:
                complete = n >= int(total)
                fresh_detail = f"{n}/{total} cells (the snapshot's cell count; no {dpforest or 'dpforest'} to ask)"
            else:
                complete = True
                fresh_detail = f"{n} cells, completeness not checked (no dpforest binary)"
        if complete:
            return dict(src, kind="fresh", path=fresh, detail=fresh_detail)
    if os.path.exists(snap):
        m = meta_experiment(meta, exp)
        d = ""
        if m:
            d = f"{m.get('cells_done', '?')}/{m.get('cells_total', '?')} cells"
            if m.get("cells_not_runnable_here"):
                d += (f" ({m['cells_not_runnable_here']} more cannot run from the mirror: "
                      f"{', '.join(m.get('datasets_not_in_mirror', []))})")
            if m.get("excluded_by_config"):
                d += f"; excluded by the config: {'; '.join(m['excluded_by_config'])}"
            if m.get("complete") is False:
                d += ", incomplete" + (f": {m['incomplete']}" if m.get("incomplete") else "")
        if fresh_detail:
            d += f"; fresh results are partial ({fresh_detail})"
        return dict(src, kind="snapshot", path=snap, detail=d.strip("; "))
    if fresh_detail:
        return dict(src, kind="partial", path=fresh, detail=f"{fresh_detail}, no snapshot")
    return src


# ---------------------------------------------------------------------------------------------------
# Published numbers and claims


def published_yaml(paper, root=ROOT):
    path = os.path.join(root, "configs", paper, "published.yaml")
    doc = load_yaml(path)
    if not isinstance(doc, dict):
        raise ReportError(f"{path}: expected a mapping with paper, numbers, claims")
    nums, claims = doc.get("numbers") or [], doc.get("claims") or []
    for key, lst in (("numbers", nums), ("claims", claims)):
        if not isinstance(lst, list):
            raise ReportError(f"{path}: {key}: expected a list")
        for i, n in enumerate(lst):
            if not isinstance(n, dict) or "id" not in n or "experiment" not in n:
                raise ReportError(f"{path}: {key}[{i}]: expected a mapping with id and experiment")
    return nums, claims


def claim_experiments(c):
    e = c.get("experiment")
    return [str(x) for x in e] if isinstance(e, list) else [str(e)]


def read_published_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: cannot read the published-check JSON: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("numbers", []), list) or \
            not isinstance(doc.get("claims", []), list):
        raise ReportError(f"{path}: expected an object with lists numbers and claims")
    return doc


def run_check_json(dpforest, paper, results_root, root=ROOT):
    """(doc, None) from `dpforest check-published --json`, or (None, why not)."""
    if not dpforest or not os.access(dpforest, os.X_OK):
        return None, f"no dpforest binary at {dpforest}"
    with tempfile.TemporaryDirectory(prefix="dpf-report-") as t:
        out = os.path.join(t, "published.json")
        try:
            p = subprocess.run([dpforest, "check-published", os.path.join(root, "configs", paper, "published.yaml"),
                                "--results", results_root, "--json", out], capture_output=True, text=True,
                               timeout=300)
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"check-published failed: {e}"
        # A written file is the check's answer whatever the exit code (a verify mode may exit non-zero on
        # an unexplained number).
        if not os.path.exists(out):
            msg = (p.stderr or p.stdout).strip().splitlines()
            return None, f"`dpforest check-published --json` failed (exit {p.returncode}): " + \
                (msg[-1] if msg else "no message")
        return read_published_json(out), None


def same_value(a, b):
    a, b = str(a), str(b)
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def yaml_text(v):
    """A YAML scalar as the C++ reader sees it (true/false/numbers as written)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def metric_of(row, metric):
    quirks = "," + (row.get("reference_quirks") or "") + ","
    if metric in ("accuracy", "error") and ",l1_error," in quirks:
        l1 = float(row["l1_error"])
        return 1.0 - l1 if metric == "accuracy" else l1
    comp = metric.startswith("1-")
    v = row.get(metric[2:] if comp else metric, "")
    if v in ("", None):
        return math.nan
    try:
        x = float(v)
    except ValueError:
        return math.nan
    return 1.0 - x if comp else x


def _num_or_none(v):
    """A finite float, or None (missing, null, "nan", text)."""
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def fmt(v):
    """As the C++ check prints numbers (%.4g, %.3g for very small or large)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    a = abs(v)
    return f"{v:.3g}" if a != 0 and (a < 1e-3 or a >= 1e5) else f"{v:.4g}"


def measure_py(rows, sel, metric):
    if not sel:
        return None
    want = [(k, yaml_text(v)) for k, v in sel.items()]
    vals = []
    for r in rows:
        if all(same_value(r.get(k, ""), v) for k, v in want):
            x = metric_of(r, metric)
            if not math.isnan(x):
                vals.append(x)
    if not vals:
        return None
    return {"label": sel.get("label"), "selector": sel, "mean": statistics.mean(vals),
            "sd": statistics.stdev(vals) if len(vals) > 1 else None, "n": len(vals)}


def numbers_py(paper, numbers, experiments, results_root):
    """Entries in the --json schema measured here from results.csv (the development fallback)."""
    tables = {}
    out = []
    for n in numbers:
        exp = str(n["experiment"])
        if exp not in experiments:
            continue
        if exp not in tables:
            path = os.path.join(results_root, paper, exp, "results.csv")
            with open(path, newline="") as f:
                tables[exp] = list(csv.DictReader(f))
        rows = tables[exp]
        metric = str(n.get("metric", ""))
        ours = {k: measure_py(rows, n.get(k), metric) for k in ("paper_method", "with_quirks", "strict")}
        compare = n.get("compare") or ("with_quirks" if n.get("with_quirks") else "paper_method")
        cmp = ours.get(compare)
        value, tol = float(n["value"]), float(n["tolerance"])
        if cmp is None:
            verdict = "no data"
        else:
            verdict = "within" if abs(cmp["mean"] - value) <= tol else "outside"
        text = str(n.get("explanation") or "")
        fill = {"{ours}": ours["paper_method"], "{ours.quirks}": ours["with_quirks"], "{ours.strict}": ours["strict"]}
        for k, m in fill.items():
            text = text.replace(k, fmt(m["mean"]) if m else "—")
        text = text.replace("{delta}", fmt(cmp["mean"] - value) if cmp else "—")
        text = text.replace("{verdict}", {"within": "inside", "outside": "outside"}.get(verdict, "no data"))
        out.append({"id": n["id"], "source": n.get("source", ""), "experiment": exp, "metric": metric,
                    "value": value, "spread": n.get("spread"), "tolerance": tol, "verdict": verdict,
                    "explained": verdict == "outside" and bool(text.strip()), "explanation": text,
                    "ours": ours, "compare": compare, "command": make_command(paper, exp)})
    return out


def fill_nodata(text):
    """An explanation's placeholders as the check fills them without data."""
    for k in ("{ours}", "{ours.quirks}", "{ours.strict}", "{delta}"):
        text = text.replace(k, "—")
    return text.replace("{verdict}", "no data")


def nodata_number(paper, n):
    exp = str(n["experiment"])
    return {"id": n["id"], "source": n.get("source", ""), "experiment": exp, "metric": n.get("metric", ""),
            "value": n.get("value"), "spread": n.get("spread"), "tolerance": n.get("tolerance"),
            "verdict": "no data", "explained": False, "explanation": fill_nodata(str(n.get("explanation") or "")),
            "ours": {"paper_method": None, "with_quirks": None, "strict": None},
            "command": make_command(paper, exp)}


def nodata_claim(paper, c, why="no data"):
    exps = claim_experiments(c)
    return {"id": c["id"], "source": c.get("source", ""), "text": c.get("statement", ""),
            "experiment": exps[0] if len(exps) == 1 else exps, "verdict": why, "effect": None, "p": None,
            "explanation": str(c.get("explanation") or ""), "command": make_command(paper, exps[0])}


def verdict_class(e):
    """within | outside_explained | outside_unexplained | no_data for a number entry."""
    v = e.get("verdict")
    if v == "within":
        return "within"
    if v == "outside":
        return "outside_explained" if e.get("explained") else "outside_unexplained"
    return "no_data"


def claim_class(c):
    v = c.get("verdict")
    return {"holds": "hold", "fails": "fail"}.get(v, "no_data")


def mark_not_in_mirror(entry, number, unmirrored):
    """Sets entry["not_in_mirror"] = <dataset> when the published number's paper_method selects a dataset in
    `unmirrored` (the experiment's datasets the offline mirror does not hold)."""
    pm = number.get("paper_method")
    ds = str(pm.get("dataset", "")).split(":")[0] if isinstance(pm, dict) else ""
    if ds and ds in {str(d).split(":")[0] for d in unmirrored}:
        entry["not_in_mirror"] = ds
    return entry


def count(numbers, claims):
    c = {"numbers": len(numbers), "within": 0, "outside_explained": 0, "outside_unexplained": 0, "no_data": 0,
         "claims": len(claims), "claims_hold": 0, "claims_fail": 0, "claims_no_data": 0}
    c["no_data_not_in_mirror"] = 0  # of no_data: on a dataset the offline mirror does not hold
    for e in numbers:
        c[verdict_class(e)] += 1
        if verdict_class(e) == "no_data" and e.get("not_in_mirror"):
            c["no_data_not_in_mirror"] += 1
    for k in claims:
        c["claims_" + claim_class(k)] += 1
    return c


def gather(paper, results_root, reference_root, dpforest, root=ROOT):
    """Everything the report of one paper needs, without drawing anything."""
    captions = load_captions(paper, root)
    meta = read_meta(reference_root, paper)
    numbers, claims = published_yaml(paper, root)
    order = [it["experiment"] for it in captions["items"]]
    sources = {e: choose_source(paper, e, results_root, reference_root, dpforest, meta, root) for e in order}
    notes = []
    snap_json_path = os.path.join(reference_root, paper, "published.json")
    snap_json = read_published_json(snap_json_path) if os.path.exists(snap_json_path) else None
    fresh_exps = {e for e, s in sources.items() if s["kind"] in ("fresh", "partial")}
    fresh_json, fresh_how = None, None
    if fresh_exps:
        fresh_json, why = run_check_json(dpforest, paper, results_root, root)
        if fresh_json is not None:
            fresh_how = "json"
            if fresh_json.get("warning"):
                notes.append(f"check-published on the fresh results: {fresh_json['warning']}")
        else:
            fresh_how = "python"
            notes.append(f"Fresh results: {why}. Their numbers were measured by plots/report from published.yaml "
                         "(selectors, metric, tolerance): explanations are not checked against the measurement "
                         "('explained' = an explanation is given) and claims are not evaluated. A dpforest with "
                         "`check-published --json` (or `make snapshot`) gives the full check.")
    if snap_json is not None and any(s["kind"] == "snapshot" for s in sources.values()):
        current, why = reference.published_json_is_current(
            snap_json, os.path.join(root, "configs", paper, "published.yaml"))
        if not current:
            notes.append(f"{snap_json_path} {why}: the snapshot's verdicts and explanations may be out of date; "
                         f"`python3 plots/reference/snapshot.py --paper {paper} --published-only` (from the full "
                         f"results, or from the snapshot itself) or `make snapshot PAPER={paper}` rewrites them.")
    if snap_json is None and any(s["kind"] == "snapshot" for s in sources.values()):
        notes.append(f"{snap_json_path} is missing: snapshot experiments show no verdicts.")
    by_id = lambda doc, key: {str(x.get("id")): x for x in (doc or {}).get(key, []) if isinstance(x, dict)}
    fresh_nums, fresh_claims = by_id(fresh_json, "numbers"), by_id(fresh_json, "claims")
    snap_nums, snap_claims = by_id(snap_json, "numbers"), by_id(snap_json, "claims")
    if fresh_how == "python":
        fresh_nums = {e["id"]: e for e in numbers_py(paper, numbers, fresh_exps, results_root)}
    out_nums = []
    for n in numbers:
        exp = str(n["experiment"])
        kind = sources.get(exp, {"kind": "none"})["kind"]
        pick = None
        if kind in ("fresh", "partial"):
            pick = fresh_nums.get(str(n["id"]))
        elif kind == "snapshot":
            pick = snap_nums.get(str(n["id"]))
        e = dict(pick) if pick else nodata_number(paper, n)
        if pick and kind == "snapshot" and e.get("verdict") == "no data":
            e["command"] = e.get("command") or make_command(paper, exp)
        e["origin"] = kind if pick else "none"
        e["yaml"] = n  # the selectors, for the chart when the JSON has no data
        mark_not_in_mirror(e, n, sources.get(exp, {}).get("not_in_mirror", []))
        out_nums.append(e)
    out_claims = []
    for c in claims:
        exps = claim_experiments(c)
        kinds = {sources.get(x, {"kind": "none"})["kind"] for x in exps}
        pick = None
        if kinds <= {"fresh", "partial"}:
            pick = fresh_claims.get(str(c["id"]))
            if pick is None and fresh_how == "python":
                out_claims.append(dict(nodata_claim(paper, c, "not evaluated"), origin="fresh", sections=exps))
                continue
        elif "none" not in kinds:
            pick = snap_claims.get(str(c["id"]))
        e = dict(pick) if pick else nodata_claim(paper, c)
        e.setdefault("text", c.get("statement", ""))
        e["sections"] = exps  # every experiment the claim reads (the JSON's "experiment" is the first)
        e["origin"] = (("fresh" if kinds <= {"fresh", "partial"} else "snapshot") if pick else "none")
        out_claims.append(e)
    return {"paper": paper, "captions": captions, "meta": meta, "sources": sources, "numbers": out_nums,
            "claims": out_claims, "notes": notes, "order": order, "counts": count(out_nums, out_claims)}
