"""The per-paper fidelity report: results/<paper>/report.html (self-contained) and report.md.

    python3 -m plots.report.report [--paper ID]... [--results DIR] [--reference DIR]
        [--dpforest BIN] [--jobs N] [--readme README.md | --no-readme] [--check-readme]

For every table and figure of a paper, in the paper's order (plots/<package>/captions.yaml): the caption,
our figure (the paper's plot module, run on the data into a temporary folder), the paper's printed values
against ours (chart and table: paper method, with quirks, strict; verdict; explanation), the claims with
their verdicts and the counts. Data: fresh results when complete, else the committed snapshot
(results/reference/<paper>/), else "no data" with the command that produces it (plots/report/sources.py).
It also rewrites README.md's fidelity block (between the fidelity:begin/end markers) from the snapshot
alone; --check-readme only compares (exit 1 on a difference)."""
import argparse
import base64
import html
import os
import re
import shutil
import sys
import tempfile
import time

from plots import common, module_name
from plots.report import figures
from plots.report import sources as S

VERDICT_TEXT = {"within": "within", "outside_explained": "outside, explained",
                "outside_unexplained": "outside, unexplained", "no_data": "no data"}
CLAIM_TEXT = {"hold": "holds", "fail": "fails", "no_data": "no data"}
BEGIN, END = "<!-- fidelity:begin -->", "<!-- fidelity:end -->"


def esc(s):
    return html.escape("" if s is None else str(s))


def ours_text(o):
    if not isinstance(o, dict) or S._num_or_none(o.get("mean")) is None:
        return "—"
    sd = S._num_or_none(o.get("sd"))
    n = o.get("n")
    return S.fmt(float(o["mean"])) + (" ± " + S.fmt(sd) if sd is not None else "") + \
        (f" (n={n})" if n is not None else "")


def no_data_hint(e):
    """Without data for the experiment: the command that makes it; with data: the rows do not match;
    on a dataset the offline mirror does not hold: that, and where to get it."""
    if e.get("not_in_mirror"):
        d = e["not_in_mirror"]
        return (f": the offline mirror does not hold {d}, so its cells cannot run here (datasets/{d}.yaml says "
                f"where to get it; then `{e.get('command') or ''}`)")
    if e.get("excluded_by_config"):
        return f": the config excludes {e['excluded_by_config']}"
    if e.get("origin") in ("fresh", "snapshot"):
        return f" (the {e['origin']} data have no rows this entry selects)"
    return f": run `{e.get('command') or ''}`"


def number_rows(entries):
    """Table rows (dicts of display strings) for the numbers of one experiment."""
    rows = []
    for e in entries:
        ours = e.get("ours") if isinstance(e.get("ours"), dict) else {}
        y = e.get("yaml", {})
        value = S._num_or_none(e.get("value"))
        pub = (S.fmt(value) if value is not None else "—") + (f" ± {e['spread']}" if e.get("spread") not in (None, "") else "")
        cls = S.verdict_class(e)
        verdict = VERDICT_TEXT[cls]
        if cls != "no_data" and e.get("compare"):
            verdict += f" (vs {e['compare']})"
        if cls == "no_data":
            verdict += no_data_hint(e)
        rows.append({"id": str(e.get("id")), "source": str(e.get("source") or ""), "metric": str(e.get("metric") or ""),
                     "published": pub, "tolerance": S.fmt(S._num_or_none(e.get("tolerance"))),
                     "paper_method": ours_text(ours.get("paper_method")),
                     "with_quirks": ours_text(ours.get("with_quirks")) if y.get("with_quirks") else "n/a",
                     "strict": ours_text(ours.get("strict")) if y.get("strict") else "n/a",
                     "verdict": verdict, "cls": cls,
                     "explanation": str(e.get("explanation") or "") + (
                         f" [warning: {e['explanation_warning']}]" if e.get("explanation_warning") else "")})
    return rows


