"""`Executor.run` verifies a program when it plans it (once per program and feed signature, and
again after the program gains or loses ops): a hand-built or edited program that the verifier
refuses is an `InvalidArgumentError` naming the op, never a wrong result or a `KeyError`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.ir import parse_program
from phiops.runtime.ir.core import Operation
from phiops.runtime.ir.types import DenseTensorType
from phiops.runtime.static.executor import Executor
from phiops.runtime.static.scope import Scope

DATA = Path(__file__).resolve().parents[1] / "data" / "ir"
F32 = DenseTensorType((2, 3), "f32")
TEXT = """{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%2) = "pd_op.subtract" (%0, %1) {stop_gradient:[true]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
}"""
X = np.arange(6, dtype=np.float32).reshape(2, 3)
Y = np.ones((2, 3), np.float32)


def test_a_valid_program_runs_as_before() -> None:
    program = parse_program(TEXT)
    (out,) = Executor().run(program, {"x": X, "y": Y}, [program.block.ops[2].results[0]], Scope())
    np.testing.assert_array_equal(out, X - Y)


def test_a_hand_built_subtract_with_three_operands_is_refused() -> None:
    program = parse_program(TEXT)
    x, y = program.block.ops[0].results[0], program.block.ops[1].results[0]
    bad = program.block.append(Operation("pd_op.subtract", [x, x, y], [F32]))
    with pytest.raises(InvalidArgumentError) as caught:
        Executor().run(program, {"x": X, "y": Y}, [bad.results[0]], Scope())
    assert str(caught.value) == (
        "Executor.run(): the program does not verify: op 3 'pd_op.subtract': "
        "'pd_op.subtract' takes 2 operand(s) (x, y), got 3"
    )


def test_an_op_added_after_a_run_is_verified_on_the_next_run() -> None:
    program = parse_program(TEXT)
    executor = Executor()
    x, y = program.block.ops[0].results[0], program.block.ops[1].results[0]
    executor.run(program, {"x": X, "y": Y}, [program.block.ops[2].results[0]], Scope())
    bad = program.block.append(Operation("pd_op.subtract", [x], [F32, F32]))
    with pytest.raises(
        InvalidArgumentError, match=r"op 3 'pd_op.subtract': 'pd_op.subtract' takes"
    ):
        executor.run(program, {"x": X, "y": Y}, [bad.results[0]], Scope())


def test_a_hand_built_op_with_a_result_too_many_is_refused() -> None:
    program = parse_program(TEXT)
    x, y = program.block.ops[0].results[0], program.block.ops[1].results[0]
    bad = program.block.append(Operation("pd_op.subtract", [x, y], [F32, F32]))
    with pytest.raises(
        InvalidArgumentError, match=r"op 3 'pd_op.subtract': 'pd_op.subtract' has 1 result\(s\)"
    ):
        Executor().run(program, {"x": X, "y": Y}, [bad.results[0]], Scope())


def test_a_use_before_definition_is_refused() -> None:
    program = parse_program(TEXT)
    x = program.block.ops[0].results[0]
    later = Operation("pd_op.relu", [x], [F32])
    early = Operation("pd_op.exp", [later.results[0]], [F32])
    program.block.insert(2, early)
    program.block.append(later)
    with pytest.raises(
        InvalidArgumentError, match=r"op 2 'pd_op.exp': operand 0 is used before its definition"
    ):
        Executor().run(program, {"x": X, "y": Y}, [early.results[0]], Scope())


def test_a_region_op_reading_its_parents_own_result_is_a_located_error() -> None:
    program = parse_program((DATA / "18_cond.txt").read_text())
    if_op = next(op for op in program.block.ops if op.name == "pd_op.if")
    inner = if_op.regions[0].blocks[0].ops[0]
    inner.operands[0] = if_op.results[0]
    with pytest.raises(
        InvalidArgumentError,
        match=r"op 5 'pd_op.if', region 0, op 0 'pd_op.exp': operand 0 reads result 0 of its "
        r"enclosing 'pd_op.if'",
    ):
        Executor().run(program, {"x": X}, [if_op.results[0]], Scope())
