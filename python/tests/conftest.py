import os
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def cli():
    """The dpforest executable built with this module (ctest sets DPFOREST_CLI)."""
    path = os.environ.get("DPFOREST_CLI", os.path.join(ROOT, "build", "dpforest"))
    if not os.path.exists(path):
        pytest.skip(f"dpforest CLI not found at {path}")
    return path


def run_cli(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True, cwd=ROOT).stdout


@pytest.fixture(scope="session")
def binary_data():
    """A small binary problem in [0, 1]^3."""
    rng = np.random.RandomState(0)
    X = rng.uniform(0, 1, size=(200, 3))
    y = (X[:, 0] + 0.2 * X[:, 1] > 0.6).astype(int)
    return X, y
