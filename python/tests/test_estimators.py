import json

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import cross_val_score

import dpforest


def test_every_registry_algorithm_has_a_class_per_task():
    infos = dpforest.algorithms()
    assert len(infos) == len(dpforest.ALGORITHMS) >= 20
    for info in infos:
        for task in info["tasks"]:
            cls = dpforest.ALGORITHMS[info["name"]][task]
            assert cls.__name__ in dpforest.__all__
            params = cls().get_params()
            for spec in info["params"]:
                assert dpforest._registry.py_name(spec["name"]) in params  # arguments come from the schema
                assert spec["doc"] in cls.__doc__  # and so does the docstring
    assert dpforest.DiPriMeClassifier._algorithm == "dipreme"
    assert dpforest.SmoothRDFClassifier._algorithm == "smooth-rdf"
    assert dpforest.DPRFClassifier._algorithm == "dp-rf"
    assert dpforest.PrivaTreeClassifier._algorithm == "privatree"  # the method's name, PrivaTree
    assert not hasattr(dpforest, "PrivatreeClassifier")


def test_fit_predict_and_privacy_attributes(binary_data):
    X, y = binary_data
    clf = dpforest.DiPriMeClassifier(epsilon=1.0, strict=True, n_trees=4, max_depth=3, bounds=(0, 1),
                                     classes=[0, 1], random_state=3)
    clf.fit(X, y)
    assert clf.predict(X).shape == (200,)
    proba = clf.predict_proba(X)
    assert proba.shape == (200, 2) and np.allclose(proba.sum(axis=1), 1)
    assert clf.privacy_status_ == "epsilon-DP"
    assert 0 < clf.epsilon_spent_ <= 1.0 + 1e-9
    assert clf.epsilon_apriori_ == 1.0
    assert clf.ledger_certified_
    mechanisms = {e["mechanism"] for e in clf.ledger_}
    assert mechanisms and all(e["calls"] > 0 for e in clf.ledger_)
    assert clf.params_["strict"] == "true" and clf.params_["n_trees"] == "4"
    assert clf.describe()["model"]["algorithm"] == "dipreme"
    assert clf.score(X, y) > 0.5


def test_same_random_state_same_model_and_different_seed_differs(binary_data):
    X, y = binary_data
    make = lambda rs: dpforest.DiPriMeClassifier(epsilon=1.0, strict=True, n_trees=4, bounds=(0, 1), classes=[0, 1],
                                                 random_state=rs).fit(X, y)
    assert make(5).describe() == make(5).describe()
    assert make(5).describe() != make(6).describe()


def test_n_jobs_does_not_change_the_model(binary_data):
    X, y = binary_data
    kw = dict(epsilon=1.0, strict=True, n_trees=6, bounds=(0, 1), classes=[0, 1], random_state=1)
    a = dpforest.DiPriMeClassifier(n_jobs=1, **kw).fit(X, y).describe()
    b = dpforest.DiPriMeClassifier(n_jobs=2, **kw).fit(X, y).describe()
    assert a == b


def test_generic_classifier_is_the_generated_one(binary_data):
    X, y = binary_data
    kw = dict(epsilon=1.0, strict=True, n_trees=4, bounds=(0, 1), classes=[0, 1], random_state=2)
    a = dpforest.Classifier(algorithm="dipreme", **kw).fit(X, y)
    b = dpforest.DiPriMeClassifier(**kw).fit(X, y)
    assert a.describe() == b.describe()
    c = clone(a)
    assert c.get_params() == a.get_params() and c.get_params()["epsilon"] == 1.0
    c.set_params(epsilon=0.5)
    assert c.fit(X, y).params_["epsilon"] == "0.5"


def test_get_set_params_clone_and_sklearn_pipeline(binary_data):
    X, y = binary_data
    clf = dpforest.DPERTClassifier(epsilon=2.0, n_trees=5, bounds=(0, 1), classes=[0, 1], random_state=0)
    assert clf.get_params()["epsilon"] == 2.0
    clf.set_params(n_trees=3)
    c = clone(clf)
    assert c.get_params() == clf.get_params()
    scores = cross_val_score(c, X, y, cv=3)
    assert scores.shape == (3,)


