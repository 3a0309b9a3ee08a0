"""``phiops run --plan`` shows what the inference passes did: the fused steps with their
kernels, the constants and batch norms folded, the buffers and the peak memory; with
FLAGS_inference_passes empty, the unpassed plan."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MODEL = Path(__file__).resolve().parents[2] / "data" / "saved_models" / "cnn_static"


def _plan(env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "phiops",
            "run",
            str(MODEL / "model"),
            "--input",
            str(MODEL / "input.npy"),
            "--plan",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_plan_prints_the_passes_work() -> None:
    out = _plan()
    assert (
        "passes: layout_choice, dead_code_elimination, constant_folding, batch_norm_folding" in out
    )
    assert "batch norms folded: 1" in out
    assert "fused steps: 2" in out
    fused = [line for line in out.splitlines() if " us  pd_op.conv2d" in line]
    assert len(fused) == 1 and "[folded]" in fused[0] and "relu_kernel" in fused[0]
    assert "conv2d_kernel" in fused[0]
    assert "constants folded (" in out and "peak memory " in out and "buffers: " in out


def test_plan_without_passes_says_so() -> None:
    out = _plan({"FLAGS_inference_passes": ""})
    assert "passes: none (FLAGS_inference_passes is empty)" in out
    assert "batch norms folded" not in out
    assert any(" us  pd_op.batch_norm_" in line for line in out.splitlines())
