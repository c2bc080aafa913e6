"""Private by default: every private estimator constructed with its defaults fits its epsilon-DP (or
(epsilon, delta)-DP) variant; the published, not-DP variant is an explicit choice that warns."""
import warnings

import numpy as np
import pytest

import dpforest

DP = ("epsilon-DP", "(epsilon, delta)-DP")
# No epsilon-DP variant: fitting with defaults refuses and names the algorithm that is one.
NO_DP_VARIANT = {"privatree-v2": "privatree"}
# Not DP by design, in any configuration: the oracle tuning upper bound (algorithms/tuning/oracle.cpp). Its
# estimator must say so when fitted, whatever its defaults.
NEVER_DP = {"oracle-tuning"}
CASES = [(name, task) for name in dpforest.PRIVATE for task in dpforest.ALGORITHMS[name]]


def _data(task):
    rng = np.random.RandomState(0)
    X = rng.uniform(0, 1, size=(300, 3))
    if task == "classification":
        return X, (X[:, 0] + 0.3 * X[:, 1] > 0.6).astype(int), dict(classes=[0, 1])
    return X, X[:, 0], dict(target_bounds=(0, 1))


def _default_estimator(name, task):
    X, y, domain = _data(task)
    est = dpforest.ALGORITHMS[name][task](bounds=(0, 1), random_state=0, n_jobs=1, **domain)
    return est, X, y


@pytest.mark.parametrize("name,task", CASES, ids=[f"{n}-{t}" for n, t in CASES])
def test_every_private_estimator_is_dp_with_its_defaults(name, task):
    est, X, y = _default_estimator(name, task)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no PrivacyWarning, and no other warning either
        if name in NO_DP_VARIANT:
            with pytest.raises(ValueError, match=f"no strict variant.*`{NO_DP_VARIANT[name]}`"):
                est.fit(X, y)
            return
        if name in NEVER_DP:
            with pytest.raises(dpforest.PrivacyWarning, match="is not differentially private: oracle tuning"):
                est.fit(X, y)
            return
        est.fit(X, y)
        est.predict(X)
    assert est.privacy_status_ in DP, est.privacy_status_
    assert est.epsilon_spent_ <= est.epsilon_apriori_ * (1 + 1e-9)


# The estimators whose published mechanism is not DP (the first five were found handing out non-private
# models silently), all with a strict variant.
PUBLISHED_NOT_DP = ["dipreme", "dp-ert", "smooth-rdf", "privatree", "diffprivlib-rf", "dipreme-exp", "dipreme-flip",
                    "jpw", "rgv", "multinomial-rf-dp"]


@pytest.mark.parametrize("name", PUBLISHED_NOT_DP)
def test_the_published_variant_is_an_explicit_choice_and_warns_with_its_reasons(name):
    est, X, y = _default_estimator(name, "classification")
    assert est.get_params()["strict"] is True
    est.set_params(strict=False)
    with pytest.warns(dpforest.PrivacyWarning, match=r"is not differentially private: .{20,}The epsilon-DP variant is "
                                                    r"strict=True"):
        est.fit(X, y)
    assert est.privacy_status_.startswith("published, not")
    reason = est.privacy_status_.split(": ", 1)[1]
    with pytest.warns(dpforest.PrivacyWarning) as record:
        est.fit(X, y)
    assert reason in str(record[0].message)


def test_the_generic_front_has_the_same_private_defaults(binary_data):
    X, y = binary_data
    kw = dict(algorithm="dp-ert", epsilon=1.0, bounds=(0, 1), classes=[0, 1], random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = dpforest.Classifier(**kw).fit(X, y)
    assert g.privacy_status_ == "epsilon-DP" and g.params_["strict"] == "true"
    with pytest.warns(dpforest.PrivacyWarning):
        dpforest.Classifier(strict=False, **kw).fit(X, y)


def test_warning_classes_and_non_private_baselines(binary_data):
    X, y = binary_data
    assert issubclass(dpforest.PrivacyLeakWarning, dpforest.PrivacyWarning)
    assert issubclass(dpforest.PrivacyWarning, UserWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rf = dpforest.RFClassifier(n_trees=3, bounds=(0, 1), classes=[0, 1], random_state=0).fit(X, y)
    assert rf.privacy_status_ == "non-private" and "rf" not in dpforest.PRIVATE


def test_every_private_estimator_has_one_epsilon_default():
    # One default, declared once in C++ (algorithms/common/shared_params.cpp), read from the schema.
    defaults = {dpforest.ALGORITHMS[name][task]().get_params()["epsilon"] for name, task in CASES}
    assert len(defaults) == 1 and None not in defaults, sorted(map(str, defaults))
    (value,) = defaults
    assert value > 0
