"""Legacy models saved by PaddlePaddle 3.3.1 (tests/tools/make_legacy_fixtures.py) run in phiops
with PaddlePaddle's outputs, translate to PaddlePaddle's PIR text, and are fully covered by the
argument-mapping report."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.compat.__main__ import main as compat_main
from phiops.runtime.formats.framework_proto import (
    ATTR_TYPES,
    VAR_TYPES,
    ProgramDesc as ProgramDescProto,
)
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.formats.pdmodel import parse_program_desc
from phiops.runtime.formats.pdmodel import translate_to_pir as translate_program_desc
from phiops.runtime.static.scope import Scope

DATA = Path(__file__).resolve().parents[1] / "data" / "legacy"
FIXTURES = sorted(p.name for p in DATA.iterdir() if (p / "model.pdmodel").is_file())


def test_every_fixture_the_issue_names_is_there() -> None:
    assert FIXTURES == sorted(
        [
            "assign_out_increment",
            "assorted",
            "cnn",
            "common_ops",
            "cond_0d_predicate",
            "cond_in_while",
            "cond_nested_outputs",
            "expand_v2",
            "fc_in_cond",
            "fill_constant_shape_tensor_list",
            "fill_constant_value_tensor",
            "lookup_table_v2",
            "mlp",
            "reshape_shape_tensor",
            "scale_tensor",
            "slice_tensor",
            "switch_case",
            "while_accumulate",
            "while_grows",
        ]
    )


@pytest.mark.parametrize("name", FIXTURES)
def test_translate_to_pir_prints_what_paddlepaddle_prints(name: str) -> None:
    program = phi.ir.translate_to_pir(DATA / name / "model.pdmodel")
    assert str(program) == (DATA / name / "translated.txt").read_text()


@pytest.mark.parametrize("name", FIXTURES)
def test_a_legacy_model_runs_with_paddlepaddles_outputs(name: str) -> None:
    scope = Scope()
    exe = phi.static.Executor()
    program, feed_names, fetch_targets = phi.static.load_inference_model(
        DATA / name / "model", exe, scope=scope
    )
    inputs = np.load(DATA / name / "inputs.npz")
    assert sorted(feed_names) == sorted(inputs.files)
    outputs = exe.run(
        program, feed={n: inputs[n] for n in feed_names}, fetch_list=fetch_targets, scope=scope
    )
    expected = np.load(DATA / name / "outputs.npz")
    assert len(outputs) == len(expected.files)
    for index, output in enumerate(outputs):
        reference = expected[f"out{index}"]
        assert output.dtype == reference.dtype and output.shape == reference.shape
        np.testing.assert_allclose(output, reference, rtol=1e-5, atol=1e-6)


def _run_fixture(name: str, **changed: np.ndarray) -> list[np.ndarray]:
    exe = phi.static.Executor()
    program, feed_names, fetch_targets = phi.static.load_inference_model(
        DATA / name / "model", exe, scope={}
    )
    inputs = dict(np.load(DATA / name / "inputs.npz"))
    inputs.update(changed)
    return exe.run(program, feed={n: inputs[n] for n in feed_names}, fetch_list=fetch_targets)


def test_a_legacy_cond_takes_the_branch_its_predicate_names() -> None:
    x = np.load(DATA / "cond_nested_outputs" / "inputs.npz")["x"]
    a, b, c = _run_fixture("cond_nested_outputs", pred=np.array([False]))
    np.testing.assert_allclose(a, -x, rtol=1e-6)
    assert b.shape == x.shape and not b.any()
    assert c.tolist() == [2.0]
    inputs = np.load(DATA / "cond_0d_predicate" / "inputs.npz")
    (product,) = _run_fixture("cond_0d_predicate", pred=np.array(True))
    np.testing.assert_allclose(product, inputs["x"] * inputs["y"], rtol=1e-6)


@pytest.mark.parametrize("index, factor", [(0, 2.0), (1, 3.0), (7, -1.0)])
def test_a_legacy_switch_case_takes_the_branch_its_index_names(index: int, factor: float) -> None:
    x = np.load(DATA / "switch_case" / "inputs.npz")["x"]
    (out,) = _run_fixture("switch_case", index=np.array([index], "int64"))
    np.testing.assert_allclose(out, factor * x, rtol=1e-6)


def test_the_feed_names_come_in_col_order() -> None:
    _, feed_names, _ = phi.static.load_inference_model(
        DATA / "slice_tensor" / "model", None, scope={}
    )
    assert feed_names == ["x", "starts", "ends"]


def test_the_report_covers_every_op_of_every_fixture() -> None:
    out = io.StringIO()
    status = compat_main([str(DATA / name / "model.pdmodel") for name in FIXTURES], out)
    text = out.getvalue()
    totals = [line for line in text.splitlines() if line.startswith("covered:")]
    assert len(totals) == len(FIXTURES)
    for line in totals:
        covered, total = line.split()[1].split("/")
        assert covered == total, text
    assert status == 0
    assert "conv2d: KernelSignature(" in text and "-> kernel conv2d (CPU" in text
    assert "mul: no mapping function" in text and "translated by its own rule" in text


def _single_op_model(op_type: str, tmp_path: Path) -> Path:
    message = ProgramDescProto()
    block = message.blocks.add(idx=0, parent_idx=-1)
    for name in ("x", "y"):
        var = block.vars.add(name=name)
        var.type.type = VAR_TYPES["DENSE_TENSOR"]
        var.type.dense_tensor.tensor.data_type = VAR_TYPES["FP32"]
        var.type.dense_tensor.tensor.dims.extend([2, 3])
    op = block.ops.add(type=op_type)
    op.inputs.add(parameter="X", arguments=["x"])
    op.outputs.add(parameter="Out", arguments=["y"])
    op.attrs.add(name="axis", type=ATTR_TYPES["INT"], i=-1)
    path = tmp_path / "model.pdmodel"
    path.write_bytes(message.SerializeToString())
    return path


def test_the_report_names_the_nearest_known_op_for_an_unknown_one(tmp_path: Path) -> None:
    out = io.StringIO()
    status = compat_main([str(_single_op_model("elementwise_adds", tmp_path))], out)
    text = out.getvalue()
    assert "nearest known legacy op is 'elementwise_add'" in text
    assert "covered: 0/1 ops" in text
    assert status == 1


def test_translating_an_unknown_op_names_the_nearest_known_one(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="nearest known legacy op is 'elementwise_add'"):
        translate_program_desc(_single_op_model("elementwise_adds", tmp_path))


def test_the_report_says_when_a_file_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdmodel"
    path.write_bytes(b"\xff\xff\xff")
    out = io.StringIO()
    assert compat_main([str(path)], out) == 2
    assert "junk.pdmodel: cannot be read" in out.getvalue()


def _add_op(block, op_type: str, inputs: dict, outputs: dict, sub_block: int | None = None):
    op = block.ops.add(type=op_type)
    for parameter, names in inputs.items():
        op.inputs.add(parameter=parameter, arguments=names)
    for parameter, names in outputs.items():
        op.outputs.add(parameter=parameter, arguments=names)
    if sub_block is not None:
        op.attrs.add(name="sub_block", type=ATTR_TYPES["BLOCK"], block_idx=sub_block)
    return op


def _loop_model(inner_op: str, nested: bool = False) -> bytes:
    """fill_constant -> `c` (bool [1]); while(c) whose body (block 1) runs ``inner_op`` on `c`
    (with ``nested``: in a conditional_block on `c`, block 2, inside the body), then assigns
    `c` its own value."""
    message = ProgramDescProto()
    block = message.blocks.add(idx=0, parent_idx=-1)
    var = block.vars.add(name="c")
    var.type.type = VAR_TYPES["DENSE_TENSOR"]
    var.type.dense_tensor.tensor.data_type = VAR_TYPES["BOOL"]
    var.type.dense_tensor.tensor.dims.extend([1])
    fill = _add_op(block, "fill_constant", {}, {"Out": ["c"]})
    fill.attrs.add(name="shape", type=ATTR_TYPES["LONGS"], longs=[1])
    fill.attrs.add(name="dtype", type=ATTR_TYPES["INT"], i=VAR_TYPES["BOOL"])
    fill.attrs.add(name="value", type=ATTR_TYPES["FLOAT"], f=0.0)
    _add_op(block, "while", {"Condition": ["c"], "X": ["c"]}, {"Out": ["c"]}, sub_block=1)
    body = message.blocks.add(idx=1, parent_idx=0)
    inner = body
    if nested:
        _add_op(body, "conditional_block", {"Cond": ["c"], "Input": []}, {"Out": []}, 2)
        inner = message.blocks.add(idx=2, parent_idx=1)
    _add_op(inner, inner_op, {"X": ["c"]}, {"Out": ["c"]})
    _add_op(body, "assign", {"X": ["c"]}, {"Out": ["c"]})
    return message.SerializeToString()


@pytest.mark.parametrize("nested", [False, True])
def test_an_untranslatable_op_of_a_sub_block_is_named_with_its_block(nested: bool) -> None:
    desc = parse_program_desc(_loop_model("frobnicate", nested), "loop.pdmodel")
    block = 2 if nested else 1
    with pytest.raises(
        UnimplementedError,
        match=rf"^loop\.pdmodel: legacy op 'frobnicate' \(op 0 of block {block}\) is not "
        r"translated: .*nearest known legacy op",
    ):
        translate_program_desc(desc)


def test_the_report_names_the_sub_block_op_that_stops_a_loop(tmp_path: Path) -> None:
    path = tmp_path / "loop.pdmodel"
    path.write_bytes(_loop_model("frobnicate", nested=True))
    out = io.StringIO()
    assert compat_main([str(path)], out) == 1
    text = out.getvalue()
    assert "5 legacy ops in 3 blocks" in text
    assert "[1] while: " in text
    assert "legacy op 'frobnicate' (op 0 of block 2) is not translated" in text
    assert "covered: 1/5 ops" in text


def test_the_report_lists_the_ops_of_sub_blocks() -> None:
    out = io.StringIO()
    assert compat_main([str(DATA / "cond_in_while" / "model.pdmodel")], out) == 0
    text = out.getvalue()
    assert "23 legacy ops in 4 blocks" in text and "covered: 23/23 ops" in text
    assert "[block 2 op 0] elementwise_add: KernelSignature(" in text
    assert "pd_op.scale (for pd_op.increment_) -> kernel scale" in text
    assert "pd_op.assign (for pd_op.assign_out_) -> kernel assign" in text


def test_an_op_with_another_kind_of_sub_block_is_unimplemented() -> None:
    message = ProgramDescProto()
    block = message.blocks.add(idx=0, parent_idx=-1)
    _add_op(block, "recurrent", {}, {}, sub_block=1)
    message.blocks.add(idx=1, parent_idx=0)
    desc = parse_program_desc(message.SerializeToString(), "rnn.pdmodel")
    with pytest.raises(
        UnimplementedError,
        match=r"rnn\.pdmodel: op 0 \('recurrent'\): legacy op 'recurrent' holds a sub-block "
        r"\(attribute 'sub_block'\); of the ops with sub-blocks only conditional_block and while",
    ):
        translate_program_desc(desc)


def test_a_loop_without_its_condition_is_refused() -> None:
    message = ProgramDescProto()
    block = message.blocks.add(idx=0, parent_idx=-1)
    _add_op(block, "while", {}, {}, sub_block=1)
    message.blocks.add(idx=1, parent_idx=0)
    desc = parse_program_desc(message.SerializeToString(), "loop.pdmodel")
    with pytest.raises(
        InvalidArgumentError,
        match=r"legacy op 'while' takes one variable as input 'Condition', got \[\]",
    ):
        translate_program_desc(desc)


def test_translate_to_pir_rejects_what_is_not_a_desc() -> None:
    with pytest.raises(InvalidArgumentError, match="expected a ProgramDesc .* got int"):
        phi.ir.translate_to_pir(3)


def _fill_from_int_value(tmp_path: Path) -> Path:
    """feed `value` (int32 [1]) -> fill_constant(ValueTensor=value, shape [2, 2], float32) ->
    fetch: the value's dtype is not the op's."""
    message = ProgramDescProto()
    block = message.blocks.add(idx=0, parent_idx=-1)
    for name, kind in (("feed", "FEED_MINIBATCH"), ("fetch", "FETCH_LIST")):
        var = block.vars.add(name=name, persistable=True)
        var.type.type = VAR_TYPES[kind]
    for name, dtype, dims in (("value", "INT32", [1]), ("out", "FP32", [2, 2])):
        var = block.vars.add(name=name)
        var.type.type = VAR_TYPES["DENSE_TENSOR"]
        var.type.dense_tensor.tensor.data_type = VAR_TYPES[dtype]
        var.type.dense_tensor.tensor.dims.extend(dims)
    feed = block.ops.add(type="feed")
    feed.inputs.add(parameter="X", arguments=["feed"])
    feed.outputs.add(parameter="Out", arguments=["value"])
    feed.attrs.add(name="col", type=ATTR_TYPES["INT"], i=0)
    fill = block.ops.add(type="fill_constant")
    fill.inputs.add(parameter="ValueTensor", arguments=["value"])
    fill.outputs.add(parameter="Out", arguments=["out"])
    fill.attrs.add(name="shape", type=ATTR_TYPES["LONGS"], longs=[2, 2])
    fill.attrs.add(name="dtype", type=ATTR_TYPES["INT"], i=VAR_TYPES["FP32"])
    fill.attrs.add(name="value", type=ATTR_TYPES["FLOAT"], f=0.0)
    fetch = block.ops.add(type="fetch")
    fetch.inputs.add(parameter="X", arguments=["out"])
    fetch.outputs.add(parameter="Out", arguments=["fetch"])
    fetch.attrs.add(name="col", type=ATTR_TYPES["INT"], i=0)
    (tmp_path / "model.pdmodel").write_bytes(message.SerializeToString())
    return tmp_path / "model"


def test_full_with_tensor_casts_a_value_of_another_dtype(tmp_path: Path) -> None:
    prefix = _fill_from_int_value(tmp_path)
    text = str(phi.ir.translate_to_pir(f"{prefix}.pdmodel"))
    assert '"pd_op.full_with_tensor" (%0, %1) {dtype:float32' in text
    exe = phi.static.Executor()
    program, feed_names, fetch_targets = phi.static.load_inference_model(prefix, exe, scope={})
    assert [op.name for op in program.block.ops if op.name.startswith("pd_op.")] == [
        "pd_op.feed",
        "pd_op.full_int_array",
        "pd_op.cast",
        "pd_op.expand",
        "pd_op.fetch",
    ]
    (out,) = exe.run(program, feed={"value": np.array([7], "int32")}, fetch_list=fetch_targets)
    assert out.dtype == np.float32 and out.tolist() == [[7.0, 7.0], [7.0, 7.0]]


def _cast_model(tmp_path: Path) -> Path:
    """feed `x` (float32 [2, 3]) -> cast(in_dtype FP32, out_dtype INT32) -> fetch, as
    PaddlePaddle 3.3.1 saves `paddle.cast(x, "int32")` in legacy mode."""
    message = ProgramDescProto()
    block = message.blocks.add(idx=0, parent_idx=-1)
    for name, kind in (("feed", "FEED_MINIBATCH"), ("fetch", "FETCH_LIST")):
        var = block.vars.add(name=name, persistable=True)
        var.type.type = VAR_TYPES[kind]
    for name, dtype in (("x", "FP32"), ("y", "INT32")):
        var = block.vars.add(name=name)
        var.type.type = VAR_TYPES["DENSE_TENSOR"]
        var.type.dense_tensor.tensor.data_type = VAR_TYPES[dtype]
        var.type.dense_tensor.tensor.dims.extend([2, 3])
    feed = block.ops.add(type="feed")
    feed.inputs.add(parameter="X", arguments=["feed"])
    feed.outputs.add(parameter="Out", arguments=["x"])
    feed.attrs.add(name="col", type=ATTR_TYPES["INT"], i=0)
    cast = block.ops.add(type="cast")
    cast.inputs.add(parameter="X", arguments=["x"])
    cast.outputs.add(parameter="Out", arguments=["y"])
    cast.attrs.add(name="in_dtype", type=ATTR_TYPES["INT"], i=VAR_TYPES["FP32"])
    cast.attrs.add(name="out_dtype", type=ATTR_TYPES["INT"], i=VAR_TYPES["INT32"])
    fetch = block.ops.add(type="fetch")
    fetch.inputs.add(parameter="X", arguments=["y"])
    fetch.outputs.add(parameter="Out", arguments=["fetch"])
    fetch.attrs.add(name="col", type=ATTR_TYPES["INT"], i=0)
    (tmp_path / "model.pdmodel").write_bytes(message.SerializeToString())
    return tmp_path / "model"


def test_a_legacy_cast_takes_its_dtype_from_out_dtype(tmp_path: Path) -> None:
    prefix = _cast_model(tmp_path)
    assert '"pd_op.cast" (%0) {dtype:int32' in str(phi.ir.translate_to_pir(f"{prefix}.pdmodel"))
    exe = phi.static.Executor()
    program, _, fetch_targets = phi.static.load_inference_model(prefix, exe, scope={})
    x = np.array([[1.3, -2.7, 3.5], [0.2, 9.9, -0.4]], "float32")
    (out,) = exe.run(program, feed={"x": x}, fetch_list=fetch_targets)
    # PaddlePaddle 3.3.1 (legacy executor) gives [[1, -2, 3], [0, 9, 0]] for this model
    assert out.dtype == np.int32 and out.tolist() == [[1, -2, 3], [0, 9, 0]]
