"""Save and load: a fitted estimator pickles and round-trips through dpforest.save / dpforest.load (a
new process predicts identically), the file holds the release and the public schema and nothing
else, and the CLI's `dpforest fit --save` / `dpforest predict` read and write the same files."""
import csv
import json
import os
import pickle
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import dpforest
from conftest import ROOT, run_cli

# Keys the file of a private model never holds (anywhere but in "params", the public configuration).
FORBIDDEN = {"count", "counts", "n_train", "n_rows", "occupancy", "leaf_occupancy", "left_fraction", "ledger",
             "seed", "key", "keys", "rows", "heavy_queries", "epsilon_spent", "delta_spent", "ledger_", "X", "y",
             "empty_leaf_fraction", "flipped_fraction", "mean_smooth_sensitivity", "diagnostics"}
PREDICT_RELEASE = {"mrf-predict", "mrf-subsample", "mrf-subsample-lm"}


def _keys(node, out):
    if isinstance(node, dict):
        for k, v in node.items():
            out.add(k)
            if k != "params":
                _keys(v, out)
    elif isinstance(node, list):
        for v in node:
            _keys(v, out)
    return out


def _mixed_data(n=300, seed=4):
    rng = np.random.RandomState(seed)
    X = np.empty((n, 3), dtype=object)
    X[:, 0] = rng.uniform(0, 10, n)
    X[:, 1] = rng.uniform(-1, 1, n)
    X[:, 2] = rng.choice(["red", "green", "blue"], n)
    y = np.where((X[:, 0].astype(float) > 5) ^ (X[:, 2] == "red"), "yes", "no")
    return X, y


def _fitted():
    X, y = _mixed_data()
    clf = dpforest.DiPriMeClassifier(epsilon=1.0, n_trees=6, bounds={0: (0, 10), 1: (-1, 1)},
                                     categories={2: ["red", "green", "blue"]}, classes=["no", "yes"], clip=True,
                                     random_state=5).fit(X, y)
    return clf, X, y


