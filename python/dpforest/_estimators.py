"""scikit-learn estimators over the dpforest registry.

Everything algorithmic happens in C++ (dpforest._core): this module checks and converts the
inputs (array shapes, label encoding, the public domains the caller declares), passes the
registry parameters as text, and exposes what the fit reports (privacy status, ledger).
"""
import json
import keyword
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _core

# Estimator-level arguments; a registry parameter may not use these names.
_ESTIMATOR_ARGS = ("bounds", "categories", "classes", "target_bounds", "on_missing_domain", "random_state", "n_jobs")


class PrivacyLeakWarning(UserWarning):
    """A public domain was not given and was derived from the training data (not private)."""


def _param_text(name, value):
    """A Python value as the registry's canonical text."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    raise ValueError(f"parameter {name!r}: cannot pass {value!r} ({type(value).__name__}) to the registry")


def _seed(random_state):
    """random_state -> the fit's 64-bit master seed (an int is the seed itself, as `describe --seed`)."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be >= 0, got {random_state}")
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def _threads(n_jobs):
    if n_jobs is None or n_jobs == -1:
        return _core.default_threads()
    if not isinstance(n_jobs, numbers.Integral) or n_jobs < 1:
        raise ValueError(f"n_jobs must be None, -1 or a positive int, got {n_jobs!r}")
    return int(n_jobs)


class _DPForestBase(BaseEstimator):
    """Shared fit/predict plumbing; subclasses define _task and the parameter names."""

    _task = None

    # -- the registry parameters of this estimator ------------------------------------------
    def _algorithm_name(self):
        return self._algorithm

    def _registry_params(self):
        return {self._param_names[py]: getattr(self, py) for py in self._param_names}

    # -- public domains -------------------------------------------------------------------
    def _missing(self, what):
        policy = self.on_missing_domain
        if policy not in ("error", "warn"):
            raise ValueError(f"on_missing_domain must be 'error' or 'warn', got {policy!r}")
        msg = (f"{what} not given: deriving it from the training data leaks the data's extremes or the classes "
               f"present and is NOT differentially private (the privacy guarantee no longer holds)")
        if policy == "error":
            raise ValueError(msg + "; pass it explicitly (public knowledge), or on_missing_domain='warn' to accept the leak")
        warnings.warn(msg, PrivacyLeakWarning, stacklevel=3)
        self._leaks.append(what)

    def _feature_domains(self, n_features):
        cats = [[] for _ in range(n_features)]
        if self.categories is not None:
            if not isinstance(self.categories, dict):
                raise ValueError("categories must be a dict {feature index: [category values]}")
            for f, values in self.categories.items():
                if not isinstance(f, numbers.Integral) or not 0 <= f < n_features:
                    raise ValueError(f"categories: feature index {f!r} is not in 0..{n_features - 1}")
                values = [float(v) for v in values]
                if not values:
                    raise ValueError(f"categories: feature {f} has an empty category list")
                cats[int(f)] = values
        numeric = [f for f in range(n_features) if not cats[f]]
        lo = [0.0] * n_features
        hi = [0.0] * n_features
        from_data = False
        b = self.bounds
        if b is None:
            if numeric:
                self._missing(f"bounds= (public domains of numeric features {numeric})")
                from_data = True
        else:
            if isinstance(b, dict):
                per = {int(k): v for k, v in b.items()}
            elif len(b) == 2 and all(isinstance(v, numbers.Real) for v in b):
                per = {f: b for f in numeric}  # one (lo, hi) for every numeric feature
            else:
                if len(b) != n_features:
                    raise ValueError(f"bounds has {len(b)} entries but X has {n_features} features "
                                     "(give (lo, hi) for all, a list with one pair per feature, or a dict)")
                per = {f: v for f, v in enumerate(b) if v is not None}
            lacking = [f for f in numeric if f not in per]
            if lacking:
                raise ValueError(f"bounds: numeric features {lacking} have no (lo, hi); give every numeric "
                                 "feature a public domain (categorical ones are declared with categories=)")
            for f in numeric:
                pair = per[f]
                if len(pair) != 2:
                    raise ValueError(f"bounds of feature {f}: expected (lo, hi), got {pair!r}")
                lo[f], hi[f] = float(pair[0]), float(pair[1])
        return cats, lo, hi, from_data

    # -- fit / predict --------------------------------------------------------------------
    def _check_X(self, X, reset):
        X = self._validate_data(X, reset=reset, dtype=np.float64, force_all_finite=False)
        return X

    def _fit(self, X, y_encoded, classes, target_lo, target_hi, target_from_data):
        n_features = X.shape[1]
        cats, lo, hi, from_data = self._feature_domains(n_features)
        names = [f"x{f}" for f in range(n_features)]
        params = {k: _param_text(k, v) for k, v in self._registry_params().items() if v is not None}
        self.model_ = _core.fit(self._algorithm_name(), params, X, np.asarray(y_encoded, dtype=np.float64), names,
                                cats, lo, hi, from_data, self._task, classes, target_lo, target_hi,
                                target_from_data, _seed(self.random_state), _threads(self.n_jobs), "python")
        m = self.model_
        status = m.privacy_status
        if self._leaks and m.is_private:
            status = ("published, not epsilon-DP: domains derived from the training data (" + "; ".join(self._leaks)
                      + ") and the registry's status was: " + status)
        self.privacy_status_ = status
        self.params_ = m.params()
        self.epsilon_spent_ = m.epsilon_spent if m.is_private else 0.0
        self.epsilon_spent_conservative_ = m.epsilon_spent_conservative if m.is_private else 0.0
        self.epsilon_apriori_ = m.epsilon_apriori if m.is_private else 0.0
        self.ledger_ = m.ledger()
        self.ledger_certified_ = m.certified
        self.domains_ = m.schema()
        return self

    def describe(self):
        """The fitted model as `dpforest describe` prints it (dict)."""
        check_is_fitted(self, "model_")
        return json.loads(self.model_.describe("python"))

    def _more_tags(self):
        return {"allow_nan": False, "requires_y": True, "non_deterministic": False}


