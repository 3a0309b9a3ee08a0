"""unbind (issue 24): PaddlePaddle's op whose output count is its spec's C++ expression
`axis<0 ? input.dims()[input.dims().size()+axis]:input.dims()[axis]` (codegen's SizeExpr).
Every registered dtype against numpy slicing, the registration against PaddlePaddle 3.3.1's
(float8 aside: phiops has no float8 dtype), edges, bad input, eager autograd through
unbind_grad (PaddlePaddle's `invoke : stack`), the static graph, and the legacy name."""

from __future__ import annotations

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.generated import backward as B
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test


def values_of(shape: tuple[int, ...], dtype: DataType) -> np.ndarray:
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 5
    if dtype.is_complex:
        values = values + 0.5j * values[::-1]
    if dtype is DataType.BOOL:
        values = values % 3 == 0
    elif dtype in (DataType.UINT8,):
        values = np.abs(values)
    return values.astype(dtype.numpy_dtype)


def test_registration_is_paddles_without_float8() -> None:
    paddle = {d for d in paddle_data()["kernels"]["unbind"] if not d.startswith("float8")}
    assert sorted(d.name.lower() for d in cpu_dtypes("unbind")) == sorted(paddle)


@op_test("unbind", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("unbind"), ids=lambda d: d.name.lower())
def test_unbind_matches_numpy(dtype: DataType) -> None:
    x = values_of((2, 3, 4), dtype)
    for axis in (0, 1, 2, -1, -3):
        pieces = C.unbind(phi.to_tensor(x), axis)
        want = [np.take(x, i, axis) for i in range(x.shape[axis])]
        assert len(pieces) == len(want)
        for piece, expected in zip(pieces, want):
            assert piece.dtype == dtype
            np.testing.assert_array_equal(piece.numpy(), expected)
        np.testing.assert_array_equal(B.unbind_grad(pieces, axis).numpy(), x)


@op_test("unbind", kind="edge")
def test_unbind_edges() -> None:
    strided = phi.to_tensor(np.arange(12.0).reshape(3, 4))[::2, 1::2]
    assert [p.numpy().tolist() for p in phiops.unbind(strided, axis=1)] == [[1, 9], [3, 11]]
    assert [p.shape for p in phiops.unbind(phi.to_tensor(np.zeros((2, 0))))] == [[0], [0]]
    assert phiops.unbind(phi.to_tensor(np.zeros((2, 0))), axis=1) == []
    assert [p.shape for p in phiops.unbind(phi.to_tensor([1.0, 2.0]))] == [[], []]
    assert len(strided.unbind(-1)) == 2
    # a result is a copy: writing it leaves the input alone
    x = phi.to_tensor(np.zeros((2, 2)))
    first = phiops.unbind(x)[0]
    first[0] = 5.0
    assert x.numpy().sum() == 0
    with pytest.raises(InvalidArgumentError, match="'input' must have at least 1 dimension"):
        phiops.unbind(phi.to_tensor(1.0))
    with pytest.raises((InvalidArgumentError, IndexError, ValueError), match="axis"):
        phiops.unbind(strided, axis=2)


def test_unbind_gradient_is_the_stacked_output_gradients() -> None:
    x = phi.to_tensor(np.arange(6.0).reshape(2, 3))
    x.stop_gradient = False
    pieces = phiops.unbind(x, axis=1)
    loss = (pieces[0] * 1.0).sum() + (pieces[2] * 3.0).sum()
    loss.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1.0, 0.0, 3.0], [1.0, 0.0, 3.0]])


def test_unbind_in_a_static_program_needs_the_axis_extent() -> None:
    import phiops.static as static

    phiops.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [-1, 3], "float32")
            pieces = phiops.unbind(x, axis=1)
            assert len(pieces) == 3
            total = phiops.add_n(pieces) if hasattr(phiops, "add_n") else pieces[0]
            with pytest.raises(InvalidArgumentError, match="known extent along axis 0"):
                phiops.unbind(x, axis=0)
        exe = static.Executor()
        feed = np.arange(6.0, dtype=np.float32).reshape(2, 3)
        (out,) = exe.run(main, feed={"x": feed}, fetch_list=[total])
    finally:
        phiops.disable_static()
    np.testing.assert_array_equal(out, feed.sum(axis=1))
