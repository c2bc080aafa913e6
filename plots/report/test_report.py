"""Unit tests of the fidelity report generator (ctest `report`): captions cover every config, the data
source per experiment, counts from a snapshot, the fresh path through `check-published --json` (and, when
the check cannot run, fresh results left unused rather than judged here), the page's structure (paper
order, self-contained images, no-data commands), and that README.md's fidelity block matches what the
committed snapshot gives.

    python3 -m plots.report.test_report [-v]        (from the repository root)"""
import json
import os
import re
import sys
import tempfile
import time
import unittest

from plots import common
from plots.reference import reference
from plots.report import fixture, report
from plots.report import sources as S


def broken_main(argv):
    """A plot module's main that stops with an error (run by the report's workers)."""
    sys.exit("bad.py: no results table here")


def hanging_main(argv):
    while True:
        time.sleep(0.05)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def run_report(args):
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = report.main(args)
    return rc, out.getvalue()


class Captions(unittest.TestCase):
    def test_every_paper_lists_every_config_once(self):
        papers = S.papers_with_published()
        self.assertEqual(len(papers), 9, papers)
        for p in papers:
            cap = S.load_captions(p)
            self.assertEqual(sorted(it["experiment"] for it in cap["items"]), S.experiments_of(p))
            for it in cap["items"]:
                self.assertTrue(os.path.exists(S.plot_script(p, it["experiment"])), (p, it["experiment"]))
                self.assertGreater(len(it["caption"]), 20)

    def test_every_number_and_claim_has_a_section(self):
        for p in S.papers_with_published():
            order = {it["experiment"] for it in S.load_captions(p)["items"]}
            nums, claims = S.published_yaml(p)
            for n in nums:
                self.assertIn(str(n["experiment"]), order, (p, n["id"]))
            for c in claims:
                for e in S.claim_experiments(c):
                    self.assertIn(e, order, (p, c["id"]))

    def test_paper_order_not_alphabetical_where_the_paper_differs(self):
        order = [it["experiment"] for it in S.load_captions("dipreme")["items"]]
        self.assertLess(order.index("table-1"), order.index("figure-1"))
        self.assertLess(order.index("figure-2"), order.index("table-2"))

    def test_bad_captions_are_named(self):
        with tempfile.TemporaryDirectory() as t:
            os.makedirs(os.path.join(t, "configs", "p"))
            os.makedirs(os.path.join(t, "plots", "p"))
            for e in ("figure-1", "table-1"):
                open(os.path.join(t, "configs", "p", e + ".yaml"), "w").close()
            with open(os.path.join(t, "plots", "p", "captions.yaml"), "w") as f:
                f.write("paper: p\ntitle: x\nitems:\n  - {experiment: figure-1, caption: c}\n")
            with self.assertRaisesRegex(S.ReportError, r"captions.yaml: items: configs without a caption entry: table-1"):
                S.load_captions("p", t)
            with open(os.path.join(t, "plots", "p", "captions.yaml"), "w") as f:
                f.write("paper: p\nitems:\n  - {experiment: figure-2, caption: c}\n")
            with self.assertRaisesRegex(S.ReportError, r"items\[0\].experiment: 'figure-2' has no configs/p/figure-2.yaml"):
                S.load_captions("p", t)


