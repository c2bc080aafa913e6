"""DP-EBM through the Python estimators: class names, (epsilon, delta) accounting in GDP, the labels of
the library's behaviour and of strict, regression, and the binary-only restriction."""
import numpy as np
import pytest

import dpforest


def test_classes_exist_with_library_defaults():
    clf, reg = dpforest.DPEBMClassifier, dpforest.DPEBMRegressor
    assert dpforest.ALGORITHMS["dp-ebm"] == {"classification": clf, "regression": reg}
    p = clf().get_params()
    assert (p["epsilon"], p["delta"], p["max_rounds"], p["learning_rate"], p["max_bins"]) == (1.0, 1e-5, 300, 0.01, 32)
    assert p["composition"] == "gdp" and p["bin_budget_frac"] == 0.1


def test_strict_fit_is_epsilon_delta_dp_by_the_gdp_ledger(binary_data):
    X, y = binary_data
    clf = dpforest.DPEBMClassifier(epsilon=1.0, delta=1e-6, strict=True, bounds=(0, 1), classes=[0, 1],
                                   random_state=2).fit(X, y)
    assert clf.privacy_status_ == "(epsilon, delta)-DP"
    assert clf.ledger_certified_
    # GDP composes binning and boosting tighter than the library's basic split of (epsilon, delta).
    assert 0.8 < clf.epsilon_spent_ <= 1.0
    mech = {e["mechanism"]: e for e in clf.ledger_}
    assert mech["dp-ebm-binning"]["calls"] == 3 and mech["dp-ebm-leaf-sums"]["calls"] == 900
    assert mech["dp-ebm-leaf-sums"]["mu"] > mech["dp-ebm-binning"]["mu"] > 0
    proba = clf.predict_proba(X)
    assert proba.shape == (200, 2) and np.allclose(proba.sum(axis=1), 1)
    assert np.array_equal(clf.predict(X), (proba[:, 1] > 0.5).astype(int))
    assert clf.describe()["model"]["algorithm"] == "dp-ebm"


def test_library_behaviour_is_labelled_published(binary_data):
    X, y = binary_data
    clf = dpforest.DPEBMClassifier(epsilon=4.0, strict=False, bounds=(0, 1), classes=[0, 1], random_state=2)
    clf.fit(X, y)
    assert clf.privacy_status_.startswith("published, not (epsilon, delta)-DP")
    assert not clf.ledger_certified_
    assert clf.score(X, y) > 0.6


def test_regressor_and_binary_only():
    rng = np.random.RandomState(1)
    X = rng.uniform(0, 1, size=(400, 2))
    y = np.clip(0.7 * X[:, 0] + 0.1 * rng.normal(size=400), 0, 1)
    reg = dpforest.DPEBMRegressor(epsilon=8.0, strict=True, bounds=(0, 1), target_bounds=(0, 1), random_state=0)
    reg.fit(X, y)
    assert reg.privacy_status_ == "(epsilon, delta)-DP"
    assert np.mean((reg.predict(X) - y) ** 2) < np.var(y)
    y3 = rng.randint(0, 3, size=400)
    with pytest.raises(Exception, match="binary classification only"):
        dpforest.DPEBMClassifier(strict=True, bounds=(0, 1), classes=[0, 1, 2], random_state=0).fit(X, y3)
