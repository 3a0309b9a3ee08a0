"""A quantized legacy program (the fake_* ops of a PaddleSlim quantization-aware-training export,
under their legacy names and parameter names X, InScale, OutScale...), saved and run by
PaddlePaddle 3.3.1 (tests/tools/make_quant24_legacy_fixtures.py): it loads into phiops's
Executor and gives PaddlePaddle's outputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import phiops.generated as phi
from phiops.runtime.static.scope import Scope

DATA = Path(__file__).resolve().parents[1] / "data" / "quant24" / "legacy" / "qat"


def test_a_quantized_legacy_program_runs_with_paddlepaddles_outputs() -> None:
    assert (DATA / "ops.txt").read_text().split()[1:8] == [
        "fake_quantize_dequantize_moving_average_abs_max",
        "fake_channel_wise_quantize_dequantize_abs_max",
        "matmul_v2",
        "fake_quantize_range_abs_max",
        "fake_quantize_abs_max",
        "fake_dequantize_max_abs",
        "fake_channel_wise_dequantize_max_abs",
    ]
    scope = Scope()
    exe = phi.static.Executor()
    program, feed_names, fetch_targets = phi.static.load_inference_model(
        DATA / "model", exe, scope=scope
    )
    inputs = np.load(DATA / "inputs.npz")
    outputs = exe.run(
        program, feed={n: inputs[n] for n in feed_names}, fetch_list=fetch_targets, scope=scope
    )
    expected = np.load(DATA / "outputs.npz")
    assert len(outputs) == len(expected.files) == 5
    for index, output in enumerate(outputs):
        reference = expected[f"out{index}"]
        assert output.dtype == reference.dtype and output.shape == reference.shape, index
        np.testing.assert_allclose(output, reference, rtol=1.2e-7, atol=0, err_msg=str(index))