def claim_rows(claims):
    rows = []
    for c in claims:
        cls = S.claim_class(c)
        v = CLAIM_TEXT[cls]
        if cls == "no_data":
            v += no_data_hint(c)
        meas = []
        if c.get("measured"):  # check-published's own summary of what it measured
            meas.append(str(c["measured"]))
        else:
            if S._num_or_none(c.get("effect")) is not None:
                meas.append("effect " + S.fmt(float(c["effect"])))
            if S._num_or_none(c.get("p")) is not None:
                meas.append("p " + S.fmt(float(c["p"])))
        if c.get("missing"):
            meas.append("missing: " + str(c["missing"]))
        rows.append({"id": str(c.get("id")), "source": str(c.get("source") or ""), "text": str(c.get("text") or ""),
                     "verdict": v, "cls": cls, "measured": ", ".join(meas), "explanation": str(c.get("explanation") or "")})
    return rows


def counts_line(c):
    return (f"{c['numbers']} numbers: {c['within']} within, {c['outside_explained']} outside but explained, "
            f"{c['outside_unexplained']} outside and unexplained, {c['no_data']} no data"
            f"{' (' + str(c['no_data_not_in_mirror']) + ' on datasets the mirror does not hold)' if c.get('no_data_not_in_mirror') else ''}; "
            f"{c['claims']} claims: {c['claims_hold']} hold, {c['claims_fail']} fail, {c['claims_no_data']} no data")


def source_text(src):
    k = src["kind"]
    if k == "fresh":
        return f"fresh results ({src['detail']})"
    if k == "snapshot":
        return "reference snapshot" + (f" ({src['detail']})" if src["detail"] else "")
    if k == "partial":
        return f"fresh results, PARTIAL ({src['detail']}); complete them with `{src['command']}`"
    return f"no data: run `{src['command']}`"


def snapshot_text(meta):
    if not meta:
        return None
    commit = str(meta.get("git_commit", "?"))
    date = meta.get("date", "?")
    if hasattr(date, "isoformat"):  # YAML reads an unquoted ISO timestamp as a datetime
        date = date.isoformat().replace("+00:00", "Z")
    return f"snapshot of commit {commit[:12]}, {date}"


# ---------------------------------------------------------------------------------------------------
# Markdown tables (the plot scripts' .md output) to HTML


def md_inline(s):
    s = esc(s)
    s = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    return s


def md_to_html(text):
    out, table = [], []

    def flush():
        if not table:
            return
        rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table]
        body = [r for r in rows if not all(re.fullmatch(r":?-{2,}:?", c or "--") for c in r)]
        if body:
            out.append("<table class='script'><tr>" + "".join(f"<th>{md_inline(c)}</th>" for c in body[0]) + "</tr>")
            for r in body[1:]:
                out.append("<tr>" + "".join(f"<td>{md_inline(c)}</td>" for c in r) + "</tr>")
            out.append("</table>")
        table.clear()

    for line in text.splitlines():
        if line.strip().startswith("|"):
            table.append(line)
            continue
        flush()
        if not line.strip():
            continue
        m = re.match(r"^(#+)\s*(.*)", line)
        out.append(f"<p class='h'><b>{md_inline(m.group(2))}</b></p>" if m else f"<p>{md_inline(line)}</p>")
    flush()
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------
# Page assembly

CSS = """body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;border-top:2px solid #ccc;padding-top:.6em;margin-top:2em}
table{border-collapse:collapse;font-size:.82em;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 5px;vertical-align:top}
th{background:#f0f0f0}.within{background:#e3f5e1}.outside_explained{background:#fff4d6}
.outside_unexplained{background:#fbdcdc}.no_data{background:#eee;color:#555}.hold{background:#e3f5e1}.fail{background:#fbdcdc}
.caption{font-style:italic}.note{color:#555;font-size:.9em}.err{background:#fbdcdc;white-space:pre-wrap;font-size:.8em}
img{max-width:100%;border:1px solid #ddd;margin:.3em 0}code{background:#f4f4f4}"""

# After load: every <img> counted; a broken one (naturalWidth 0) counted as broken. The browser test
# (plots/report/test_browser.py) reads these attributes from chromium's --dump-dom.
SCRIPT = """<script>
window.addEventListener('load', function () {
  var imgs = document.getElementsByTagName('img'), ok = 0, broken = [];
  for (var i = 0; i < imgs.length; i++) {
    if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++; else broken.push(imgs[i].getAttribute('alt'));
  }
  var b = document.body;
  b.setAttribute('data-images-total', imgs.length);
  b.setAttribute('data-images-loaded', ok);
  b.setAttribute('data-images-broken', broken.join(' | '));
  b.setAttribute('data-check', 'done');
});
</script>"""


