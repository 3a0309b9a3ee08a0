"""Writes tests/data/kinds_sr_static/: PaddlePaddle 3.3.1's SelectedRows training in static
programs, which tests/kinds/test_selected_rows_static.py compares phiops with.

- ``training.json``: the parameters of the embedding model of tests/kinds/embedding_cases.py
  after 20 static-program steps of each case of ``STATIC_CASES`` (``train_static``; a run that
  moved a row no batch touches is discarded, see ``training``).
  PaddlePaddle 3.3.1's PIR API builds a dense ``pd_op.embedding_grad`` for ``sparse=True``, so
  its SelectedRows training in static programs is the legacy one (``FLAGS_enable_pir_api=0``:
  ``lookup_table_v2_grad`` with ``is_sparse`` gives a SelectedRows ``W@GRAD``, and ``sgd``,
  ``momentum``, ``adam``, ``adagrad`` run their SelectedRows kernels), which this records.
- ``lookup.txt``, ``lookup.json``: a lookup and its backward (``append_backward``) translated to
  PIR by 3.3.1's ``translate_to_pir`` (``pd_op.embedding_sparse_grad`` with a
  ``pd_op.selectedrows<10x4xf32>`` result), as it prints it and as ``serialize_pir_program``
  writes it; ``lookup.npz``: a feed, the weight, the loss 3.3.1's executor fetches and the
  gradient it leaves in the scope (rows, height, value; it cannot fetch a SelectedRows).
- ``rows_ops.txt``, ``.json``, ``.npz``: that gradient through ``get_tensor_from_selected_rows``
  and ``merge_selected_rows``, translated likewise, and the tensors 3.3.1 fetches.

Run with the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_kinds_selected_rows_static.py``.
"""

from __future__ import annotations

import os

os.environ["FLAGS_enable_pir_api"] = "0"  # before paddle is imported

import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.base import core  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "kinds"))

import embedding_cases  # noqa: E402

OUT = ROOT / "tests" / "data" / "kinds_sr_static"


def training() -> None:
    """Each case until a run leaves the rows no batch touches as they were: 3.3.1's
    non-lazy SelectedRows Adam moves some of them now and then (by garbage: a run in the same
    process gives another row another value), and those runs are discarded and counted."""
    data = embedding_cases.inputs()
    untouched = data["embedding"][embedding_cases.TOUCHED :]
    record = {"paddle": paddle.__version__, "mode": "legacy static (FLAGS_enable_pir_api=0)"}
    record["training"], record["discarded_runs"] = {}, {}
    for name in embedding_cases.STATIC_CASES:
        for attempt in range(10):
            params = embedding_cases.train_static(paddle, name, data)
            if np.array_equal(params["embedding"][embedding_cases.TOUCHED :], untouched):
                break
        else:
            raise SystemExit(f"{name}: every run moved an untouched row")
        record["discarded_runs"][name] = attempt
        record["training"][name] = {key: np.asarray(v).tolist() for key, v in params.items()}
    (OUT / "training.json").write_text(json.dumps(record, indent=1) + "\n")


def lookup() -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [-1, 3], "int64")
        embedding = paddle.nn.Embedding(10, 4, sparse=True)
        out = embedding(ids)
        loss = paddle.mean(out * out)
        paddle.static.append_backward(loss)
    program = paddle.pir.translate_to_pir(main.desc)
    (OUT / "lookup.txt").write_text(str(program) + "\n", encoding="utf-8")
    core.serialize_pir_program(program, str(OUT / "lookup.json"), 1, False, True)
    feed = np.array([[1, 2, 1], [7, 2, 9]], np.int64)
    weight = (np.arange(40, dtype=np.float32).reshape(10, 4) - 20) / 10
    executor = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        executor.run(startup)
        scope.find_var(embedding.weight.name).get_tensor().set(weight, paddle.CPUPlace())
        # its executor cannot fetch a SelectedRows (fetch_v2 fails): kept in the scope
        main.global_block().var(embedding.weight.name + "@GRAD").persistable = True
        (loss_value,) = executor.run(main, feed={"ids": feed}, fetch_list=[loss])
        grad = scope.find_var(embedding.weight.name + "@GRAD").get_selected_rows()
    np.savez(
        OUT / "lookup.npz",
        ids=feed,
        weight=weight,
        loss=np.array(loss_value),
        grad_rows=np.array(grad.rows(), np.int64),
        grad_value=np.array(grad.get_tensor()),
        grad_height=np.array(grad.height()),
    )


def rows_ops() -> None:
    """``rows_ops.{txt,json,npz}``: the lookup's SelectedRows gradient through
    ``get_tensor_from_selected_rows``, ``merge_selected_rows`` and ``get_tensor_from_selected_rows``
    again (legacy ops appended by hand: 3.3.1's Python API has neither), translated; the loss
    and both tensors 3.3.1's executor fetches."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [-1, 3], "int64")
        embedding = paddle.nn.Embedding(10, 4, sparse=True)
        out = embedding(ids)
        loss = paddle.mean(out * out)
        paddle.static.append_backward(loss)
        block = main.global_block()
        grad = block.var(embedding.weight.name + "@GRAD")
        values = block.create_var(name="grad_values", dtype="float32")
        block.append_op(
            type="get_tensor_from_selected_rows", inputs={"X": grad}, outputs={"Out": values}
        )
        merged = block.create_var(
            name="merged", type=core.VarDesc.VarType.SELECTED_ROWS, dtype="float32"
        )
        block.append_op(type="merge_selected_rows", inputs={"X": grad}, outputs={"Out": merged})
        merged_values = block.create_var(name="merged_values", dtype="float32")
        block.append_op(
            type="get_tensor_from_selected_rows",
            inputs={"X": merged},
            outputs={"Out": merged_values},
        )
    program = paddle.pir.translate_to_pir(main.desc)
    (OUT / "rows_ops.txt").write_text(str(program) + "\n", encoding="utf-8")
    core.serialize_pir_program(program, str(OUT / "rows_ops.json"), 1, False, True)
    feed = np.array([[1, 2, 1], [7, 2, 9]], np.int64)
    weight = (np.arange(40, dtype=np.float32).reshape(10, 4) - 20) / 10
    executor = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        executor.run(startup)
        scope.find_var(embedding.weight.name).get_tensor().set(weight, paddle.CPUPlace())
        fetched = executor.run(main, feed={"ids": feed}, fetch_list=[loss, values, merged_values])
    np.savez(
        OUT / "rows_ops.npz",
        ids=feed,
        weight=weight,
        **{f"fetch_{i}": np.asarray(r) for i, r in enumerate(fetched)},
    )


def main() -> None:
    paddle.enable_static()
    OUT.mkdir(parents=True, exist_ok=True)
    lookup()  # first: its parameter is embedding_0.w_0
    rows_ops()  # embedding_1.w_0
    training()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