def test_saved_model_loads_in_a_new_process_and_predicts_identically(tmp_path):
    clf, X, y = _fitted()
    dpforest.save(clf, tmp_path / "model.json")
    np.save(tmp_path / "X.npy", X, allow_pickle=True)
    script = textwrap.dedent(f"""
        import numpy as np, dpforest
        m = dpforest.load({str(tmp_path / 'model.json')!r})
        X = np.load({str(tmp_path / 'X.npy')!r}, allow_pickle=True)
        np.save({str(tmp_path / 'pred.npy')!r}, m.predict(X), allow_pickle=True)
        np.save({str(tmp_path / 'proba.npy')!r}, m.predict_proba(X))
        print(type(m).__name__, m.privacy_status_, m.epsilon_spent_, m.clip)
        """)
    # A fresh interpreter in another directory, importing the same dpforest (built or installed).
    here = os.path.dirname(os.path.dirname(os.path.abspath(dpforest.__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True,
                         cwd=str(tmp_path), env=env).stdout
    assert out.split() == ["DiPriMeClassifier", "epsilon-DP", "None", "True"]
    assert np.array_equal(np.load(tmp_path / "pred.npy", allow_pickle=True), clf.predict(X))
    assert np.array_equal(np.load(tmp_path / "proba.npy"), clf.predict_proba(X))  # bit-identical scores


def test_the_file_holds_the_release_and_the_public_schema_only(tmp_path):
    clf, X, y = _fitted()
    dpforest.save(clf, tmp_path / "model.json")
    doc = json.loads((tmp_path / "model.json").read_text())
    assert doc["format"] == "dpforest-model" and doc["version"] == 1
    assert doc["privacy"] == {"status": "epsilon-DP", "epsilon": 1.0, "delta": 0.0}  # the a-priori bound
    assert not (_keys(doc, set()) & FORBIDDEN)
    loaded = dpforest.load(tmp_path / "model.json")
    # what the loaded model would write is what was written: the release, nothing dropped or added
    assert json.loads(loaded.model_.save())["model"] == doc["model"]
    assert loaded.epsilon_spent_ is None and loaded.ledger_ is None and loaded.epsilon_apriori_ == 1.0


@pytest.mark.parametrize("name", dpforest.PRIVATE)
def test_every_private_estimator_pickles_or_says_why_not(name, binary_data):
    X, y = binary_data
    cls = dpforest.ALGORITHMS[name]["classification"]
    est = cls(bounds=(0, 1), classes=[0, 1], random_state=0, n_jobs=1)
    if est.get_params()["epsilon"] is None:
        est.set_params(epsilon=1.0)
    if name == "privatree-v2":
        est.set_params(strict=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dpforest.PrivacyWarning)
        est.fit(X, y)
    if name in PREDICT_RELEASE:
        with pytest.raises(ValueError, match="releases noisy votes in predict"):
            pickle.dumps(est)
        return
    if name == "multinomial-rf-dp":  # hard-vote ties at random from the fit's seed (eq. 6)
        with pytest.raises(ValueError, match="ties=lowest"):
            pickle.dumps(est)
        est.set_params(ties="lowest").fit(X, y)
    again = pickle.loads(pickle.dumps(est))
    assert np.array_equal(again.predict_proba(X), est.predict_proba(X))
    assert again.privacy_status_ == est.privacy_status_


def test_cli_fit_is_private_by_default(cli, tmp_path):
    # Without `strict`, `dpforest fit` takes the epsilon-DP variant where the default is not DP, as
    # the Python estimators do; the published mechanism is an explicit, warned-about choice.
    for algorithm in ("dipreme", "privatree", "diffprivlib-rf"):
        out = tmp_path / f"{algorithm}.json"
        r = subprocess.run([cli, "fit", "--algorithm", algorithm, "--dataset", "banknote", "--param", "epsilon=1",
                            "--save", str(out)], capture_output=True, text=True, check=True)
        m = dpforest.load(out)
        assert m.privacy_status_ == "epsilon-DP", (algorithm, m.privacy_status_)
        assert "warning" not in r.stderr
        r = subprocess.run([cli, "fit", "--algorithm", algorithm, "--dataset", "banknote", "--param", "epsilon=1",
                            "--param", "strict=false", "--save", str(out)], capture_output=True, text=True, check=True)
        assert dpforest.load(out).privacy_status_ != "epsilon-DP"
        assert "not differentially private" in r.stderr and "strict=true" in r.stderr, r.stderr


def test_cli_fit_save_and_predict_interoperate_with_python(cli, tmp_path):
    # CLI fit -> Python load: the same predictions as `dpforest predict`.
    run_cli(cli, "fit", "--algorithm", "dipreme", "--dataset", "banknote", "--param", "epsilon=1",
            "--param", "strict=true", "--seed", "4", "--save", str(tmp_path / "cli.json"))
    d = dpforest.load_dataset("banknote")
    with open(tmp_path / "data.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(d["feature_names"])
        w.writerows(d["X"].tolist())
    run_cli(cli, "predict", str(tmp_path / "cli.json"), str(tmp_path / "data.csv"), "--out", str(tmp_path / "p.csv"))
    with open(tmp_path / "p.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    m = dpforest.load(tmp_path / "cli.json")
    assert m.privacy_status_ == "epsilon-DP" and m.params_["strict"] == "true"
    assert [r["prediction"] for r in rows] == list(m.predict(d["X"]))
    proba = m.predict_proba(d["X"])
    scores = np.array([[float(r["score_" + c]) for c in d["classes"]] for r in rows])
    assert np.array_equal(scores / scores.sum(axis=1, keepdims=True), proba)
    # Python fit -> `dpforest predict`: text categories and labels read by name.
    clf, X, y = _fitted()
    dpforest.save(clf, tmp_path / "py.json")
    with open(tmp_path / "mixed.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["x2", "x0", "x1", "ignored"])  # any column order; other columns are ignored
        w.writerows([[r[2], repr(float(r[0])), repr(float(r[1])), "?"] for r in X])
    out = run_cli(cli, "predict", str(tmp_path / "py.json"), str(tmp_path / "mixed.csv"))
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == list(clf.predict(X))


def test_models_that_release_in_predict_refuse_to_save(cli, tmp_path):
    r = subprocess.run([cli, "fit", "--algorithm", "mrf-predict", "--dataset", "banknote", "--param", "epsilon=1",
                        "--bins", "4", "--save", str(tmp_path / "m.json")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode != 0 and "releases noisy votes in predict()" in r.stderr
    assert not (tmp_path / "m.json").exists()


def test_predict_names_the_file_line_and_column_of_a_bad_value(cli, tmp_path):
    run_cli(cli, "fit", "--algorithm", "dp-ert", "--dataset", "banknote", "--param", "epsilon=1", "--param",
            "strict=true", "--save", str(tmp_path / "m.json"))
    d = dpforest.load_dataset("banknote")
    bad = tmp_path / "bad.csv"
    good = ",".join(repr(v) for v in d["X"][0])
    bad.write_text(",".join(d["feature_names"]) + "\n" + good + "\n1,oops,3,4\n")
    r = subprocess.run([cli, "predict", str(tmp_path / "m.json"), str(bad)], capture_output=True, text=True)
    assert r.returncode != 0 and f"{bad}, line 3, column 'skewness': 'oops' is not a finite number" in r.stderr
    far = tmp_path / "far.csv"
    far.write_text(",".join(d["feature_names"]) + "\n1000," + good.split(",", 1)[1] + "\n")
    r = subprocess.run([cli, "predict", str(tmp_path / "m.json"), str(far)], capture_output=True, text=True)
    assert r.returncode != 0 and "outside the feature's public domain" in r.stderr and "--clip" in r.stderr
    r = subprocess.run([cli, "predict", str(tmp_path / "m.json"), str(far), "--clip"], capture_output=True, text=True)
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 2