def test_regressor(binary_data):
    X, _ = binary_data
    y = X[:, 0] * 2.0
    reg = dpforest.DiPriMeRegressor(epsilon=1.0, strict=True, n_trees=4, max_depth=3, bounds=(0, 1),
                                    target_bounds=(0, 2), random_state=0).fit(X, y)
    pred = reg.predict(X)
    assert pred.shape == (200,) and np.all(np.isfinite(pred))
    assert reg.privacy_status_ == "epsilon-DP"
    g = dpforest.Regressor(algorithm="dipreme", epsilon=1.0, strict=True, n_trees=4, max_depth=3, bounds=(0, 1),
                           target_bounds=(0, 2), random_state=0).fit(X, y)
    assert np.array_equal(g.predict(X), pred)


def test_string_labels_and_categorical_features():
    rng = np.random.RandomState(1)
    X = np.column_stack([rng.uniform(0, 10, 150), rng.choice([3.0, 7.0, 9.0], 150)])
    y = np.where(X[:, 0] > 5, "yes", "no")
    clf = dpforest.RFClassifier(n_trees=5, bounds={0: (0, 10)}, categories={1: [3, 7, 9]}, classes=["no", "yes"],
                                random_state=0).fit(X, y)
    assert set(clf.predict(X)) <= {"no", "yes"}
    assert clf.privacy_status_ == "non-private"
    assert clf.domains_["categories"][1] == ["3", "7", "9"]


def test_fortran_and_strided_input_give_the_same_model(binary_data):
    X, y = binary_data
    kw = dict(epsilon=1.0, strict=True, n_trees=3, bounds=(0, 1), classes=[0, 1], random_state=4)
    a = dpforest.DiPriMeClassifier(**kw).fit(X, y).describe()
    b = dpforest.DiPriMeClassifier(**kw).fit(np.asfortranarray(X), y).describe()
    wide = np.zeros((200, 6))
    wide[:, ::2] = X
    c = dpforest.DiPriMeClassifier(**kw).fit(wide[:, ::2], y).describe()
    assert a == b == c


def test_unfitted_and_fitted_estimators_pickle(binary_data):
    import pickle

    X, y = binary_data
    est = dpforest.DiPriMeClassifier(epsilon=1.0, bounds=(0, 1), classes=[0, 1], random_state=0)
    again = pickle.loads(pickle.dumps(est))
    assert again.get_params() == est.get_params()
    est.fit(X, y)
    fitted = pickle.loads(pickle.dumps(est))
    assert np.array_equal(fitted.predict_proba(X), est.predict_proba(X))
    assert fitted.privacy_status_ == est.privacy_status_ and fitted.epsilon_apriori_ == est.epsilon_apriori_
    # what the fit spent depends on the rows: not in the pickle
    assert fitted.epsilon_spent_ is None and fitted.ledger_ is None
    assert est.epsilon_spent_ is not None  # the original keeps it


def test_float64_input_reaches_the_core_without_a_numpy_copy(binary_data, monkeypatch):
    X, y = binary_data
    seen = []
    real_fit = dpforest._core.fit

    def spy(algorithm, params, X_, *rest):
        seen.append(X_)
        return real_fit(algorithm, params, X_, *rest)

    monkeypatch.setattr(dpforest._core, "fit", spy)
    kw = dict(epsilon=1.0, n_trees=2, bounds=(0, 1), classes=[0, 1], random_state=0)
    for layout in (X, np.asfortranarray(X), np.zeros((200, 6))[:, ::2]):
        if not layout.any():
            layout[:] = X
        dpforest.DiPriMeClassifier(**kw).fit(layout, y)
        assert seen[-1] is layout or np.shares_memory(seen[-1], layout)
        # and pybind11 hands the core the same memory (no conversion copy)
        assert dpforest._core.buffer_address(seen[-1]) == layout.__array_interface__["data"][0]


def test_generic_repr_and_cross_validation(binary_data):
    X, y = binary_data
    clf = dpforest.Classifier(algorithm="dp-ert", epsilon=1.0, strict=True, n_trees=3, bounds=(0, 1), classes=[0, 1],
                              random_state=0)
    assert "epsilon=1.0" in repr(clf) and "dp-ert" in repr(clf)
    assert cross_val_score(clf, X, y, cv=3).shape == (3,)
