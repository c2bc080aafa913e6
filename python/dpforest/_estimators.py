"""scikit-learn estimators over the dpforest registry.

Everything algorithmic happens in C++ (dpforest._core): this module checks and converts the
inputs (array shapes, label and category encoding, the public domains the caller declares), passes
the registry parameters as text, and exposes what the fit reports (privacy status, ledger).
"""
import json
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from . import _core, _input

DP_LABELS = ("epsilon-DP", "(epsilon, delta)-DP")


class PrivacyWarning(UserWarning):
    """A private algorithm was fitted in a configuration that is not differentially private."""


class PrivacyLeakWarning(PrivacyWarning):
    """A public domain was not given and was derived from the training data (not private)."""


# Attributes that depend on the training rows beyond the release (the ledger's spent epsilon can
# depend on how deep the trees grew): a pickle or a saved file leaves them out.
FIT_ONLY = ("epsilon_spent_", "epsilon_spent_conservative_", "delta_spent_", "ledger_", "ledger_certified_")


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

    def _bins(self):
        return getattr(self, "bins", None) if "bins" not in self._param_names else None

    # -- public domains -------------------------------------------------------------------
    def _missing(self, what):
        policy = self.on_missing_domain
        if policy not in ("error", "warn"):
            raise ValueError(f"on_missing_domain must be 'error' or 'warn', got {policy!r}")
        msg = (f"{what} not given: deriving it from the training data leaks the data's extremes or the classes "
               f"present and is NOT differentially private (the privacy guarantee no longer holds)")
        if policy == "error":
            raise ValueError(msg + "; pass it explicitly (public knowledge), or on_missing_domain='warn' to accept the leak")
        warnings.warn(msg, PrivacyLeakWarning, stacklevel=4)
        self._leaks.append(what)

    def _numeric_domains(self, names, cat_values):
        n_features = len(names)
        numeric = [f for f in range(n_features) if cat_values[f] is None]
        lo, hi = [0.0] * n_features, [0.0] * n_features
        b = self.bounds
        if b is None:
            if numeric:
                self._missing(f"bounds= (public domains of numeric features {numeric})")
                return lo, hi, True
            return lo, hi, False
        if isinstance(b, dict):
            per = {_input.feature_index(k, names, "bounds"): v for k, v in b.items()}
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
        return lo, hi, False

    # -- fit ------------------------------------------------------------------------------
    def _prepare_X(self, X):
        """Checks the shape, records the feature names, encodes categories -> (float64 X, names, values)."""
        if self.categories is None:
            Xf = self._as_float(X, None, None, reset=True)
            return Xf, _input.feature_names(X, Xf.shape[1]), [None] * Xf.shape[1]
        shape = np.shape(X)
        if len(shape) != 2:
            raise ValueError(f"Expected 2D array, got {len(shape)}D array instead: X must be (n_samples, n_features)")
        names = _input.feature_names(X, shape[1])
        cat_values = _input.category_lists(self.categories, names)
        return self._as_float(X, names, cat_values, reset=True), names, cat_values

    def _as_float(self, X, names, cat_values, reset):
        """X as float64 through scikit-learn's checks; categorical features as codes of their values.
        A float64 array without categorical features reaches the core without a copy."""
        if cat_values is not None and any(v is not None for v in cat_values):
            self._check_feature_names(X, reset=reset)
            self._check_n_features(X, reset=reset)
            X = _input.encode(X, names, cat_values)
            return check_array(X, dtype=np.float64, force_all_finite=False)
        try:
            return self._validate_data(X, reset=reset, dtype=np.float64, force_all_finite=False)
        except ValueError as e:
            if "could not convert" in str(e):
                raise ValueError(f"{e}: declare text-valued features in categories= (their public category values)") from e
            raise

    def _fit(self, X, y_encoded, classes, target_lo, target_hi, target_from_data):
        Xf, names, cat_values = X
        lo, hi, from_data = self._numeric_domains(names, cat_values)
        cats = [[] if v is None else [_input.category_name(c) for c in v] for v in cat_values]
        params = {k: _param_text(k, v) for k, v in self._registry_params().items() if v is not None}
        bins = self._bins()
        model = _core.fit(self._algorithm_name(), params, Xf, np.asarray(y_encoded, dtype=np.float64), names, cats, lo,
                          hi, from_data, self._task, [_input.category_name(c) for c in classes], target_lo, target_hi,
                          target_from_data, _seed(self.random_state), _threads(self.n_jobs), int(bins or 0))
        status = model.privacy_status
        if self._leaks and model.is_private:
            status = ("published, not epsilon-DP: domains derived from the training data (" + "; ".join(self._leaks)
                      + ") and the registry's status was: " + status)
        elif model.is_private and status not in DP_LABELS:
            warnings.warn(self._not_dp_message(status), PrivacyWarning, stacklevel=3)
        self._set_model(model, cat_values, status)
        spent = model.spent()
        self.epsilon_spent_ = spent["epsilon"]
        self.epsilon_spent_conservative_ = spent["epsilon_conservative"]
        self.delta_spent_ = spent["delta"]
        self.ledger_certified_ = spent["certified"]
        self.ledger_ = model.ledger()
        return self

    def _not_dp_message(self, status):
        reason = status.split(": ", 1)[1] if ": " in status else status
        strict = self._registry_params().get("strict")
        hint = (" The epsilon-DP variant is strict=True." if strict is False and self._strict_default() else
                " This algorithm has no epsilon-DP variant." if strict is False else "")
        return (f"{type(self).__name__} (algorithm '{self._algorithm_name()}', strict={strict}) is not differentially "
                f"private: {reason}.{hint}")

    def _strict_default(self):
        return self._python_defaults().get("strict") is True

    def _set_model(self, model, cat_values, status):
        """The fitted state every model has, fresh or loaded: what the release and the schema give."""
        self.model_ = model
        self._category_values = cat_values
        self.privacy_status_ = status
        self.params_ = model.params()
        self.epsilon_apriori_ = model.epsilon_apriori if model.is_private else 0.0
        self.delta_apriori_ = model.delta_apriori if model.is_private else 0.0
        self.domains_ = model.schema()

    # -- predict --------------------------------------------------------------------------
    def _check_X(self, X):
        check_is_fitted(self, "model_")
        Xf = self._as_float(X, self.domains_["feature_names"], self._category_values, reset=False)
        if self.clip:
            d = self.domains_
            Xf = _input.clip_numeric(Xf, d["kinds"], d["lo"], d["hi"])
        return Xf

    def _predict(self, X):
        Xf = self._check_X(X)  # first: an unfitted estimator raises NotFittedError
        out = self.model_.predict(Xf)
        # matrix-rf's prediction methods release noisy votes in predict(): that release is what spent
        # the budget, and the model reports it as a result row does.
        extra = self.model_.extra_columns()
        if "epsilon_spent" in extra and self.model_.has_ledger:
            self.epsilon_spent_ = float(extra["epsilon_spent"])
            self.epsilon_spent_conservative_ = float(extra["epsilon_spent_conservative"])
            self.ledger_certified_ = extra["ledger_certified"] == "true"
            self.ledger_ = self.model_.release_ledger()
        return out

    def describe(self):
        """The fitted model as `dpforest describe` prints it (dict)."""
        check_is_fitted(self, "model_")
        return json.loads(self.model_.describe("python"))

    # -- persistence (dpforest/_persist.py) -----------------------------------------------
    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: object.__getstate__ returns the live __dict__
        if "model_" in state:
            state["model_"] = self.model_.save()  # the release as the saved-file text, or a clear refusal
            for k in FIT_ONLY:
                state.pop(k, None)
        return state

    def __setstate__(self, state):
        if isinstance(state.get("model_"), str):
            state = dict(state)
            state["model_"] = _core.load_model(state["model_"], "pickle")
            for k in FIT_ONLY:
                state[k] = None
        super().__setstate__(state)

    def _more_tags(self):
        return {"allow_nan": False, "requires_y": True, "non_deterministic": False}


