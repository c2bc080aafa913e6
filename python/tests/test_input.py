"""Python input: labels of any type, text categories, clipping at predict, input binning, no warning spam."""
import warnings

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score

import dpforest


def _mixed(n=240, seed=2):
    """A numeric feature in [0, 10] and a colour; label 'yes' or 'no'."""
    rng = np.random.RandomState(seed)
    x0 = rng.uniform(0, 10, n)
    colour = rng.choice(["red", "green", "blue"], n)
    X = np.empty((n, 2), dtype=object)
    X[:, 0], X[:, 1] = x0, colour
    y = np.where((x0 > 5) | (colour == "red"), "yes", "no")
    return X, y


def test_text_labels_and_categories_without_any_warning():
    X, y = _mixed()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the old path printed numpy FutureWarnings before failing
        clf = dpforest.DPERTClassifier(epsilon=2.0, n_trees=10, bounds={0: (0, 10)},
                                       categories={1: ["red", "green", "blue"]}, classes=["no", "yes"],
                                       random_state=0).fit(X, y)
        pred = clf.predict(X)
    assert set(pred) <= {"no", "yes"} and clf.score(X, y) > 0.6
    assert clf.domains_["categories"][1] == ["red", "green", "blue"]
    assert list(clf.classes_) == ["no", "yes"]


@pytest.mark.parametrize("classes", [[0, 1], [False, True], ["a", 7], [2.5, "z"]])
def test_labels_of_any_type_keep_their_type(binary_data, classes):
    X, y01 = binary_data
    y = np.array([classes[v] for v in y01], dtype=object)
    clf = dpforest.DiPriMeClassifier(epsilon=1.0, n_trees=3, bounds=(0, 1), classes=classes, random_state=0).fit(X, y)
    pred = clf.predict(X).tolist()
    assert set(pred) <= set(classes) and len(set(pred)) == 2
    assert {type(p) for p in pred} == {type(c) for c in classes}  # 0 stays an int, "a" a str, 2.5 a float
    bad = y.copy()
    bad[y01 == 1] = "other"
    with pytest.raises(ValueError, match=r"labels \['other'\] that are not in classes"):
        clf.fit(X, bad)


def test_unknown_category_and_text_in_a_numeric_column_name_the_column():
    X, y = _mixed()
    kw = dict(epsilon=1.0, n_trees=3, bounds={0: (0, 10)}, categories={1: ["red", "green", "blue"]}, classes=["no", "yes"])
    clf = dpforest.DPERTClassifier(**kw).fit(X, y)
    bad = X.copy()
    bad[4, 1] = "purple"
    with pytest.raises(ValueError, match=r"column 'x1' \(index 1\), row 4: value purple is not one of its declared "
                                         r"categories \(3 given\)"):
        clf.predict(bad)
    with pytest.raises(ValueError, match="could not convert.*categories="):
        dpforest.DPERTClassifier(epsilon=1.0, bounds=(0, 10), classes=["no", "yes"]).fit(X, y)


def test_clip_at_predict_is_post_processing_of_the_input(binary_data):
    X, y = binary_data
    kw = dict(epsilon=1.0, n_trees=4, bounds=(0, 1), classes=[0, 1], random_state=3)
    out = X * 1.6 - 0.3  # test values outside the public domain [0, 1]
    strict = dpforest.DiPriMeClassifier(**kw).fit(X, y)
    with pytest.raises(ValueError, match=r"outside its public domain \[0, 1\].*clip=True"):
        strict.predict(out)
    clipping = dpforest.DiPriMeClassifier(clip=True, **kw).fit(X, y)
    assert clipping.describe() == strict.describe()  # the same model: clip only touches the test input
    assert np.array_equal(clipping.predict_proba(out), strict.predict_proba(np.clip(out, 0, 1)))


def test_a_pipeline_with_values_outside_the_bounds_scores_with_clip_and_fails_loudly_without(binary_data):
    X, y = binary_data
    Xs = X.copy()
    Xs[::7, 0] = 1.2  # in both train and test folds; training values must stay inside, so fit on clipped data
    kw = dict(epsilon=1.0, n_trees=4, bounds=(0, 1), classes=[0, 1], random_state=0)

    class ClipTrain(dpforest.DiPriMeClassifier):
        def fit(self, X, y):
            return super().fit(np.clip(X, 0, 1), y)

    scores = cross_val_score(ClipTrain(clip=True, **kw), Xs, y, cv=3)
    assert np.all(np.isfinite(scores))
    with pytest.raises(ValueError, match="outside its public domain"):
        cross_val_score(ClipTrain(**kw), Xs, y, cv=3, error_score="raise")


def test_binned_input_for_algorithms_that_need_it(binary_data):
    X, y = binary_data
    assert dpforest.DPRFClassifier().bins == 5 and dpforest.DPDFClassifier().bins == 5
    assert dpforest.DiPriMeClassifier().bins is None
    kw = dict(epsilon=1.0, classes=[0, 1], random_state=1)
    binned = dpforest.DPRFClassifier(bounds=(0, 1), **kw).fit(X, y)
    # the same as binning by hand into 5 equal-width bins of [0, 1] (the last bin closed)
    codes = np.clip(np.floor(X / 0.2), 0, 4)
    by_hand = dpforest.DPRFClassifier(bins=None, categories={f: list(range(5)) for f in range(3)}, **kw).fit(codes, y)
    assert binned.describe()["model"] == by_hand.describe()["model"]
    assert np.array_equal(binned.predict(X), by_hand.predict(codes))
    with pytest.raises(ValueError, match="is numeric; DP-RF takes binned inputs"):
        dpforest.DPRFClassifier(bins=None, bounds=(0, 1), **kw).fit(X, y)


def test_dataframe_columns_name_the_features(binary_data):
    pd = pytest.importorskip("pandas")
    X, y = binary_data
    df = pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "colour": np.where(X[:, 2] > 0.5, "red", "blue")})
    clf = dpforest.DPERTClassifier(epsilon=1.0, n_trees=3, bounds={"a": (0, 1), "b": (0, 1)},
                                   categories={"colour": ["red", "blue"]}, classes=[0, 1], random_state=0).fit(df, y)
    assert clf.domains_["feature_names"] == ["a", "b", "colour"]
    assert clf.predict(df).shape == (200,)
