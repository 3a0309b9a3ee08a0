"""Legacy programs carrying LoDTensorArrays (``write_to_array``, ``read_from_array``,
``lod_array_length``, ``tensor_array_to_tensor``; an array carried by a ``while``), recorded
from PaddlePaddle 3.3.1 by tests/tools/make_tarray_legacy_fixtures.py: translated to the text
PaddlePaddle's ``translate_to_pir`` prints, and run with its outputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as phi

DATA = Path(__file__).resolve().parents[1] / "data" / "tarray"
MODELS = ["legacy_write_read", "legacy_while_write"]


@pytest.mark.parametrize("name", MODELS)
def test_translation_prints_what_paddlepaddle_prints(name: str) -> None:
    program = phi.ir.translate_to_pir(DATA / name / "model.pdmodel")
    assert str(program) == (DATA / name / "translated.txt").read_text()


# the extents tensor_array_to_tensor's OutIndex holds, which PaddlePaddle 3.3.1 fetches as None
# from these programs (its outputs.npz leaves it out): items of 2 rows each
OUT_INDEX = {"legacy_write_read": 3, "legacy_while_write": 1}


def _run(name: str) -> list[np.ndarray]:
    exe = phi.static.Executor()
    program, feed_names, fetch_targets = phi.static.load_inference_model(
        str(DATA / name / "model"), exe
    )
    inputs = np.load(DATA / name / "inputs.npz")
    return exe.run(program, {n: inputs[n] for n in feed_names}, fetch_targets)


@pytest.mark.parametrize("name", MODELS)
def test_a_legacy_array_program_runs_with_paddlepaddles_outputs(name: str) -> None:
    outputs = _run(name)
    expected = np.load(DATA / name / "outputs.npz")
    assert len(outputs) == len(expected.files) + 1
    for position, got in enumerate(outputs):
        if position == OUT_INDEX[name]:
            continue
        want = expected[f"out{position}"]
        assert got.dtype == want.dtype and got.shape == want.shape, f"output {position}"
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=f"output {position}")


@pytest.mark.parametrize("name", MODELS)
def test_the_out_index_holds_each_items_extent(name: str) -> None:
    got = _run(name)[OUT_INDEX[name]]
    rows = 3 if name == "legacy_while_write" else 2
    assert got.dtype == np.int32 and got.tolist() == [2] * rows


@pytest.mark.parametrize("name", MODELS)
def test_phiops_compat_covers_every_op(name: str) -> None:
    import io

    from phiops.runtime.compat.__main__ import report_model

    out = io.StringIO()
    covered, total = report_model(str(DATA / name / "model.pdmodel"), out)
    assert covered == total, out.getvalue()
    assert "pd_op.array_to_tensor -> executor step on a TensorArray" in out.getvalue()