class _ClassifierBase(ClassifierMixin, _DPForestBase):
    _task = "classification"

    def fit(self, X, y):
        """Fit on X (n_samples, n_features) and labels y; classes come from `classes=` (public)."""
        self._leaks = []
        Xp = self._prepare_X(X)
        y = column_or_1d(y, warn=True)
        if y.dtype.kind in "fc":
            check_classification_targets(y)  # a continuous target is not a set of labels
        if len(y) != Xp[0].shape[0]:
            raise ValueError(f"Found input variables with inconsistent numbers of samples: [{Xp[0].shape[0]}, {len(y)}]")
        if self.classes is not None:
            classes = [_input.plain(c) for c in self.classes]
            if len(set(classes)) != len(classes):
                raise ValueError(f"classes {classes} lists a class twice")
        else:
            self._missing("classes= (the public class list)")
            classes = [_input.plain(c) for c in _input._unique(y)[0]]
            if len(classes) < 2:
                raise ValueError(f"Classifier can't train when only one class is present: {classes}")
        y_idx = _input.encode_labels(y, classes)
        self.classes_ = _input.label_array(classes)
        return self._fit(Xp, y_idx, classes, 0.0, 1.0, False)

    def predict(self, X):
        labels, _ = self._predict(X)
        return self.classes_[labels]

    def predict_proba(self, X):
        """The forest's class scores, normalised to sum to 1 per row."""
        _, scores = self._predict(X)
        total = scores.sum(axis=1, keepdims=True)
        uniform = np.full_like(scores, 1.0 / scores.shape[1])
        return np.where(total > 0, scores / np.where(total > 0, total, 1.0), uniform)


class _RegressorBase(RegressorMixin, _DPForestBase):
    _task = "regression"

    def fit(self, X, y):
        """Fit on X (n_samples, n_features) and targets y within the public `target_bounds=`."""
        self._leaks = []
        Xp = self._prepare_X(X)
        y = column_or_1d(y, warn=True)
        try:
            y = y.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError("y must hold numbers for a regressor") from None
        if len(y) != Xp[0].shape[0]:
            raise ValueError(f"Found input variables with inconsistent numbers of samples: [{Xp[0].shape[0]}, {len(y)}]")
        if self.target_bounds is None:
            self._missing("target_bounds= (the public range of y)")
            return self._fit(Xp, y, [], 0.0, 0.0, True)
        lo, hi = self.target_bounds
        return self._fit(Xp, y, [], float(lo), float(hi), False)

    def predict(self, X):
        values, _ = self._predict(X)
        return values
