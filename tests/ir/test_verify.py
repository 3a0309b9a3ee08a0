"""`verify` on programs whose ops break their definitions, and the parser calling it: a region op
reading its enclosing op's own result is an error at that operand's line and column."""

from __future__ import annotations

import pytest

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir import IRParseError, Program, parse_program, verify
from phiops.runtime.ir.core import Operation
from phiops.runtime.ir.types import DenseTensorType, VectorType
from phiops.runtime.ir.verify import ProgramVerifyError

F32 = DenseTensorType((2,), "f32")
FULL = (
    '    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],'
    "stop_gradient:[true],value:1} : () -> tensor<2xf32>"
)


def _program_with_x() -> tuple[Program, Operation]:
    program = parse_program("{\n" + FULL + "\n}\n")
    return program, program.block.ops[0]


def test_a_region_op_reading_its_own_result_in_text_is_located_at_the_operand() -> None:
    text = (
        "{\n"
        + FULL
        + "\n"
        + '    (%1) = "pd_op.relu" (%0) {} : (tensor<2xf32>) -> tensor<2xf32> {\n'
        + '        (%2) = "pd_op.exp" (%1) {} : (tensor<2xf32>) -> tensor<2xf32>\n'
        + "    }\n}\n"
    )
    with pytest.raises(IRParseError) as caught:
        parse_program(text, "cond.txt")
    error = caught.value
    assert (error.line, error.col) == (4, 29)
    assert error.message == (
        "op 1 'pd_op.relu', region 0, op 0 'pd_op.exp': operand 0 reads result 0 of its "
        "enclosing 'pd_op.relu', which that op's own regions cannot use (it is defined when "
        "they have run)"
    )


def test_unregistered_ops_are_still_checked_for_dominance() -> None:
    text = (
        "{\n"
        + FULL
        + "\n"
        + '    (%1) = "foo.bar" (%0) {} : (tensor<2xf32>) -> tensor<2xf32> {\n'
        + '        (%2) = "foo.baz" (%1) {} : (tensor<2xf32>) -> tensor<2xf32>\n'
        + "    }\n}\n"
    )
    with pytest.raises(IRParseError, match="reads result 0 of its enclosing 'foo.bar'"):
        parse_program(text, allow_unregistered=True)


def test_verify_refuses_an_extra_operand() -> None:
    program, full = _program_with_x()
    x = full.results[0]
    program.block.append(Operation("pd_op.subtract", [x, x, x], [F32]))
    with pytest.raises(ProgramVerifyError) as caught:
        verify(program)
    assert str(caught.value) == (
        "op 1 'pd_op.subtract': 'pd_op.subtract' takes 2 operand(s) (x, y), got 3"
    )
    assert caught.value.operand == 2 and caught.value.op is program.block.ops[1]
    assert isinstance(caught.value, InvalidArgumentError)


def test_verify_refuses_a_missing_result() -> None:
    program, full = _program_with_x()
    program.block.append(Operation("pd_op.relu", [full.results[0]], []))
    with pytest.raises(
        ProgramVerifyError,
        match=r"op 1 'pd_op.relu': 'pd_op.relu' has 1 result\(s\) \(out\), got 0",
    ):
        verify(program)


def test_verify_refuses_a_tensor_where_a_vector_result_is_defined() -> None:
    program, full = _program_with_x()
    x = full.results[0]
    vec = program.block.append(Operation("builtin.combine", [x, x], [VectorType((F32, F32))]))
    program.block.append(Operation("pd_op.meshgrid", [vec.results[0]], [F32]))
    with pytest.raises(
        ProgramVerifyError,
        match=r"op 2 'pd_op.meshgrid': result 'out' of 'pd_op.meshgrid' must be a vec",
    ):
        verify(program)


def test_verify_names_the_op_id_when_it_has_one() -> None:
    program, full = _program_with_x()
    program.block.append(Operation("pd_op.relu", [full.results[0], None], [F32], id=42))
    with pytest.raises(ProgramVerifyError, match=r"^op 1 'pd_op.relu' \[id:42\]: "):
        verify(program)


def test_a_value_defined_in_a_region_is_not_visible_after_it() -> None:
    program, full = _program_with_x()
    x = full.results[0]
    outer = program.block.append(Operation("foo.region", [x], [F32], num_regions=1))
    inner = outer.regions[0].add_block().append(Operation("pd_op.exp", [x], [F32]))
    program.block.append(Operation("pd_op.relu", [inner.results[0]], [F32]))
    with pytest.raises(
        ProgramVerifyError, match=r"op 2 'pd_op.relu': operand 0 is not visible here"
    ):
        verify(program, allow_unregistered=True)


def test_a_valid_program_verifies() -> None:
    program, full = _program_with_x()
    x = full.results[0]
    program.block.append(Operation("pd_op.subtract", [x, x], [F32]))
    verify(program)
