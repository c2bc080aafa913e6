"""Classifier / Regressor: any registry algorithm by name, its registry parameters as keywords, with
the same defaults as the per-algorithm classes (private by default, input binning)."""
from ._estimators import _ClassifierBase, _RegressorBase
from ._registry import ESTIMATOR_ARGS, INPUT_BINS, _info, python_defaults


class _Generic:
    """Classifier/Regressor taking the algorithm by name and its registry parameters as keywords."""

    _fixed = ("algorithm", "bins") + ESTIMATOR_ARGS

    def __init__(self, algorithm="dipreme", *, bounds=None, categories=None, on_missing_domain="error", clip=False,
                 bins="auto", random_state=None, n_jobs=None, **params):
        self.algorithm = algorithm
        self.bounds = bounds
        self.categories = categories
        self.on_missing_domain = on_missing_domain
        self.clip = clip
        self.bins = bins
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

    def _python_defaults(self):
        return python_defaults(_info(self.algorithm), self._task)

    def _has_registry_bins(self):
        return any(s["name"] == "bins" for s in _info(self.algorithm)["params"])

    def _registry_params(self):
        out = {k: v for k, v in self._python_defaults().items()}
        out.update({k: getattr(self, k) for k in self._extra})
        if self._has_registry_bins() and self.bins != "auto":
            out["bins"] = self.bins  # the algorithm's own parameter of that name
        return out

    def _bins(self):
        if self._has_registry_bins():
            return None
        return INPUT_BINS.get(self.algorithm) if self.bins == "auto" else self.bins


class Classifier(_Generic, _ClassifierBase):
    """Any registry algorithm as a classifier: Classifier(algorithm="dipreme", epsilon=1.0, bounds=(0, 1),
    classes=[0, 1]). Keyword arguments other than the estimator's own (bounds, categories, classes,
    on_missing_domain, clip, bins, random_state, n_jobs) are the algorithm's registry parameters; the
    defaults are the per-algorithm class's (e.g. DiPriMeClassifier): the epsilon-DP variant, and
    bins='auto' bins numeric inputs for the algorithms that need discrete ones."""

    def __init__(self, algorithm="dipreme", *, classes=None, **kwargs):
        self.classes = classes
        super().__init__(algorithm, **kwargs)


class Regressor(_Generic, _RegressorBase):
    """Any registry algorithm as a regressor: Regressor(algorithm="dipreme", epsilon=1.0, bounds=(0, 1),
    target_bounds=(0, 1)). Other keyword arguments are the algorithm's registry parameters."""

    def __init__(self, algorithm="dipreme", *, target_bounds=None, **kwargs):
        self.target_bounds = target_bounds
        super().__init__(algorithm, **kwargs)
