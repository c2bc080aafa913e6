"""dpforest: differentially private random forests from the dpforest C++ registry, as scikit-learn
estimators.

    import dpforest
    clf = dpforest.DiPriMeClassifier(epsilon=1.0, bounds=(0, 1), classes=[0, 1], random_state=0)
    clf.fit(X, y).predict(X); clf.privacy_status_, clf.epsilon_spent_, clf.ledger_
    dpforest.save(clf, "model.json"); dpforest.load("model.json")

Every algorithm of the registry is a class (see ALGORITHMS); Classifier(algorithm=...) and
Regressor(algorithm=...) take the name instead. Private estimators default to their epsilon-DP
variant. run_experiment runs a YAML config, audit runs the statistical privacy audit, load_dataset
reads a registry dataset with its public schema. See docs/python.md.
"""
import os as _os

from . import _core

# datasets/ and configs/ are found in the dpforest checkout this module was built from (pip installs
# build it there), unless DPFOREST_ROOT names another one.
if "DPFOREST_ROOT" not in _os.environ and _os.path.isdir(_os.path.join(_core.source_root(), "datasets")):
    _os.environ["DPFOREST_ROOT"] = _core.source_root()

from ._estimators import PrivacyLeakWarning, PrivacyWarning  # noqa: E402
from ._generic import Classifier, Regressor  # noqa: E402
from ._persist import load, save  # noqa: E402
from ._registry import build_classes, class_name  # noqa: E402
from ._run import audit, load_dataset, run_experiment  # noqa: E402

_classes = build_classes()
globals().update(_classes)
# name -> {"classification": cls, "regression": cls}
ALGORITHMS = {}
for _info in _core.algorithms():
    ALGORITHMS[_info["name"]] = {t: _classes[class_name(_info["name"], t)] for t in _info["tasks"]}
# The private estimators (an epsilon parameter): their defaults are epsilon-DP.
PRIVATE = sorted(name for name, info in ((i["name"], i) for i in _core.algorithms()) if info["private"])

__all__ = ["Classifier", "Regressor", "PrivacyWarning", "PrivacyLeakWarning", "ALGORITHMS", "PRIVATE",
           "run_experiment", "audit", "load_dataset", "algorithms", "save", "load"] + sorted(_classes)


def algorithms():
    """The registry table: name, summary, tasks, parameter schema, quirks, private."""
    return _core.algorithms()
