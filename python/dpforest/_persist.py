"""dpforest.save / dpforest.load: a fitted estimator as the saved-model file of `dpforest fit --save`
(algorithms/saved_model.hpp), so a model trained once is deployed from Python or the CLI alike.

The file holds the model's release and the public schema, plus an "estimator" object with what the
Python estimator needs on top: its class, its constructor arguments (public: parameters and domains)
and the original label and category values (their types: 0 stays 0, "yes" stays "yes"). The
training-dependent attributes (epsilon_spent_, ledger_) are not saved: they are None after load.
"""
import json
import numbers
import os

import numpy as np

from . import _core, _input
from ._estimators import FIT_ONLY, _DPForestBase
from ._registry import _info, py_name, registry_default


def _json_value(v, where):
    v = _input.plain(v)
    if v is None or isinstance(v, (str, bool, numbers.Real)):
        return float(v) if isinstance(v, numbers.Real) and not isinstance(v, (bool, numbers.Integral)) else v
    if isinstance(v, (list, tuple, np.ndarray)):
        return [_json_value(x, where) for x in v]
    raise TypeError(f"dpforest.save: {where} holds {v!r} ({type(v).__name__}), which a saved model cannot store "
                    "(numbers, text, booleans and lists of them)")


def _estimator_section(est):
    # Domains are restored from the schema and the typed values below, not from these arguments.
    skip = {"bounds", "categories", "classes", "target_bounds"}
    params = {k: _json_value(v, f"parameter {k!r}") for k, v in est.get_params().items() if k not in skip
              and not (k == "random_state" and not isinstance(v, (numbers.Integral, type(None))))}
    return {
        "class": type(est).__name__,
        "params": params,
        "classes": _json_value(list(est.classes_), "classes_") if hasattr(est, "classes_") else None,
        "category_values": [None if v is None else _json_value(v, "categories") for v in est._category_values],
        "feature_names_in": _json_value(list(est.feature_names_in_), "feature_names_in_")
        if hasattr(est, "feature_names_in_") else None,
    }


def save(estimator, path):
    """Writes a fitted dpforest estimator to `path` as a saved-model file (JSON) that
    dpforest.load and `dpforest predict` read. Fails, saying why, for a model that cannot be saved
    (a release that happens in predict(), e.g. mrf-predict)."""
    if not isinstance(estimator, _DPForestBase) or not hasattr(estimator, "model_"):
        raise TypeError("dpforest.save takes a fitted dpforest estimator")
    doc = json.loads(estimator.model_.save())
    doc["privacy"]["status"] = estimator.privacy_status_  # with any domain read from the data (estimator)
    doc["estimator"] = _estimator_section(estimator)
    text = json.dumps(doc, allow_nan=False)
    tmp = os.fspath(path) + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    os.replace(tmp, path)


def load(path):
    """A fitted estimator from a saved-model file (dpforest.save or `dpforest fit --save`). It predicts
    exactly as the saved one did; epsilon_spent_ and ledger_ are None (the file holds the a-priori
    bound epsilon_apriori_, not what the fit spent)."""
    from . import ALGORITHMS, Classifier, Regressor
    import dpforest

    path = os.fspath(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    model = _core.load_model(text, path)  # validates the whole file first
    doc = json.loads(text)
    section = doc.get("estimator") or {}
    schema = model.schema()
    task = schema["task"]
    cls = getattr(dpforest, section.get("class", ""), None)
    if not (isinstance(cls, type) and issubclass(cls, _DPForestBase)):
        cls = ALGORITHMS[model.algorithm][task]
    params = dict(section.get("params") or {})
    if cls in (Classifier, Regressor):
        params.setdefault("algorithm", model.algorithm)
    else:
        valid = cls().get_params()
        params = {k: v for k, v in params.items() if k in valid}
    if not section:
        # A file written by the CLI: the registry parameters it was fitted with, typed as the schema says.
        specs = {py_name(s["name"]): s for s in _info(model.algorithm)["params"]}
        for k, v in doc["params"].items():
            if py_name(k) in specs and v != "":
                params[py_name(k)] = registry_default({**specs[py_name(k)], "default": v})
        if "bins" not in specs:
            params["bins"] = doc["preprocess"]["bins"] or None
    est = cls(**params)
    cat_values = section.get("category_values") or [
        None if kind == "numeric" else list(cats) for kind, cats in zip(schema["kinds"], schema["categories"])]
    numeric = {f: (schema["lo"][f], schema["hi"][f]) for f, k in enumerate(schema["kinds"]) if k == "numeric"}
    est.set_params(bounds=numeric or None,
                   categories={f: v for f, v in enumerate(cat_values) if v is not None} or None)
    if task == "classification":
        classes = section.get("classes") or schema["classes"]
        est.set_params(classes=classes)
        est.classes_ = _input.label_array(classes)
    else:
        est.set_params(target_bounds=(schema["target_lo"], schema["target_hi"]))
    est.n_features_in_ = len(schema["kinds"])
    if section.get("feature_names_in"):
        est.feature_names_in_ = np.asarray(section["feature_names_in"], dtype=object)
    est._set_model(model, cat_values, model.privacy_status)
    for k in FIT_ONLY:
        setattr(est, k, None)
    return est
