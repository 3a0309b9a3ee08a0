"""Writes the legacy-program fixtures under tests/data/legacy/ with PaddlePaddle 3.3.1.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_legacy_fixtures.py``.

Each model is built in PaddlePaddle's legacy static mode (``FLAGS_enable_pir_api=0`` before
``import paddle``, layers inside ``program_guard`` under ``enable_static``) and saved with
``paddle.static.save_inference_model``, which then writes a ``ProgramDesc`` protobuf
(``model.pdmodel``) and its parameters (``model.pdiparams``, absent when there are none). Each
folder also holds the feed arrays (``inputs.npz``, keyed by feed name), PaddlePaddle's outputs
for them from the loaded model (``outputs.npz``, ``out0``, ``out1``... in fetch order), the op
types of the saved desc (``ops.txt``) and ``translated.txt``: what ``paddle.pir.translate_to_pir``
prints for the desc read back from ``model.pdmodel``. The script runs itself again with
``PYTHONHASHSEED=0`` so that rerunning it rewrites the fixtures byte for byte.
"""

from __future__ import annotations

import os
import sys

# PaddlePaddle's legacy `cond` orders a conditional_block's outputs by iterating a set of
# variable names: a fixed string hash seed makes the saved programs the same on every run
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

os.environ["FLAGS_enable_pir_api"] = "0"

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "legacy"
RNG = np.random.default_rng(1212)


def _mlp():
    x = paddle.static.data("x", [-1, 4], "float32")
    h = paddle.static.nn.fc(x, 3, activation="relu")
    y = paddle.static.nn.fc(h, 2)
    return [x], [y], {"x": RNG.standard_normal((2, 4)).astype("float32")}


def _cnn():
    x = paddle.static.data("img", [-1, 2, 6, 6], "float32")
    c = paddle.static.nn.conv2d(x, num_filters=3, filter_size=3, padding=1)
    b = paddle.static.nn.batch_norm(c, act="relu")
    p = paddle.nn.functional.max_pool2d(b, kernel_size=2, stride=2)
    y = paddle.nn.functional.avg_pool2d(p, kernel_size=3)
    return [x], [y], {"img": RNG.standard_normal((2, 2, 6, 6)).astype("float32")}


def _reshape_shape_tensor():
    x = paddle.static.data("x", [-1, 6], "float32")
    shape = paddle.static.data("shape", [2], "int32")
    y = paddle.reshape(x, shape)
    return (
        [x, shape],
        [y],
        {
            "x": RNG.standard_normal((2, 6)).astype("float32"),
            "shape": np.array([3, 4], dtype="int32"),
        },
    )


def _scale_tensor():
    x = paddle.static.data("x", [-1, 3], "float32")
    factor = paddle.static.data("factor", [1], "float32")
    y = paddle.scale(x, scale=factor, bias=0.5)
    return (
        [x, factor],
        [y],
        {
            "x": RNG.standard_normal((2, 3)).astype("float32"),
            "factor": np.array([2.5], dtype="float32"),
        },
    )


def _fill_value_tensor():
    x = paddle.static.data("x", [-1, 3], "float32")
    value = paddle.static.data("value", [1], "float32")
    full = paddle.full([2, 3], value, "float32")
    y = paddle.add(x, full)
    return (
        [x, value],
        [y],
        {
            "x": RNG.standard_normal((2, 3)).astype("float32"),
            "value": np.array([1.5], dtype="float32"),
        },
    )


def _expand():
    x = paddle.static.data("x", [1, 3], "float32")
    y = paddle.expand(x, [4, 3])
    return [x], [y], {"x": RNG.standard_normal((1, 3)).astype("float32")}


def _embedding():
    ids = paddle.static.data("ids", [-1, 3], "int64")
    y = paddle.static.nn.embedding(ids, size=[10, 4])
    return [ids], [y], {"ids": RNG.integers(0, 10, (2, 3)).astype("int64")}


def _slice_tensor():
    x = paddle.static.data("x", [4, 5], "float32")
    starts = paddle.static.data("starts", [2], "int64")
    ends = paddle.static.data("ends", [2], "int64")
    y = paddle.slice(x, axes=[0, 1], starts=starts, ends=ends)
    return (
        [x, starts, ends],
        [y],
        {
            "x": RNG.standard_normal((4, 5)).astype("float32"),
            "starts": np.array([1, 0], dtype="int64"),
            "ends": np.array([3, 4], dtype="int64"),
        },
    )


