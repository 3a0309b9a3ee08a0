"""Tensor arrays, merge_selected_rows and strings against PaddlePaddle 3.3.1, live: PaddlePaddle
loads the JSON of the phiops-built tensor-array programs (tests/tarray/) and runs them with
phiops's results; the string ops and the merge agree on fresh inputs. Runs only where
PaddlePaddle is installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
import phiops.strings as phi_strings  # noqa: E402
from paddle.base import core  # noqa: E402
from tests.tarray.test_tensor_array_static import BUILDERS, TARRAY  # noqa: E402


def _values_in_print_order(program) -> dict:
    """The top-level results of a phiops program by their printed names."""
    from phiops.runtime.ir.printer import Namer

    namer = Namer()
    namer.name_block(program.block)
    return dict(namer.names)


def _paddle_names(ops, names=None) -> dict:
    """PaddlePaddle's values by their printed names: results numbered in print order, a while
    op's before those of its body."""
    names = {} if names is None else names
    for op in ops:
        for result in op.results():
            names[f"%{len(names)}"] = result
        if op.name() == "pd_op.while":
            _paddle_names(op.as_while_op().body().ops, names)
    return names


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_paddle_runs_the_phiops_built_program_with_phiops_results(name: str, tmp_path: Path) -> None:
    phi.enable_static()
    try:
        main, fetch = BUILDERS[name]()
        feed = {"x": np.load(TARRAY / f"{name}.npz")["feed_x"]}
        ours = phi.static.Executor().run(main, feed, fetch)
    finally:
        phi.disable_static()
    names = _values_in_print_order(main)
    fetch_names = [names[v] for v in fetch]
    path = tmp_path / "program.json"
    phi.ir.save_program_json(main, path)
    paddle.enable_static()
    try:
        loaded = paddle.static.Program()
        core.deserialize_pir_program(str(path), loaded, -1)
        # as phiops loads it back (the JSON keeps no stop_gradient of block arguments)
        assert str(loaded) == str(phi.ir.load_program_json(path))
        by_name = _paddle_names(loaded.global_block().ops)
        theirs = paddle.static.Executor(paddle.CPUPlace()).run(
            loaded, feed=feed, fetch_list=[by_name[n] for n in fetch_names]
        )
    finally:
        paddle.disable_static()
    for position, (got, want) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=f"fetch {position}")


@pytest.mark.parametrize("name", ["lower", "upper"])
def test_utf8_case_conversion_agrees(name: str) -> None:
    words = np.array([["Grüße AUS Köln", "ǅemal ǈudevit", "ΚΑΛΗΜΈΡΑ"], ["İstanbul", "ẞ ß", "plain ascii"]])
    theirs = getattr(paddle._C_ops, f"strings_{name}")(core.eager.StringTensor(words, "w"), True)
    ours = getattr(phi_strings, name)(phi_strings.to_string_tensor(words.tolist()), True)
    assert ours.numpy().tolist() == theirs.numpy().tolist()


def test_merge_selected_rows_agrees() -> None:
    from tests.tarray.test_merge_selected_rows import _merge
    from phiops.runtime.common import DataType

    ids = [[5, 2, 5, 0], [2, 2, 7, 5]]
    weight = paddle.zeros([8, 3], "float64")
    weight.stop_gradient = False
    out = paddle.nn.functional.embedding(paddle.to_tensor(ids), weight, sparse=True)
    (out * paddle.arange(24, dtype="float64").reshape([2, 4, 3])).sum().backward()
    theirs = paddle._C_ops.merge_selected_rows(weight.grad)
    ours_weight = phi.zeros([8, 3], "float64")
    ours_weight.stop_gradient = False
    ours_out = phi.nn.functional.embedding(phi.to_tensor(ids), ours_weight, sparse=True)
    (ours_out * phi.arange(24, dtype="float64").reshape([2, 4, 3])).sum().backward()
    ours = _merge(ours_weight.grad.array, DataType.FLOAT64)
    assert ours.rows.tolist() == list(theirs.rows())
    np.testing.assert_array_equal(ours.value.array, theirs.numpy())
