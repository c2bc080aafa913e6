#!/usr/bin/python3
"""dpforest's s-bdt against the authors' S-BDT code (kirschte/sbdt) on Adult, a few published settings.

Both sides run 5-fold cross-validation on the UCI Adult training file (adult.data, rows with '?'
dropped: 30,162), repeated --repeats times with a fresh shuffle each (the two sides shuffle with their
own generators, so the folds differ: the comparison is of means with standard errors). The authors'
side is compiled from a checkout of their repository (code/cpp_gbdt, every source but main.cpp) with
g++ -O2 and Debian's libspdlog-dev and libfmt-dev, and driven by experiments/tools/sbdt_driver.cc,
which sets the published runs' options (rerun.cpp L274-320, split_method RAND). Our side runs the
same settings with the quirks that reproduce the authors' code (half_hessian_noise; filter_table for
filter runs) through `dpforest run` on a temporary config.

Reported per setting: the authors' AUC as their code computes it (0.005-step ROC), the rank AUC of
their predictions, our rank AUC, both accuracies at p = 0.5, both accountants' sigma, and CPU seconds
per fit (their clock() around train(); our cpu_seconds column, fit and predict).

    python3 -m experiments.tools.compare_sbdt --sbdt-src /path/to/sbdt --repeats 2 --out /tmp/cmp.md
"""
import argparse
import csv
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMON = {"newton": 1, "isc": 1, "eta": 0.1, "border_hi": 100}
# name: driver settings (published best rows, s-bdt.md §6.2)
SETTINGS = {
    "adult eps=0.5 (Q=1, T=200)": dict(eps=0.5, T=200, depth=6, Q=1, w=0.04, G=0.8, H=0.1, **{"lambda": 5}),
    "adult eps=0.1 (Q=1, T=400)": dict(eps=0.1, T=400, depth=6, Q=1, w=0.04, G=0.3, H=0.1, **{"lambda": 10}),
    "adult eps=0.03 (Q=0.01, T=400)": dict(eps=0.03, T=400, depth=6, Q=0.01, w=0.04, G=0.3, H=0.1, **{"lambda": 10}),
    "adult eps=0.01 (Q=0.01, T=50)": dict(eps=0.01, T=50, depth=5, Q=0.01, w=0.04, G=0.5, H=0.1, **{"lambda": 10}),
    "adult stream + filter eps=0.1 (Q=0.1, T=400+400)": dict(eps=0.1, T=400, depth=6, Q=0.1, w=0.1, G=0.3, H=0.1,
                                                            filter=1, extra=400, stream=1, **{"lambda": 10}),
}


def build(src, out):
    cpp = os.path.join(src, "code", "cpp_gbdt")
    inc = ["-I" + os.path.join(cpp, "include"), "-I" + os.path.join(cpp, "include", "gbdt")]
    objs = []
    os.makedirs(out, exist_ok=True)
    for f in sorted(glob.glob(os.path.join(cpp, "src", "*.cpp")) + glob.glob(os.path.join(cpp, "src", "gbdt", "*.cpp"))):
        if os.path.basename(f) == "main.cpp":
            continue
        o = os.path.join(out, os.path.basename(f)[:-4] + ".o")
        if not os.path.exists(o) or os.path.getmtime(o) < os.path.getmtime(f):
            subprocess.run(["g++", "-c", "-std=gnu++11", "-O2", "-pipe", *inc, f, "-o", o], check=True)
        objs.append(o)
    exe = os.path.join(out, "sbdt_driver")
    subprocess.run(["g++", "-std=gnu++11", "-O2", *inc, os.path.join(ROOT, "experiments", "tools", "sbdt_driver.cc"),
                    *objs, "-o", exe, "-lfmt", "-pthread"], check=True)
    return exe


