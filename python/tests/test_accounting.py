"""The privacy numbers the Python face shows are those `dpforest run` records: for every private
estimator at its defaults, epsilon_spent_ (and delta_spent_) equal the result row's for the same
seed, and ledger_'s composed shares add up to it."""
import csv
import json
import subprocess
import warnings

import numpy as np
import pytest

import dpforest
from dpforest._estimators import _param_text
from conftest import ROOT

PREDICT_RELEASE = {"mrf-predict", "mrf-subsample", "mrf-subsample-lm"}


def _estimator(name, data, **kw):
    cls = dpforest.ALGORITHMS[name]["classification"]
    est = cls(bounds=data["bounds"], classes=[0, 1], n_jobs=1, **kw)
    if est.get_params()["epsilon"] is None:
        est.set_params(epsilon=1.0)
    if name == "privatree-v2":
        est.set_params(strict=False)  # it has no epsilon-DP variant; its accounting is checked all the same
    return est


def test_python_epsilon_spent_equals_the_cli_row_for_every_private_estimator(cli, tmp_path):
    data = dpforest.load_dataset("banknote")
    names = [n for n in dpforest.PRIVATE if "classification" in dpforest.ALGORITHMS[n]]
    algorithms = []
    for name in names:
        est = _estimator(name, data)
        params = {k: _param_text(k, v) for k, v in est._registry_params().items() if v is not None and v != ()}
        entry = {"name": name, "params": params}
        if est._bins():
            entry["preprocess"] = {"bins": est._bins()}
        algorithms.append(entry)
    # Resubstitution: the row's fit reads every row, in order, as the Python fit does.
    config = {"paper": "dipreme", "experiment": "python-accounting", "title": "Python vs run accounting",
              "kind": "table", "seed": 3, "protocol": {"type": "resubstitution", "repetitions": 1},
              "datasets": [{"id": "banknote", "domains": "registry"}], "algorithms": algorithms}
    cfg = tmp_path / "accounting.yaml"
    cfg.write_text(json.dumps(config))  # JSON is YAML
    subprocess.run([cli, "run", str(cfg), "--results", str(tmp_path / "results"), "--threads", "2", "--quiet"],
                   check=True, capture_output=True, text=True, cwd=ROOT)
    with open(tmp_path / "results" / "dipreme" / "python-accounting" / "results.csv", newline="") as f:
        rows = {r["algorithm"]: r for r in csv.DictReader(f)}
    assert sorted(rows) == sorted(names)
    for name in names:
        row = rows[name]
        est = _estimator(name, data, random_state=int(row["seed"], 16))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", dpforest.PrivacyWarning)
            est.fit(data["X"], data["y"].astype(int))
        if name in PREDICT_RELEASE:
            assert est.epsilon_spent_ == 0.0  # nothing released yet: the release is the first predict
            est.predict(data["X"])
        assert est.epsilon_spent_ == float(row["epsilon_spent"]), name
        assert est.delta_spent_ == float(row["delta_spent"]), name
        assert est.privacy_status_ == row["privacy_status"], name
        total = sum(e["epsilon"] for e in est.ledger_)
        assert total == pytest.approx(est.epsilon_spent_, rel=1e-9, abs=1e-12), (name, est.ledger_)


def test_ledger_shows_composed_shares_not_sums_over_calls(binary_data):
    X, y = binary_data
    est = dpforest.PrivaTreeClassifier(epsilon=1.0, bounds=(0, 1), classes=[0, 1], random_state=0).fit(X, y)
    shares = {e["mechanism"]: e for e in est.ledger_}
    assert sum(e["epsilon"] for e in shares.values()) == pytest.approx(est.epsilon_spent_, rel=1e-12)
    assert est.epsilon_spent_ <= 1.0 + 1e-9
    assert all(e["calls"] >= 1 and 0 <= e["epsilon"] <= 1.0 + 1e-9 for e in shares.values())


def test_lumberjack_reports_its_epsilon_at_its_delta(binary_data):
    X, y = binary_data
    est = dpforest.LumberjackClassifier(epsilon=1.0, n_trees=10, bounds=(0, 1), classes=[0, 1], random_state=0).fit(X, y)
    assert est.privacy_status_ == "(epsilon, delta)-DP"
    assert 0.5 < est.epsilon_spent_ <= 1.0 + 1e-9
    assert est.delta_spent_ == est.delta_apriori_ == pytest.approx(1e-6)
    assert sum(e["epsilon"] for e in est.ledger_) == pytest.approx(est.epsilon_spent_, rel=1e-12)
    assert sum(e["delta"] for e in est.ledger_) <= est.delta_spent_
    assert np.isfinite(est.epsilon_spent_conservative_)
