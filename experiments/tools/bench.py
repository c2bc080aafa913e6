"""Fit-time benchmarks of dpforest against peers (scikit-learn), written to one CSV.

Run by `make bench` with Debian's /usr/bin/python3 (python3-sklearn, python3-numpy):

    /usr/bin/python3 -m experiments.tools.bench --dpforest build/dpforest --out results/bench/bench.csv

Every module experiments/tools/bench_<name>.py (experiments.tools.bench_<name>) that defines run(ctx) is
imported and run in name
order; run(ctx) returns the rows it measured (usually from ctx.compare(...)). See BENCH.md.
Everything runs on one thread: dpforest fits on one thread, scikit-learn gets n_jobs=1 and
OMP_NUM_THREADS=1, ranger (Debian's r-cran-ranger, through Rscript) gets num.threads=1. Ratios are
peer seconds over ours from the same run (>1: we are faster).
"""
import argparse
import csv
import datetime
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy/sklearn are imported anywhere

TOOLS = os.path.dirname(os.path.abspath(__file__))

COLUMNS = [
    "benchmark", "dataset", "n_rows", "n_features", "ours_algorithm", "ours_params", "ours_fit_s",
    "ours_fits_per_s", "peer", "peer_params", "peer_fit_s", "peer_fits_per_s", "ratio_peer_over_ours",
    "repeats", "ours_test_accuracy", "peer_test_accuracy", "dataset_mb", "ours_peak_rss_mb",
    "peak_rss_over_dataset", "growth_exponent", "ours_predict_s", "predict_over_fit", "machine", "date",
]


def params_text(params):
    """{'a': 1, 'b': None} -> 'a=1;b=None' in the given order (CSV-friendly)."""
    return ";".join(f"{k}={v}" for k, v in params.items())


def machine_text():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"nproc={nproc}; {model}; load1={load:.1f}"


# Fits ranger on the first rows of an exported CSV and prints one JSON line (see Context.ranger).
RANGER_SCRIPT = r"""
suppressMessages(library(ranger))
a <- commandArgs(trailingOnly = TRUE)
d <- read.csv(a[1], check.names = FALSE)
target <- names(d)[ncol(d)]
d[[target]] <- factor(d[[target]])
n <- nrow(d); n_test <- round(as.numeric(a[2]) * n); repeats <- as.integer(a[3])
tr <- d[seq_len(n - n_test), ]
te <- if (n_test > 0) d[(n - n_test + 1):n, ] else tr
fit <- function(seed) eval(parse(text = paste0(
  "ranger(dependent.variable.name = target, data = tr, num.threads = 1, seed = seed, ", a[4], ")")))
invisible(fit(repeats + 1))
times <- numeric(repeats)
for (i in seq_len(repeats)) {
  t0 <- proc.time()[["elapsed"]]; m <- fit(i); times[i] <- proc.time()[["elapsed"]] - t0
}
acc <- mean(predict(m, te, num.threads = 1)$predictions == te[[target]])
cat(sprintf('{"median": %.6f, "min": %.6f, "mean": %.6f, "test_accuracy": %.6f}\n',
            median(times), min(times), mean(times), acc))
"""