def run_authors(exe, adult, setting, repeats):
    work = tempfile.mkdtemp(prefix="sbdt-run-")
    os.makedirs(os.path.join(work, "datasets", "real"))
    os.symlink(os.path.abspath(adult), os.path.join(work, "datasets", "real", "adult.data"))
    args = [exe, "5", str(repeats)] + [f"{k}={v}" for k, v in {**COMMON, **setting}.items()]
    out = subprocess.run(args, check=True, capture_output=True, text=True, cwd=work).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def our_params(s):
    p = {"epsilon": s["eps"], "n_trees": s["T"], "max_depth": s["depth"], "subsample": s["Q"],
         "denominator_weight": s["w"], "gradient_clip": s["G"], "hessian_clip": s["H"], "lambda": s["lambda"],
         "newton": "true", "init_ratio": 0, "learning_rate": 0.1, "split_domain": "border", "border_hi": 100}
    quirks = ["half_hessian_noise"]
    if s.get("filter"):
        p.update({"filter": "true", "extra_trees": s["extra"]})
        quirks.append("filter_table")
    if s.get("stream"):
        p["stream"] = "true"
    p["reference_quirks"] = "[[" + ", ".join(quirks) + "]]" if len(quirks) > 1 else quirks[0]
    return "{" + ", ".join(f"{k}: {v}" for k, v in p.items()) + "}"


def run_ours(dpforest, repeats):
    tmp = tempfile.mkdtemp(prefix="sbdt-ours-")
    cfg = os.path.join(tmp, "compare.yaml")
    with open(cfg, "w") as f:
        f.write("paper: s-bdt\nexperiment: compare\ntitle: compare with the authors' code\nkind: table\nseed: 7\n")
        f.write(f"protocol: {{type: kfold, folds: 5, repetitions: {repeats}, stratified: false}}\n")
        f.write('datasets:\n  - {id: "adult:train"}\nalgorithms:\n')
        for i, (name, s) in enumerate(SETTINGS.items()):
            f.write(f'  - {{name: s-bdt, label: "setting {i}", params: {our_params(s)}}}\n')
    subprocess.run([dpforest, "run", "--config", cfg, "--results", tmp, "--threads", "1", "--quiet"], check=True)
    with open(os.path.join(tmp, "s-bdt", "compare", "results.csv")) as f:
        rows = list(csv.DictReader(f))
    return {name: [r for r in rows if r["label"] == f"setting {i}"] for i, name in enumerate(SETTINGS)}


def mean_se(xs):
    m = statistics.mean(xs)
    return m, (statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sbdt-src", required=True, help="a checkout of github.com/kirschte/sbdt")
    ap.add_argument("--adult", default=os.path.join(os.environ.get("DPFOREST_MIRROR", os.path.join(ROOT, "..", "shared", "datasets")),
                                                    "adult", "adult.data"))
    ap.add_argument("--dpforest", default=os.path.join(ROOT, "build", "dpforest"))
    ap.add_argument("--build-dir", default=os.path.join(tempfile.gettempdir(), "sbdt-authors-build"))
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--out", help="write the Markdown table here too")
    a = ap.parse_args(argv)
    exe = build(a.sbdt_src, a.build_dir)
    ours = run_ours(a.dpforest, a.repeats)
    lines = ["| setting | authors' AUC (their metric) | authors' rank AUC | our rank AUC | authors' acc@0.5 | "
             "our acc@0.5 | sigma (authors / ours) | CPU s per fit (authors / ours) |", "|---" * 8 + "|"]
    for name, s in SETTINGS.items():
        theirs = run_authors(exe, a.adult, s, a.repeats)
        mine = ours[name]
        f = lambda xs: "%.4f ± %.4f" % mean_se(xs)
        lines.append("| " + " | ".join([
            name, f([r["auc_authors"] for r in theirs]), f([r["auc_rank"] for r in theirs]),
            f([float(r["auc"]) for r in mine]), f([r["accuracy"] for r in theirs]),
            f([float(r["accuracy"]) for r in mine]), "%.4g / %.4g" % (theirs[0]["sigma"], float(mine[0]["sbdt_sigma"])),
            "%.2f / %.2f" % (statistics.mean(r["cpu_seconds"] for r in theirs),
                             statistics.mean(float(r["cpu_seconds"]) for r in mine))]) + " |")
        print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
