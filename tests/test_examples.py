"""The examples run and do what they say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run_example(name: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(REPO / "examples" / name), *args],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_quickstart_shows_results_and_a_clear_error() -> None:
    output = run_example("quickstart.py")
    assert "--- sum of int32 gives int64, as in PaddlePaddle\nphi.int64" in output
    assert (
        "add(): argument 'y' with dims [4, 3] cannot be broadcast with argument 'x' with dims [2, 3]"
        in output
    )


def test_train_mlp_reaches_95_percent_on_digits() -> None:
    pytest.importorskip("sklearn", reason="the examples extra (scikit-learn) is not installed")
    output = run_example("train_mlp.py")
    lines = output.strip().splitlines()
    losses = [float(line.split()[-1]) for line in lines if line.startswith("epoch")]
    assert len(losses) == 40 and losses[-1] < losses[0] / 5
    accuracy = float(lines[-1].split()[2])
    assert accuracy >= 0.95, output


def test_train_cnn_reaches_97_percent_on_digits() -> None:
    pytest.importorskip("sklearn", reason="the examples extra (scikit-learn) is not installed")
    output = run_example("train_cnn.py", "--epochs", "6", "--batch-size", "64")
    lines = output.strip().splitlines()
    losses = [float(line.split()[-1]) for line in lines if line.startswith("epoch")]
    assert len(losses) == 6 and losses[-1] < losses[0] / 3
    accuracy = float(lines[-1].split()[2])
    assert accuracy >= 0.97, output


def import_example(name: str):
    """An example as a module (examples/ on sys.path, as when it runs as a script)."""
    import importlib

    sys.path.insert(0, str(REPO / "examples"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(REPO / "examples"))


def test_train_static_losses_equal_eager_losses() -> None:
    pytest.importorskip("sklearn", reason="the examples extra (scikit-learn) is not installed")
    import numpy as np

    import phiops.generated as phi

    train_mlp = import_example("train_mlp")
    train_static = import_example("train_static")
    split = train_mlp.load_digits_split(3)
    phi.seed(3)
    rng = np.random.default_rng(3)
    model = train_mlp.MLP(split[0].shape[1], 16, 10)
    optimizer = phi.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    eager = train_mlp.train(model, optimizer, split[0], split[2], rng, 3, 32, max_steps=4)
    try:
        static_model, rng, split = train_static.setup(16, 0.01, 3)
        static = train_static.train(static_model, split[0], split[2], rng, 3, 32, max_steps=4)
    finally:
        phi.disable_static()
    assert eager[-1] < eager[0]
    np.testing.assert_allclose(static, eager, rtol=1e-5)


def test_train_static_reaches_97_percent_on_digits() -> None:
    pytest.importorskip("sklearn", reason="the examples extra (scikit-learn) is not installed")
    train_static = import_example("train_static")
    assert train_static.main([]) >= 0.97
