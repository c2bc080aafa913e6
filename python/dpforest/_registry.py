"""The registry as estimator classes: one per algorithm and task, its arguments and defaults read from
the C++ parameter schema (_core.algorithms()), plus what the Python layer decides on its own:

* Private by default. Where the published mechanism is not epsilon-DP and a repaired (strict) variant
  exists, the estimator's `strict` defaults to True (the C++ default stays False: configs keep the
  papers' semantics). A published, not-DP variant is an explicit choice (strict=False) and its fit
  raises a PrivacyWarning naming the reasons.
* Input the algorithm needs: DP-RF and DP-DF take binned inputs (dipreme.md §6.1: 5 equal-width bins,
  as every config runs them) and matrix-rf discrete ones (matrix-rf.md §5.1: the leaderboard's K = 4
  equal-width bins of each public domain): their estimators bin numeric features on their public
  bounds (`bins`).
* multinomial-rf-dp's strict variant needs a data-independent depth (mrf_strict.hpp repair 7): its
  estimator's max_depth defaults to 6, the leaderboard's choice (configs/benchmark/classification.yaml).
"""
import keyword

from . import _core
from ._estimators import DP_LABELS, _ClassifierBase, _RegressorBase

_TYPES = {"int": int, "number": float, "bool": bool}
_ACRONYMS = {"rf", "ert", "dp", "df", "rdf", "jpw", "fs", "rgv", "mrf", "brf", "lm", "c", "i", "ebm", "bdt"}
_WORDS = {"dipreme": "DiPriMe", "comprf": "CompRF", "privatree": "PrivaTree", "dpboost": "DPBoost"}

# Numeric features binned into this many equal-width bins of their public domain (module docstring).
INPUT_BINS = {"dp-rf": 5, "dp-df": 5, "mrf-train": 4, "mrf-predict": 4, "mrf-subsample": 4, "mrf-train-lm": 4,
              "mrf-disjoint-lm": 4, "mrf-subsample-lm": 4, "mrf-trees": 4}
# Parameters whose Python default differs from the registry's so that the default is epsilon-DP.
PRIVATE_DEFAULTS = {"multinomial-rf-dp": {"max_depth": 6}}

# Estimator-level arguments; a registry parameter may not use these names ("bins" excepted: an
# algorithm with a registry parameter `bins` keeps it, and has no input binning).
ESTIMATOR_ARGS = ("bounds", "categories", "classes", "target_bounds", "on_missing_domain", "clip", "random_state",
                  "n_jobs")


def class_name(algorithm, task):
    """dipreme -> DiPriMeClassifier, smooth-rdf -> SmoothRDFClassifier, privatree -> PrivaTreeClassifier."""
    parts = []
    for tok in algorithm.split("-"):
        parts.append(_WORDS.get(tok) or (tok.upper() if tok in _ACRONYMS else tok.capitalize()))
    return "".join(parts) + ("Classifier" if task == "classification" else "Regressor")


def py_name(name):
    """The constructor argument of a registry parameter: a Python keyword gets a trailing underscore
    (smooth-rdf's `lambda` is `lambda_`)."""
    return name + "_" if keyword.iskeyword(name) else name


def registry_default(spec):
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


def _info(algorithm):
    for info in _core.algorithms():
        if info["name"] == algorithm:
            return info
    raise ValueError(f"unknown algorithm {algorithm!r} (known: {', '.join(i['name'] for i in _core.algorithms())})")


def python_defaults(info, task):
    """Registry parameter -> the estimator's default where it differs from the registry's: strict=True
    when the registry default configuration is not DP (probed without data), and PRIVATE_DEFAULTS."""
    out = dict(PRIVATE_DEFAULTS.get(info["name"], {}))
    names = {s["name"]: s for s in info["params"]}
    if info["private"] and "strict" in names:
        probe = {k: str(v) for k, v in out.items()}
        if names.get("epsilon", {}).get("default") == "":
            probe["epsilon"] = "1"  # the status does not depend on the value of epsilon
        try:
            published = _core.privacy_status(info["name"], probe, task)
        except ValueError:  # a default configuration the registry cannot resolve without more: be strict
            published = None
        if published not in DP_LABELS:
            out["strict"] = True
    return out


def _param_doc(spec, default):
    rng = ""
    if spec["type"] in ("int", "number"):
        lo, hi = spec["min"], spec["max"]
        if lo > -1e299 or hi < 1e299:
            rng = f"; range {'(' if spec['min_exclusive'] else '['}{lo:g}, {hi:g}]"
    if spec["choices"] and spec["choices"] != ["none-defined"]:
        rng += "; one of " + ", ".join(spec["choices"])
    if default is None:
        shown = "required" if spec["type"] not in ("list", "string") else "none"
    else:
        shown = repr(default)
    return f"    {py_name(spec['name'])} : {spec['type']}, default {shown}{rng}\n        {spec['doc']}\n"


