import os
import textwrap

import numpy as np

import dpforest


def test_run_experiment_returns_the_results_table(tmp_path):
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(textwrap.dedent("""\
        paper: dipreme
        experiment: python-tiny
        title: binding smoke test
        kind: table
        seed: 1
        protocol: {type: holdout, test_fraction: 0.5, repetitions: 2}
        datasets:
          - {id: banknote, domains: registry}
        algorithms:
          - {name: dipreme, params: {epsilon: [1.0], n_trees: 2, strict: true}}
        """))
    table, report = dpforest.run_experiment(cfg, results=tmp_path / "results", threads=2)
    assert report["failed"] == 0 and report["cells"] == 1
    assert table["algorithm"].tolist() == ["dipreme", "dipreme"]
    assert table["accuracy"].dtype == np.float64 and np.all((table["accuracy"] >= 0) & (table["accuracy"] <= 1))
    assert np.all(table["epsilon_spent"] <= 1.0 + 1e-9)
    # a rerun skips the finished cell and returns the same table
    again, rep2 = dpforest.run_experiment(cfg, results=tmp_path / "results", threads=2)
    assert rep2["already_done"] == 1 and again["accuracy"].tolist() == table["accuracy"].tolist()


def test_audit_returns_bound_claim_and_verdict():
    r = dpforest.audit("dipreme", {"epsilon": 1.0, "strict": True, "n_trees": 1, "max_depth": 1},
                       pairs="median-move", samples=2000, alpha=0.05, seed=1, threads=2)
    assert r["epsilon_claimed"] == 1.0
    assert r["verdict"] in ("passes", "flagged") and r["epsilon_lb"] >= 0
    assert r["privacy_status"] == "epsilon-DP"
    assert r["delta_lb"] is None and r["delta_claimed"] is None  # a pure-epsilon claim


def test_audit_bounds_delta_for_an_epsilon_delta_algorithm():
    # Lumberjack's as-coded n <= 2 suppression splits D''s root (count 3) but never D's (count 2).
    q = {"epsilon": 1.0, "delta": 0.1, "n_trees": 1, "max_depth": 1}
    ok = dpforest.audit("lumberjack", q, pairs="count-two-three", samples=4000, alpha=1e-5, seed=1, threads=2,
                        resolution=1e9)
    assert ok["privacy_status"] == "(epsilon, delta)-DP"
    assert ok["delta_claimed"] == 0.1 and ok["epsilon_claimed"] == 1.0
    assert 0 <= ok["delta_lb"] <= 0.1 and ok["verdict"] == "passes"
    bad = dpforest.audit("lumberjack", dict(q, reference_quirks="as_coded_suppression"), pairs="count-two-three",
                         samples=4000, alpha=1e-5, seed=1, threads=2, resolution=1e9)
    assert bad["delta_lb"] > 0.1 and bad["verdict"] == "flagged"
