"""A Python fit and `dpforest describe` with the same seed are the same computation (fit_registry on
the same Dataset): their JSON must be byte-identical."""
import numpy as np
import pytest

import dpforest
from conftest import run_cli

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