class _ClassifierBase(ClassifierMixin, _DPForestBase):
    _task = "classification"

    def fit(self, X, y):
        """Fit on X (n_samples, n_features) and labels y; classes come from `classes=` (public)."""
        self._leaks = []
        X, y = self._validate_data(X, y, dtype=np.float64, force_all_finite=False, y_numeric=False)
        check_classification_targets(y)
        if self.classes is not None:
            classes = np.asarray(self.classes)
            if len(np.unique(classes)) != len(classes):
                raise ValueError(f"classes {list(classes)} lists a class twice")
            unknown = np.setdiff1d(np.unique(y), classes)
            if len(unknown):
                raise ValueError(f"y holds labels {list(unknown)} that are not in classes={list(classes)}")
        else:
            self._missing("classes= (the public class list)")
            classes = np.unique(y)
        self.classes_ = classes
        order = np.argsort(classes, kind="stable")
        y_idx = order[np.searchsorted(classes, y, sorter=order)]
        return self._fit(X, y_idx, [str(c) for c in classes], 0.0, 1.0, False)

    def predict(self, X):
        check_is_fitted(self, "model_")
        X = self._check_X(X, reset=False)
        labels, _ = self.model_.predict(X)
        return self.classes_[labels]

    def predict_proba(self, X):
        """The forest's class scores, normalised to sum to 1 per row."""
        check_is_fitted(self, "model_")
        X = self._check_X(X, reset=False)
        _, scores = self.model_.predict(X)
        total = scores.sum(axis=1, keepdims=True)
        uniform = np.full_like(scores, 1.0 / scores.shape[1])
        return np.where(total > 0, scores / np.where(total > 0, total, 1.0), uniform)


class _RegressorBase(RegressorMixin, _DPForestBase):
    _task = "regression"

    def fit(self, X, y):
        """Fit on X (n_samples, n_features) and targets y within the public `target_bounds=`."""
        self._leaks = []
        X, y = self._validate_data(X, y, dtype=np.float64, force_all_finite=False, y_numeric=True)
        if self.target_bounds is None:
            self._missing("target_bounds= (the public range of y)")
            return self._fit(X, y, [], 0.0, 0.0, True)
        lo, hi = self.target_bounds
        return self._fit(X, y, [], float(lo), float(hi), False)

    def predict(self, X):
        check_is_fitted(self, "model_")
        X = self._check_X(X, reset=False)
        values, _ = self.model_.predict(X)
        return values