def _append_op(op_type: str, inputs: dict, output: str = "Out", **attrs):
    """One legacy op appended as PaddlePaddle's layers do (``paddle.matmul``, ``gelu``, ``tanh``,
    ``sum``... fail in legacy static mode in 3.3.1: they call the PIR API)."""
    helper = paddle.base.layer_helper.LayerHelper(op_type)
    out = helper.create_variable_for_type_inference("float32")
    inputs = {name: value if isinstance(value, list) else [value] for name, value in inputs.items()}
    helper.append_op(type=op_type, inputs=inputs, outputs={output: [out]}, attrs=attrs)
    return out


def _common_ops():
    """Sixteen more op types of common models, two fetch targets."""
    x = paddle.static.data("x", [-1, 2, 4], "float32")
    a = paddle.flatten(x, 1)
    b = paddle.nn.functional.dropout(a, 0.5, training=False)
    c = paddle.concat([a, b], axis=1)
    d = paddle.squeeze(paddle.unsqueeze(c, [1]), [1])
    e = paddle.static.nn.layer_norm(_append_op("gelu", {"X": d}, approximate=False))
    f = paddle.mean(e, axis=1, keepdim=True)
    g = _append_op("sigmoid", {"X": _append_op("tanh", {"X": f})})
    h = _append_op(
        "reduce_sum", {"X": _append_op("exp", {"X": e})}, dim=[-1], keep_dim=False, reduce_all=False
    )
    i = paddle.transpose(_append_op("stack", {"X": [h, h]}, "Y", axis=0), [1, 0])
    j = _append_op("clip", {"X": i}, min=-1.0, max=1.0)
    k = _append_op("hard_swish", {"X": j}, threshold=6.0, scale=6.0, offset=3.0)
    return [x], [g, k], {"x": RNG.standard_normal((2, 2, 4)).astype("float32")}


def _assorted():
    """Scalars and IntArrays given as attributes, a plain fill_constant, matmul_v2, softmax,
    transpose2."""
    x = paddle.static.data("x", [-1, 6], "float32")
    a = paddle.scale(x, scale=2.0, bias=1.0)
    b = paddle.reshape(a, [-1, 2, 3])
    c = paddle.slice(b, axes=[1], starts=[0], ends=[1])
    d = paddle.add(c, paddle.full([1, 1, 3], 1.5, "float32"))
    w = paddle.static.create_parameter([3, 4], "float32", name="w")
    e = _append_op("matmul_v2", {"X": paddle.nn.functional.relu(d), "Y": w}, trans_x=False)
    y = paddle.nn.functional.softmax(paddle.transpose(e, [0, 2, 1]), axis=1)
    return [x], [y], {"x": RNG.standard_normal((2, 6)).astype("float32")}


def _fill_shape_tensor_list():
    """fill_constant whose shape is a list of extent tensors (ShapeTensorList)."""
    x = paddle.static.data("x", [-1, 3], "float32")
    n = paddle.static.data("n", [1], "int64")
    m = paddle.static.data("m", [1], "int64")
    y = paddle.add(x, paddle.full([n, m], 1.5, "float32"))
    return (
        [x, n, m],
        [y],
        {
            "x": RNG.standard_normal((2, 3)).astype("float32"),
            "n": np.array([2], dtype="int64"),
            "m": np.array([3], dtype="int64"),
        },
    )


def _legacy_logical_not(x, name=None):
    """``paddle.logical_not`` as a legacy op: ``paddle.static.nn.cond`` calls it for the false
    branch's condition, and in 3.3.1 it calls the PIR API even in legacy static mode."""
    helper = paddle.base.layer_helper.LayerHelper("logical_not")
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="logical_not", inputs={"X": [x]}, outputs={"Out": [out]})
    return out


