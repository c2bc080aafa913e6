"""A Python fit and `dpforest describe` with the same seed are the same computation (fit_registry on
the same Dataset): their JSON must be byte-identical."""
import os

import numpy as np
import pytest

import dpforest
from conftest import ROOT, run_cli

CASES = [
    ("dipreme", {"epsilon": 1.0, "strict": True}),
    ("smooth-rdf", {"epsilon": 1.0, "strict": True, "n_trees": 10}),
    ("dp-ert", {"epsilon": 2.0, "n_trees": 5}),
    ("rf", {"n_trees": 5}),
]


@pytest.fixture(scope="module")
def banknote():
    return dpforest.load_dataset("banknote")


@pytest.mark.parametrize("algorithm,params", CASES, ids=[c[0] for c in CASES])
def test_python_fit_equals_cli_describe(cli, banknote, algorithm, params):
    d = banknote
    cls = dpforest.ALGORITHMS[algorithm]["classification"]
    est = cls(bounds=d["bounds"], classes=list(range(len(d["classes"]))), random_state=7, **params)
    est.fit(d["X"], d["y"].astype(int))
    args = ["describe", "--algorithm", algorithm, "--dataset", "banknote", "--seed", "7"]
    for k, v in est.params_.items():  # every resolved parameter, the Python defaults included
        args += ["--param", f"{k}={v}"]
    expected = run_cli(cli, *args).rstrip("\n")
    assert est.model_.describe("banknote") == expected


def test_load_dataset_schema(banknote):
    d = banknote
    assert d["X"].shape == (1372, 4) and d["task"] == "classification"
    assert len(d["bounds"]) == 4 and all(lo < hi for lo, hi in d["bounds"].values())
    assert np.all(d["X"] >= np.array(d["lo"])) and np.all(d["X"] <= np.array(d["hi"]))


def test_regression_fit_equals_cli_describe(cli):
    d = dpforest.load_dataset("parkinsons-telemonitoring:total")
    assert d["task"] == "regression"
    params = {"epsilon": 1.0, "strict": True}
    est = dpforest.DiPriMeRegressor(bounds=d["bounds"], categories=d["categories_codes"] or None,
                                    target_bounds=(d["target_lo"], d["target_hi"]), random_state=3, **params)
    est.fit(d["X"], d["y"])
    expected = run_cli(cli, "describe", "--algorithm", "dipreme", "--dataset", "parkinsons-telemonitoring:total",
                       "--seed", "3", "--param", "epsilon=1", "--param", "strict=true").rstrip("\n")
    assert est.model_.describe("parkinsons-telemonitoring:total") == expected


def test_own_csv_with_its_side_schema_loads_and_fits_as_the_cli_does(cli):
    # An own file (docs/own-data.md): FILE.csv with its public schema in FILE.schema.yaml, no registry.
    path = os.path.join(ROOT, "docs", "examples", "own-data", "patients.csv")
    d = dpforest.load_dataset(path)
    assert d["feature_names"] == ["age", "bmi", "smoker"] and d["classes"] == ["well", "sick"]
    assert d["bounds"] == {0: (18.0, 100.0), 1: (10.0, 60.0)} and d["categories_codes"] == {2: [0, 1]}
    est = dpforest.DiPriMeClassifier(bounds=d["bounds"], categories=d["categories_codes"], classes=[0, 1],
                                     random_state=3).fit(d["X"], d["y"].astype(int))
    assert est.privacy_status_ == "epsilon-DP"
    args = ["describe", "--algorithm", "dipreme", "--dataset", path, "--seed", "3"]
    for k, v in est.params_.items():
        args += ["--param", f"{k}={v}"]
    assert est.model_.describe(path) == run_cli(cli, *args).rstrip("\n")
