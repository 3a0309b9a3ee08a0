"""The bugs of issue 26 and those the model zoo found, each on the committed zoo model that shows
it (PaddlePaddle 3.3.1's ``paddle.jit.save`` wrote these programs, in PIR and in legacy mode)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.ir.types import DenseTensorType, VectorType

ZOO = Path(__file__).resolve().parents[1] / "data" / "zoo"


def _ops(name: str, op_name: str) -> list:
    program = paddle.ir.translate_to_pir(ZOO / name / "legacy" / "model.pdmodel")
    return [op for op in program.block.ops if op.name == op_name]


def test_split_gives_a_vector_that_builtin_slice_reads_where_each_piece_is_used() -> None:
    # ShuffleNet's channel split: `split` writes split_0.tmp_0 and split_0.tmp_1, and a conv
    # reads the second first ("reads variable 'split_0.tmp_1' before any op writes it")
    program = paddle.ir.translate_to_pir(ZOO / "shufflenet_v2_x0_25" / "legacy" / "model.pdmodel")
    split = next(op for op in program.block.ops if op.name == "pd_op.split")
    assert isinstance(split.results[0].type, VectorType)
    assert len(split.results[0].type.types) == 2
    slices = [
        op
        for op in program.block.ops
        if op.name == "builtin.slice" and op.operands[0] is split.results[0]
    ]
    assert sorted(op.attributes["index"].value for op in slices) == [0, 1]


def test_batch_norm_saved_statistics_have_the_channel_extent() -> None:
    # jit.save in legacy mode leaves SavedMean/SavedVariance dims unset (read as 0-D)
    for op in _ops("shufflenet_v2_x0_25", "pd_op.batch_norm_"):
        channels = op.operands[1].type.dims
        for result in op.results[3:5]:
            assert isinstance(result.type, DenseTensorType) and result.type.dims == channels


def test_range_becomes_arange_of_its_outputs_dtype() -> None:
    (arange,) = _ops("bert_encoder", "pd_op.arange")
    assert arange.attributes["dtype"].value == "int64"


def test_rnn_reads_an_empty_uint8_dropout_state_as_paddlepaddle_translates_it() -> None:
    # the legacy rnn op writes DropoutState but has no input for it ("input 'x' is missing"
    # before ops/op_compat.yaml had rnn's names)
    program = paddle.ir.translate_to_pir(ZOO / "lstm_classifier" / "legacy" / "model.pdmodel")
    (rnn,) = [op for op in program.block.ops if op.name == "pd_op.rnn"]
    state = rnn.operands[4]
    assert state.type == DenseTensorType((0,), "u8")
    assert state.owner.name == "pd_op.full"


def test_tril_triu_becomes_triu_when_lower_is_false() -> None:
    # the GPT decoder's causal mask: paddle.triu, written by PaddlePaddle 2.x as tril_triu
    (triu,) = _ops("gpt_decoder", "pd_op.triu")
    assert triu.attributes["diagonal"].value == 1
    assert not _ops("gpt_decoder", "pd_op.tril")


def _run(name: str, form: str) -> tuple[list, dict, list[str]]:
    folder = ZOO / name
    exe = paddle.static.Executor()
    program, feed_names, fetch_targets = paddle.static.load_inference_model(
        str(folder / form / "model"), exe
    )
    feeds = dict(np.load(folder / "inputs_1.npz"))
    outputs = exe.run(program, feed={n: feeds[n] for n in feed_names}, fetch_list=fetch_targets)
    expected = np.load(folder / f"outputs_{form}_1.npz")
    return outputs, expected, [op.name for op in program.block.ops]


def _assert_close(outputs: list, expected: dict) -> None:
    for i, out in enumerate(outputs):
        want = expected[f"out{i}"]
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4 * float(np.abs(want).max()))


@pytest.mark.parametrize("form", ["pir", "legacy"])
def test_rnn_with_unknown_batch_and_length_leaves_its_dropout_state_unchecked(form: str) -> None:
    # planned when it runs (batch and length unknown): the dropout state, a view target the
    # files declare f32 0-D, was checked there ("computed uint8 [0], but the program declares
    # tensor<f32>") though the planned path leaves it unchecked
    outputs, expected, names = _run("lstm_classifier", form)
    assert "pd_op.rnn" in names
    _assert_close(outputs, expected)


@pytest.mark.parametrize("form", ["pir", "legacy"])
def test_dropout_downgrade_in_infer_scales_at_inference(form: str) -> None:
    # PP-LCNet's head: nn.Dropout(mode="downscale_in_infer"), saved as mode downgrade_in_infer
    outputs, expected, names = _run("pplcnet", form)
    assert "pd_op.dropout" in names
    _assert_close(outputs, expected)


def test_dynamic_shape_program_with_shape64_and_full_with_tensor_runs() -> None:
    # the GPT decoder's causal mask: paddle.full([seq_len, seq_len]) of paddle.shape's extent
    outputs, expected, names = _run("gpt_decoder", "pir")
    assert {"pd_op.shape64", "pd_op.full_with_tensor"} <= set(names)
    _assert_close(outputs, expected)
