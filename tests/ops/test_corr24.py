"""The corr24 op, ``correlation`` (FlowNet's cost volume), and its grad against numpy references.

PaddlePaddle 3.3.1's CPU kernel of correlation refuses to run; phiops computes what its GPU kernel
(paddle/phi/kernels/gpu/correlation_kernel.cu) computes. ``_reference`` below transcribes that
kernel loop by loop (padded positions, displacements, window, division by kernel_size ** 2 * C),
reading zeros outside the padded input; ``_reference_grads`` differentiates it by rebuilding each
output from the input pixels it reads. The shapes and errors 3.3.1's InferMeta gives are checked
by tests/ops/test_corr24_paddle.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import phiops as paddle
import phiops._C_ops as C
from phiops.generated import backward as B
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test

D = DataType


def _ids(dtype: DataType) -> str:
    return dtype.name.lower()


def _taps(shape, pad, k, md, s1, s2):
    """Yield (n, channel, oh, ow, y1, x1, y2, x2) for every product the GPU kernel sums, in
    coordinates of the padded input (possibly outside it), and the output extents."""
    n_, _, h, w = shape
    kr, r = (k - 1) // 2, md // s2
    oh_ = max(int(np.ceil((h + 2 * pad - 2 * (kr + md)) / s1)), 0)
    ow_ = max(int(np.ceil((w + 2 * pad - 2 * (kr + md)) / s1)), 0)
    taps = []
    for n, oh, ow in itertools.product(range(n_), range(oh_), range(ow_)):
        y1, x1 = oh * s1 + md, ow * s1 + md
        for ty, tx in itertools.product(range(-r, r + 1), repeat=2):
            t = (ty + r) * (2 * r + 1) + tx + r
            for j, i in itertools.product(range(-kr, kr + 1), repeat=2):
                taps.append((n, t, oh, ow, y1 + j, x1 + i, y1 + j + ty * s2, x1 + i + tx * s2))
    return taps, ((2 * r + 1) ** 2, oh_, ow_)


def _reference(a, b, pad, k, md, s1, s2):
    a, b = a.astype(np.float64), b.astype(np.float64)
    taps, (chans, oh_, ow_) = _taps(a.shape, pad, k, md, s1, s2)
    pa, pb = (np.pad(v, ((0, 0), (0, 0), (pad, pad), (pad, pad))) for v in (a, b))
    ph, pw = pa.shape[2:]
    out = np.zeros((a.shape[0], chans, oh_, ow_))
    inside = lambda y, x: 0 <= y < ph and 0 <= x < pw  # noqa: E731
    for n, t, oh, ow, y1, x1, y2, x2 in taps:
        if inside(y1, x1) and inside(y2, x2):
            out[n, t, oh, ow] += pa[n, :, y1, x1] @ pb[n, :, y2, x2]
    with np.errstate(invalid="ignore"):
        return out / (k * k * a.shape[1])


def _reference_grads(a, b, g, pad, k, md, s1, s2):
    taps, _ = _taps(a.shape, pad, k, md, s1, s2)
    pa, pb = (np.pad(v, ((0, 0), (0, 0), (pad, pad), (pad, pad))) for v in (a, b))
    ga, gb = np.zeros_like(pa), np.zeros_like(pb)
    ph, pw = pa.shape[2:]
    inside = lambda y, x: 0 <= y < ph and 0 <= x < pw  # noqa: E731
    for n, t, oh, ow, y1, x1, y2, x2 in taps:
        if inside(y1, x1) and inside(y2, x2):
            ga[n, :, y1, x1] += g[n, t, oh, ow] * pb[n, :, y2, x2]
            gb[n, :, y2, x2] += g[n, t, oh, ow] * pa[n, :, y1, x1]
    scale = k * k * a.shape[1]
    h, w = a.shape[2:]
    return (
        ga[:, :, pad : pad + h, pad : pad + w] / scale,
        gb[:, :, pad : pad + h, pad : pad + w] / scale,
    )


def _inputs(shape, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)


# (pad_size, kernel_size, max_displacement, stride1, stride2)
CONFIGS = {
    "flownet": (2, 1, 2, 1, 1),
    "k3": (1, 3, 2, 1, 1),
    "k3-stride1_2": (1, 3, 2, 2, 1),
    "k2-even": (1, 2, 1, 1, 1),
    "stride2_2": (2, 1, 3, 1, 2),
    "k3-window-outside": (0, 3, 1, 1, 1),
    "k5-stride1_3": (2, 5, 1, 3, 1),
}


@op_test("correlation", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("correlation"), ids=_ids)
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_correlation_matches_the_gpu_kernels_formula(dtype: DataType, config: str) -> None:
    a, b = _inputs((2, 3, 5, 6), dtype.numpy_dtype, seed=len(config))
    out = C.correlation(paddle.to_tensor(a), paddle.to_tensor(b), *CONFIGS[config], 1)
    expected = _reference(a, b, *CONFIGS[config])
    assert out.dtype == dtype and out.shape == list(expected.shape)
    tol = 1e-5 if dtype == D.FLOAT32 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", cpu_dtypes("correlation_grad"), ids=_ids)
@pytest.mark.parametrize("config", ["k3-stride1_2", "stride2_2", "k2-even"])
def test_correlation_grad_is_the_derivative_for_each_dtype(dtype: DataType, config: str) -> None:
    a, b = _inputs((1, 2, 5, 5), dtype.numpy_dtype, seed=3)
    attrs = CONFIGS[config]
    shape = _reference(a, b, *attrs).shape
    g = np.random.default_rng(4).standard_normal(shape).astype(dtype.numpy_dtype)
    got1, got2 = B.correlation_grad(
        paddle.to_tensor(a), paddle.to_tensor(b), paddle.to_tensor(g), *attrs, 1
    )
    want1, want2 = _reference_grads(
        a.astype(np.float64), b.astype(np.float64), g.astype(np.float64), *attrs
    )
    tol = 1e-5 if dtype == D.FLOAT32 else 1e-12
    assert got1.dtype == dtype and got2.dtype == dtype
    np.testing.assert_allclose(got1.numpy(), want1, rtol=tol, atol=tol)
    np.testing.assert_allclose(got2.numpy(), want2, rtol=tol, atol=tol)


def test_the_backward_of_correlation_gives_its_grads() -> None:
    a, b = _inputs((1, 2, 4, 4), seed=5)
    x = paddle.to_tensor(a, stop_gradient=False)
    y = paddle.to_tensor(b, stop_gradient=False)
    out = C.correlation(x, y, 1, 1, 1, 1, 1)  # corr_type_multiply defaults to 1
    out.sum().backward()
    want1, want2 = _reference_grads(a, b, np.ones(out.shape), 1, 1, 1, 1, 1)
    np.testing.assert_allclose(x.grad.numpy(), want1, atol=1e-12)
    np.testing.assert_allclose(y.grad.numpy(), want2, atol=1e-12)


@op_test("correlation", kind="edge")
def test_correlation_edges() -> None:
    a, b = _inputs((2, 3, 5, 6), seed=6)
    # non-contiguous inputs
    big1, big2 = _inputs((2, 6, 10, 6), seed=7)
    nc1, nc2 = big1[:, ::2, ::2], big2[:, ::2, ::2]
    out = C.correlation(paddle.to_tensor(nc1), paddle.to_tensor(nc2), 1, 3, 1, 1, 1)
    np.testing.assert_allclose(out.numpy(), _reference(nc1, nc2, 1, 3, 1, 1, 1), atol=1e-12)
    # corr_type_multiply is ignored, as PaddlePaddle's kernel ignores it
    x, y = paddle.to_tensor(a), paddle.to_tensor(b)
    np.testing.assert_array_equal(
        C.correlation(x, y, 1, 1, 1, 1, 1, 0).numpy(), C.correlation(x, y, 1, 1, 1, 1, 1, 1).numpy()
    )
    # an empty batch, and an output with no rows
    empty = paddle.to_tensor(np.zeros((0, 3, 5, 6)))
    assert C.correlation(empty, empty, 1, 1, 1, 1, 1).shape == [0, 9, 5, 6]
    assert C.correlation(x, y, 0, 3, 2, 2, 1).shape == [2, 25, 0, 0]  # ceil(-1 / 2) rows
    # no channels: 0 / 0, as PaddlePaddle's kernel divides by kernel_size ** 2 * C
    none = paddle.to_tensor(np.zeros((1, 0, 3, 3)))
    assert np.isnan(C.correlation(none, none, 0, 1, 0, 1, 1).numpy()).all()
    # correlating a map with itself at displacement 0 is the mean square over the channels
    same = C.correlation(x, x, 0, 1, 0, 1, 1).numpy()
    np.testing.assert_allclose(same[:, 0], (a**2).mean(axis=1), atol=1e-12)


@pytest.mark.parametrize(
    "shapes, attrs, message",
    [
        (((3, 5, 6), (3, 5, 6)), (1, 1, 1, 1, 1), "'input1' must be 4-D"),
        (((1, 3, 5, 6), (1, 3, 5, 5)), (1, 1, 1, 1, 1), "'input2' must have the shape"),
        (((1, 3, 5, 6),) * 2, (-1, 1, 1, 1, 1), "'pad_size' must be at least 0"),
        (((1, 3, 5, 6),) * 2, (1, 0, 1, 1, 1), "'kernel_size' must be at least 1"),
        (((1, 3, 5, 6),) * 2, (1, 1, -2, 1, 1), "'max_displacement' must be at least 0"),
        (((1, 3, 5, 6),) * 2, (1, 1, 1, 0, 1), "'stride1' must be at least 1"),
        (((1, 3, 5, 6),) * 2, (1, 1, 1, 1, 0), "'stride2' must be at least 1"),
        (((1, 3, 5, 6),) * 2, (0, 1, 4, 1, 1), "'input1' has height 5, smaller"),
    ],
)
def test_correlation_refuses_bad_input_by_name(shapes, attrs, message) -> None:
    x, y = (paddle.to_tensor(np.zeros(s)) for s in shapes)
    with pytest.raises(InvalidArgumentError, match=f"correlation.*{message}"):
        C.correlation(x, y, *attrs)


def test_correlation_refuses_two_dtypes() -> None:
    x = paddle.to_tensor(np.zeros((1, 2, 3, 3), np.float32))
    y = paddle.to_tensor(np.zeros((1, 2, 3, 3), np.float64))
    with pytest.raises(InvalidArgumentError, match="correlation.*'input2' must have the dtype"):
        C.correlation(x, y, 1, 1, 1, 1, 1)


def test_correlation_grad_edges() -> None:
    # an empty output: every gradient is zero
    a, b = _inputs((1, 2, 3, 3), seed=8)
    x, y = paddle.to_tensor(a), paddle.to_tensor(b)
    g = paddle.to_tensor(np.zeros((1, 25, 0, 0)))
    got1, got2 = B.correlation_grad(x, y, g, 0, 3, 2, 1, 1, 1)
    assert got1.shape == [1, 2, 3, 3] and not got1.numpy().any() and not got2.numpy().any()
    # an empty batch
    e = paddle.to_tensor(np.zeros((0, 2, 3, 3)))
    got1, _ = B.correlation_grad(e, e, paddle.to_tensor(np.zeros((0, 1, 3, 3))), 0, 1, 0, 1, 1, 1)
    assert got1.shape == [0, 2, 3, 3]
    # a non-contiguous out_grad
    big = np.random.default_rng(9).standard_normal((1, 9, 6, 3))
    g = big[:, :, ::2]
    got1, got2 = B.correlation_grad(x, y, paddle.to_tensor(g), 1, 1, 1, 1, 1, 1)
    want1, want2 = _reference_grads(a, b, g, 1, 1, 1, 1, 1)
    np.testing.assert_allclose(got1.numpy(), want1, atol=1e-12)
    np.testing.assert_allclose(got2.numpy(), want2, atol=1e-12)
    with pytest.raises(
        InvalidArgumentError, match="correlation_grad.*'input2' must have the shape"
    ):
        B.correlation_grad(
            x, paddle.to_tensor(np.zeros((1, 2, 3))), paddle.to_tensor(g), 1, 1, 1, 1, 1, 1
        )
    two_d = paddle.to_tensor(np.zeros((2, 3)))
    with pytest.raises(InvalidArgumentError, match="correlation_grad.*'input1' must be 4-D"):
        B.correlation_grad(two_d, two_d, two_d, 0, 1, 0, 1, 1, 1)
    with pytest.raises(
        InvalidArgumentError, match="correlation_grad.*'kernel_size' must be at least 1"
    ):
        B.correlation_grad(x, y, paddle.to_tensor(g), 1, 0, 1, 1, 1, 1)
    with pytest.raises(
        InvalidArgumentError, match=r"correlation_grad.*'out_grad' must have .*\[1, 9, 3, 3\]"
    ):
        B.correlation_grad(x, y, paddle.to_tensor(g[:, :4]), 1, 1, 1, 1, 1, 1)


def test_paddle_incubate_layers_correlation_runs_the_op() -> None:
    a, b = _inputs((1, 2, 5, 5), seed=10)
    x, y = paddle.to_tensor(a), paddle.to_tensor(b)
    got = paddle.incubate.layers.correlation(x, y, 1, 3, 1, 1, 1)
    np.testing.assert_allclose(got.numpy(), _reference(a, b, 1, 3, 1, 1, 1), atol=1e-12)
    got = paddle.incubate.layers.correlation(
        x=x, y=y, pad_size=2, kernel_size=1, max_displacement=2, stride1=2, stride2=2,
        corr_type_multiply=1,
    )  # fmt: skip
    np.testing.assert_allclose(got.numpy(), _reference(a, b, 2, 1, 2, 2, 2), atol=1e-12)
    with pytest.raises(InvalidArgumentError, match="correlation.*'input1' must be 4-D"):
        paddle.incubate.layers.correlation(paddle.to_tensor(a[0]), y, 1, 1, 1, 1, 1)