def img_tag(path, alt):
    with open(path, "rb") as f:
        data = base64.b64encode(f.read()).decode("ascii")
    return f"<img alt='{esc(alt)}' src='data:image/png;base64,{data}'>"


def counts_table_html(c):
    return ("<table><tr><th>numbers</th><th>within</th><th>outside, explained</th><th>outside, unexplained</th>"
            "<th>no data</th><th>claims</th><th>hold</th><th>fail</th><th>no data</th></tr><tr>" +
            "".join(f"<td>{c[k]}</td>" for k in ("numbers", "within", "outside_explained", "outside_unexplained",
                                                 "no_data", "claims", "claims_hold", "claims_fail", "claims_no_data")) +
            "</tr></table>")


def counts_table_md(c):
    keys = ("numbers", "within", "outside_explained", "outside_unexplained", "no_data", "claims", "claims_hold",
            "claims_fail", "claims_no_data")
    return ["| numbers | within | outside, explained | outside, unexplained | no data | claims | hold | fail | no data |",
            "|---" * 9 + "|", "| " + " | ".join(str(c[k]) for k in keys) + " |"]


def md_cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def build(paper, data, rendered, out_dir, fig_dir_name="report-figures"):
    """Writes out_dir/report.html and out_dir/report.md (+ PNGs in out_dir/report-figures/)."""
    cap = data["captions"]
    title = cap.get("title", paper)
    fig_dir = os.path.join(out_dir, fig_dir_name)
    if os.path.isdir(fig_dir):
        shutil.rmtree(fig_dir)
    os.makedirs(fig_dir, exist_ok=True)
    snap = snapshot_text(data["meta"])
    kinds = {s["kind"] for s in data["sources"].values()}
    if "fresh" in kinds or "partial" in kinds:
        origin = "fresh results" + (f" and the {snap}" if snap and "snapshot" in kinds else "")
    elif "snapshot" in kinds:
        origin = snap or "reference snapshot (no meta.yaml)"
    else:
        origin = "no data: neither fresh results nor a reference snapshot"
    c = data["counts"]
    H, M = [], []
    H.append(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Fidelity report: {esc(paper)}</title>"
             f"<style>{CSS}</style>{SCRIPT}</head><body>")
    H.append(f"<h1>Fidelity report: {esc(paper)}</h1><p><b>{esc(title)}</b></p>")
    H.append(f"<p>Data: {esc(origin)}.</p>")
    M += [f"# Fidelity report: {paper}", "", f"**{title}**", "", f"Data: {origin}.", ""]
    for n in data["notes"]:
        H.append(f"<p class='note'>{md_inline(n)}</p>")
        M += [f"> {n}", ""]
    H.append("<h3>Counts</h3>" + counts_table_html(c))
    M += ["## Counts", ""] + counts_table_md(c) + [""]
    H.append("<h3>Tables and figures</h3><table><tr><th>experiment</th><th>data</th><th>numbers</th><th>claims</th></tr>")
    M += ["## Tables and figures", "", "| experiment | data | numbers | claims |", "|---|---|---|---|"]
    per = {}
    for exp in data["order"]:
        nums = [e for e in data["numbers"] if e["experiment"] == exp]
        cls = [k for k in data["claims"] if exp in k.get("sections", [])]
        per[exp] = (nums, cls, S.count(nums, cls))
        pc = per[exp][2]
        ntext = f"{pc['within']}/{pc['numbers']} within, {pc['outside_explained']} explained, " \
                f"{pc['outside_unexplained']} unexplained, {pc['no_data']} no data" if pc["numbers"] else "—"
        ctext = f"{pc['claims_hold']}/{pc['claims']} hold, {pc['claims_fail']} fail, {pc['claims_no_data']} no data" \
            if pc["claims"] else "—"
        H.append(f"<tr><td><a href='#{esc(exp)}'>{esc(exp)}</a></td><td>{md_inline(source_text(data['sources'][exp]))}</td>"
                 f"<td>{esc(ntext)}</td><td>{esc(ctext)}</td></tr>")
        M.append(f"| [{exp}](#{exp}) | {md_cell(source_text(data['sources'][exp]))} | {ntext} | {ctext} |")
    H.append("</table>")
    M.append("")
    items = {it["experiment"]: it for it in cap["items"]}
    for exp in data["order"]:
        it = items[exp]
        nums, cls, pc = per[exp]
        src = data["sources"][exp]
        H.append(f"<h2 id='{esc(exp)}'>{esc(exp)}</h2><p class='caption'>{esc(it['caption'])}</p>")
        M += [f"## {exp}", "", f"*{it['caption']}*", ""]
        if it.get("note"):
            H.append(f"<p class='note'>{md_inline(it['note'])}</p>")
            M += [f"> {it['note']}", ""]
        H.append(f"<p>Data: {md_inline(source_text(src))}.</p>")
        M += [f"Data: {source_text(src)}.", ""]
        r = rendered.get(exp, {})
        script = r.get("script")
        if src["kind"] == "none":
            H.append(f"<p class='no_data'>No figure: no data (run <code>{esc(src['command'])}</code>).</p>")
            M += [f"No figure: no data (run `{src['command']}`).", ""]
        elif script is not None:
            for i, png in enumerate(script["pngs"]):
                name = f"{exp}-{os.path.basename(png)}"
                shutil.copyfile(png, os.path.join(fig_dir, name))
                H.append(img_tag(png, f"{exp}: {os.path.basename(png)}"))
                M += [f"![{exp}: our figure]({fig_dir_name}/{name})", ""]
            for md in script["mds"]:
                with open(md, encoding="utf-8") as f:
                    t = f.read()
                H.append(md_to_html(t))
                M += [t.rstrip(), ""]
            if not script["ok"] or (not script["pngs"] and not script["mds"]):
                why = script["log"].strip()[-1500:] or "the script wrote no figure and no table"
                H.append(f"<p>Our figure could not be drawn by <code>{esc(r.get('script_path'))}</code>:</p>"
                         f"<pre class='err'>{esc(why)}</pre>")
                M += [f"Our figure could not be drawn by `{r.get('script_path')}`:", "", "```", why, "```", ""]
        chart = r.get("chart")
        if chart and chart["pngs"]:
            name = f"{exp}-published-vs-ours.png"
            shutil.copyfile(chart["pngs"][0], os.path.join(fig_dir, name))
            H.append(img_tag(chart["pngs"][0], f"{exp}: published vs ours"))
            M += [f"![{exp}: published vs ours]({fig_dir_name}/{name})", ""]
        elif chart and not chart["ok"]:
            H.append(f"<pre class='err'>published-vs-ours chart failed:\n{esc(chart['log'][-1500:])}</pre>")
            M += ["published-vs-ours chart failed:", "", "```", chart["log"][-1500:], "```", ""]
        if nums:
            rows = number_rows(nums)
            H.append("<h3>Published vs ours</h3><table><tr><th>id</th><th>source</th><th>metric</th><th>published</th>"
                     "<th>tol.</th><th>ours (paper method)</th><th>ours (with quirks)</th><th>ours (strict)</th>"
                     "<th>verdict</th><th>explanation</th></tr>")
            M += ["### Published vs ours", "", "| id | source | metric | published | tol. | ours (paper method) | "
                  "ours (with quirks) | ours (strict) | verdict | explanation |", "|---" * 10 + "|"]
            for row in rows:
                H.append(f"<tr class='{row['cls']}'>" + "".join(
                    f"<td>{md_inline(row[k])}</td>" for k in ("id", "source", "metric", "published", "tolerance",
                                                           "paper_method", "with_quirks", "strict", "verdict",
                                                           "explanation")) + "</tr>")
                M.append("| " + " | ".join(md_cell(row[k]) for k in ("id", "source", "metric", "published", "tolerance",
                                                                     "paper_method", "with_quirks", "strict", "verdict",
                                                                     "explanation")) + " |")
            H.append("</table>")
            M.append("")
        if cls:
            H.append("<h3>Claims</h3><table><tr><th>id</th><th>source</th><th>claim</th><th>verdict</th><th>measured</th>"
                     "<th>explanation</th></tr>")
            M += ["### Claims", "", "| id | source | claim | verdict | measured | explanation |", "|---" * 6 + "|"]
            for row in claim_rows(cls):
                H.append(f"<tr class='{row['cls']}'>" + "".join(
                    f"<td>{md_inline(row[k])}</td>" for k in ("id", "source", "text", "verdict", "measured",
                                                           "explanation")) + "</tr>")
                M.append("| " + " | ".join(md_cell(row[k]) for k in ("id", "source", "text", "verdict", "measured",
                                                                     "explanation")) + " |")
            H.append("</table>")
            M.append("")
        if not nums and not cls:
            H.append("<p class='note'>published.yaml has no number or claim for this experiment.</p>")
            M += ["published.yaml has no number or claim for this experiment.", ""]
        H.append("<p>Counts: " + esc(counts_line(pc)) + "</p>")
        M += ["Counts: " + counts_line(pc) + ".", ""]
    H.append("</body></html>")
    os.makedirs(out_dir, exist_ok=True)
    for name, text in (("report.html", "\n".join(H) + "\n"), ("report.md", "\n".join(M) + "\n")):
        tmp = os.path.join(out_dir, name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, os.path.join(out_dir, name))
    return os.path.join(out_dir, "report.html")


