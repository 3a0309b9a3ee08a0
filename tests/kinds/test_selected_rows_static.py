"""SelectedRows in static programs (issue 28, parts 3 and 5): ``Embedding(sparse=True)``'s
backward builds ``pd_op.embedding_sparse_grad`` with a ``pd_op.selectedrows<...>`` result, the
optimizers' updates their SelectedRows pd_ops, and the Executor runs them on the SelectedRows
kernels. Against PaddlePaddle 3.3.1 (tests/data/kinds_sr_static/, recorded by
tests/tools/make_kinds_selected_rows_static.py): the parameters after 20 training steps, and a
lookup program its translator wrote (text, json, loss and gradient), which phiops reads, writes
back and runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.formats.pir_json import load_program_json, program_to_json
from phiops.runtime.ir import parse_program
from phiops.runtime.tensor import SelectedRows
from tests.kinds import embedding_cases

DATA = Path(__file__).resolve().parents[1] / "data" / "kinds_sr_static"
RECORD = json.loads((DATA / "training.json").read_text())
LOOKUP = np.load(DATA / "lookup.npz")
INPUTS = embedding_cases.inputs()


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _op_lines(program: object, name: str) -> list[str]:
    return [line.strip() for line in str(program).splitlines() if f'"pd_op.{name}"' in line]


def _form(line: str) -> tuple[str, str]:
    """An op line without its value numbers: (attributes, types)."""
    attributes = re.search(r"\{(.*)\} :", line).group(1)
    return attributes, line.split(" : ", 1)[1]


@pytest.mark.parametrize("name", embedding_cases.STATIC_CASES)
def test_static_training_matches_paddle_and_eager(name: str) -> None:
    got = embedding_cases.train_static(paddle, name, INPUTS)
    paddle.disable_static()
    eager = embedding_cases.train(paddle, name, INPUTS)
    for key, value in RECORD["training"][name].items():
        np.testing.assert_allclose(got[key], np.asarray(value, np.float32), rtol=2e-5, atol=2e-6,
                                   err_msg=f"{name}: {key}")  # fmt: skip
        np.testing.assert_allclose(got[key], eager[key], rtol=1e-6, atol=1e-7, err_msg=key)
    # rows no batch touches stay (lazy or not: their moments are zero)
    np.testing.assert_array_equal(
        got["embedding"][embedding_cases.TOUCHED :],
        INPUTS["embedding"][embedding_cases.TOUCHED :],
    )


def _training_program(optimizer: object) -> tuple[object, object, object]:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [2, 3], "int64")
        embedding = paddle.nn.Embedding(10, 4, sparse=True)
        loss = (embedding(ids) ** 2).mean()
        optimizer.minimize(loss)
    return main, startup, loss


@pytest.mark.parametrize(
    "optimizer, update",
    [
        ("SGD", "sgd_dense_param_sparse_grad_"),
        ("Momentum", "momentum_dense_param_sparse_grad_"),
        ("Adagrad", "adagrad_dense_param_sparse_grad_"),
        ("Adam", "adam_dense_param_sparse_grad_"),
    ],
)
def test_minimize_builds_the_selected_rows_ops(optimizer: str, update: str) -> None:
    main, _, _ = _training_program(getattr(paddle.optimizer, optimizer)(learning_rate=0.1))
    (grad_line,) = _op_lines(main, "embedding_sparse_grad")
    assert grad_line.endswith("-> pd_op.selectedrows<10x4xf32>")
    assert _op_lines(main, "embedding_grad") == []
    (update_line,) = _op_lines(main, update)
    assert "pd_op.selectedrows<10x4xf32>" in update_line.split(" : ")[1].split(" -> ")[0]


def test_embedding_sparse_grad_is_built_as_paddles_translator_writes_it() -> None:
    """PaddlePaddle 3.3.1's translated lookup program (its PIR API builds a dense
    embedding_grad for sparse=True; its translator of legacy programs the sparse op): the same
    op, attributes (but the translator's persistable) and types."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [-1, 3], "int64")
        out = paddle.nn.Embedding(10, 4, sparse=True)(ids)
        paddle.static.append_backward(paddle.mean(out * out))
    (ours,) = _op_lines(main, "embedding_sparse_grad")
    (theirs,) = _op_lines((DATA / "lookup.txt").read_text(), "embedding_sparse_grad")
    attributes, types = _form(theirs)
    assert _form(ours) == (attributes.replace("persistable:[false],", ""), types)


def test_paddles_lookup_program_reads_back_as_written() -> None:
    text = (DATA / "lookup.txt").read_text(encoding="utf-8")
    assert str(parse_program(text, "lookup.txt")) + "\n" == text
    want = json.loads((DATA / "lookup.json").read_text())
    loaded = load_program_json(DATA / "lookup.json")
    assert program_to_json(loaded) == want
    assert _op_lines(loaded, "embedding_sparse_grad") == _op_lines(text, "embedding_sparse_grad")


def test_selected_rows_type_is_written_as_paddle_writes_it() -> None:
    main, _, _ = _training_program(paddle.optimizer.SGD(learning_rate=0.1))
    written = json.dumps(program_to_json(main))
    assert '{"#": "1.t_selected_rows", "D": [{"#": "0.t_f32"}, [10, 4], "NCHW", [], 0]}' in written


@pytest.mark.parametrize("form", ["txt", "json"])
def test_paddles_lookup_program_runs(form: str) -> None:
    path = DATA / f"lookup.{form}"
    if form == "txt":
        program = parse_program(path.read_text(encoding="utf-8"), str(path))
    else:
        program = load_program_json(path)
    loss_value, grad_value = program.value("%5"), program.value("%13")
    scope = paddle.static.Scope()
    scope.set("embedding_0.w_0", LOOKUP["weight"])
    executor = paddle.static.Executor()
    loss, grad = executor.run(program, {"ids": LOOKUP["ids"]}, [loss_value, grad_value], scope)
    np.testing.assert_allclose(loss, LOOKUP["loss"], rtol=1e-6)
    assert isinstance(grad, SelectedRows)
    assert grad.height == int(LOOKUP["grad_height"])
    np.testing.assert_array_equal(grad.rows, LOOKUP["grad_rows"])
    np.testing.assert_allclose(grad.value.array, LOOKUP["grad_value"], rtol=1e-6)
    (tensor,) = executor.run(program, {"ids": LOOKUP["ids"]}, [grad_value], scope, False)
    assert tensor.is_selected_rows() and tensor.rows() == LOOKUP["grad_rows"].tolist()


def test_a_training_program_read_back_from_its_text_trains_alike() -> None:
    main, startup, _ = _training_program(paddle.optimizer.Adam(learning_rate=0.1))
    loaded = parse_program(str(main), "main")
    assert str(loaded) == str(main)
    (name,) = re.findall(r'parameter_name:"([^"]+)"', str(main))
    feeds = [{"ids": INPUTS["ids"][step, 0, :2] % 10} for step in range(5)]
    results = []
    for program in (main, loaded):
        scope = paddle.static.Scope()
        executor = paddle.static.Executor()
        executor.run(startup, scope=scope)
        scope.set(name, INPUTS["embedding"][:10])
        for feed in feeds:
            executor.run(program, feed, None, scope)
        results.append(np.array(scope.find_var(name).get_tensor()))
    np.testing.assert_array_equal(results[0], results[1])
    assert not np.array_equal(results[0], INPUTS["embedding"][:10])


def test_merge_selected_rows_builds_and_runs() -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [2, 3], "int64")
        loss = (paddle.nn.Embedding(10, 4, sparse=True)(ids) ** 2).mean()
        ((_, grad),) = paddle.static.append_backward(loss)
        merged = paddle._C_ops.merge_selected_rows(grad)
    (line,) = _op_lines(main, "merge_selected_rows")
    assert line.endswith(": (pd_op.selectedrows<10x4xf32>) -> pd_op.selectedrows<10x4xf32>")
    executor = paddle.static.Executor()
    scope = paddle.static.Scope()
    executor.run(startup, scope=scope)
    got, total = executor.run(main, {"ids": LOOKUP["ids"]}, [grad, merged], scope)
    rows = np.unique(got.rows)
    want = np.stack([got.value.array[got.rows == row].sum(axis=0) for row in rows])
    np.testing.assert_array_equal(total.rows, rows)
    np.testing.assert_allclose(total.value.array, want, rtol=1e-6)


