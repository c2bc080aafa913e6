"""scikit-learn's estimator checks on four registry estimators (two private, two baselines).

The checks run with on_missing_domain='warn': they fit on data whose domains nobody declares
(the PrivacyLeakWarning it raises is expected there). The checks that cannot apply to these
estimators are listed in SKIPPED with the reason; every other check must pass.
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


ESTIMATORS = [
    BinaryDiPriMe(epsilon=5.0, strict=True, n_trees=3, max_depth=3, on_missing_domain="warn", random_state=0),
    dpforest.DiPriMeRegressor(epsilon=5.0, strict=True, n_trees=3, max_depth=3, on_missing_domain="warn",
                              random_state=0),
    dpforest.RFClassifier(n_trees=5, on_missing_domain="warn", random_state=0),
    dpforest.RFRegressor(n_trees=5, on_missing_domain="warn", random_state=0),
]

# check name -> why it cannot apply.
SKIPPED = {}


def _check_name(check):
    return getattr(check, "func", check).__name__


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    name = _check_name(check)
    if name in SKIPPED:
        pytest.skip(SKIPPED[name])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dpforest.PrivacyLeakWarning)
        check(estimator)