class Context:
    """What a bench module gets: the dpforest binary, a temp dir, and measuring helpers."""

    def __init__(self, dpforest, tmpdir, repeats_override=None):
        self.dpforest = dpforest
        self.tmpdir = tmpdir
        self.repeats_override = repeats_override
        self.errors = []  # (what, message): reported at the end, the run goes on
        self._exports, self._tables, self._ours, self._peers = {}, {}, {}, {}

    def repeats(self, n):
        return self.repeats_override or n

    def _dpforest(self, *args):
        env = dict(os.environ, OMP_NUM_THREADS="1")
        p = subprocess.run([self.dpforest, *args], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise RuntimeError(f"dpforest {' '.join(args)}: {p.stderr.strip() or p.stdout.strip()}")
        return p.stdout

    def export(self, spec):
        """CSV path of dataset `spec` (registry id or synthetic:...), exported by dpforest itself."""
        if spec not in self._exports:
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in spec)
            path = os.path.join(self.tmpdir, safe + ".csv")
            self._dpforest("export-dataset", spec, path)
            self._exports[spec] = path
        return self._exports[spec]

    def load(self, spec):
        """(X as C-contiguous float32, y as int class codes) of an exported dataset."""
        if spec not in self._tables:
            import numpy as np
            with open(self.export(spec), newline="") as f:
                rows = list(csv.reader(f))
            X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]], dtype=np.float64)
            _, y = np.unique(np.array([r[-1] for r in rows[1:]]), return_inverse=True)
            # float32 up front: the trees' own dtype, so no conversion is charged to the peer's fit.
            self._tables[spec] = (np.ascontiguousarray(X, dtype=np.float32), y)
        return self._tables[spec]

    def ours(self, algorithm, dataset, params, repeats, seed=1, test_fraction=0.0, warmup=True):
        """Parsed JSON of `dpforest bench-fit` (fit_seconds min/median/mean, fits_per_second,
        test_accuracy with test_fraction > 0, dataset_bytes, peak_rss_bytes, ...)."""
        key = (algorithm, dataset, params_text(params), repeats, seed, test_fraction, warmup)
        if key not in self._ours:
            args = ["bench-fit", "--algorithm", algorithm, "--dataset", dataset, "--repeats", str(repeats),
                    "--seed", str(seed)]
            if test_fraction:
                args += ["--test-fraction", str(test_fraction)]
            if not warmup:
                args += ["--no-warmup"]
            for k, v in params.items():
                args += ["--param", f"{k}={v}"]
            self._ours[key] = json.loads(self._dpforest(*args).strip().splitlines()[-1])
        return self._ours[key]

    def ranger(self, dataset, ranger_args, repeats, test_fraction):
        """ranger (r-cran-ranger) on the exported rows of `dataset`: fits on the first n - round(f n)
        rows `repeats` times after one warm-up fit, num.threads = 1, and scores the last rows.
        ranger_args: R argument text, e.g. 'num.trees = 100, mtry = 3, replace = TRUE'.
        Returns {'median', 'min', 'mean', 'test_accuracy'} (seconds: R's proc.time elapsed)."""
        script = os.path.join(self.tmpdir, "ranger_fit.R")
        with open(script, "w") as f:
            f.write(RANGER_SCRIPT)
        p = subprocess.run(["Rscript", "--vanilla", script, self.export(dataset), str(test_fraction), str(repeats),
                            ranger_args], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"ranger on {dataset}: {p.stderr.strip()[-2000:]}")
        return json.loads(p.stdout.strip().splitlines()[-1])

    @staticmethod
    def sklearn_fit_time(estimator_factory, X, y, repeats):
        """Fit estimator_factory(seed) on (X, y) `repeats` times after one untimed warm-up fit;
        returns {'min', 'median', 'mean', 'model'} (seconds by time.perf_counter, last model)."""
        estimator_factory(repeats).fit(X, y)
        times, model = [], None
        for i in range(repeats):
            model = estimator_factory(i)
            t0 = time.perf_counter()
            model.fit(X, y)
            times.append(time.perf_counter() - t0)
        return {"min": min(times), "median": statistics.median(times), "mean": statistics.fmean(times),
                "model": model}

    def peer(self, estimator_class, peer_params, dataset, repeats):
        """Median fit seconds of estimator_class(**peer_params, n_jobs=1, random_state=seed)."""
        key = (estimator_class.__name__, params_text(peer_params), dataset, repeats)
        if key not in self._peers:
            X, y = self.load(dataset)
            factory = lambda seed: estimator_class(n_jobs=1, random_state=seed, **peer_params)  # noqa: E731
            self._peers[key] = self.sklearn_fit_time(factory, X, y, repeats)
        return self._peers[key]

    def compare(self, benchmark, dataset, ours_algorithm, ours_params, estimator_class, peer_params, repeats):
        """One CSV row: our fit time against the peer's on the same rows, or None (error recorded)."""
        repeats = self.repeats(repeats)
        try:
            ours = self.ours(ours_algorithm, dataset, ours_params, repeats)
            peer = self.peer(estimator_class, peer_params, dataset, repeats)
        except Exception as e:  # noqa: BLE001 - one failing comparison must not stop the others
            self.errors.append((f"{benchmark}: {ours_algorithm} vs {estimator_class.__name__} on {dataset}", str(e)))
            return None
        ours_s, peer_s = ours["fit_seconds"]["median"], peer["median"]
        return {
            "benchmark": benchmark, "dataset": dataset, "n_rows": ours["n_rows"], "n_features": ours["n_features"],
            "ours_algorithm": ours_algorithm, "ours_params": params_text(ours_params),
            "ours_fit_s": f"{ours_s:.6g}", "ours_fits_per_s": f"{1 / ours_s:.6g}",
            "peer": f"sklearn.{estimator_class.__name__}", "peer_params": params_text(dict(peer_params, n_jobs=1)),
            "peer_fit_s": f"{peer_s:.6g}", "peer_fits_per_s": f"{1 / peer_s:.6g}",
            "ratio_peer_over_ours": f"{peer_s / ours_s:.3f}", "repeats": repeats,
        }


