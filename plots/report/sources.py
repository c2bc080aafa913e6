"""Where each experiment's numbers come from, and the published-vs-ours entries of a paper.

Data source per experiment (in this order):
  fresh     results/<paper>/<exp>/results.csv, complete (`dpforest status`: every cell done);
  snapshot  results/reference/<paper>/<exp>.csv (the committed reference snapshot, meta.yaml);
  fresh (partial)  a partial fresh table when no snapshot exists (said so in the report);
  none      no data: the report names the command that produces it.

Every verdict (within, outside explained or unexplained, no data; a claim's holds / fails) is
check-published's: the entries are those of `dpforest check-published --json` (results/README.md,
results/reference/<paper>/published.json), never measured here. For experiments read fresh the JSON is
made now with build/dpforest; for snapshot experiments it is the snapshot's published.json. When the
fresh results cannot be checked (no binary, or one without --json) they are not used: those experiments
fall back on the snapshot, or show no data, and a note says why."""
import csv
import json
import math
import os
import subprocess
import tempfile

import yaml

from plots import ROOT, module_path, package_dir
from plots.reference import reference


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
    """plots/<package>/captions.yaml: {paper, title, items: [{experiment, caption, note?}]} in the paper's
    order. Every figure/table config of the paper must be listed exactly once."""
    path = os.path.join(package_dir(paper, root), "captions.yaml")
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
    """The file of the module that draws the experiment (plots/<package>/<module>.py)."""
    return module_path(paper, exp, root)


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


def fresh_state(paper, exp, results_root, dpforest, meta, root=ROOT):
    """(complete, detail, datasets not in the mirror) of a fresh results.csv: from `dpforest status`, else
    from the snapshot's cell count, else assumed complete (said so in the detail)."""
    st = cells_status(dpforest, paper, exp, results_root, root)
    if st is not None:
        return st[0] == st[1], f"{st[0]}/{st[1]} cells", st[2]
    total = meta_experiment(meta, exp).get("cells_total")
    n = distinct_cells(os.path.join(results_root, paper, exp, "results.csv"))
    if total is not None:
        return n >= int(total), f"{n}/{total} cells (the snapshot's cell count; no {dpforest or 'dpforest'} to ask)", []
    return True, f"{n} cells, completeness not checked (no dpforest binary)", []


def snapshot_detail(meta, exp):
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
    return d


def choose_source(paper, exp, results_root, reference_root, dpforest, meta, root=ROOT, unchecked=None):
    """{kind: fresh|snapshot|partial|none, path, detail, command}. unchecked: why check-published cannot
    check the fresh results (then they are not used, and the detail says why)."""
    cmd = make_command(paper, exp)
    fresh = os.path.join(results_root, paper, exp, "results.csv")
    snap = os.path.join(reference_root, paper, exp + ".csv")
    # Datasets of this experiment the offline mirror does not hold (their cells never run here): from
    # the snapshot's meta.yaml, or from `dpforest status` when fresh results are asked about.
    src = {"kind": "none", "path": None, "detail": "", "command": cmd,
           "not_in_mirror": list(meta_experiment(meta, exp).get("datasets_not_in_mirror") or [])}
    partial, not_used = None, None  # the fresh table's cell count when incomplete; why it is not used
    if os.path.exists(fresh) and unchecked:
        not_used = f"fresh results not used: {unchecked}"
    elif os.path.exists(fresh):
        complete, detail, unmirrored = fresh_state(paper, exp, results_root, dpforest, meta, root)
        src["not_in_mirror"] = sorted(set(src["not_in_mirror"]) | set(unmirrored))
        if complete:
            return dict(src, kind="fresh", path=fresh, detail=detail)
        partial = detail
    if os.path.exists(snap):
        d = snapshot_detail(meta, exp)
        if partial:
            d += f"; fresh results are partial ({partial})"
        if not_used:
            d += f"; {not_used}"
        return dict(src, kind="snapshot", path=snap, detail=d.strip("; "))
    if partial:
        return dict(src, kind="partial", path=fresh, detail=f"{partial}, no snapshot")
    return dict(src, detail=not_used or "")


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


def fill_nodata(text):
    """An explanation's placeholders as the check fills them without data."""
    for k in ("{ours}", "{ours.quirks}", "{ours.strict}", "{delta}"):
        text = text.replace(k, "—")
    return text.replace("{verdict}", "no data")


def nodata_number(paper, n):
    """A number's entry when no check-published JSON has one (no snapshot and no checked fresh results):
    there is no data, so there is nothing to judge; the fields follow the JSON schema."""
    exp = str(n["experiment"])
    return {"id": n["id"], "source": n.get("source", ""), "experiment": exp, "metric": n.get("metric", ""),
            "value": n.get("value"), "spread": n.get("spread"), "tolerance": n.get("tolerance"),
            "verdict": "no data", "explained": False, "explanation": fill_nodata(str(n.get("explanation") or "")),
            "ours": {"paper_method": None, "with_quirks": None, "strict": None},
            "command": make_command(paper, exp)}