# -- the registry as classes ------------------------------------------------------------------

_TYPES = {"int": int, "number": float, "bool": bool}
_ACRONYMS = {"rf", "ert", "dp", "df", "rdf", "jpw", "fs", "rgv", "mrf", "brf", "lm", "c", "i", "ebm", "bdt"}
_WORDS = {"dipreme": "DiPriMe", "comprf": "CompRF", "dpboost": "DPBoost"}


def class_name(algorithm, task):
    """dipreme -> DiPriMeClassifier, smooth-rdf -> SmoothRDFClassifier, dp-rf -> DPRFRegressor."""
    parts = []
    for tok in algorithm.split("-"):
        parts.append(_WORDS.get(tok) or (tok.upper() if tok in _ACRONYMS else tok.capitalize()))
    return "".join(parts) + ("Classifier" if task == "classification" else "Regressor")


def _default(spec):
    d = spec["default"]
    if spec["type"] == "list":
        return None if d == "" else tuple(d.split(","))
    if d == "":
        return None  # required (e.g. epsilon): the registry names it if it is missing at fit
    if spec["type"] == "bool":
        return d == "true"
    if spec["type"] in _TYPES:
        v = float(d)
        return int(v) if spec["type"] == "int" else v
    return d


def _param_doc(spec):
    rng = ""
    if spec["type"] in ("int", "number"):
        lo, hi = spec["min"], spec["max"]
        if lo > -1e299 or hi < 1e299:
            rng = f"; range {'(' if spec['min_exclusive'] else '['}{lo:g}, {hi:g}]"
    if spec["choices"] and spec["choices"] != ["none-defined"]:
        rng += "; one of " + ", ".join(spec["choices"])
    default = spec["default"] if spec["default"] != "" else "required" if spec["type"] not in ("list", "string") else "none"
    return f"    {py_name(spec['name'])} : {spec['type']}, default {default}{rng}\n        {spec['doc']}\n"


_COMMON_DOC = """    bounds : (lo, hi), list of (lo, hi) per feature, or dict {index: (lo, hi)}
        PUBLIC domain of every numeric feature. Never derived from the data silently.
    categories : dict {index: [values]}
        Categorical features and their PUBLIC category values.
    on_missing_domain : 'error' (default) or 'warn'
        A missing public domain raises; with 'warn' it is derived from the training data with a
        PrivacyLeakWarning, and privacy_status_ says the fit is not differentially private.
    random_state : int, RandomState or None
        An int is the fit's master seed (the same as `dpforest describe --seed`).
    n_jobs : int or None
        Threads for tree-level parallelism (None: all cores). Results do not depend on it.
"""
_CLF_DOC = """    classes : array-like
        The PUBLIC class list (labels of y must be among them).
"""
_REG_DOC = """    target_bounds : (lo, hi)
        The PUBLIC range of y.
"""
_ATTR_DOC = """
Attributes (after fit)
----------------------
privacy_status_ : str
    "epsilon-DP", "non-private" or "published, not epsilon-DP: <reason>".
epsilon_spent_, epsilon_spent_conservative_, epsilon_apriori_ : float
    The ledger's composed epsilon (claimed and conservative accounting) and the a-priori bound.
ledger_ : list of dict
    One entry per mechanism kind: mechanism, calls, epsilon, rho, certified.
params_ : dict
    The resolved registry parameters (canonical text), as a result row records them.
"""


