"""max_pool3d_with_index (convpool family) against a float64 numpy reference that walks the
windows as PHI's MaxPool3dWithIndexFunctor does: windows clipped to the input, the mask the flat
index d * H * W + h * W + w of the first maximum in row-major window order."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType


def reference(x, ksize, strides, pads, ceil_mode=False, adaptive=False):
    """(out, mask) of a 3-D max pool with index, one window at a time."""
    spatial = x.shape[2:]
    if adaptive:
        out_sp = list(ksize)
    else:
        extra = [s - 1 if ceil_mode else 0 for s in strides]
        out_sp = [
            (size - k + 2 * p + e) // s + 1
            for size, k, p, s, e in zip(spatial, ksize, pads, strides, extra)
        ]
    out = np.zeros(x.shape[:2] + tuple(out_sp), np.float64)
    mask = np.zeros(out.shape, np.int64)
    for index in np.ndindex(*out_sp):
        bounds = []
        for i, size, o, k, s, p in zip(index, spatial, out_sp, ksize, strides, pads):
            if adaptive:
                bounds.append((i * size // o, -(-(i + 1) * size // o)))
            else:
                start = i * s - p
                bounds.append((max(start, 0), min(start + k, size)))
        for n, c in np.ndindex(*x.shape[:2]):
            best, where = -np.inf, 0
            for pos in np.ndindex(*[b - a for a, b in bounds]):
                coords = [a + q for (a, _), q in zip(bounds, pos)]
                value = x[(n, c, *coords)]
                if value > best:
                    best = value
                    where = (coords[0] * spatial[1] + coords[1]) * spatial[2] + coords[2]
            out[(n, c) + index], mask[(n, c) + index] = best, where
    return out, mask


def check(out, mask, expected, dtype):
    assert out.dtype == dtype and mask.dtype == D.INT32
    assert out.shape == list(expected[0].shape) == mask.shape
    np.testing.assert_allclose(out.numpy(), expected[0], **tolerance(dtype))
    np.testing.assert_array_equal(mask.numpy(), expected[1])


@op_test("max_pool3d_with_index", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("max_pool3d_with_index"), ids=lambda d: d.name.lower())
def test_max_pool3d_with_index_returns_the_maxima_and_their_flat_positions(dtype):
    x = sample((2, 2, 5, 4, 6), dtype)
    out, mask = phi.max_pool3d_with_index(phi.to_tensor(x), [2, 3, 2], [2, 1, 2], [1, 1, 0])
    check(out, mask, reference(x, (2, 3, 2), (2, 1, 2), (1, 1, 0)), dtype)


@op_test("max_pool3d_with_index", kind="edge")
def test_max_pool3d_with_index_adaptive_and_ceil_mode():
    x = sample((1, 2, 5, 7, 3), D.FLOAT64)
    out, mask = phi.max_pool3d_with_index(phi.to_tensor(x), [2, 3, 3], adaptive=True)
    check(out, mask, reference(x, (2, 3, 3), (1, 1, 1), (0, 0, 0), adaptive=True), D.FLOAT64)
    out, mask = phi.max_pool3d_with_index(
        phi.to_tensor(x), [2, 2, 2], [2, 2, 2], [0, 0, 0], ceil_mode=True
    )
    check(out, mask, reference(x, (2, 2, 2), (2, 2, 2), (0, 0, 0), ceil_mode=True), D.FLOAT64)


@op_test("max_pool3d_with_index", kind="edge")
def test_max_pool3d_with_index_names_the_first_of_tied_maxima_and_global_pools_all():
    x = np.zeros((1, 1, 2, 2, 2), np.float32)
    out, mask = phi.max_pool3d_with_index(phi.to_tensor(x), [2, 2, 2], [2, 2, 2])
    assert mask.numpy().tolist() == [[[[[0]]]]]
    y = sample((2, 3, 3, 4, 2), D.FLOAT32)
    out, mask = phi.max_pool3d_with_index(phi.to_tensor(y), [1, 1, 1], global_pooling=True)
    assert out.shape == [2, 3, 1, 1, 1]
    np.testing.assert_array_equal(out.numpy().reshape(2, 3), y.reshape(2, 3, -1).max(-1))
    np.testing.assert_array_equal(mask.numpy().reshape(2, 3), y.reshape(2, 3, -1).argmax(-1))


@op_test("max_pool3d_with_index", kind="edge")
def test_max_pool3d_with_index_empty_batch_and_non_contiguous_input():
    out, mask = phi.max_pool3d_with_index(
        phi.to_tensor(np.zeros((0, 2, 4, 4, 4), np.float32)), [2, 2, 2], [2, 2, 2]
    )
    assert out.shape == [0, 2, 2, 2, 2] and mask.shape == [0, 2, 2, 2, 2]
    base = sample((2, 4, 3, 5, 4), D.FLOAT64)
    x = np.transpose(base, (0, 1, 4, 3, 2))  # a non-contiguous view
    out, mask = phi.max_pool3d_with_index(phi.to_tensor(x), [2, 2, 2], [1, 2, 2], [0, 1, 1])
    check(out, mask, reference(x, (2, 2, 2), (1, 2, 2), (0, 1, 1)), D.FLOAT64)


@op_test("max_pool3d_with_index", kind="edge")
@pytest.mark.parametrize(
    "shape, kwargs, match",
    [
        ((2, 3, 4, 4), {}, "4-D or 5-D|paddings"),
        ((1, 1, 4, 4, 4), {"paddings": [0, 0]}, "paddings"),
        ((1, 1, 2, 2, 2), {"kernel_size": [3, 3, 3]}, "must be positive"),
    ],
)
def test_max_pool3d_with_index_rejects_bad_arguments(shape, kwargs, match):
    args = {"kernel_size": [2, 2, 2], "strides": [1, 1, 1], "paddings": [0, 0, 0], **kwargs}
    with pytest.raises(InvalidArgumentError, match=match):
        phi.max_pool3d_with_index(phi.to_tensor(np.ones(shape, np.float32)), **args)


@op_test("max_pool3d_with_index", kind="edge")
@pytest.mark.parametrize(
    "dtype", cpu_dtypes("max_pool3d_with_index_grad"), ids=lambda d: d.name.lower()
)
def test_max_pool3d_with_index_grad_sends_each_gradient_to_its_maximum(dtype):
    x = sample((2, 2, 4, 5, 4), dtype)
    t = phi.to_tensor(x, stop_gradient=False)
    out, mask = phi.max_pool3d_with_index(t, [3, 3, 2], [1, 2, 2], [1, 1, 0])
    g = sample(out.shape, dtype)
    (grad,) = phi.grad(out, [t], grad_outputs=phi.to_tensor(g))
    expected = np.zeros((2, 2, x[0, 0].size))
    np.add.at(  # the reference may use ufunc.at: it is numpy, not a kernel
        expected,
        (np.arange(2)[:, None, None], np.arange(2)[None, :, None], mask.numpy().reshape(2, 2, -1)),
        g.reshape(2, 2, -1).astype(np.float64),
    )
    assert grad.dtype == dtype
    np.testing.assert_allclose(grad.numpy(), expected.reshape(x.shape), **tolerance(dtype))


@op_test("max_pool3d_with_index", kind="edge")
def test_max_pool3d_with_index_grad_of_an_adaptive_pool_sums_shared_positions():
    x = np.zeros((1, 1, 2, 2, 2), np.float64)
    x[0, 0, 1, 1, 1] = 1.0
    t = phi.to_tensor(x, stop_gradient=False)
    out, _ = phi.max_pool3d_with_index(t, [3, 3, 3], adaptive=True)  # overlapping windows
    (grad,) = phi.grad(out, [t], grad_outputs=phi.to_tensor(np.ones(out.shape)))
    assert grad.numpy()[0, 0, 1, 1, 1] == 8.0
    assert grad.numpy().sum() == 27.0


def reference_unpool(x, indices, output_size):
    """A zero [N, C, *output_size] with x written at each flat index, one row at a time."""
    n, c = x.shape[:2]
    out = np.zeros((n, c, int(np.prod(output_size))), np.float64)
    for row in range(n * c):
        for value, index in zip(x.reshape(n * c, -1)[row], indices.reshape(n * c, -1)[row]):
            out.reshape(n * c, -1)[row, index] = value
    return out.reshape((n, c) + tuple(output_size))


def distinct_positions(shape, plane, seed):
    rng = np.random.default_rng(seed)
    rows, count = int(np.prod(shape[:2])), int(np.prod(shape[2:]))
    return np.stack([rng.permutation(plane)[:count] for _ in range(rows)]).reshape(shape)


@op_test("unpool", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("unpool"), ids=lambda d: d.name.lower())
def test_unpool_writes_each_value_at_its_index(dtype):
    x = sample((2, 3, 3, 4), dtype)
    indices = distinct_positions(x.shape, 6 * 8, 1).astype(np.int32)
    out = phi.unpool(phi.to_tensor(x), phi.to_tensor(indices), [2, 2], [2, 2], [0, 0], [6, 8], "NCHW")
    assert out.dtype == dtype and out.shape == [2, 3, 6, 8]
    np.testing.assert_allclose(out.numpy(), reference_unpool(x, indices, (6, 8)), **tolerance(dtype))


@op_test("unpool3d", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("unpool3d"), ids=lambda d: d.name.lower())
def test_unpool3d_writes_each_value_at_its_index(dtype):
    x = sample((2, 2, 2, 3, 2), dtype)
    indices = distinct_positions(x.shape, 4 * 6 * 5, 2).astype(np.int64)
    out = phi.unpool3d(phi.to_tensor(x), phi.to_tensor(indices), [2, 2, 2], [2, 2, 2], [0, 0, 0], [4, 6, 5])
    assert out.dtype == dtype and out.shape == [2, 2, 4, 6, 5]
    np.testing.assert_allclose(out.numpy(), reference_unpool(x, indices, (4, 6, 5)), **tolerance(dtype))


@op_test("unpool", "unpool3d", kind="edge")
def test_unpool_repeated_positions_keep_the_last_value_and_int64_indices_work():
    # PaddlePaddle 3.3.1: unpool(x=[[1..8]] as [1,1,2,4], indices [[0,0,3,5],[8,9,15,15]]) gives
    # 2 at 0, 3 at 3, 4 at 5, 5 at 8, 6 at 9, 8 at 15
    x = np.arange(1, 9, dtype=np.float32).reshape(1, 1, 2, 4)
    indices = np.array([[[[0, 0, 3, 5], [8, 9, 15, 15]]]])
    expected = np.zeros(16, np.float32)
    expected[[0, 3, 5, 8, 9, 15]] = [2, 3, 4, 5, 6, 8]
    for dtype in ("int32", "int64"):
        out = phi.unpool(phi.to_tensor(x), phi.to_tensor(indices.astype(dtype)), [2, 2], [2, 2], [0, 0], [4, 4], "NCHW")
        np.testing.assert_array_equal(out.numpy().reshape(-1), expected)
    out = phi.unpool3d(phi.to_tensor(x[:, :, None]), phi.to_tensor(indices[:, :, None]), [1, 2, 2], [1, 2, 2], [0, 0, 0], [1, 4, 4])
    np.testing.assert_array_equal(out.numpy().reshape(-1), expected)


@op_test("unpool", "unpool3d", kind="edge")
def test_unpool_empty_input_and_non_contiguous_input():
    out = phi.unpool(
        phi.to_tensor(np.zeros((0, 2, 2, 2), np.float32)),
        phi.to_tensor(np.zeros((0, 2, 2, 2), np.int32)),
        [2, 2], [2, 2], [0, 0], [4, 4], "NCHW",
    )
    assert out.shape == [0, 2, 4, 4]
    base = sample((2, 3, 4, 3, 2), D.FLOAT64)
    x = np.transpose(base, (0, 1, 4, 3, 2))  # [2, 3, 2, 3, 4], a non-contiguous view
    indices = distinct_positions(x.shape, 4 * 6 * 8, 3)
    out = phi.unpool3d(phi.to_tensor(x), phi.to_tensor(indices), [2, 2, 2], [2, 2, 2], [0, 0, 0], [4, 6, 8])
    np.testing.assert_allclose(out.numpy(), reference_unpool(x, indices, (4, 6, 8)))


@op_test("unpool", "unpool3d", kind="edge")
@pytest.mark.parametrize(
    "call, match",
    [
        (lambda x4, i4: phi.unpool(x4, i4, [2, 2], [2, 2], [0, 0], [3, 3], "NCHW"), r"unpool\(\): argument 'indices' must hold positions in \[0, 9\)"),
        (lambda x4, i4: phi.unpool(x4, i4 - 9, [2, 2], [2, 2], [0, 0], [4, 4], "NCHW"), r"got -1"),
        (lambda x4, i4: phi.unpool(x4[0], i4[0], [2, 2], [2, 2], [0, 0], [4, 4], "NCHW"), "4-D"),
        (lambda x4, i4: phi.unpool(x4, i4[:, :1], [2, 2], [2, 2], [0, 0], [4, 4], "NCHW"), "indices' must have x's dims"),
        (lambda x4, i4: phi.unpool(x4, x4, [2, 2], [2, 2], [0, 0], [4, 4], "NCHW"), "int32 or int64"),
        (lambda x4, i4: phi.unpool(x4, i4, [2, 2], [2, 2], [0, 0], [4, 4, 4], "NCHW"), "output_size' must hold 2"),
        (lambda x4, i4: phi.unpool3d(x4, i4, [2, 2, 2], [2, 2, 2], [0, 0, 0], [4, 4, 4]), "5-D"),
    ],
)
def test_unpool_rejects_bad_arguments(call, match):
    x4 = phi.to_tensor(np.ones((1, 2, 2, 2), np.float32))
    i4 = phi.to_tensor(np.arange(8, dtype=np.int32).reshape(1, 2, 2, 2) % 4 + 8)
    with pytest.raises(InvalidArgumentError, match=match):
        call(x4, i4)


@op_test("unpool", "unpool3d", kind="edge")
def test_unpool_grads_gather_the_output_gradient_at_each_index():
    x = sample((2, 2, 2, 3), D.FLOAT64)
    indices = distinct_positions(x.shape, 4 * 6, 4).astype(np.int32)
    g = sample((2, 2, 4, 6), D.FLOAT64)
    t = phi.to_tensor(x, stop_gradient=False)
    out = phi.unpool(t, phi.to_tensor(indices), [2, 2], [2, 2], [0, 0], [4, 6], "NCHW")
    (grad,) = phi.grad(out, [t], grad_outputs=phi.to_tensor(g))
    expected = np.take_along_axis(g.reshape(4, -1), indices.reshape(4, -1), axis=1)
    np.testing.assert_allclose(grad.numpy(), expected.reshape(x.shape))
    t3 = phi.to_tensor(x[:, :, None], stop_gradient=False)
    out = phi.unpool3d(t3, phi.to_tensor(indices[:, :, None]), [1, 2, 2], [1, 2, 2], [0, 0, 0], [1, 4, 6])
    (grad,) = phi.grad(out, [t3], grad_outputs=phi.to_tensor(g[:, :, None]))
    np.testing.assert_allclose(grad.numpy()[:, :, 0], expected.reshape(x.shape))
