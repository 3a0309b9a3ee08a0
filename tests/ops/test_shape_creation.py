"""split_with_num, add_n, tile, flip, roll, pad, pad3d, tril, triu, cumsum, cumprod, eye,
full_int_array, meshgrid, diag against numpy references for every registered dtype; edges
and bad input."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample

T = phi.to_tensor

# op -> (phi call on an array, numpy reference on the same array), on a [3, 4] input
UNARY: dict[str, tuple[Callable[[np.ndarray], Any], Callable[[np.ndarray], Any]]] = {
    "split_with_num": (
        lambda a: phi.split_with_num(T(a), 2, 1),
        lambda a: np.split(a, 2, axis=1),
    ),
    "add_n": (lambda a: phi.add_n([T(a), T(a), T(a)]), lambda a: a + a + a),
    "tile": (lambda a: phi.tile(T(a), [2, 1, 2]), lambda a: np.tile(a, (2, 1, 2))),
    "flip": (lambda a: phi.flip(T(a), [0, -1]), lambda a: a[::-1, ::-1]),
    "roll": (lambda a: phi.roll(T(a), [1, -1], [0, 1]), lambda a: np.roll(a, (1, -1), (0, 1))),
    "pad": (
        lambda a: phi.pad(T(a), [1, 0, 0, 2], 5),
        lambda a: np.pad(a, ((1, 0), (0, 2)), constant_values=5),
    ),
    "tril": (lambda a: phi.tril(T(a), 1), lambda a: np.tril(a, 1)),
    "triu": (lambda a: phi.triu(T(a), -1), lambda a: np.triu(a, -1)),
    "cumsum": (lambda a: phi.cumsum(T(a), 1), lambda a: np.cumsum(a, 1, dtype=a.dtype)),
    "cumprod": (lambda a: phi.cumprod(T(a), 0), lambda a: np.cumprod(a, 0, dtype=a.dtype)),
    "diag": (lambda a: phi.diag(T(a), 1), lambda a: np.diagonal(a, 1)),
}


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


@op_test(*UNARY, kind="dtypes")
@pytest.mark.parametrize("op", list(UNARY))
def test_shape_op_matches_numpy_for_every_dtype(op: str) -> None:
    call, reference = UNARY[op]
    for dtype in cpu_dtypes(op):
        a = sample((3, 4), dtype, low=-3, high=3)
        got, expected = _as_list(call(a)), _as_list(reference(a))
        assert len(got) == len(expected)
        for mine, theirs in zip(got, expected):
            assert mine.dtype is dtype, (op, dtype)
            np.testing.assert_array_equal(mine.numpy(), theirs)


_NUMPY_MODE = {
    "constant": "constant",
    "reflect": "reflect",
    "replicate": "edge",
    "circular": "wrap",
}


@op_test("pad3d", kind="dtypes")
@pytest.mark.parametrize("mode", list(_NUMPY_MODE))
def test_pad3d_modes_match_numpy(mode: str) -> None:
    for dtype in cpu_dtypes("pad3d"):
        a = sample((1, 2, 2, 3, 4), dtype)
        out = phi.pad3d(T(a), [2, 1, 1, 2, 1, 0], mode, 0.0, "NCDHW")
        widths = ((0, 0), (0, 0), (1, 0), (1, 2), (2, 1))
        np.testing.assert_array_equal(out.numpy(), np.pad(a, widths, mode=_NUMPY_MODE[mode]))
        channels_last = phi.pad3d(T(np.moveaxis(a, 1, -1)), [2, 1, 1, 2, 1, 0], mode, 0.0, "NDHWC")
        np.testing.assert_array_equal(np.moveaxis(channels_last.numpy(), -1, 1), out.numpy())


@op_test("pad3d", kind="edge")
@pytest.mark.parametrize(
    "shape, paddings, mode, fmt, message",
    [
        ((2, 3), [1] * 6, "constant", "NCDHW", "5 dimensions"),
        ((1, 1, 1, 2, 3), [3, 0, 0, 0, 0, 0], "reflect", "NCDHW", "mode 'reflect'"),
        ((1, 1, 1, 2, 3), [1] * 6, "edge", "NCDHW", "argument 'mode'"),
        ((1, 1, 1, 2, 3), [1] * 4, "constant", "NCDHW", "6 values"),
        ((1, 1, 1, 2, 3), [1] * 6, "constant", "NCHW", "data_format"),
    ],
)
def test_pad3d_rejects_bad_input(
    shape: tuple[int, ...], paddings: list[int], mode: str, fmt: str, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        phi.pad3d(T(np.ones(shape)), paddings, mode, 0.0, fmt)


def test_pad3d_constant_value_and_circular_wrapping_past_the_size() -> None:
    a = np.arange(6.0).reshape(1, 1, 1, 2, 3)
    out = phi.pad3d(T(a), [4, 0, 0, 0, 0, 0], "circular", 0.0, "NCDHW")
    np.testing.assert_array_equal(
        out.numpy()[0, 0, 0], [[2, 0, 1, 2, 0, 1, 2], [5, 3, 4, 5, 3, 4, 5]]
    )
    out = phi.pad3d(T(a), [1, 0, 0, 0, 0, 0], "constant", 9.0, "NCDHW")
    assert out.numpy()[0, 0, 0, 0, 0] == 9.0


@op_test(*UNARY, kind="edge")
def test_shape_op_edges_and_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="must divide"):
        phi.split_with_num(T(np.ones(5)), 2, 0)
    with pytest.raises(InvalidArgumentError, match="'num' must be > 0"):
        phi.split_with_num(T(np.ones(4)), 0, 0)
    assert [p.shape for p in phi.split_with_num(T(np.ones((0, 4))), 2, -1)] == [[0, 2], [0, 2]]
    with pytest.raises(InvalidArgumentError, match="inputs\\[1\\]"):
        phi.add_n([T(np.ones((2, 3))), T(np.ones(3))])
    assert phi.add_n([T(np.array(1.5))]).numpy() == 1.5
    assert phi.tile(T(np.ones((2, 3))), [0, 1]).shape == [0, 3]
    assert phi.tile(T(np.array(2.0)), [3]).shape == [3]
    with pytest.raises(InvalidArgumentError, match="repeat_times"):
        phi.tile(T(np.ones(2)), [-1])
    with pytest.raises(InvalidArgumentError, match="twice"):
        phi.flip(T(np.ones((2, 3))), [0, -2])
    with pytest.raises(InvalidArgumentError, match="axis"):
        phi.flip(T(np.ones((2, 3))), [2])
    with pytest.raises(InvalidArgumentError, match="one entry per entry"):
        phi.roll(T(np.ones((2, 3))), [1, 2], [0])
    with pytest.raises(InvalidArgumentError, match="one value when argument 'axis' is empty"):
        phi.roll(T(np.ones((2, 3))), [1, 2], [])
    with pytest.raises(InvalidArgumentError, match="2 values per dimension"):
        phi.pad(T(np.ones((2, 3))), [1, 1], 0.0)
    with pytest.raises(InvalidArgumentError, match=">= 0"):
        phi.pad(T(np.ones((2, 3))), [-1, 1, 0, 0], 0.0)
    for op in (phi.tril, phi.triu):
        with pytest.raises(InvalidArgumentError, match="at least 2 dimensions"):
            op(T(np.ones(3)), 0)
        assert op(T(np.ones((2, 0, 3))), 0).shape == [2, 0, 3]
    np.testing.assert_array_equal(
        phi.cumsum(T(np.ones((2, 3))), flatten=True).numpy(), np.arange(1, 7)
    )
    np.testing.assert_array_equal(
        phi.cumsum(T(np.array([1, 2, 3])), 0, False, True, True).numpy(), [5, 3, 0]
    )
    assert phi.cumsum(T(np.array(4.0))).numpy() == 4.0
    np.testing.assert_array_equal(
        phi.cumprod(T(np.array([2.0, 3.0, 4.0])), 0, True, False).numpy(), [1, 2, 6]
    )
    with pytest.raises(InvalidArgumentError, match="axis"):
        phi.cumsum(T(np.ones((2, 3))), 2)
    with pytest.raises(InvalidArgumentError, match="axis"):
        phi.cumprod(T(np.ones((2, 3))), -3)
    np.testing.assert_array_equal(
        phi.diag(T(np.array([1.0, 2.0])), -1, 9.0).numpy(), [[9, 9, 9], [1, 9, 9], [9, 2, 9]]
    )
    assert phi.diag(T(np.ones((2, 3))), 5).shape == [0]
    assert phi.diag(T(np.array(3.0))).numpy().tolist() == [[3.0]]
    with pytest.raises(InvalidArgumentError, match="1 or 2 dimensions"):
        phi.diag(T(np.ones((2, 2, 2))))


@op_test("eye", "full_int_array", kind="dtypes")
def test_creation_ops_for_every_dtype() -> None:
    for dtype in cpu_dtypes("eye"):
        out = phi.eye(3, 4, dtype)
        assert out.dtype is dtype
        np.testing.assert_array_equal(out.numpy(), np.eye(3, 4))
    for dtype in cpu_dtypes("full_int_array"):
        out = phi.full_int_array([4, -2, 0], dtype)
        assert out.dtype is dtype
        np.testing.assert_array_equal(out.numpy(), [4, -2, 0])


@op_test("eye", "full_int_array", kind="edge")
def test_creation_edges() -> None:
    assert phi.eye(3, -1).shape == [3, 3]
    assert phi.eye(0, 2).shape == [0, 2]
    with pytest.raises(InvalidArgumentError, match="num_rows"):
        phi.eye(-2, 3)
    assert phi.full_int_array([], phi.int64).shape == [0]


@op_test("meshgrid", kind="dtypes")
def test_meshgrid_for_every_dtype() -> None:
    for dtype in cpu_dtypes("meshgrid"):
        a, b = sample((3,), dtype), sample((2,), dtype, seed=1)
        got = phi.meshgrid([T(a), T(b)])
        for mine, theirs in zip(got, np.meshgrid(a, b, indexing="ij")):
            assert mine.dtype is dtype
            np.testing.assert_array_equal(mine.numpy(), theirs)


@op_test("meshgrid", kind="edge")
def test_meshgrid_edges() -> None:
    assert [o.shape for o in phi.meshgrid([T(np.array(1.0)), T(np.ones(3))])] == [[1, 3], [1, 3]]
    assert [o.shape for o in phi.meshgrid([T(np.ones(0)), T(np.ones(2))])] == [[0, 2], [0, 2]]
    with pytest.raises(InvalidArgumentError, match="0-D or 1-D"):
        phi.meshgrid([T(np.ones((2, 2))), T(np.ones(3))])


@op_test("arange", "linspace", kind="dtypes")
def test_arange_and_linspace_for_every_dtype() -> None:
    for dtype in cpu_dtypes("arange"):
        out = phi.arange(1, 9, 2, dtype)
        assert out.dtype is dtype
        np.testing.assert_array_equal(out.numpy(), [1, 3, 5, 7])
    for dtype in cpu_dtypes("linspace"):
        out = phi.linspace(0, 8, 5, dtype, phi.CPUPlace())
        assert out.dtype is dtype
        np.testing.assert_array_equal(out.numpy(), [0, 2, 4, 6, 8])


@op_test("arange", "linspace", kind="edge")
def test_arange_and_linspace_edges() -> None:
    np.testing.assert_allclose(phi.arange(0, 1, 0.25, phi.float64).numpy(), [0, 0.25, 0.5, 0.75])
    np.testing.assert_array_equal(phi.arange(5, 0, -2, phi.int64).numpy(), [5, 3, 1])
    assert phi.arange(5, 0, 1, phi.int64).shape == [0]
    assert phi.arange(T(np.array([2])), T(np.array([6])), 2, phi.int64).numpy().tolist() == [2, 4]
    with pytest.raises(InvalidArgumentError, match="'step' must not be 0"):
        phi.arange(0, 5, 0, phi.int64)
    place = phi.CPUPlace()
    np.testing.assert_array_equal(phi.linspace(0, 10, 4, phi.int64, place).numpy(), [0, 3, 6, 10])
    assert phi.linspace(2.0, 5.0, 1, phi.float32, place).numpy().tolist() == [2.0]
    assert phi.linspace(2.0, 5.0, 0, phi.float32, place).shape == [0]
    assert phi.linspace(0.0, 1.0, 7, phi.float64, place).numpy()[-1] == 1.0
    with pytest.raises(InvalidArgumentError, match="'number' must be >= 0"):
        phi.linspace(0.0, 1.0, -1, phi.float32, place)


@op_test("arange", kind="edge")
def test_arange_converts_start_end_and_step_to_the_dtype_first() -> None:
    """As PaddlePaddle 3.3.1 (values read from paddle._C_ops.arange): 0.5, 3.7 and 1.0 become
    0, 3 and 1 in int32 (numpy's arange would give 4 values); -2.5, 3.7, 1.5 become -2, 3, 1."""
    f32 = lambda v: T(np.array(v, np.float32))  # noqa: E731
    assert phi.arange(f32(0.5), f32(3.7), f32(1.0), phi.int32).numpy().tolist() == [0, 1, 2]
    assert phi.arange(0.5, 3.7, 1.0, phi.int32).numpy().tolist() == [0, 1, 2]
    assert phi.arange(-2.5, 3.7, 1.5, phi.int64).numpy().tolist() == [-2, -1, 0, 1, 2]
    with pytest.raises(InvalidArgumentError, match="'step' must not be 0 once converted"):
        phi.arange(0, 5, 0.5, phi.int64)


@op_test("arange", kind="edge")
def test_float32_arange_adds_step_in_float32() -> None:
    """PHI's kernel repeats ``value += step`` in float32: from 0.1 by 0.1 the eighth and ninth
    values are 0.80000007 and 0.90000010 (PaddlePaddle's bits), not 0.8 and 0.9."""
    out = phi.arange(T(np.float64(0.1)), T(np.float64(1.0)), T(np.float64(0.1)), phi.float32)
    assert out.numpy()[-2:].tolist() == [0.8000000715255737, 0.9000000953674316]
    assert out.shape == [9]


@op_test("arange", "linspace", kind="edge")
def test_ranges_take_one_element_tensors_of_any_dtype_and_reject_larger_ones() -> None:
    place = phi.CPUPlace()
    assert phi.arange(T(5), T(np.int32(8)), T(1), phi.int64).numpy().tolist() == [5, 6, 7]
    got = phi.linspace(T(np.float32(0.5)), T(np.float32(3.7)), T(4), phi.int32, place)
    assert got.numpy().tolist() == [0, 1, 2, 3]
    with pytest.raises(InvalidArgumentError, match="arange.*'start'.*exactly 1 element"):
        phi.arange(T(np.array([1, 2])), 9, 2, phi.float32)
    with pytest.raises(InvalidArgumentError, match="linspace.*'number'.*exactly 1 element"):
        phi.linspace(0.0, 1.0, T(np.array([5, 6])), phi.float32, place)
    with pytest.raises(InvalidArgumentError, match="linspace.*'number'.*integer"):
        phi.linspace(0.0, 1.0, T(np.float32(4.7)), phi.float32, place)


@op_test("arange", kind="edge")
def test_arange_rejects_bounds_that_are_not_finite() -> None:
    with pytest.raises(InvalidArgumentError, match="arange.*'end' must be a finite"):
        phi.arange(0.0, float("inf"), 1.0, phi.float32)
    with pytest.raises(InvalidArgumentError, match="arange.*'start' must be a finite"):
        phi.arange(T(np.float32("nan")), 1.0, 1.0, phi.float64)
