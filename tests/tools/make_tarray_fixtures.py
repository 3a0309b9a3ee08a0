"""Record PaddlePaddle 3.3.1's tensor-array programs and results into tests/data/tarray/.

Run in the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_tarray_fixtures.py``.

For each program: ``NAME.txt`` (the program as PaddlePaddle prints it), ``NAME.json`` (written by
``paddle.static.save_inference_model`` for ``while_write``, by ``serialize_pir_program``
otherwise) and ``NAME.npz`` (the feeds, ``feed_NAME``, and the fetched results, ``fetch_%N`` by value name, or
``fetch_N`` in order for the saved model ``while_write_model/``).
``eager.json`` records the dynamic-mode list API (tests/tarray/test_tensor_array_eager.py),
``backward.npz`` gradients through the array ops (tests/tarray/test_tensor_array_backward.py).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import paddle
from paddle.base import core
from paddle.tensor.manipulation import tensor_array_to_tensor

OUT = Path(__file__).resolve().parents[1] / "data" / "tarray"


def _run(main, feed, fetch):
    exe = paddle.static.Executor(paddle.CPUPlace())
    return exe.run(main, feed=feed, fetch_list=fetch)


def _names(main, fetch):
    """The printed names (`%N`) of the top-level values ``fetch``: results are numbered in
    program order."""
    names, counter = [], 0
    numbered = []
    for op in main.global_block().ops:
        for result in op.results():
            numbered.append((counter, result))
            counter += 1
    for value in fetch:
        names.append(next(f"%{n}" for n, r in numbered if r.is_same(value)))
    return names


def _save(name, main, feed, fetch, results, json_written=False):
    (OUT / f"{name}.txt").write_text(str(main) + "\n", encoding="utf-8")
    if not json_written:
        core.serialize_pir_program(main, str(OUT / f"{name}.json"), True, False, True)
    arrays = {f"feed_{k}": v for k, v in feed.items()}
    if json_written:  # a saved model: its fetch targets, in order
        names = [f"fetch_{i}" for i in range(len(fetch))]
    else:
        names = [f"fetch_{n}" for n in _names(main, fetch)]
    arrays.update({n: np.asarray(r) for n, r in zip(names, results)})
    np.savez(OUT / f"{name}.npz", **arrays)


def write_read_length():
    """create_array with an initialised list, array_write past the end, read, length, and
    array_to_tensor (concat and stack)."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        arr = paddle.tensor.create_array("float32", [x])
        y = paddle.scale(x, 2.0)
        paddle.tensor.array_write(y, paddle.full([1], 2, "int64"), arr)
        first = paddle.tensor.array_read(arr, paddle.full([1], 0, "int64"))
        last = paddle.tensor.array_read(arr, paddle.full([1], 2, "int64"))
        length = paddle.tensor.array_length(arr)
        stacked, stacked_index = tensor_array_to_tensor(
            paddle.tensor.create_array("float32", [x, y]), axis=1, use_stack=True
        )
        concat, concat_index = tensor_array_to_tensor(
            paddle.tensor.create_array("float32", [x, y]), axis=0
        )
    feed = {"x": np.arange(6, dtype="float32").reshape(2, 3)}
    fetch = [first, last, length, stacked, stacked_index, concat, concat_index]
    _save("write_read_length", main, feed, fetch, _run(main, feed, fetch))


def slice_pop():
    """slice_array, slice_array_dense (a negative start too), array_pop (PaddlePaddle's
    ``paddle._pir_ops``; no public API builds them)."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        arr = paddle.tensor.create_array("float32", [x, x * 2.0, x * 3.0])
        part = paddle._pir_ops.slice_array(arr, [1], [3])
        second = paddle._pir_ops.slice_array_dense(arr, [1])
        last = paddle._pir_ops.slice_array_dense(arr, [-1])
        part_length = paddle.tensor.array_length(part)
        part_first = paddle.tensor.array_read(part, paddle.full([1], 0, "int64"))
        popped = paddle._pir_ops.array_pop(arr, 0)
        length = paddle.tensor.array_length(arr)
    feed = {"x": np.arange(6, dtype="float32").reshape(2, 3)}
    fetch = [part_length, part_first, second, last, popped, length]
    _save("slice_pop", main, feed, fetch, _run(main, feed, fetch))


def _while_write_program():
    x = paddle.static.data("x", [2, 3], "float32")
    arr = paddle.tensor.create_array("float32")
    i = paddle.zeros([1], "int64")
    n = paddle.full([1], 3, "int64")

    def cond(i, x):
        return i < n

    def body(i, x):
        paddle.tensor.array_write(paddle.tanh(x) * (i.astype("float32") + 1.0), i, arr)
        return [i + 1, x + 1.0]

    i, x2 = paddle.static.nn.while_loop(cond, body, [i, x])
    out, index = tensor_array_to_tensor(arr, axis=0)
    length = paddle.tensor.array_length(arr)
    last = paddle.tensor.array_read(arr, paddle.full([1], 2, "int64"))
    return x, [out, index, length, last, x2]


def while_write():
    """A while loop writing each iteration's result to an array (saved with
    save_inference_model: the json as PaddlePaddle writes a saved model)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x, fetch = _while_write_program()
    feed = {"x": np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)}
    results = _run(main, feed, fetch)
    with tempfile.TemporaryDirectory() as tmp:
        prefix = str(Path(tmp) / "model")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(prefix, [x], fetch, exe, program=main)
        model = OUT / "while_write_model"
        model.mkdir(exist_ok=True)
        for path in Path(tmp).iterdir():
            (model / path.name).write_bytes(path.read_bytes())
    _save("while_write", main, feed, fetch, results, json_written=True)