_STRICT_DOC = """    strict : bool, default True
        The repaired, epsilon-DP variant (this estimator's default; the registry's and the configs'
        default is the published mechanism, which is not epsilon-DP). strict=False fits the published
        mechanism and raises a PrivacyWarning naming why it is not private.
"""
_BINS_DOC = """    bins : int or None, default {0}
        Bin every numeric feature into this many equal-width bins of its public domain (bounds=)
        before the fit and at predict: this algorithm takes discrete inputs. None: no binning.
"""
_COMMON_DOC = """    bounds : (lo, hi), list of (lo, hi) per feature, or dict {index or name: (lo, hi)}
        PUBLIC domain of every numeric feature. Never derived from the data silently.
    categories : dict {index or name: [values]}
        Categorical features and their PUBLIC category values (numbers or text).
    on_missing_domain : 'error' (default) or 'warn'
        A missing public domain raises; with 'warn' it is derived from the training data with a
        PrivacyLeakWarning, and privacy_status_ says the fit is not differentially private.
    clip : bool, default False
        At predict, clip numeric values outside their public domain to it (post-processing of the
        input: the model and its guarantee are unchanged). False: such a value is an error.
    random_state : int, RandomState or None
        An int is the fit's master seed (the same as `dpforest describe --seed`).
    n_jobs : int or None
        Threads for tree-level parallelism (None: all cores). Results do not depend on it.
"""
_CLF_DOC = """    classes : array-like
        The PUBLIC class list (labels of y must be among them; any type).
"""
_REG_DOC = """    target_bounds : (lo, hi)
        The PUBLIC range of y.
"""
_ATTR_DOC = """
Attributes (after fit)
----------------------
privacy_status_ : str
    "epsilon-DP", "(epsilon, delta)-DP", "non-private" or "published, not epsilon-DP: <reason>".
epsilon_spent_, epsilon_spent_conservative_, delta_spent_ : float
    What the fit spent, as a result row of `dpforest run` records it (None after loading a saved model).
epsilon_apriori_, delta_apriori_ : float
    The configuration's a-priori bound.
ledger_ : list of dict
    Each mechanism's share of epsilon_spent_ (composed: sequential over levels, parallel over
    disjoint nodes): mechanism, calls, epsilon, delta, rho, certified. The shares add up to epsilon_spent_.
params_ : dict
    The resolved registry parameters (canonical text), as a result row records them.
"""


def _make_init(param_defaults, task_args):
    import inspect

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for name, default in param_defaults + task_args:
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default))
    sig = inspect.Signature(params)

    def init(self, **kwargs):
        bound = sig.bind(self, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            setattr(self, k, v)

    init.__signature__ = sig
    return init


def _make_class(info, task):
    specs = info["params"]
    names = [py_name(s["name"]) for s in specs]
    clash = set(names) & set(ESTIMATOR_ARGS)
    if clash:
        raise RuntimeError(f"registry parameter(s) {clash} of {info['name']} clash with estimator arguments")
    overrides = python_defaults(info, task)
    defaults = {py_name(s["name"]): overrides.get(s["name"], registry_default(s)) for s in specs}
    common = [("bounds", None), ("categories", None)]
    common += [("classes", None)] if task == "classification" else [("target_bounds", None)]
    bins_doc = ""
    if "bins" not in names:
        common.append(("bins", INPUT_BINS.get(info["name"])))
        bins_doc = _BINS_DOC.format(INPUT_BINS.get(info["name"]))
    common += [("on_missing_domain", "error"), ("clip", False), ("random_state", None), ("n_jobs", None)]
    base = _ClassifierBase if task == "classification" else _RegressorBase
    privacy = ("private: its defaults are the epsilon-DP variant" if info["private"] else "non-private baseline")
    doc = (f"{info['summary']}\n\nRegistry algorithm '{info['name']}' ({task}; papers: {info['papers']}); {privacy}.\n\n"
           "Parameters\n----------\n"
           + "".join(_STRICT_DOC + f"        Registry: {s['doc']}\n" if s["name"] == "strict" and overrides.get("strict")
                     else _param_doc(s, defaults[py_name(s["name"])]) for s in specs)
           + bins_doc + _COMMON_DOC + (_CLF_DOC if task == "classification" else _REG_DOC))
    if info["quirks"]:
        doc += "\nreference_quirks\n----------------\n" + "".join(f"{n}: {d}\n" for n, d in info["quirks"])
    doc += _ATTR_DOC
    ns = {"__doc__": doc, "__init__": _make_init(list(defaults.items()), common), "_algorithm": info["name"],
          "_param_names": {py_name(s["name"]): s["name"] for s in specs}, "__module__": "dpforest",
          "_python_defaults": classmethod(lambda cls, _o=overrides: dict(_o))}
    return type(class_name(info["name"], task), (base,), ns)


def build_classes():
    out = {}
    for info in _core.algorithms():
        for task in info["tasks"]:
            cls = _make_class(info, task)
            out[cls.__name__] = cls
    return out
