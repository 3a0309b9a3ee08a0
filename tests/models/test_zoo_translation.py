"""The legacy-translation bugs the model zoo found (issue 26), each on the committed zoo model
that shows it: PaddlePaddle 3.3.1's ``paddle.jit.save`` in legacy mode writes what these
programs hold."""

from __future__ import annotations

from pathlib import Path

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
    slices = [op for op in program.block.ops if op.name == "builtin.slice" and op.operands[0] is split.results[0]]
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
