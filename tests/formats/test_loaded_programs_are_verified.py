"""A program read from a `.json` file or a saved model is verified before anything runs it: an op
with operands or results its definition does not have, an operand of the wrong kind, a value used
outside the block that defines it or an op reading its enclosing op's own result is an
`InvalidArgumentError` naming the file, the op and what is wrong."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.formats.pir_json import load_program_json
from phiops.runtime.static.executor import Executor
from phiops.runtime.static.io import load_inference_model
from phiops.runtime.static.scope import Scope

DATA = Path(__file__).resolve().parents[1] / "data"
ELEMENTWISE = DATA / "ir" / "01_elementwise_broadcast.json"
COND = DATA / "ir" / "18_cond.json"
MODEL = DATA / "saved_models" / "cnn_jit"


def _ops(data: dict) -> list[dict]:
    return data["program"]["regions"][0]["blocks"][0]["ops"]


def _op(data: dict, name: str) -> dict:
    return next(op for op in _ops(data) if op["#"] == name)


def _write(tmp_path: Path, data: dict, name: str = "model.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _f32(dims: list[int]) -> dict:
    return {"#": "0.t_dtensor", "D": [{"#": "0.t_f32"}, dims, "NCHW", [], 0]}


def test_a_subtract_with_three_operands_is_refused_at_load(tmp_path: Path) -> None:
    data = json.loads(ELEMENTWISE.read_text())
    subtract = _op(data, "1.subtract")
    subtract["I"] = [subtract["I"][0], subtract["I"][0], subtract["I"][1]]
    path = _write(tmp_path, data)
    with pytest.raises(InvalidArgumentError) as caught:
        load_program_json(path)
    assert str(caught.value) == (
        f"{path}: op 4 'pd_op.subtract': 'pd_op.subtract' takes 2 operand(s) (x, y), got 3"
    )


def test_an_op_with_a_result_too_many_is_refused_at_load(tmp_path: Path) -> None:
    data = json.loads(ELEMENTWISE.read_text())
    subtract = _op(data, "1.subtract")
    subtract["O"].append({"%": 100, "TT": _f32([2, 3, 4])})
    with pytest.raises(
        InvalidArgumentError,
        match=r"op 4 'pd_op.subtract': 'pd_op.subtract' has 1 result\(s\) \(out\), got 2",
    ):
        load_program_json(_write(tmp_path, data))


def test_a_vector_given_to_a_tensor_operand_is_refused_at_load(tmp_path: Path) -> None:
    data = json.loads(ELEMENTWISE.read_text())
    ops = _ops(data)
    combine = {
        "#": "0.combine",
        "A": [],
        "I": [{"%": 1}, {"%": 1}],
        "O": [{"%": 100, "TT": {"#": "0.t_vec", "D": [_f32([2, 3, 4]), _f32([2, 3, 4])]}}],
    }
    position = ops.index(_op(data, "1.subtract"))
    ops.insert(position, combine)
    ops[position + 1]["I"][1] = {"%": 100}
    with pytest.raises(
        InvalidArgumentError,
        match=r"op 5 'pd_op.subtract': operand 'y' of 'pd_op.subtract' must be a tensor, "
        r"got vec\[tensor<2x3x4xf32>,tensor<2x3x4xf32>\]",
    ):
        load_program_json(_write(tmp_path, data))


def test_a_tensor_given_to_a_vector_operand_is_refused_at_load(tmp_path: Path) -> None:
    data = json.loads(ELEMENTWISE.read_text())
    _op(data, "1.subtract")["#"] = "1.add_n"
    _op(data, "1.add_n")["I"] = [{"%": 1}]
    with pytest.raises(
        InvalidArgumentError,
        match=r"op 4 'pd_op.add_n': operand 'inputs' of 'pd_op.add_n' must be a vec\[\.\.\.\] "
        r"of tensors, got tensor<2x3x4xf32>",
    ):
        load_program_json(_write(tmp_path, data))


def test_a_region_op_reading_its_parents_own_result_is_refused_at_load(tmp_path: Path) -> None:
    data = json.loads(COND.read_text())
    if_op = _op(data, "1.if")
    inner = if_op["regions"][0]["blocks"][0]["ops"][0]
    inner["I"] = [{"%": if_op["O"][0]["%"]}]
    with pytest.raises(
        InvalidArgumentError,
        match=r"op 5 'pd_op.if', region 0, op 0 'pd_op.exp': operand 0 reads result 0 of its "
        r"enclosing 'pd_op.if'",
    ):
        load_program_json(_write(tmp_path, data))


def test_a_value_of_a_region_used_after_it_is_refused_at_load(tmp_path: Path) -> None:
    data = json.loads(COND.read_text())
    if_op = _op(data, "1.if")
    inner = if_op["regions"][0]["blocks"][0]["ops"][0]
    _ops(data).append(
        {
            "#": "1.relu",
            "A": [],
            "I": [{"%": inner["O"][0]["%"]}],
            "O": [{"%": 100, "TT": _f32([2, 3])}],
        }
    )
    with pytest.raises(
        InvalidArgumentError,
        match=r"op 6 'pd_op.relu': operand 0 is not visible here: it is defined in another block",
    ):
        load_program_json(_write(tmp_path, data))


def test_load_inference_model_refuses_a_program_that_does_not_verify(tmp_path: Path) -> None:
    shutil.copy(MODEL / "model.pdiparams", tmp_path / "model.pdiparams")
    data = json.loads((MODEL / "model.json").read_text())
    relu = _op(data, "1.relu")
    relu["I"] = relu["I"] * 2
    _write(tmp_path, data)
    with pytest.raises(
        InvalidArgumentError, match=r"model.json: op \d+ 'pd_op.relu': 'pd_op.relu' takes 1 operand"
    ):
        load_inference_model(tmp_path / "model", Executor(), scope=Scope())


def test_a_valid_saved_model_still_loads_and_runs() -> None:
    scope = Scope()
    program, feed_names, fetch_targets = load_inference_model(
        MODEL / "model", Executor(), scope=scope
    )
    feed = np.load(MODEL / "input.npy")
    (out,) = Executor().run(program, {feed_names[0]: feed}, fetch_targets, scope=scope)
    np.testing.assert_allclose(out, np.load(MODEL / "output.npy"), rtol=1e-5, atol=1e-5)
