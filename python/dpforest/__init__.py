"""dpforest: differentially private random forests from the dpforest C++ registry, as scikit-learn
estimators.

    import dpforest
    clf = dpforest.DiPriMeClassifier(epsilon=1.0, strict=True, bounds=(0, 1), classes=[0, 1], random_state=0)
    clf.fit(X, y).predict(X); clf.privacy_status_, clf.epsilon_spent_, clf.ledger_

Every algorithm of the registry is a class (see ALGORITHMS); Classifier(algorithm=...) and
Regressor(algorithm=...) take the name instead. run_experiment runs a YAML config, audit runs the
statistical privacy audit, load_dataset reads a registry dataset with its public schema.
"""
import os as _os

from . import _core

# datasets/ and configs/ are found from the source tree this module was built from, unless set.
_os.environ.setdefault("DPFOREST_ROOT", _core.source_root())

from ._estimators import Classifier, PrivacyLeakWarning, Regressor, build_classes, class_name  # noqa: E402
from ._run import audit, load_dataset, run_experiment  # noqa: E402

_classes = build_classes()
globals().update(_classes)
# name -> {"classification": cls, "regression": cls}
ALGORITHMS = {}
for _info in _core.algorithms():
    ALGORITHMS[_info["name"]] = {t: _classes[class_name(_info["name"], t)] for t in _info["tasks"]}

__all__ = ["Classifier", "Regressor", "PrivacyLeakWarning", "ALGORITHMS", "run_experiment", "audit",
           "load_dataset", "algorithms"] + sorted(_classes)


def algorithms():
    """The registry table: name, summary, tasks, parameter schema, quirks, private."""
    return _core.algorithms()