def _backward_programs(api, to_tensor):
    """The programs of backward.npz, built with ``api`` (paddle here; phiops in the test)."""
    programs = {}

    main = api.static.Program()
    with api.static.program_guard(main):
        x = api.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        y = api.static.data("y", [2, 3], "float32")
        y.stop_gradient = False
        arr = api.tensor.create_array("float32")
        i0, i1 = api.zeros([1], "int64"), api.ones([1], "int64")
        api.tensor.array_write(x * 2.0, i0, arr)
        api.tensor.array_write(y * 3.0, i1, arr)
        a = api.tensor.array_read(arr, i0)
        api.tensor.array_write(x * y, i0, arr)  # overwrites item 0: its gradient stops here
        b = api.tensor.array_read(arr, i0)
        c = api.tensor.array_read(arr, i1)
        loss = api.sum(a * a) + api.sum(b * c)
        gx, gy = api.static.gradients([loss], [x, y])
    programs["straight"] = (main, [loss, gx, gy])

    main = api.static.Program()
    with api.static.program_guard(main):
        x = api.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        arr = api.tensor.create_array("float32")
        n = api.full([1], 3, "int64")

        def body(i):
            api.tensor.array_write(api.tanh(x) * (i.astype("float32") + 1.0), i, arr)
            return [i + 1]

        api.static.nn.while_loop(lambda i: i < n, body, [api.zeros([1], "int64")])
        r = api.tensor.array_read(arr, api.full([1], 1, "int64"))
        loss = api.sum(r * r)
        (gx,) = api.static.gradients([loss], [x])
    programs["while"] = (main, [loss, gx])

    main = api.static.Program()
    with api.static.program_guard(main):
        x = api.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        concat, _ = to_tensor(api.tensor.create_array("float32", [x, x * 2.0]), axis=0)
        stacked, _ = to_tensor(
            api.tensor.create_array("float32", [x * x, x + 1.0]), axis=1, use_stack=True
        )
        loss = api.sum(concat * concat) + api.sum(stacked * api.arange(12, dtype="float32").reshape([2, 2, 3]))
        (gx,) = api.static.gradients([loss], [x])
    programs["to_tensor"] = (main, [loss, gx])
    return programs


BACKWARD_FEED = {
    "x": np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3),
    "y": np.linspace(0.5, -0.5, 6, dtype="float32").reshape(2, 3),
}


def backward():
    """Gradients through array_write/array_read, straight-line and from a while loop's writes
    (backward.npz: ``NAME_N`` is fetch N of program NAME)."""
    arrays = {f"feed_{k}": v for k, v in BACKWARD_FEED.items()}
    for name, (main, fetch) in _backward_programs(paddle, tensor_array_to_tensor).items():
        feed = {k: v for k, v in BACKWARD_FEED.items() if k == "x" or name == "straight"}
        for position, result in enumerate(_run(main, feed, fetch)):
            arrays[f"{name}_{position}"] = np.asarray(result)
    np.savez(OUT / "backward.npz", **arrays)


def eager():
    """The dynamic-mode API: Python lists."""
    paddle.disable_static()
    record = {}
    arr = paddle.tensor.create_array("float32", [paddle.ones([1])])
    record["create_type"] = type(arr).__name__
    arr = paddle.tensor.array_write(paddle.full([2], 3.0), paddle.to_tensor([1]), arr)
    record["length"] = paddle.tensor.array_length(arr)
    record["read_1"] = paddle.tensor.array_read(arr, paddle.to_tensor([1])).numpy().tolist()
    out, index = tensor_array_to_tensor([paddle.ones([2, 3]), paddle.zeros([1, 3])], axis=0)
    record["concat_shape"] = list(out.shape)
    record["concat_index"] = index.numpy().tolist()
    record["concat_index_dtype"] = str(index.numpy().dtype)
    out, index = tensor_array_to_tensor([paddle.ones([2, 3])] * 2, axis=1, use_stack=True)
    record["stack_shape"] = list(out.shape)
    record["stack_index"] = index.numpy().tolist()
    (OUT / "eager.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    paddle.enable_static()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    paddle.enable_static()
    write_read_length()
    slice_pop()
    while_write()
    backward()
    eager()


if __name__ == "__main__":
    main()