def _cond_nested_outputs():
    """``cond`` on a fed bool [1] predicate (true here), each branch returning a nest of three
    values: conditional_block, logical_not, conditional_block, cast, select_input."""
    x = paddle.static.data("x", [-1, 3], "float32")
    pred = paddle.static.data("pred", [1], "bool")

    def true_fn():
        return paddle.scale(x, 2.0), (paddle.add(x, x), paddle.full([1], 1.0, "float32"))

    def false_fn():
        return paddle.scale(x, -1.0), (paddle.subtract(x, x), paddle.full([1], 2.0, "float32"))

    a, (b, c) = paddle.static.nn.cond(pred, true_fn, false_fn)
    return (
        [x, pred],
        [a, b, c],
        {"x": RNG.standard_normal((2, 3)).astype("float32"), "pred": np.array([True])},
    )


def _cond_0d_predicate():
    """``cond`` on a fed 0-D bool predicate (false here), the branches reading a second feed."""
    x = paddle.static.data("x", [2, 3], "float32")
    y = paddle.static.data("y", [2, 3], "float32")
    pred = paddle.static.data("pred", [], "bool")
    out = paddle.static.nn.cond(
        pred,
        lambda: _append_op("elementwise_mul", {"X": x, "Y": y}, axis=-1),
        lambda: paddle.add(x, y),
    )
    return (
        [x, y, pred],
        [out],
        {
            "x": RNG.standard_normal((2, 3)).astype("float32"),
            "y": RNG.standard_normal((2, 3)).astype("float32"),
            "pred": np.array(False),
        },
    )


def _while_accumulate():
    """``while_loop`` with an int64 counter (increment) and a float accumulator: while,
    less_than, increment, elementwise_add and the assigns of the next values."""
    x = paddle.static.data("x", [2, 3], "float32")
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")
    acc = paddle.zeros([2, 3], "float32")
    i, acc = paddle.static.nn.while_loop(
        lambda i, acc: paddle.less_than(i, n),
        lambda i, acc: [paddle.increment(i), paddle.add(acc, x)],
        [i, acc],
    )
    return [x], [i, acc], {"x": RNG.standard_normal((2, 3)).astype("float32")}


def _cond_in_while():
    """A ``cond`` inside the body of a ``while_loop``: the accumulator adds ``x`` on the first
    two of five steps and subtracts it on the other three (-x in the end)."""
    x = paddle.static.data("x", [2, 3], "float32")
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 5, "int64")
    two = paddle.full([1], 2, "int64")
    acc = paddle.zeros([2, 3], "float32")

    def body(i, acc):
        step = paddle.static.nn.cond(
            paddle.less_than(i, two), lambda: paddle.add(acc, x), lambda: paddle.subtract(acc, x)
        )
        return [paddle.increment(i), step]

    i, acc = paddle.static.nn.while_loop(lambda i, acc: paddle.less_than(i, n), body, [i, acc])
    return [x], [i, acc], {"x": RNG.standard_normal((2, 3)).astype("float32")}


def _assign_out_increment():
    """In the global block: an ``assign`` to a variable an op wrote before (``assign_out_``),
    read after it, and ``increment`` of a counter (``increment_``)."""
    x = paddle.static.data("x", [2, 3], "float32")
    y = paddle.scale(x, 2.0)
    _append_op_to("assign", {"X": paddle.scale(x, 3.0)}, y)
    i = paddle.increment(paddle.full([1], 0, "int64"))
    return [x], [paddle.add(y, x), i], {"x": RNG.standard_normal((2, 3)).astype("float32")}


def _switch_case():
    """``switch_case`` on a fed int64 index (2 here: the default): conds nested in the false
    branches' sub-blocks."""
    x = paddle.static.data("x", [2, 3], "float32")
    index = paddle.static.data("index", [1], "int64")
    out = paddle.static.nn.switch_case(
        index,
        {0: lambda: paddle.scale(x, 2.0), 1: lambda: paddle.scale(x, 3.0)},
        default=lambda: paddle.scale(x, -1.0),
    )
    return (
        [x, index],
        [out],
        {"x": RNG.standard_normal((2, 3)).astype("float32"), "index": np.array([2], "int64")},
    )


def _fc_in_cond():
    """``cond`` whose true branch is an ``fc`` (its parameters read in the sub-block: mul,
    elementwise_add), the false one a slice and a scale."""
    x = paddle.static.data("x", [-1, 4], "float32")
    pred = paddle.static.data("pred", [1], "bool")
    out = paddle.static.nn.cond(
        pred, lambda: paddle.static.nn.fc(x, 3), lambda: paddle.scale(x[:, :3], 2.0)
    )
    return (
        [x, pred],
        [out],
        {"x": RNG.standard_normal((2, 4)).astype("float32"), "pred": np.array([True])},
    )