def nodata_claim(paper, c):
    """A claim's entry when no check-published JSON has one (as nodata_number)."""
    exps = claim_experiments(c)
    return {"id": c["id"], "source": c.get("source", ""), "text": c.get("statement", ""),
            "experiment": exps[0] if len(exps) == 1 else exps, "verdict": "no data", "effect": None, "p": None,
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


def _by_id(doc, key):
    return {str(x.get("id")): x for x in (doc or {}).get(key, []) if isinstance(x, dict)}


def check_fresh(paper, sources, results_root, reference_root, dpforest, meta, root=ROOT):
    """check-published's JSON of the fresh results, when any experiment reads them, and notes. When the
    check cannot run, the fresh results are not used: those experiments' sources are chosen again
    without them (the snapshot, else no data), so that no verdict is made here. Returns (doc, notes)."""
    fresh_exps = sorted(e for e, s in sources.items() if s["kind"] in ("fresh", "partial"))
    if not fresh_exps:
        return None, []
    doc, why = run_check_json(dpforest, paper, results_root, root)
    if doc is not None:
        return doc, ([f"check-published on the fresh results: {doc['warning']}"] if doc.get("warning") else [])
    for e in fresh_exps:
        sources[e] = choose_source(paper, e, results_root, reference_root, dpforest, meta, root, unchecked=why)
    return None, [f"Fresh results of {', '.join(fresh_exps)} not used: {why}. Every verdict is "
                  "`dpforest check-published --json`'s, so those experiments show the snapshot (or no data); "
                  "`make tool` builds a dpforest that checks them."]


def snapshot_notes(snap_json, snap_json_path, sources, paper, root=ROOT):
    if not any(s["kind"] == "snapshot" for s in sources.values()):
        return []
    if snap_json is None:
        return [f"{snap_json_path} is missing: snapshot experiments show no verdicts."]
    current, why = reference.published_json_is_current(snap_json, os.path.join(root, "configs", paper, "published.yaml"))
    if current:
        return []
    return [f"{snap_json_path} {why}: the snapshot's verdicts and explanations may be out of date; "
            f"`python3 -m plots.reference.snapshot --paper {paper} --published-only` (from the full "
            f"results, or from the snapshot itself) or `make snapshot PAPER={paper}` rewrites them."]


def gather(paper, results_root, reference_root, dpforest, root=ROOT):
    """Everything the report of one paper needs, without drawing anything. Each number's and claim's entry
    is check-published's from the JSON of the data the experiment is read from (fresh: made now; snapshot:
    its published.json; none: whichever of the two exists); only without any JSON is a no-data entry made
    from published.yaml."""
    captions = load_captions(paper, root)
    meta = read_meta(reference_root, paper)
    numbers, claims = published_yaml(paper, root)
    order = [it["experiment"] for it in captions["items"]]
    sources = {e: choose_source(paper, e, results_root, reference_root, dpforest, meta, root) for e in order}
    fresh_json, notes = check_fresh(paper, sources, results_root, reference_root, dpforest, meta, root)
    snap_json_path = os.path.join(reference_root, paper, "published.json")
    snap_json = read_published_json(snap_json_path) if os.path.exists(snap_json_path) else None
    notes += snapshot_notes(snap_json, snap_json_path, sources, paper, root)

    def doc_for(kinds):
        if kinds <= {"fresh", "partial"}:
            return fresh_json
        if "none" in kinds:
            return fresh_json if fresh_json is not None else snap_json
        return snap_json

    out_nums = []
    for n in numbers:
        exp = str(n["experiment"])
        kind = sources.get(exp, {"kind": "none"})["kind"]
        pick = _by_id(doc_for({kind}), "numbers").get(str(n["id"]))
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
        pick = _by_id(doc_for(kinds), "claims").get(str(c["id"]))
        e = dict(pick) if pick else nodata_claim(paper, c)
        e.setdefault("text", c.get("statement", ""))
        e["sections"] = exps  # every experiment the claim reads (the JSON's "experiment" is the first)
        origin = "none" if "none" in kinds else "fresh" if kinds <= {"fresh", "partial"} else "snapshot"
        e["origin"] = origin if pick else "none"
        out_claims.append(e)
    return {"paper": paper, "captions": captions, "meta": meta, "sources": sources, "numbers": out_nums,
            "claims": out_claims, "notes": notes, "order": order, "counts": count(out_nums, out_claims)}