def _make_init(param_names, task_args):
    import inspect

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for name, default in param_names + task_args:
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default))
    sig = inspect.Signature(params)

    def init(self, **kwargs):
        bound = sig.bind(self, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            setattr(self, k, v)

    init.__signature__ = sig
    return init


def py_name(name):
    """The constructor argument of a registry parameter: a Python keyword gets a trailing underscore
    (smooth-rdf's `lambda` is `lambda_`)."""
    return name + "_" if keyword.iskeyword(name) else name


def _make_class(info, task):
    specs = info["params"]
    names = [py_name(s["name"]) for s in specs]
    clash = set(names) & set(_ESTIMATOR_ARGS)
    if clash:
        raise RuntimeError(f"registry parameter(s) {clash} of {info['name']} clash with estimator arguments")
    param_defaults = [(py_name(s["name"]), _default(s)) for s in specs]
    common = [("bounds", None), ("categories", None)]
    common += [("classes", None)] if task == "classification" else [("target_bounds", None)]
    common += [("on_missing_domain", "error"), ("random_state", None), ("n_jobs", None)]
    base = _ClassifierBase if task == "classification" else _RegressorBase
    privacy = ("private (see privacy_status_ after fit; strict=True gives the genuinely epsilon-DP variant where "
               "the published mechanism is not)" if info["private"] else "non-private baseline")
    doc = (f"{info['summary']}\n\nRegistry algorithm '{info['name']}' ({task}; papers: {info['papers']}); {privacy}.\n\n"
           "Parameters\n----------\n" + "".join(_param_doc(s) for s in specs)
           + _COMMON_DOC + (_CLF_DOC if task == "classification" else _REG_DOC))
    if info["quirks"]:
        doc += "\nreference_quirks\n----------------\n" + "".join(f"{n}: {d}\n" for n, d in info["quirks"])
    doc += _ATTR_DOC
    ns = {"__doc__": doc, "__init__": _make_init(param_defaults, common), "_algorithm": info["name"],
          "_param_names": {py_name(s["name"]): s["name"] for s in specs}, "__module__": "dpforest"}
    return type(class_name(info["name"], task), (base,), ns)


def build_classes():
    out = {}
    for info in _core.algorithms():
        for task in info["tasks"]:
            cls = _make_class(info, task)
            out[cls.__name__] = cls
    return out


# -- generic front: Classifier(algorithm=..., **registry params) ------------------------------

class _Generic:
    """Classifier/Regressor taking the algorithm by name and its registry parameters as keywords."""

    _fixed = ("algorithm",) + _ESTIMATOR_ARGS

    def __init__(self, algorithm="dipreme", *, bounds=None, categories=None, on_missing_domain="error",
                 random_state=None, n_jobs=None, **params):
        self.algorithm = algorithm
        self.bounds = bounds
        self.categories = categories
        self.on_missing_domain = on_missing_domain
        self.random_state = random_state
        self.n_jobs = n_jobs
        self._extra = sorted(params)
        for k, v in params.items():
            setattr(self, k, v)

    def get_params(self, deep=True):
        out = {k: getattr(self, k) for k in self._fixed if hasattr(self, k)}
        out.update({k: getattr(self, k) for k in self._extra})
        return out

    def set_params(self, **params):
        for k, v in params.items():
            if k not in self._fixed and k not in self._extra:
                self._extra = sorted(set(self._extra) | {k})
            setattr(self, k, v)
        return self

    def _algorithm_name(self):
        return self.algorithm

    def _registry_params(self):
        return {k: getattr(self, k) for k in self._extra}


class Classifier(_Generic, _ClassifierBase):
    """Any registry algorithm as a classifier: Classifier(algorithm="dipreme", epsilon=1.0, strict=True,
    bounds=(0, 1), classes=[0, 1]). Keyword arguments other than the estimator's own (bounds, categories,
    classes, on_missing_domain, random_state, n_jobs) are the algorithm's registry parameters; see the
    per-algorithm classes (e.g. DiPriMeClassifier) for their documentation."""

    def __init__(self, algorithm="dipreme", *, classes=None, **kwargs):
        self.classes = classes
        super().__init__(algorithm, **kwargs)


class Regressor(_Generic, _RegressorBase):
    """Any registry algorithm as a regressor: Regressor(algorithm="dipreme", epsilon=1.0, strict=True,
    bounds=(0, 1), target_bounds=(0, 1)). Other keyword arguments are the algorithm's registry parameters."""

    def __init__(self, algorithm="dipreme", *, target_bounds=None, **kwargs):
        self.target_bounds = target_bounds
        super().__init__(algorithm, **kwargs)