class Sources(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.res = os.path.join(self.tmp.name, "results")
        self.ref = os.path.join(self.res, "reference")
        os.makedirs(self.ref)

    def tearDown(self):
        self.tmp.cleanup()

    def src(self, dpf=None):
        meta = S.read_meta(self.ref, "privatree")
        return S.choose_source("privatree", "table-appendix", self.res, self.ref, dpf, meta)

    def test_no_data_names_the_command(self):
        s = self.src()
        self.assertEqual(s["kind"], "none")
        self.assertEqual(s["command"], "make reproduce-table-appendix PAPER=privatree")

    def test_snapshot_then_fresh(self):
        fixture.snapshot(self.ref, "privatree")
        self.assertEqual(self.src()["kind"], "snapshot")
        fixture.privatree_results(self.res)
        # no binary: the snapshot's cell count (1) decides; the fixture holds more cells
        self.assertEqual(self.src()["kind"], "fresh")
        dpf = fixture.fake_dpforest(os.path.join(self.tmp.name, "dpf"), 3, 5)
        s = self.src(dpf)
        self.assertEqual(s["kind"], "snapshot")  # fresh but partial: the snapshot wins
        self.assertIn("fresh results are partial (3/5 cells)", s["detail"])
        dpf = fixture.fake_dpforest(os.path.join(self.tmp.name, "dpf"), 5, 5)
        self.assertEqual(self.src(dpf)["kind"], "fresh")

    def test_partial_fresh_without_snapshot(self):
        fixture.privatree_results(self.res)
        dpf = fixture.fake_dpforest(os.path.join(self.tmp.name, "dpf"), 2, 9)
        s = self.src(dpf)
        self.assertEqual(s["kind"], "partial")
        self.assertIn("2/9 cells", s["detail"])


class Gather(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.res = os.path.join(self.tmp.name, "results")
        self.ref = os.path.join(self.res, "reference")

    def tearDown(self):
        self.tmp.cleanup()

    def test_counts_from_snapshot(self):
        expected = fixture.snapshot(self.ref, "privatree")
        nums, claims = S.published_yaml("privatree")
        self.assertEqual(expected["numbers"], len(nums))
        self.assertEqual(expected["within"], (len(nums) + 3) // 4)  # the fixture cycles over 4 verdicts
        d = S.gather("privatree", self.res, self.ref, None)
        self.assertEqual(d["counts"], expected)
        self.assertEqual(d["sources"]["table-appendix"]["kind"], "snapshot")
        self.assertTrue(all(e["origin"] == "snapshot" for e in d["numbers"]))

    def test_fresh_results_through_check_published_json(self):
        fixture.privatree_results(self.res)
        nums, claims = S.published_yaml("privatree")
        doc = fixture.published_doc("privatree", nums, claims)
        dpf = fixture.fake_dpforest(os.path.join(self.tmp.name, "dpf"), 4, 4, doc)
        d = S.gather("privatree", self.res, self.ref, dpf)
        self.assertEqual(d["sources"]["table-appendix"]["kind"], "fresh")
        self.assertEqual(d["counts"], doc["counts"])
        self.assertEqual(d["notes"], [])

    def test_fresh_results_without_json_are_not_judged_here(self):
        # A dpforest without `check-published --json`: no verdict is derived from the fresh results; with no
        # snapshot every entry is check-published's absence of data, and a note names the reason.
        path, cells = fixture.privatree_results(self.res)
        dpf = fixture.fake_dpforest(os.path.join(self.tmp.name, "dpf"), cells, cells)  # refuses --json
        d = S.gather("privatree", self.res, self.ref, dpf)
        self.assertTrue(any("unrecognised option '--json'" in n and "not used" in n for n in d["notes"]), d["notes"])
        self.assertEqual(d["sources"]["table-appendix"]["kind"], "none")
        self.assertIn("fresh results not used", d["sources"]["table-appendix"]["detail"])
        self.assertTrue(all(e["verdict"] == "no data" and e["origin"] == "none" for e in d["numbers"]))
        self.assertTrue(all(c["verdict"] == "no data" for c in d["claims"]))
        self.assertEqual(d["counts"]["no_data"], d["counts"]["numbers"])

    def test_fresh_results_without_json_fall_back_on_the_snapshot(self):
        # The same with a snapshot: its published.json gives every verdict (as check-published made them).
        expected = fixture.snapshot(self.ref, "privatree")
        path, cells = fixture.privatree_results(self.res)
        for dpf in (fixture.fake_dpforest(os.path.join(self.tmp.name, "dpf"), cells, cells),
                    os.path.join(self.tmp.name, "no-such-dpforest")):
            d = S.gather("privatree", self.res, self.ref, dpf)
            src = d["sources"]["table-appendix"]
            self.assertEqual(src["kind"], "snapshot", dpf)
            self.assertIn("fresh results not used", src["detail"])
            self.assertEqual(d["counts"], expected)
            self.assertTrue(all(e["origin"] == "snapshot" for e in d["numbers"]))


class Page(unittest.TestCase):
    def test_structure_order_counts_and_no_data(self):
        with tempfile.TemporaryDirectory() as t:
            res = os.path.join(t, "results")
            ref = os.path.join(res, "reference")
            counts = fixture.snapshot(ref, "privatree")
            readme = os.path.join(t, "README.md")
            with open(readme, "w") as f:
                f.write("x\n" + report.BEGIN + "\nold\n" + report.END + "\ny\n")
            rc, log = run_report(["--paper", "privatree", "--paper", "dipreme", "--results", res,
                                  "--reference", ref, "--dpforest", os.path.join(t, "none"), "--readme", readme])
            self.assertEqual(rc, 0, log)
            html = read(os.path.join(res, "privatree", "report.html"))
            md = read(os.path.join(res, "privatree", "report.md"))
            self.assertIn("snapshot of commit 0123456789ab, 2026-11-27T06:00:00Z", html)
            c = re.search(r"<h3>Counts</h3><table>.*?</tr><tr>(.*?)</tr>", html).group(1)
            self.assertEqual(re.findall(r"<td>(\d+)</td>", c),
                             [str(counts[k]) for k in ("numbers", "within", "outside_explained", "outside_unexplained",
                                                       "no_data", "claims", "claims_hold", "claims_fail",
                                                       "claims_no_data")])
            self.assertIn("outside, unexplained", html)
            self.assertIn("[warning: fixture warning]", html)
            self.assertIn("fixture measured holds", html)
            # every image is inline; the published-vs-ours chart is there; the Markdown's figures exist
            srcs = re.findall(r"<img [^>]*src='([^']*)'", html)
            self.assertGreaterEqual(len(srcs), 1)
            self.assertTrue(all(s.startswith("data:image/png;base64,") for s in srcs))
            self.assertNotRegex(html, r"(src|href)=['\"]https?:")
            for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
                self.assertTrue(os.path.exists(os.path.join(res, "privatree", link)), link)
            self.assertIn("table-appendix-published-vs-ours.png", md)
            # our table from the snapshot alone, through plots/common.py's snapshot fallback
            if hasattr(common, "snapshot_rows"):
                self.assertIn("<table class='script'>", html)
                self.assertNotIn("could not be drawn", html)
            # dipreme: no snapshot, no results: every section says how to get the data, in the paper's order
            dh = read(os.path.join(res, "dipreme", "report.html"))
            order = [it["experiment"] for it in S.load_captions("dipreme")["items"]]
            pos = [dh.index(f"<h2 id='{e}'>") for e in order]
            self.assertEqual(pos, sorted(pos))
            for e in order:
                self.assertIn(f"no data: run <code>make reproduce-{e} PAPER=dipreme</code>", dh)
            self.assertIn("Data: no data: neither fresh results nor a reference snapshot.", dh)
            # README block: privatree from the fixture snapshot, dipreme honestly without data
            text = read(readme)
            self.assertIn(f"| `privatree` | {counts['numbers']} | {counts['within']} |", text)
            self.assertIn("snapshot of commit 0123456789ab, 2026-11-27T06:00:00Z; 1/1 experiments complete |", text)
            self.assertRegex(text, r"\| `dipreme` \| (\d+) \| 0 \| 0 \| 0 \| \1 \|")
            self.assertTrue(text.startswith("x\n") and text.endswith("\ny\n"))

    def test_broken_script_is_shown_not_fatal(self):
        with tempfile.TemporaryDirectory() as t:
            d = os.path.join(t, "p", "e")
            os.makedirs(d)
            bad = "plots.report.test_report:broken_main"
            for workers in (1, 2):
                r = report.figures.run_jobs([{"kind": "script", "entry": bad, "result_dir": d}], workers)[0]
                self.assertFalse(r["ok"])
                self.assertIn("no results table here", r["log"])

    def test_hanging_script_is_stopped(self):
        with tempfile.TemporaryDirectory() as t:
            hang = "plots.report.test_report:hanging_main"
            old = report.figures.JOB_SECONDS
            report.figures.JOB_SECONDS = 1
            try:
                r = report.figures.run_jobs([{"kind": "script", "entry": hang, "result_dir": t}], 2)[0]
            finally:
                report.figures.JOB_SECONDS = old
            self.assertFalse(r["ok"])
            self.assertIn("stopped after 1 s", r["log"])

    def test_markdown_tables(self):
        h = report.md_to_html("# T\n\n| a | b |\n|---|---|\n| 1 | **2** |\ntext <x>\n")
        self.assertIn("<th>a</th><th>b</th>", h)
        self.assertIn("<td><b>2</b></td>", h)
        self.assertIn("text &lt;x&gt;", h)


class Chart(unittest.TestCase):
    def entries(self, paper, exp):
        nums, _ = S.published_yaml(paper)
        return [dict(S.nodata_number(paper, n), yaml=n) for n in nums if n["experiment"] == exp]

    def test_swept_column_and_panels(self):
        xkey, panels = report.figures.chart_points(self.entries("dipreme", "figure-2"))
        self.assertEqual(xkey, "epsilon")
        self.assertEqual(list(panels), [("accuracy",)])
        xkey, panels = report.figures.chart_points(self.entries("smooth-rdf", "table-3"))
        self.assertEqual(xkey, "n_trees")
        self.assertIn(("empty_leaf_fraction", "dataset=nursery"), panels)
        # a table: one value per method and dataset, nothing swept -> one category per series
        xkey, panels = report.figures.chart_points(self.entries("dipreme", "table-1"))
        self.assertIsNone(xkey)
        self.assertIn("RF (max_depth=9)", panels[("mse", "dataset=appliances-energy")]["series"])

    def test_chart_draws_every_paper_value(self):
        e = self.entries("dipreme", "figure-2")
        e[0]["ours"] = {"paper_method": {"mean": 0.7, "sd": 0.05, "n": 10}, "with_quirks": None,
                        "strict": {"mean": 0.6, "sd": 0.05, "n": 10}}
        with tempfile.TemporaryDirectory() as t:
            n = report.figures.draw_chart(e, os.path.join(t, "c.png"), "t")
            self.assertEqual(n, len(e) + 2)
            self.assertGreater(os.path.getsize(os.path.join(t, "c.png")), 1000)


class Sections(unittest.TestCase):
    def test_claim_on_two_experiments_is_in_both_sections(self):
        with tempfile.TemporaryDirectory() as t:
            res = os.path.join(t, "results")
            fixture.snapshot(os.path.join(res, "reference"), "smooth-rdf")
            rc, log = run_report(["--paper", "smooth-rdf", "--results", res, "--reference",
                                  os.path.join(res, "reference"), "--dpforest", os.path.join(t, "none"), "--no-readme"])
            self.assertEqual(rc, 0, log)
            md = read(os.path.join(res, "smooth-rdf", "report.md"))
            sec = {m.group(1): m.start() for m in re.finditer(r"^## (\S+)$", md, re.M)}
            hits = [m.start() for m in re.finditer(r"^\| fig12-13-ours-vs-jpw-tally \|", md, re.M)]
            self.assertEqual(len(hits), 2)
            self.assertTrue(sec["figure-12"] < hits[0] < sec["figure-13"] < hits[1] < sec["figure-14"])


class NotInMirror(unittest.TestCase):
    def test_hint_names_the_dataset_and_where_to_get_it(self):
        h = report.no_data_hint({"not_in_mirror": "higgs", "origin": "snapshot",
                                 "command": "make reproduce-table-2 PAPER=dipreme"})
        self.assertIn("the offline mirror does not hold higgs", h)
        self.assertIn("datasets/higgs.yaml", h)
        self.assertNotIn("have no rows", h)
        self.assertIn("have no rows", report.no_data_hint({"origin": "snapshot"}))

    def test_committed_dipreme_snapshot_marks_its_unmirrored_entries(self):
        # dipreme Table 2's snapshot records higgs, puc-rio and flight-delay as not in the mirror; no
        # binary and no fresh results: the snapshot alone decides.
        with tempfile.TemporaryDirectory() as t:
            d = S.gather("dipreme", t, os.path.join(S.ROOT, "results", "reference"), os.path.join(t, "none"))
        marked = {e["id"]: e.get("not_in_mirror") for e in d["numbers"] if e["experiment"] == "table-2"}
        self.assertEqual(marked.get("t2-dp-df-higgs"), "higgs")
        self.assertIsNone(marked.get("t2-dp-df-banknote"))
        self.assertTrue(all(e.get("verdict") == "no data" for e in d["numbers"] if e.get("not_in_mirror")))


class Readme(unittest.TestCase):
    def test_readme_block_matches_the_committed_snapshot(self):
        ref = os.path.join(S.ROOT, "results", "reference")
        readme = os.path.join(S.ROOT, "README.md")
        block = report.readme_block(ref)
        self.assertTrue(report.update_readme(readme, block, check_only=True),
                        "README.md's fidelity block is stale: run `make report` (python3 -m plots.report.report)")
        self.assertEqual(block.count("\n| `"), len(S.papers_with_published()))

    def test_committed_verdicts_come_from_the_current_published_yaml(self):
        # The README block and the reports read the verdicts from each snapshot's published.json. An
        # edit of published.yaml (an explanation, a tolerance, `unexplained`) must be followed by
        # `snapshot.py --paper P --published-only`, or those verdicts silently describe the old record.
        ref_root = os.path.join(S.ROOT, "results", "reference")
        stale = []
        for paper in S.papers_with_published():
            path = os.path.join(ref_root, paper, "published.json")
            if not os.path.exists(path):
                continue
            with open(path) as f:
                doc = json.load(f)
            ok, why = reference.published_json_is_current(doc, os.path.join(S.ROOT, "configs", paper, "published.yaml"))
            if not ok:
                stale.append(f"{paper}: {why}")
        self.assertEqual(stale, [], "run `python3 -m plots.reference.snapshot --paper P --published-only` for these")


if __name__ == "__main__":
    unittest.main()
