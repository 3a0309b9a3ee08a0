"""``phiops run``: a saved model PaddlePaddle 3.3.1 wrote, run from the command
line on PaddlePaddle's input, prints PaddlePaddle's output summary; ``--plan`` lists the kernels
chosen ahead of time; bad arguments are one line naming what was wrong, exit status 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

MODELS = Path(__file__).resolve().parents[1] / "data" / "saved_models"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "phiops", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("model", ["cnn_jit", "transformer_static"])
def test_run_prints_paddles_output_summary(model: str) -> None:
    folder = MODELS / model
    result = cli("run", str(folder / "model"), "--input", f"x={folder / 'input.npy'}")
    assert result.returncode == 0, result.stderr
    expected = np.load(folder / "output.npy").astype(np.float64)
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"model: {folder / 'model'} (")
    summary = lines[1]
    assert summary.startswith(f"fetch_name_0: shape {list(expected.shape)} float32  min ")
    words = summary.split()
    got = {
        words[i]: float(words[i + 1])
        for i in range(len(words) - 1)
        if words[i] in ("min", "max", "mean")
    }
    np.testing.assert_allclose(
        [got["min"], got["max"], got["mean"]],
        [expected.min(), expected.max(), expected.mean()],
        rtol=2e-5,
        atol=2e-5,
    )


def test_plan_lists_each_kernel_and_repeat_times_runs() -> None:
    folder = MODELS / "cnn_static"
    result = cli(
        "run",
        str(folder / "model"),
        "--input",
        str(folder / "input.npy"),
        "--plan",
        "--repeat",
        "3",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "3 runs: min " in out and " ms, median " in out
    steps = [
        line for line in out.splitlines() if line.strip()[:1].isdigit() and " us  pd_op." in line
    ]
    kernels = {line.split("  ")[-1].split(" [")[0] for line in steps}
    assert "phiops.runtime.kernels.impl.conv_kernel.conv2d_kernel" in kernels
    assert "phiops.runtime.kernels.impl.matmul_kernel.matmul_kernel" in kernels
    assert any("pd_op.batch_norm_" in line for line in steps)
    assert f"plan ({len(steps)} steps):" in out
    assert out.rstrip().splitlines()[-1].startswith("total ")


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["nowhere/model", "--input", "a.npy"],
            "load_inference_model: no model file nowhere/model.json",
        ),
        (
            ["{m}", "--input", "y=a.npy"],
            "--input y=a.npy: the model has no input 'y'; its inputs are ['x']",
        ),
        (["{m}"], "missing input(s) ['x']: give each with --input NAME=FILE.npy"),
        (["{m}", "--input", "x=missing.npy"], "--input x=missing.npy: no such file: missing.npy"),
        (["{m}", "--input", "{m}.json"], "is not a .npy array"),
        (["{m}", "--input", "{i}", "--repeat", "0"], "--repeat must be at least 1, got 0"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_1(args: list[str], message: str) -> None:
    model = str(MODELS / "cnn_jit" / "model")
    given = [
        a.replace("{m}", model).replace("{i}", str(MODELS / "cnn_jit" / "input.npy")) for a in args
    ]
    result = cli("run", *given)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("phiops run: ")
    assert message.replace("{m}", model) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
