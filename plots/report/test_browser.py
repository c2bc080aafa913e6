"""Renders fidelity reports in headless Chromium (Debian's `chromium`) and checks that every figure loaded
(ctest `report_browser`). The page's own script (report.py SCRIPT) writes, on load, the number of <img>
elements and of those with naturalWidth > 0 into attributes of <body>; this reads them from
`chromium --dump-dom`.

    python3 -m plots.report.test_browser              # a fixture report must pass, and a copy
                                                     # with one image corrupted must fail
    python3 -m plots.report.test_browser FILE.html... # check these reports (exit 1 on a failure)

Exit 77 (ctest: skipped) when chromium is missing; `make test` installs it (experiments/tools/deps.sh browser)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from plots.report import fixture, report

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=15000", "--dump-dom"]


def check(html_path):
    """(ok, message, images): every <img> of the page loaded, as the page's own script counted them (a page
    without any image passes: a paper without data and without printed numbers has none)."""
    with tempfile.TemporaryDirectory(prefix="dpf-chromium-") as profile:
        try:
            p = subprocess.run([CHROMIUM] + FLAGS + [f"--user-data-dir={profile}",
                                                     "file://" + os.path.abspath(html_path)],
                               capture_output=True, text=True, timeout=180)
        except subprocess.TimeoutExpired:
            return False, f"{html_path}: chromium did not finish in 180 s", 0
    m = re.search(r"<body([^>]*)>", p.stdout)
    if p.returncode != 0 or not m:
        return False, f"{html_path}: chromium exit {p.returncode}, no <body> in its DOM dump: {p.stderr[-500:]}", 0
    attrs = dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', m.group(1)))
    if attrs.get("data-check") != "done":
        return False, f"{html_path}: the page's load script did not run (no data-check on <body>)", 0
    total, loaded = int(attrs["data-images-total"]), int(attrs["data-images-loaded"])
    if loaded != total:
        return False, f"{html_path}: {total - loaded} of {total} figures did not load: {attrs.get('data-images-broken')}", total
    return True, f"{html_path}: {loaded}/{total} figures loaded", total


def corrupt(src, dst):
    """A copy of the page whose first image's PNG data is garbage."""
    with open(src, encoding="utf-8") as f:
        html = f.read()
    bad, n = re.subn(r"src='data:image/png;base64,[^']*'", "src='data:image/png;base64,AAAAbm90IGEgcG5n'", html, count=1)
    assert n == 1, "the fixture page has no image"
    with open(dst, "w", encoding="utf-8") as f:
        f.write(bad)


def self_test():
    with tempfile.TemporaryDirectory(prefix="dpf-report-browser-") as t:
        res = os.path.join(t, "results")
        fixture.snapshot(os.path.join(res, "reference"), "privatree")
        rc = report.main(["--paper", "privatree", "--results", res, "--reference", os.path.join(res, "reference"),
                          "--dpforest", os.path.join(t, "none"), "--no-readme"])
        if rc != 0:
            print("FAIL report.py exited", rc)
            return 1
        page = os.path.join(res, "privatree", "report.html")
        ok, msg, n = check(page)
        ok = ok and n >= 1
        print(("ok   " if ok else "FAIL ") + msg + ("" if n else " (the fixture page must have figures)"))
        broken = os.path.join(t, "broken.html")
        corrupt(page, broken)
        bok, bmsg, _ = check(broken)
        print(("ok   " if not bok else "FAIL ") + "a corrupted image is caught: " + bmsg)
        return 0 if ok and not bok else 1


def main():
    if not shutil.which(CHROMIUM) and not os.access(CHROMIUM, os.X_OK):
        print(f"{CHROMIUM} not found: install Debian's chromium (experiments/tools/deps.sh browser); skipped")
        return 77
    if len(sys.argv) > 1:
        bad = 0
        for page in sys.argv[1:]:
            ok, msg, _ = check(page)
            print(("ok   " if ok else "FAIL ") + msg)
            bad += not ok
        return 1 if bad else 0
    return self_test()


if __name__ == "__main__":
    sys.exit(main())