# ---------------------------------------------------------------------------------------------------
# README block (from the snapshot alone)


def readme_block(reference_root, root=S.ROOT):
    lines = [BEGIN, "| paper | numbers | within | outside, explained | outside, unexplained | no data | claims | "
             "hold | fail | claims without data | source |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for paper in S.papers_with_published(root):
        nums, claims = S.published_yaml(paper, root)
        meta = S.read_meta(reference_root, paper)
        pj = os.path.join(reference_root, paper, "published.json")
        if os.path.exists(pj):
            doc = S.read_published_json(pj)
            by_n = {str(e.get("id")): e for e in doc.get("numbers", []) if isinstance(e, dict)}
            by_c = {str(e.get("id")): e for e in doc.get("claims", []) if isinstance(e, dict)}
            ne = [S.mark_not_in_mirror(dict(by_n.get(str(n["id"]), S.nodata_number(paper, n))), n,
                                       S.meta_experiment(meta, str(n["experiment"])).get("datasets_not_in_mirror") or [])
                  for n in nums]
            ce = [by_c.get(str(k["id"]), S.nodata_claim(paper, k)) for k in claims]
            src = snapshot_text(meta) or "snapshot (no meta.yaml)"
            exps = S.experiments_of(paper, root)
            done = sum(1 for e in exps if S.meta_experiment(meta, e).get("complete") is True)
            src += f"; {done}/{len(exps)} experiments complete"
        else:
            ne = [S.nodata_number(paper, n) for n in nums]
            ce = [S.nodata_claim(paper, k) for k in claims]
            src = f"no snapshot yet (`make reproduce PAPER={paper}`, then `make snapshot`)"
        c = S.count(ne, ce)
        lines.append(f"| `{paper}` | {c['numbers']} | {c['within']} | {c['outside_explained']} | "
                     f"{c['outside_unexplained']} | {c['no_data']}"
                     f"{' (' + str(c['no_data_not_in_mirror']) + ' not mirrored)' if c['no_data_not_in_mirror'] else ''}"
                     f" | {c['claims']} | {c['claims_hold']} | "
                     f"{c['claims_fail']} | {c['claims_no_data']} | {src} |")
    lines.append(END)
    return "\n".join(lines)


def update_readme(readme, block, check_only=False):
    try:
        return common.replace_marked_block(readme, BEGIN, END, block, check_only)
    except ValueError as e:
        raise S.ReportError(str(e)) from None


# ---------------------------------------------------------------------------------------------------


def render_all(datas, jobs, tmp, timings=0):
    """Runs every plot module and chart of every paper in one pool. Returns {paper: {exp: {...}}}."""
    job_list, keys = [], []
    for data in datas:
        paper = data["paper"]
        for exp in data["order"]:
            src = data["sources"][exp]
            script = S.plot_script(paper, exp)
            if src["kind"] != "none" and os.path.exists(script):
                rd = figures.stage(os.path.join(tmp, "data"), paper, exp, src)
                job_list.append({"kind": "script", "entry": module_name(paper, exp) + ":main", "result_dir": rd})
                keys.append((paper, exp, "script"))
            nums = [e for e in data["numbers"] if e["experiment"] == exp and S._num_or_none(e.get("value")) is not None]
            if nums:
                out = os.path.join(tmp, "charts", f"{paper}--{exp}.png")
                os.makedirs(os.path.dirname(out), exist_ok=True)
                job_list.append({"kind": "chart", "entries": nums, "out": out,
                                 "title": f"{paper} {exp}: published vs ours"})
                keys.append((paper, exp, "chart"))
    results = figures.run_jobs(job_list, jobs)
    if timings:
        slow = sorted(zip(results, keys), key=lambda t: -t[0].get("seconds", 0))
        print(f"report: {len(job_list)} drawing jobs, {sum(r.get('seconds', 0) for r in results):.1f} s in all; slowest:")
        for r, k in slow[:timings]:
            print(f"  {r.get('seconds', 0):6.2f} s  {' '.join(k)}")
    out = {}
    for (paper, exp, kind), res in zip(keys, results):
        d = out.setdefault(paper, {}).setdefault(exp, {"script_path": os.path.relpath(S.plot_script(paper, exp), S.ROOT)})
        d[kind] = res
    for data in datas:
        for exp in data["order"]:
            src = data["sources"][exp]
            script = S.plot_script(paper := data["paper"], exp)
            if src["kind"] != "none" and not os.path.exists(script):
                out.setdefault(paper, {}).setdefault(exp, {"script_path": os.path.relpath(script, S.ROOT)})["script"] = {
                    "ok": False, "log": f"{os.path.relpath(script, S.ROOT)}: no plot script", "pngs": [], "mds": []}
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m plots.report.report", description=__doc__.split("\n")[0])
    ap.add_argument("--paper", action="append", help="paper id (repeatable; default: every paper with published.yaml)")
    ap.add_argument("--results", default=os.path.join(S.ROOT, "results"), help="fresh results root")
    ap.add_argument("--reference", default=None, help="snapshot root (default: <repo>/results/reference)")
    ap.add_argument("--out", default=None, help="reports root (default: --results): <out>/<paper>/report.html")
    ap.add_argument("--dpforest", default=os.path.join(S.ROOT, "build", "dpforest"))
    ap.add_argument("--jobs", type=int, default=2, help="drawing processes at a time (default 2)")
    ap.add_argument("--timings", type=int, default=0, metavar="N", help="print the N slowest drawing jobs")
    ap.add_argument("--readme", default=os.path.join(S.ROOT, "README.md"))
    ap.add_argument("--no-readme", action="store_true", help="do not rewrite the README block")
    ap.add_argument("--check-readme", action="store_true", help="only compare the README block; exit 1 if stale")
    a = ap.parse_args(argv)
    reference = a.reference or os.path.join(S.ROOT, "results", "reference")
    t0 = time.time()
    try:
        if a.check_readme:
            ok = update_readme(a.readme, readme_block(reference), check_only=True)
            print(f"{a.readme}: fidelity block " + ("matches the snapshot" if ok else
                  "differs from the snapshot; run `make report` (or python3 -m plots.report.report) to rewrite it"))
            return 0 if ok else 1
        papers = a.paper or S.papers_with_published()
        known = S.papers_with_published()
        for p in papers:
            if p not in known:
                raise S.ReportError(f"--paper {p}: no configs/{p}/published.yaml (papers: {', '.join(known)})")
        datas = [S.gather(p, a.results, reference, a.dpforest) for p in papers]
        with tempfile.TemporaryDirectory(prefix="dpf-report-") as tmp:
            rendered = render_all(datas, a.jobs, tmp, a.timings)
            for data in datas:
                out = build(data["paper"], data, rendered.get(data["paper"], {}),
                            os.path.join(a.out or a.results, data["paper"]))
                print(f"{out}: {counts_line(data['counts'])}")
        if not a.no_readme:
            update_readme(a.readme, readme_block(reference))
            print(f"{a.readme}: fidelity block rewritten from {reference}")
    except S.ReportError as e:
        print(f"report: {e}", file=sys.stderr)
        return 1
    print(f"report: {len(papers)} paper(s) in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
