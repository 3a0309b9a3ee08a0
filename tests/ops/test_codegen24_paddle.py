"""``_C_ops.data`` and ``_C_ops.merge_selected_rows`` against PaddlePaddle 3.3.1, live (runs only
where PaddlePaddle is installed: the side venv)."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402


@pytest.mark.parametrize(
    "shape, dtype", [([2, 3], "float32"), ([4], "int64"), ([], "bool"), ([0, 5], "complex64")]
)
def test_eager_data_has_paddles_meta(shape: list, dtype: str) -> None:
    theirs = paddle._C_ops.data("x", shape, getattr(paddle, dtype), paddle.CPUPlace())
    ours = phi._C_ops.data("x", shape, dtype, phi.CPUPlace())
    assert ours.shape == list(theirs.shape)
    assert ours.dtype.name.lower() == str(theirs.dtype).removeprefix("paddle.")
    assert ours.stop_gradient is theirs.stop_gradient


def _run_program(library, feed: dict) -> np.ndarray:
    library.enable_static()
    try:
        main = library.static.Program()
        with library.static.program_guard(main, library.static.Program()):
            x = library.static.data("x", [-1, 3], "float64")
            z = library._C_ops.data("z", [2, 3], library.float64, library.CPUPlace())
            out = x * z - z
        exe = library.static.Executor(library.CPUPlace())
        (fetched,) = exe.run(main, feed=feed, fetch_list=[out])
    finally:
        library.disable_static()
    return np.asarray(fetched)


def test_a_program_with_data_reads_its_feed_as_paddles() -> None:
    feed = {"x": np.linspace(-1, 1, 6).reshape(2, 3), "z": np.arange(6.0).reshape(2, 3)}
    np.testing.assert_array_equal(_run_program(phi, feed), _run_program(paddle, feed))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_merge_selected_rows_agrees(dtype: str) -> None:
    ids = [[3, 3, 0], [5, 1, 3]]

    def merged(library):
        weight = library.zeros([6, 2], dtype)
        weight.stop_gradient = False
        out = library.nn.functional.embedding(library.to_tensor(ids), weight, sparse=True)
        (out * library.arange(12, dtype=dtype).reshape([2, 3, 2])).sum().backward()
        return library._C_ops.merge_selected_rows(weight.grad)

    theirs, ours = merged(paddle), merged(phi)
    assert ours.rows() == list(theirs.rows())
    assert ours.is_selected_rows() and theirs.is_selected_rows()
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