def test_dense_op_on_a_selected_rows_value_is_a_named_error() -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [2, 3], "int64")
        loss = (paddle.nn.Embedding(10, 4, sparse=True)(ids) ** 2).mean()
        ((_, grad),) = paddle.static.append_backward(loss)
        with pytest.raises(
            InvalidArgumentError, match=r"relu\(\): argument 'x' is a SelectedRows Value"
        ):
            paddle.nn.functional.relu(grad)
        with pytest.raises(
            InvalidArgumentError,
            match=r"merge_selected_rows\(\): argument 'x' is a DenseTensor Value, but "
            r"pd_op.merge_selected_rows",
        ):
            paddle._C_ops.merge_selected_rows(loss)


def test_adamw_on_a_selected_rows_gradient_is_unimplemented() -> None:
    """PaddlePaddle 3.3.1's dialect has no adamw_dense_param_sparse_grad_."""
    with pytest.raises(UnimplementedError, match="pd_op.adamw_dense_param_sparse_grad_"):
        _training_program(paddle.optimizer.AdamW(learning_rate=0.1))


@pytest.mark.parametrize("form", ["txt", "json"])
def test_paddles_get_tensor_from_selected_rows_program_runs(form: str) -> None:
    """3.3.1's translated program: the gradient's value, then merged and its value."""
    path = DATA / f"rows_ops.{form}"
    if form == "txt":
        text = path.read_text(encoding="utf-8")
        program = parse_program(text, str(path))
        assert str(program) + "\n" == text
    else:
        program = load_program_json(path)
        assert program_to_json(program) == json.loads(path.read_text())
    recorded = np.load(DATA / "rows_ops.npz")
    scope = paddle.static.Scope()
    (name,) = re.findall(r'parameter_name:"([^"]+)"', str(program))
    scope.set(name, recorded["weight"])
    fetched = paddle.static.Executor().run(
        program, {"ids": recorded["ids"]}, [program.value(n) for n in ("%5", "%14", "%16")], scope
    )
    for index, got in enumerate(fetched):
        want = recorded[f"fetch_{index}"]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_get_tensor_from_selected_rows_is_built_as_paddle_builds_it() -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [-1, 3], "int64")
        out = paddle.nn.Embedding(10, 4, sparse=True)(ids)
        ((_, grad),) = paddle.static.append_backward(paddle.mean(out * out))
        values = paddle._C_ops.get_tensor_from_selected_rows(grad)
        merged = paddle._C_ops.get_tensor_from_selected_rows(
            paddle._C_ops.merge_selected_rows(grad)
        )
    theirs = _op_lines((DATA / "rows_ops.txt").read_text(), "get_tensor_from_selected_rows")
    ours = _op_lines(main, "get_tensor_from_selected_rows")
    assert [_form(line)[1] for line in ours] == [_form(line)[1] for line in theirs]
    executor = paddle.static.Executor()
    scope = paddle.static.Scope()
    executor.run(startup, scope=scope)
    feed = {"ids": LOOKUP["ids"]}
    grad_rows, got, got_merged = executor.run(main, feed, [grad, values, merged], scope)
    np.testing.assert_array_equal(got, grad_rows.value.array)
    assert got_merged.shape == (len(np.unique(grad_rows.rows)), 4)
