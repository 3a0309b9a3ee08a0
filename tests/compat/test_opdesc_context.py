"""OpDescContext: what a mapping function reads of a legacy OpDesc."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiops.runtime.compat import argument_mapping
from phiops.runtime.compat.opdesc_context import OpDescContext
from phiops.runtime.formats.pdmodel import read_program_desc
from phiops.runtime.errors import NotFoundError

DATA = Path(__file__).resolve().parents[1] / "data" / "legacy"


def _context(model: str, op_type: str) -> OpDescContext:
    desc = read_program_desc(DATA / model / "model.pdmodel")
    block = desc.global_block
    op = next(op for op in block.ops if op.type == op_type)
    return OpDescContext(op, block, desc)


def test_inputs_outputs_and_their_sizes() -> None:
    ctx = _context("cnn", "batch_norm")
    assert ctx.has_input("X") and ctx.input_size("Mean") == 1
    assert not ctx.has_input("MomentumTensor") and ctx.input_size("MomentumTensor") == 0
    assert not ctx.has_input("NoSuchInput")
    assert ctx.has_output("SavedMean") and ctx.output_size("Y") == 1
    assert not ctx.has_output("ReserveSpace")


def test_tensor_kinds_come_from_the_block_vars() -> None:
    ctx = _context("fill_constant_value_tensor", "fill_constant")
    assert ctx.is_dense_tensor_input("ValueTensor")
    assert ctx.is_dense_tensor_vector_input("ValueTensor")
    assert not ctx.is_dense_tensor_input("ShapeTensor")
    assert not ctx.is_selected_rows_input("ValueTensor")
    assert ctx.is_dense_tensor_output("Out") and not ctx.is_selected_rows_output("Out")
    assert not ctx.is_for_infer_shape()


def test_attributes() -> None:
    ctx = _context("cnn", "pool2d")
    assert ctx.has_attr("ksize") and ctx.attr("ksize") == (2, 2)
    assert not ctx.has_attr("kernel_size")
    with pytest.raises(NotFoundError, match="legacy op 'pool2d' has no attribute 'kernel_size'"):
        ctx.attr("kernel_size")


def test_a_mapping_function_reads_an_opdesc_through_it() -> None:
    ctx = _context("fill_constant_value_tensor", "fill_constant")
    signature = argument_mapping("fill_constant")(ctx)
    assert signature.name == "full" and "ValueTensor" in signature.attrs
    axis_add = argument_mapping("elementwise_add")(_context("cnn", "elementwise_add"))
    assert (axis_add.name, axis_add.attrs) == ("add_raw", ("axis",))
