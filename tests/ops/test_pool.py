"""pool2d against a float64 numpy reference that walks the windows as PHI's CPU functor does."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def reference_pool(x, ksize, strides, pads, ceil_mode, exclusive, kind, adaptive=False):
    """x [N, C, H, W]; ``pads`` (top, bottom, left, right); windows clipped to the input."""
    x = x.astype(np.float64)
    h, w = x.shape[2:]
    if adaptive:
        oh, ow = ksize
    else:
        extra = [s - 1 if ceil_mode else 0 for s in strides]
        oh = (h - ksize[0] + pads[0] + pads[1] + extra[0]) // strides[0] + 1
        ow = (w - ksize[1] + pads[2] + pads[3] + extra[1]) // strides[1] + 1
    out = np.zeros(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            if adaptive:
                h0, h1 = i * h // oh, -(-(i + 1) * h // oh)
                w0, w1 = j * w // ow, -(-(j + 1) * w // ow)
            else:
                h0, w0 = i * strides[0] - pads[0], j * strides[1] - pads[2]
                h1, w1 = min(h0 + ksize[0], h), min(w0 + ksize[1], w)
                h0, w0 = max(h0, 0), max(w0, 0)
            window = x[:, :, h0:h1, w0:w1]
            if kind == "max":
                out[:, :, i, j] = window.max(axis=(2, 3))
            else:
                size = (h1 - h0) * (w1 - w0) if exclusive or adaptive else ksize[0] * ksize[1]
                out[:, :, i, j] = window.sum(axis=(2, 3)) / size
    return out


def pool2d(
    x,
    ksize,
    strides=(1, 1),
    paddings=(0, 0),
    ceil_mode=False,
    exclusive=True,
    data_format="NCHW",
    kind="max",
    global_pooling=False,
    adaptive=False,
    algorithm="EXPLICIT",
):
    return phi.pool2d(
        phi.to_tensor(x),
        list(ksize),
        list(strides),
        list(paddings),
        ceil_mode,
        exclusive,
        data_format,
        kind,
        global_pooling,
        adaptive,
        algorithm,
    )


def assert_close(out, expected, dtype):
    assert out.dtype == dtype
    assert out.shape == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("pool2d", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("pool2d"))
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool2d_matches_the_reference(dtype, kind):
    x = sample((2, 3, 7, 6), dtype)
    out = pool2d(x, (3, 2), (2, 2), (1, 1), kind=kind)
    assert_close(out, reference_pool(x, (3, 2), (2, 2), (1, 1, 1, 1), False, True, kind), dtype)


@op_test("pool2d", kind="edge")
@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("exclusive", [True, False])
def test_pool2d_ceil_mode_with_asymmetric_paddings(kind, exclusive):
    x = sample((1, 2, 7, 6), D.FLOAT64)
    out = pool2d(x, (3, 3), (2, 2), (1, 0, 2, 1), True, exclusive, kind=kind)
    expected = reference_pool(x, (3, 3), (2, 2), (1, 0, 2, 1), True, exclusive, kind)
    assert_close(out, expected, D.FLOAT64)


@op_test("pool2d", kind="edge")
def test_pool2d_nhwc_equals_nchw_transposed():
    x = sample((2, 5, 4, 3), D.FLOAT64)
    out = pool2d(x, (2, 2), (2, 2), (1, 1), data_format="NHWC", kind="avg", exclusive=False)
    expected = reference_pool(
        x.transpose(0, 3, 1, 2), (2, 2), (2, 2), (1, 1, 1, 1), False, False, "avg"
    )
    assert_close(out, expected.transpose(0, 2, 3, 1), D.FLOAT64)


@op_test("pool2d", kind="edge")
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool2d_global_pooling_ignores_kernel_and_paddings(kind):
    x = sample((2, 3, 5, 4), D.FLOAT64)
    out = pool2d(x, (2, 2), (1, 1), (1, 1), kind=kind, global_pooling=True)
    reduce = np.max if kind == "max" else np.mean
    assert_close(out, reduce(x, axis=(2, 3), keepdims=True), D.FLOAT64)


@op_test("pool2d", kind="edge")
def test_pool2d_adaptive_average_uses_floor_and_ceil_windows():
    x = sample((1, 2, 7, 5), D.FLOAT64)
    out = pool2d(x, (3, 2), kind="avg", adaptive=True)
    assert_close(out, reference_pool(x, (3, 2), None, None, False, True, "avg", True), D.FLOAT64)


@op_test("pool2d", kind="edge")
def test_pool2d_adaptive_max_takes_the_adaptive_windows():
    x = sample((1, 2, 7, 5), D.FLOAT64)
    out = pool2d(x, (3, 2), kind="max", adaptive=True)
    assert_close(out, reference_pool(x, (3, 2), None, None, False, True, "max", True), D.FLOAT64)


@op_test("pool2d", kind="edge")
def test_pool2d_same_padding():
    x = sample((1, 1, 7, 6), D.FLOAT64)
    out = pool2d(x, (3, 2), (2, 2), (0, 0), kind="avg", algorithm="SAME")
    # out 4x3; pad totals (4-1)*2+3-7 = 2 -> (1, 1) and (3-1)*2+2-6 = 0
    assert_close(
        out, reference_pool(x, (3, 2), (2, 2), (1, 1, 0, 0), False, True, "avg"), D.FLOAT64
    )


@op_test("pool2d", kind="edge")
def test_pool2d_window_entirely_in_padding_gives_the_lowest_float_as_paddle():
    x = sample((1, 1, 5, 5), D.FLOAT32)
    out = pool2d(x, (2, 2), (2, 2), (1, 1), ceil_mode=True).numpy()
    assert out.shape == (1, 1, 4, 4)
    assert (out[0, 0, 3] == np.finfo(np.float32).min).all()


@op_test("pool2d", kind="edge")
def test_pool2d_rejects_an_unknown_pooling_type_and_a_3d_input():
    with pytest.raises(
        InvalidArgumentError, match=r"argument 'pooling_type' must be 'max' or 'avg', got 'sum'"
    ):
        pool2d(np.ones((1, 1, 4, 4)), (2, 2), kind="sum")
    with pytest.raises(
        InvalidArgumentError, match=r"pool2d\(\): argument 'x' of pool2d must be a 4-D tensor"
    ):
        pool2d(np.ones((1, 4, 4)), (2, 2))


@op_test("pool2d", kind="edge")
def test_pool2d_rejects_a_kernel_larger_than_the_padded_input():
    with pytest.raises(
        InvalidArgumentError, match=r"the output size along spatial dim 1 must be positive"
    ):
        pool2d(np.ones((1, 1, 4, 2)), (2, 4))


def reference_pool3d_max(x, ksize, strides):
    """Unpadded 3-D max pooling, one window at a time."""
    out_sp = [(s - k) // st + 1 for s, k, st in zip(x.shape[2:], ksize, strides)]
    out = np.zeros(x.shape[:2] + tuple(out_sp))
    for index in np.ndindex(*out_sp):
        window = tuple(slice(i * st, i * st + k) for i, st, k in zip(index, strides, ksize))
        out[(slice(None), slice(None)) + index] = x[(slice(None), slice(None)) + window].max(
            axis=(2, 3, 4)
        )
    return out


@op_test("pool3d", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("pool3d"))
def test_pool3d_max_matches_the_reference(dtype):
    x = sample((2, 2, 5, 4, 6), dtype)
    out = phi.pool3d(
        phi.to_tensor(x),
        [2, 2, 3],
        [1, 2, 3],
        [0, 0, 0],
        False,
        True,
        "NCDHW",
        "max",
        False,
        False,
        "EXPLICIT",
    )
    assert_close(out, reference_pool3d_max(x, (2, 2, 3), (1, 2, 3)), dtype)


@op_test("pool3d", kind="edge")
def test_pool3d_global_average_ndhwc():
    x = sample((2, 3, 4, 2, 5), D.FLOAT64)
    out = phi.pool3d(
        phi.to_tensor(x),
        [1, 1, 1],
        [1, 1, 1],
        [0, 0, 0],
        False,
        True,
        "NDHWC",
        "avg",
        True,
        False,
        "EXPLICIT",
    )
    assert_close(out, x.mean(axis=(1, 2, 3), keepdims=True), D.FLOAT64)


@op_test("pool3d", kind="edge")
def test_pool3d_rejects_a_2d_kernel():
    with pytest.raises(InvalidArgumentError, match=r"argument 'kernel_size' must hold 3 values"):
        phi.pool3d(
            phi.to_tensor(np.ones((1, 1, 3, 3, 3))),
            [2, 2],
            [1, 1, 1],
            [0, 0, 0],
            False,
            True,
            "NCDHW",
            "max",
            False,
            False,
            "EXPLICIT",
        )


@op_test("max_pool2d_with_index", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("max_pool2d_with_index"))
def test_max_pool2d_with_index_returns_the_maxima_and_their_flat_positions(dtype):
    x = sample((2, 3, 7, 6), dtype)
    out, mask = phi.max_pool2d_with_index(phi.to_tensor(x), [3, 2], [2, 2], [1, 1])
    assert_close(out, reference_pool(x, (3, 2), (2, 2), (1, 1, 1, 1), False, True, "max"), dtype)
    assert mask.dtype == D.INT32
    planes = x.reshape(2, 3, -1)
    picked = np.take_along_axis(planes, mask.numpy().reshape(2, 3, -1), axis=2)
    np.testing.assert_array_equal(picked.reshape(out.shape), out.numpy())


@op_test("max_pool2d_with_index", kind="edge")
def test_max_pool2d_with_index_names_the_first_of_tied_maxima():
    x = np.zeros((1, 1, 2, 2), np.float32)
    out, mask = phi.max_pool2d_with_index(phi.to_tensor(x), [2, 2], [2, 2])
    assert mask.numpy().tolist() == [[[[0]]]]


@op_test("max_pool2d_with_index", kind="edge")
def test_max_pool2d_with_index_adaptive():
    x = sample((1, 2, 7, 5), D.FLOAT64)
    out, mask = phi.max_pool2d_with_index(phi.to_tensor(x), [3, 2], adaptive=True)
    expected = reference_pool(x, (3, 2), None, None, False, True, "max", True)
    assert_close(out, expected, D.FLOAT64)
    picked = np.take_along_axis(x.reshape(1, 2, -1), mask.numpy().reshape(1, 2, -1), axis=2)
    np.testing.assert_array_equal(picked.reshape(expected.shape), expected)


def _max_pool_grad(x: np.ndarray, data_format: str = "NCHW") -> np.ndarray:
    t = phi.to_tensor(x, stop_gradient=False)
    out = phi.pool2d(
        t, [2, 2], [2, 2], [0, 0], False, True, data_format, "max", False, False, "EXPLICIT"
    )
    # weights numbered in NCHW order whatever the layout
    n, c, h, w = x.shape if data_format == "NCHW" else np.array(x.shape)[[0, 3, 1, 2]]
    weights = np.arange(1.0, n * c * (h // 2) * (w // 2) + 1).reshape(n, c, h // 2, w // 2)
    if data_format == "NHWC":
        weights = weights.transpose(0, 2, 3, 1)
    (grad,) = phi.grad(phi.sum(phi.multiply(out, phi.to_tensor(weights))), [t])
    return grad.numpy()


@op_test("pool2d", kind="edge")
def test_max_pool_gradient_on_tiling_windows_goes_to_the_first_maximum():
    """2x2 windows with stride 2: each window's gradient goes to its maximum; a tie gives it to
    the first of the tied elements in row-major order, a window with NaN gives none."""
    x = np.array(
        [
            [
                [
                    [1.0, 5.0, 2.0, 2.0],
                    [3.0, 4.0, 2.0, 2.0],
                    [0.0, 0.0, np.nan, 1.0],
                    [9.0, 0.0, 0.0, 0.0],
                ]
            ]
        ]
    )
    expected = np.array(
        [[[[0.0, 1.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [3.0, 0.0, 0.0, 0.0]]]]
    )
    np.testing.assert_array_equal(_max_pool_grad(x), expected)
    distinct = np.random.default_rng(4).permutation(2 * 3 * 4 * 6).reshape(2, 3, 4, 6) * 1.0
    grad = _max_pool_grad(distinct)
    blocks = distinct.reshape(2, 3, 2, 2, 3, 2)
    winners = blocks == blocks.max(axis=(3, 5), keepdims=True)
    assert (grad != 0).reshape(blocks.shape).tolist() == winners.tolist()
    np.testing.assert_array_equal(
        _max_pool_grad(distinct.transpose(0, 2, 3, 1), "NHWC"), grad.transpose(0, 2, 3, 1)
    )


def test_average_without_exclusive_divides_ceil_mode_windows_as_paddle() -> None:
    # PaddlePaddle 3.3.1: F.avg_pool2d(arange(36).reshape(1,1,6,6), 3, 2, 1, ceil_mode=True,
    # exclusive=False); the last, clipped row and column divide by the window counted from its
    # start up to the input's end plus the leading padding, not by 9.
    import phiops.nn.functional as F

    x = phi.to_tensor(np.arange(36, dtype="float32").reshape(1, 1, 6, 6), stop_gradient=False)
    out = F.avg_pool2d(x, kernel_size=3, stride=2, padding=1, ceil_mode=True, exclusive=False)
    expected = [
        [1.5556, 3.3333, 4.6667, 2.6667],
        [8.3333, 14.0, 16.0, 8.5],
        [16.3333, 26.0, 28.0, 14.5],
        [10.1667, 16.0, 17.0, 8.75],
    ]
    np.testing.assert_allclose(out.numpy()[0, 0], expected, atol=1e-4)
    (out * phi.to_tensor(np.arange(16, dtype="float32").reshape(1, 1, 4, 4))).sum().backward()
    np.testing.assert_allclose(
        x.grad.numpy()[0, 0, -1],
        [2.888889, 6.055556, 3.166667, 6.611111, 3.444445, 9.027779],
        rtol=1e-5,
    )


def test_average_without_exclusive_and_no_padding_counts_only_the_input() -> None:
    # PaddlePaddle 3.3.1 gives 1.0 everywhere for ones [1,1,6,6], kernel 3, stride 2, padding 0,
    # ceil_mode=True, exclusive=False (the overhanging last window divides by 6, not 9).
    import phiops.nn.functional as F

    out = F.avg_pool2d(phi.ones([1, 1, 6, 6]), 3, 2, 0, ceil_mode=True, exclusive=False)
    np.testing.assert_allclose(out.numpy(), np.ones((1, 1, 3, 3)), rtol=1e-6)


_GLOBAL_ADAPTIVE_X = [[[[1.0, 5.0, 2.0], [3.0, 0.0, 4.0], [2.0, 2.0, 1.0]]]]


def test_max_pool2d_with_index_global_and_adaptive_keeps_the_input_as_paddle() -> None:
    # PaddlePaddle 3.3.1: _C_ops.max_pool2d_with_index(x, [2, 2], [1, 1], [0, 0], True, True,
    # False) gives x itself, the mask 0..8, and passes the gradient through.
    x = phi.to_tensor(np.array(_GLOBAL_ADAPTIVE_X, "float32"), stop_gradient=False)
    out, mask = phi.max_pool2d_with_index(x, [2, 2], [1, 1], [0, 0], True, True, False)
    assert out.shape == [1, 1, 3, 3] and mask.shape == [1, 1, 3, 3]
    np.testing.assert_array_equal(out.numpy(), _GLOBAL_ADAPTIVE_X)
    np.testing.assert_array_equal(mask.numpy().ravel(), np.arange(9))
    (grad,) = phi.grad([out], [x], [phi.to_tensor(np.arange(9, dtype="float32").reshape(x.shape))])
    np.testing.assert_array_equal(grad.numpy().ravel(), np.arange(9))


@pytest.mark.parametrize(
    "pooling, expected, expected_grad",
    [
        # PaddlePaddle 3.3.1's CPU max ignores `adaptive` but for the output's dims: regular
        # windows of the whole extent from each position (stride 1), clipped at the end
        ("max", [5, 5, 4, 4, 4, 4, 2, 2, 1], [0, 1, 0, 0, 0, 14, 6, 7, 8]),
        ("avg", [1, 5, 2, 3, 0, 4, 2, 2, 1], list(range(9))),
    ],
)
def test_pool2d_global_and_adaptive_as_paddle(
    pooling: str, expected: list, expected_grad: list
) -> None:
    x = phi.to_tensor(np.array(_GLOBAL_ADAPTIVE_X, "float32"), stop_gradient=False)
    out = phi.pool2d(
        x, [2, 2], [1, 1], [0, 0], False, True, "NCHW", pooling, True, True, "EXPLICIT"
    )
    np.testing.assert_array_equal(out.numpy().ravel(), expected)
    (grad,) = phi.grad([out], [x], [phi.to_tensor(np.arange(9, dtype="float32").reshape(x.shape))])
    np.testing.assert_array_equal(grad.numpy().ravel(), expected_grad)


def test_geometries_made_once_per_shape_keep_max_and_average_apart() -> None:
    # pool2d_kernel keeps one geometry per shape and attributes; global + adaptive max changes
    # its windows (PHI's functor), so max and average of the same call each keep their own
    x = sample((1, 2, 3, 4), D.FLOAT32, seed=5)
    args = ([1, 1], [1, 1], [0, 0], False, True, "NCHW")
    tail_max = np.array(
        [[[[x[0, c, i:, j:].max() for j in range(4)] for i in range(3)] for c in range(2)]]
    )
    for _ in range(2):
        for kind, expected in (("max", tail_max), ("avg", x)):
            out = phi.pool2d(phi.to_tensor(x), *args, kind, True, True, "EXPLICIT").numpy()
            np.testing.assert_array_equal(out, expected)