def discover(only):
    names = sorted(f[:-3] for f in os.listdir(TOOLS) if f.startswith("bench_") and f.endswith(".py"))
    if only:
        unknown = set(only) - {n[len("bench_"):] for n in names}
        if unknown:
            sys.exit(f"bench.py: no module bench_{', bench_'.join(sorted(unknown))}.py in {TOOLS}")
        names = [n for n in names if n[len("bench_"):] in only]
    for name in names:
        module = importlib.import_module(f"experiments.tools.{name}")
        if not callable(getattr(module, "run", None)):
            sys.exit(f"bench.py: {name}.py defines no run(ctx)")
        yield name, module


def print_table(rows):
    head = ["benchmark", "dataset", "ours", "ours fits/s", "peer", "peer fits/s", "peer/ours", "acc ours/peer",
            "peak RSS / data"]
    body = []
    for r in rows:
        acc = (f'{r["ours_test_accuracy"]}/{r["peer_test_accuracy"]}' if r.get("peer_test_accuracy")
               else r.get("ours_test_accuracy", ""))
        body.append([r["benchmark"], r["dataset"], f'{r["ours_algorithm"]} {r["ours_params"]}', r["ours_fits_per_s"],
                     r.get("peer", "").replace("sklearn.", ""), r.get("peer_fits_per_s", ""),
                     r.get("ratio_peer_over_ours", ""), acc, r.get("peak_rss_over_dataset", "")])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    for line in [head, ["-" * w for w in widths], *body]:
        print("  ".join(str(x).ljust(w) for x, w in zip(line, widths)))


def main():
    ap = argparse.ArgumentParser(prog="python3 -m experiments.tools.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dpforest", default="build/dpforest", help="the dpforest binary")
    ap.add_argument("--out", default="results/bench/bench.csv", help="CSV to write")
    ap.add_argument("--only", nargs="*", help="run only these modules (bench_<name>.py -> name)")
    ap.add_argument("--repeats", type=int, help="override every module's repeats (quick checks)")
    a = ap.parse_args()
    if not os.access(a.dpforest, os.X_OK):
        sys.exit(f"bench.py: {a.dpforest} is not an executable (run make first, or pass --dpforest)")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    machine = machine_text()
    print(f"bench: {machine}; {date}")
    rows, failed = [], []
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="dpforest-bench-") as tmp:
        ctx = Context(a.dpforest, tmp, a.repeats)
        for name, module in discover(a.only):
            t0 = time.perf_counter()
            try:
                got = [r for r in (module.run(ctx) or []) if r]
            except Exception:  # noqa: BLE001 - report, go on with the other modules
                failed.append(name)
                traceback.print_exc()
                continue
            for r in got:
                r.setdefault("benchmark", name[len("bench_"):])
                r.update(machine=machine, date=date)
            rows += got
            print(f"bench: {name}: {len(got)} rows in {time.perf_counter() - t0:.1f} s")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="raise", restval="")
        w.writeheader()
        w.writerows(rows)
    print()
    print_table(rows)
    print(f"\nbench: {len(rows)} rows -> {a.out} in {time.perf_counter() - t_start:.0f} s "
          f"(load1 now {os.getloadavg()[0]:.1f}; timings are noisy when the machine is busy)")
    for what, msg in ctx.errors:
        print(f"bench: FAILED {what}: {msg}", file=sys.stderr)
    for name in failed:
        print(f"bench: FAILED module {name}", file=sys.stderr)
    return 1 if ctx.errors or failed else 0


if __name__ == "__main__":
    sys.exit(main())
