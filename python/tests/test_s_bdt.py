"""S-BDT through the Python binding: the generated SBDTClassifier / SBDTRegressor fit, predict and
report their (epsilon, delta) accounting; the as-run quirk spends more than the label, strict does not."""
import numpy as np
import pytest

import dpforest


def test_classes_exist_with_the_schema_parameters():
    assert dpforest.SBDTClassifier._algorithm == "s-bdt"
    assert dpforest.SBDTRegressor._algorithm == "s-bdt"
    params = dpforest.SBDTClassifier().get_params()
    for name in ("n_trees", "subsample", "denominator_weight", "gradient_clip", "newton", "filter", "delta"):
        assert name in params


def test_classifier_fit_predict_and_ledger(binary_data):
    X, y = binary_data
    clf = dpforest.SBDTClassifier(epsilon=1.0, strict=True, newton=True, n_trees=30, max_depth=3, subsample=0.5,
                                  gradient_clip=0.5, hessian_clip=0.25, lambda_=1.0, bounds=(0, 1), classes=[0, 1],
                                  random_state=4)
    clf.fit(X, y)
    proba = clf.predict_proba(X)
    assert proba.shape == (200, 2) and np.allclose(proba.sum(axis=1), 1)
    assert clf.privacy_status_ == "(epsilon, delta)-DP"
    assert 0 < clf.epsilon_apriori_ <= 1.0 + 1e-9
    assert clf.ledger_certified_
    assert any(e["mechanism"] == "gaussian-leaves" and e["calls"] == 30 for e in clf.ledger_)
    assert clf.score(X, y) > 0.6


def test_as_run_quirk_spends_more_than_the_label(binary_data):
    X, y = binary_data
    kw = dict(epsilon=0.5, newton=True, init_ratio=0.0, n_trees=20, subsample=1.0, denominator_weight=0.5,
              bounds=(0, 1), classes=[0, 1], random_state=1)
    strict = dpforest.SBDTClassifier(strict=True, **kw).fit(X, y)
    as_run = dpforest.SBDTClassifier(reference_quirks=("half_hessian_noise",), **kw).fit(X, y)
    # The configurations' (epsilon, delta) at delta 5e-8 (the a-priori bound equals the fit's ledger).
    assert strict.epsilon_apriori_ == pytest.approx(0.5, rel=1e-6)
    assert as_run.epsilon_apriori_ == pytest.approx(0.8, rel=0.02)  # 1.62x at w = 0.5 (s-bdt.md §7 F1)
    assert as_run.privacy_status_.startswith("published, not (epsilon, delta)-DP")


def test_regressor_maps_back_to_the_target_range():
    rng = np.random.RandomState(1)
    X = rng.uniform(0, 1, size=(300, 2))
    y = 10 + 5 * X[:, 0] + rng.normal(0, 0.1, size=300)
    reg = dpforest.SBDTRegressor(epsilon=2.0, strict=True, n_trees=40, max_depth=2, subsample=1.0, gradient_clip=0.5,
                                 bounds=(0, 1), target_bounds=(8, 17), random_state=2).fit(X, y)
    pred = reg.predict(X)
    assert pred.shape == (300,)
    assert 8 <= pred.min() and pred.max() <= 17
    assert np.corrcoef(pred, y)[0, 1] > 0.5


def test_dpboost_classifier_is_pure_epsilon_dp_when_strict(binary_data):
    X, y = binary_data
    clf = dpforest.DPBoostClassifier(epsilon=2.0, strict=True, n_trees=5, max_depth=2, bounds=(0, 1), classes=[0, 1],
                                     random_state=3).fit(X, y)
    assert clf.privacy_status_ == "epsilon-DP"
    assert clf.epsilon_spent_ == pytest.approx(2.0)
    assert clf.predict(X).shape == (200,)
