"""scikit-learn's estimator checks on four registry estimators (two private, two baselines).

The checks run with on_missing_domain='warn': they fit on data whose domains nobody declares
(the PrivacyLeakWarning it raises is expected there). Every check must pass (SKIPPED would list
one that cannot apply, with the reason).
"""
import warnings

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import dpforest


class BinaryDiPriMe(dpforest.DiPriMeClassifier):
    # DiPriMe's classification is binary (dipreme.md §1): the registry rejects 3 classes, so the
    # checks use their binary data for it.
    def _more_tags(self):
        return {**super()._more_tags(), "binary_only": True}


class PoorScoreDiPriMeRegressor(dpforest.DiPriMeRegressor):
    # DiPriMe splits at a private median of a randomly drawn attribute, without an error-driven split
    # choice: on the checks' 10-feature regression data its training R^2 is 0.34 (3 trees, depth 3,
    # epsilon 100) to 0.51 (10 trees, depth 5, epsilon 1000), measured, around the 0.5 floor of
    # check_regressors_train. The tag skips only that floor; the rest of the check runs.
    def _more_tags(self):
        return {**super()._more_tags(), "poor_score": True}


ESTIMATORS = [
    BinaryDiPriMe(epsilon=5.0, strict=True, n_trees=3, max_depth=3, on_missing_domain="warn", random_state=0),
    PoorScoreDiPriMeRegressor(epsilon=5.0, strict=True, n_trees=3, max_depth=3, on_missing_domain="warn",
                              random_state=0),
    dpforest.RFClassifier(n_trees=5, on_missing_domain="warn", random_state=0),
    dpforest.RFRegressor(n_trees=5, on_missing_domain="warn", random_state=0),
]

# check name -> why it cannot apply (none: fitted estimators pickle through their saved-model text).
SKIPPED = {}


def _check_name(check):
    return getattr(check, "func", check).__name__


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    name = _check_name(check)
    if name in SKIPPED:
        pytest.skip(SKIPPED[name])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dpforest.PrivacyWarning)
        check(estimator)
