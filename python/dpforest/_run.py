"""Experiments, audits and registry datasets from Python (thin wrappers over dpforest._core)."""
import os

import numpy as np

from . import _core


def _typed(values):
    """A column of text as float64 when every non-empty cell is a number, else as str (object)."""
    try:
        return np.array([float(v) if v != "" else np.nan for v in values], dtype=np.float64)
    except ValueError:
        return np.array(values, dtype=object)


def run_experiment(path, results=None, threads=None, progress=False):
    """Runs a YAML experiment config through the same runner as `dpforest run` (finished cells are
    skipped on a rerun) and returns (table, report): table is a dict column -> numpy array (numbers
    as float64, text as object arrays), in the results CSV's column order; report the run's counts.
    results: the results root (default <project>/results)."""
    root = os.environ.get("DPFOREST_ROOT", _core.source_root())
    results = results or os.path.join(root, "results")
    rep = _core.run_experiment(os.fspath(path), os.fspath(results), threads or _core.default_threads(), progress)
    table = {name: _typed(col) for name, col in rep.pop("columns")}
    if rep["failed"]:
        raise RuntimeError(f"{rep['failed']} cell(s) failed: " + "; ".join(rep["notes"]))
    return table, rep


def audit(algorithm, params=None, pairs="median-move", samples=100000, alpha=1e-5, seed=1, threads=None,
          resolution=0.0):
    """The statistical privacy audit of one configuration (`dpforest audit --algorithm`): fits it
    `samples` times on each dataset of a neighbouring pair (a built-in name or a pair YAML file) and
    returns a dict with the lower bound epsilon_lb, the claimed epsilon (epsilon_apriori), the verdict
    ('passes' or 'flagged'), the distinguishing event and the privacy status. For an (epsilon, delta)
    configuration (e.g. lumberjack) the verdict is on delta_lb, a lower bound on delta at the claimed
    epsilon, against delta_claimed (delta_apriori); both are None for a pure-epsilon configuration."""
    from ._estimators import _param_text

    text = {k: _param_text(k, v) for k, v in (params or {}).items()}
    return _core.audit(algorithm, text, os.fspath(pairs), int(samples), float(alpha), int(seed),
                       threads or _core.default_threads(), float(resolution))


def load_dataset(spec):
    """A registry dataset ("id" or "id:variant"), or an own FILE.csv with its public schema in
    FILE.schema.yaml (docs/own-data.md), as arrays plus its PUBLIC schema: X (categorical
    features as codes 0..k-1), y (class indices or values), feature_names, kinds, lo, hi,
    categories, classes, task, target_lo, target_hi; its "bounds" and "categories_codes" are the
    estimators' bounds= and categories= arguments."""
    d = _core.load_dataset(spec)
    d["bounds"] = {f: (d["lo"][f], d["hi"][f]) for f, k in enumerate(d["kinds"]) if k == "numeric"}
    d["categories_codes"] = {f: list(range(len(c))) for f, c in enumerate(d["categories"]) if d["kinds"][f] != "numeric"}
    return d
