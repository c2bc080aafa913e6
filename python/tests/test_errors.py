import numpy as np
import pytest

import dpforest


def clf(**kw):
    args = dict(epsilon=1.0, strict=True, n_trees=3, bounds=(0, 1), classes=[0, 1], random_state=0)
    args.update(kw)
    return dpforest.DiPriMeClassifier(**args)


def test_missing_bounds_is_an_error_naming_the_leak(binary_data):
    X, y = binary_data
    with pytest.raises(ValueError, match="bounds=.*NOT differentially private"):
        clf(bounds=None).fit(X, y)
    with pytest.raises(ValueError, match="classes=.*NOT differentially private"):
        clf(classes=None).fit(X, y)
    with pytest.raises(ValueError, match="target_bounds="):
        dpforest.DiPriMeRegressor(epsilon=1.0, bounds=(0, 1)).fit(X, X[:, 0])


def test_missing_bounds_warns_with_opt_in_and_status_says_so(binary_data):
    X, y = binary_data
    with pytest.warns(dpforest.PrivacyLeakWarning, match="bounds="):
        m = clf(bounds=None, on_missing_domain="warn").fit(X, y)
    assert m.privacy_status_.startswith("published, not epsilon-DP: domains derived from the training data")
    assert m.domains_["domains_source"] == "from-data"


def test_out_of_domain_value_names_the_column(binary_data):
    X, y = binary_data
    bad = X.copy()
    bad[17, 2] = 1.5
    with pytest.raises(ValueError, match=r"column 'x2' \(index 2\), row 17: value 1.5 is outside its public domain \[0, 1\]"):
        clf().fit(bad, y)
    m = clf().fit(X, y)
    with pytest.raises(ValueError, match=r"column 'x2' \(index 2\), row 17: value 1.5 is outside.*clip"):
        m.predict(bad)


def test_nan_and_inf_name_the_column(binary_data):
    X, y = binary_data
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"column 'x1' \(index 1\), row 3: NaN"):
        clf().fit(bad, y)
    bad[3, 1] = np.inf
    with pytest.raises(ValueError, match=r"column 'x1' \(index 1\), row 3: inf is not finite"):
        clf().fit(bad, y)


def test_wrong_shapes(binary_data):
    X, y = binary_data
    with pytest.raises(ValueError, match="Expected 2D array"):
        clf().fit(X[:, 0], y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        clf().fit(X, y[:-1])
    m = clf().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, but DiPriMeClassifier is expecting 3"):
        m.predict(X[:, :2])
    with pytest.raises(ValueError, match="bounds has 2 entries but X has 3 features|bounds: numeric features"):
        clf(bounds=[(0, 1), (0, 1)]).fit(X, y)


def test_unknown_label_category_and_parameter(binary_data):
    X, y = binary_data
    with pytest.raises(ValueError, match=r"labels \[2\] that are not in classes"):
        clf().fit(X, np.where(y == 1, 2, 0))
    Xc = np.column_stack([X[:, 0], np.where(X[:, 1] > 0.5, 1.0, 0.0)])
    with pytest.raises(ValueError, match=r"column 'x1' \(index 1\), row \d+: value 1 is not one of its declared categories"):
        dpforest.RFClassifier(n_trees=2, bounds={0: (0, 1)}, categories={1: [0, 5]}, classes=[0, 1]).fit(Xc, y)
    with pytest.raises(ValueError, match="unknown parameter 'n_tree'"):
        dpforest.Classifier(algorithm="dipreme", epsilon=1.0, n_tree=3, bounds=(0, 1), classes=[0, 1]).fit(X, y)
    with pytest.raises(ValueError, match="parameter .epsilon. of algorithm .dipreme. is .-1.0., expected number > 0"):
        dpforest.DiPriMeClassifier(epsilon=-1.0, bounds=(0, 1), classes=[0, 1]).fit(X, y)
    with pytest.raises(ValueError, match="unknown algorithm 'nope'"):
        dpforest.Classifier(algorithm="nope", bounds=(0, 1), classes=[0, 1]).fit(X, y)