def _while_grows():
    """A ``while_loop`` whose loop variable grows (concat), from [1, 3] to [4, 3]: the saved
    VarDesc holds the extents the body inferred, not the first ones."""
    x = paddle.static.data("x", [1, 3], "float32")
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")
    i, rows = paddle.static.nn.while_loop(
        lambda i, rows: paddle.less_than(i, n),
        lambda i, rows: [paddle.increment(i), paddle.concat([rows, x], axis=0)],
        [i, paddle.scale(x, 1.0)],
    )
    return [x], [i, rows], {"x": RNG.standard_normal((1, 3)).astype("float32")}


def _append_op_to(op_type: str, inputs: dict, out, output: str = "Out", **attrs) -> None:
    """One legacy op writing the existing variable ``out``."""
    helper = paddle.base.layer_helper.LayerHelper(op_type)
    inputs = {name: value if isinstance(value, list) else [value] for name, value in inputs.items()}
    helper.append_op(type=op_type, inputs=inputs, outputs={output: [out]}, attrs=attrs)


MODELS = {
    "mlp": _mlp,
    "cnn": _cnn,
    "reshape_shape_tensor": _reshape_shape_tensor,
    "scale_tensor": _scale_tensor,
    "fill_constant_value_tensor": _fill_value_tensor,
    "expand_v2": _expand,
    "lookup_table_v2": _embedding,
    "slice_tensor": _slice_tensor,
    "assorted": _assorted,
    "common_ops": _common_ops,
    "fill_constant_shape_tensor_list": _fill_shape_tensor_list,
    # models with sub-blocks last, so that the models above draw the same numbers from RNG
    "cond_nested_outputs": _cond_nested_outputs,
    "cond_0d_predicate": _cond_0d_predicate,
    "while_accumulate": _while_accumulate,
    "cond_in_while": _cond_in_while,
    "assign_out_increment": _assign_out_increment,
    "switch_case": _switch_case,
    "fc_in_cond": _fc_in_cond,
    "while_grows": _while_grows,
}


def _small_weights(program: paddle.static.Program, scope) -> None:
    """Replace every parameter with small, varied values (batch_norm's variance positive)."""
    for var in program.list_vars():
        if not var.persistable or var.name in ("feed", "fetch"):
            continue
        tensor = scope.find_var(var.name).get_tensor()
        array = np.array(tensor)
        values = RNG.uniform(-0.5, 0.5, array.shape).astype(array.dtype)
        if var.name.startswith("batch_norm") and var.name.endswith("w_2"):  # the variance
            values = np.abs(values) + 0.5
        tensor.set(values, paddle.CPUPlace())


def write(name: str, build) -> None:
    folder = OUT / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, fetches, inputs = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        _small_weights(main, scope)
        prefix = str(folder / "model")
        paddle.static.save_inference_model(prefix, feeds, fetches, exe, program=main)
    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
        outputs = exe.run(program, feed=inputs, fetch_list=fetch_targets)
    np.savez(folder / "inputs.npz", **{n: inputs[n] for n in feed_names})
    np.savez(folder / "outputs.npz", **{f"out{i}": o for i, o in enumerate(outputs)})
    desc = paddle.base.core.ProgramDesc((folder / "model.pdmodel").read_bytes())
    lines = []
    for b in range(desc.num_blocks()):  # a program with sub-blocks: each block's ops after a header
        block = desc.block(b)
        if desc.num_blocks() > 1:
            lines.append(f"block {b} (parent {block.parent})")
        lines += [block.op(i).type() for i in range(block.op_size())]
    (folder / "ops.txt").write_text("\n".join(lines) + "\n")
    (folder / "translated.txt").write_text(str(paddle.pir.translate_to_pir(desc)))


def main() -> None:
    paddle.enable_static()
    paddle.logical_not = _legacy_logical_not
    for name, build in MODELS.items():
        write(name, build)
        print(name, "written")


if __name__ == "__main__":
    main()
