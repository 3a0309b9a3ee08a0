"""Record PaddlePaddle 3.3.1's static programs of sparse ops into tests/data/sparse_static/.

Run in the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_sparse_static_fixtures.py``.

For each program: ``NAME.txt`` (the program as PaddlePaddle prints it), ``NAME.json`` (written
by ``serialize_pir_program``) and, where 3.3.1 runs it, ``NAME.npz`` (the feeds, ``feed_NAME``,
and the fetched results, ``fetch_%N`` by value name). ``convert_model/`` is ``convert`` saved by
``paddle.static.save_inference_model`` (its fetches in order, ``fetch_N`` in convert_model.npz).
3.3.1 has no public API building a COO tensor from a dense Value in a static program (its
``Value`` has no ``to_sparse_coo``); ``_C_ops.sparse_to_sparse_coo`` builds what phiops's
``Value.to_sparse_coo`` builds. It cannot build CSR ops at all (``to_sparse_csr`` segfaults in
its InferMeta), nor ``matmul`` of COO and dense (no CPU kernel: its builder refuses the dtype).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import paddle
from paddle import _C_ops
from paddle.base import core

OUT = Path(__file__).resolve().parents[1] / "data" / "sparse_static"
SPARSE = paddle.sparse
F = paddle.sparse.nn.functional


def _names(main, fetch):
    """The printed names (`%N`) of the top-level values ``fetch``: results numbered in order."""
    numbered, counter = [], 0
    for op in main.global_block().ops:
        for result in op.results():
            numbered.append((counter, result))
            counter += 1
    return [next(f"%{n}" for n, r in numbered if r.is_same(value)) for value in fetch]


def _save(name, main, feed, fetch, run=True):
    (OUT / f"{name}.txt").write_text(str(main) + "\n", encoding="utf-8")
    core.serialize_pir_program(main, str(OUT / f"{name}.json"), True, False, True)
    if not run:
        return
    exe = paddle.static.Executor(paddle.CPUPlace())
    results = exe.run(main, feed=feed, fetch_list=fetch)
    arrays = {f"feed_{k}": v for k, v in feed.items()}
    arrays.update({f"fetch_{n}": np.asarray(r) for n, r in zip(_names(main, fetch), results)})
    np.savez(OUT / f"{name}.npz", **arrays)


def _x():
    return np.array([[0, -1.5, 0, 2], [3, 0, 0, -4], [0, 0.5, 6, 0]], dtype="float32")


def convert():
    """dense -> COO, relu, add, to_dense, values, indices; sparse_coo_tensor -> to_dense; and
    saved as an inference model."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        c = _C_ops.sparse_to_sparse_coo(x, 2)
        r = F.relu(c)
        s = SPARSE.add(r, c)
        d = s.to_dense()
        v = s.values()
        i = s.indices()
        ii = paddle.static.data("ii", [2, 3], "int64")
        vv = paddle.static.data("vv", [3], "float32")
        sd = SPARSE.sparse_coo_tensor(ii, vv, [3, 4]).to_dense()
    feed = {
        "x": _x(),
        "ii": np.array([[0, 1, 2], [1, 2, 3]], dtype="int64"),
        "vv": np.array([1, 2, 3], dtype="float32"),
    }
    fetch = [d, v, i, sd]
    _save("convert", main, feed, fetch)
    with tempfile.TemporaryDirectory() as tmp:
        prefix = str(Path(tmp) / "model")
        exe = paddle.static.Executor(paddle.CPUPlace())
        paddle.static.save_inference_model(prefix, [x, ii, vv], fetch, exe, program=main)
        model = OUT / "convert_model"
        model.mkdir(exist_ok=True)
        for path in Path(tmp).iterdir():
            (model / path.name).write_bytes(path.read_bytes())
    results = exe.run(main, feed=feed, fetch_list=fetch)
    np.savez(
        OUT / "convert_model.npz",
        **{f"feed_{k}": v for k, v in feed.items()},
        **{f"fetch_{n}": np.asarray(r) for n, r in enumerate(results)},
    )


def unary():
    """The unary ops on one COO tensor, each made dense."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        c = _C_ops.sparse_to_sparse_coo(x, 2)
        a = SPARSE.abs(c)
        outs = [
            a,
            SPARSE.sin(c),
            SPARSE.tanh(c),
            SPARSE.sqrt(a),
            SPARSE.square(c),
            SPARSE.log1p(a),
            SPARSE.expm1(c),
            SPARSE.atan(c),
            SPARSE.pow(c, 2.0),
            SPARSE.neg(c),
            F.leaky_relu(c, 0.1),
            F.relu6(c),
            SPARSE.cast(c, "int32", "float64"),
            SPARSE.isnan(c),
        ]
        fetch = [o.to_dense() for o in outs]
    _save("unary", main, {"x": _x()}, fetch)


def binary():
    """subtract, multiply, divide of two COO tensors of different patterns."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        y = paddle.static.data("y", [3, 4], "float32")
        cx = _C_ops.sparse_to_sparse_coo(x, 2)
        cy = _C_ops.sparse_to_sparse_coo(y, 2)
        fetch = [
            SPARSE.subtract(cx, cy).to_dense(),
            SPARSE.multiply(cx, cy).to_dense(),
            SPARSE.divide(cx, cy).to_dense(),
        ]
    y = np.array([[1, 0, 0, 2], [0, 0, 5, -1], [0, 2, 3, 0]], dtype="float32")
    _save("binary", main, {"x": _x(), "y": y}, fetch)


def shape():
    """sum (one axis, all), transpose, reshape, softmax, coalesce, slice; each made dense."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        c = _C_ops.sparse_to_sparse_coo(x, 2)
        fetch = [
            SPARSE.sum(c, axis=1).to_dense(),
            SPARSE.sum(c).to_dense(),
            SPARSE.transpose(c, [1, 0]).to_dense(),
            SPARSE.reshape(c, [4, 3]).to_dense(),
            F.softmax(c).to_dense(),
            SPARSE.coalesce(c).to_dense(),
            SPARSE.slice(c, [0], [0], [2]).to_dense(),
        ]
    _save("shape", main, {"x": _x()}, fetch)


def add_dense():
    """add of a COO tensor and a dense one (built, not run: 3.3.1's CPU kernel takes a 1-D
    bias only)."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [3, 4], "float32")
        c = _C_ops.sparse_to_sparse_coo(x, 2)
        SPARSE.add(c, x)
    _save("add_dense", main, {}, [], run=False)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    paddle.enable_static()
    for make in (convert, unary, binary, shape, add_dense):
        make()
        print("recorded", make.__name__)
