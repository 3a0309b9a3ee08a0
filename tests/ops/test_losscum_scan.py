"""The cumulative losscum ops of issue 24 (logcumsumexp, cummax, cummin): every registered dtype
against numpy, the registrations against PaddlePaddle 3.3.1's, every flag, 0-D, empty and
non-contiguous inputs, the edges (PHI's lowest-value identity, NaN, +inf, ties) and bad input;
and paddle.logcumsumexp/cummax/cummin and their Tensor methods. Edge values written here are
PaddlePaddle 3.3.1's (tests/ops/test_losscum_paddle.py compares many more)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
SCAN_OPS = ("logcumsumexp", "cummax", "cummin")
LOWEST64 = np.finfo(np.float64).min


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


# -- numpy references ---------------------------------------------------------------------------


def logcumsumexp_reference(x: np.ndarray, axis: int, exclusive=False, reverse=False) -> np.ndarray:
    """Finite inputs: running log-sum-exp in float64, from the end with reverse, shifted by one
    (the first being the dtype's lowest value) with exclusive."""
    x = np.asarray(x, np.float64)
    if reverse:
        x = np.flip(x, axis)
    out = np.log(np.cumsum(np.exp(x - x.max()), axis=axis)) + x.max()
    if exclusive:
        out = np.delete(out, -1, axis=axis)
        first = np.full_like(np.take(x, [0], axis=axis), LOWEST64)
        out = np.concatenate([first, out], axis=axis)
    return np.flip(out, axis) if reverse else out


def cum_extreme_reference(x: np.ndarray, axis: int, largest: bool):
    """A loop: the running extreme and the last index reaching it (NaN: from where it is)."""
    moved = np.moveaxis(np.asarray(x), axis, -1)
    values = np.empty_like(moved)
    indices = np.empty(moved.shape, np.int64)
    for row in np.ndindex(moved.shape[:-1]):
        best, where = None, 0
        for i, v in enumerate(moved[row]):
            if best is None or v != v or (best == best and (v >= best if largest else v <= best)):
                best, where = v, i
            values[row + (i,)] = best
            indices[row + (i,)] = where
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


# -- registrations ------------------------------------------------------------------------------


def test_registrations_are_paddles() -> None:
    kernels = paddle_data()["kernels"]
    for op in SCAN_OPS:
        for name in (op, f"{op}_grad"):
            assert sorted(d.name.lower() for d in cpu_dtypes(name)) == sorted(kernels[name]), name


# -- logcumsumexp -------------------------------------------------------------------------------


@op_test("logcumsumexp", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logcumsumexp"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_logcumsumexp_matches_numpy(dtype: DataType, exclusive: bool, reverse: bool) -> None:
    x = sample((3, 5), dtype, seed=3)
    for axis in (0, 1, -1, -2):
        out = C.logcumsumexp(t(x), axis, False, exclusive, reverse)
        assert out.dtype == dtype and out.shape == [3, 5]
        want = logcumsumexp_reference(x, axis, exclusive, reverse)
        if dtype is D.FLOAT32:
            want = np.maximum(want, np.finfo(np.float32).min)
        np.testing.assert_allclose(out.numpy(), want, **tolerance(dtype))
    flat = C.logcumsumexp(t(x), 5, True, exclusive, reverse)  # axis unchecked when flattening
    assert flat.shape == [15]
    np.testing.assert_allclose(
        flat.numpy(),
        np.maximum(
            logcumsumexp_reference(x.reshape(-1), 0, exclusive, reverse), np.finfo(x.dtype).min
        ),
        **tolerance(dtype),
    )


@op_test("logcumsumexp", kind="edge")
def test_logcumsumexp_edges() -> None:
    nan, inf = np.nan, np.inf
    # PaddlePaddle 3.3.1: -inf alone is the lowest float; a NaN element adds log(2) to the
    # running value; +inf met by +inf is NaN
    cases = [
        ([2.0, -inf, nan, 0.5], [2.0, 2.0, 2.69314718, 2.79891618]),
        ([nan, 1.0, 2.0], [LOWEST64, 1.0, 2.31326169]),
        ([1.0, nan, nan, 3.0], [1.0, 1.69314718, 2.38629436, 3.4326529]),
        ([inf, inf, 1.0], [inf, nan, nan]),
        ([-inf, inf, nan], [LOWEST64, inf, nan]),
        ([-inf, -inf, 0.0], [LOWEST64, LOWEST64, 0.0]),
        ([3.0, -inf], [3.0, 3.0]),
    ]
    for values, want in cases:
        out = C.logcumsumexp(t(values, "float64"), 0, False, False, False)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-8)
    # exclusive reverse: [LSE(2, 3), 3, lowest]
    out = C.logcumsumexp(t([1.0, 2.0, 3.0], "float64"), -1, False, True, True)
    np.testing.assert_allclose(out.numpy(), [3.31326169, 3.0, LOWEST64], rtol=1e-8)
    # float32's lowest
    out = C.logcumsumexp(t([-inf, 1.0], "float32"), 0, False, False, False)
    np.testing.assert_array_equal(out.numpy(), np.array([np.finfo(np.float32).min, 1.0], "float32"))
    # wide range: no underflow of the small values
    out = C.logcumsumexp(t([-1000.0, 0.0, 700.0], "float64"), 0, False, False, False)
    np.testing.assert_allclose(out.numpy(), [-1000.0, 0.0, 700.0])
    # 0-D, empty, non-contiguous
    zero_d = C.logcumsumexp(t(0.75, "float64"), 0, False, False, False)
    assert zero_d.shape == [] and zero_d.item() == 0.75
    assert C.logcumsumexp(t(0.75, "float64"), -1, True, False, False).shape == [1]
    assert C.logcumsumexp(t(np.zeros((0, 3)), "float32"), 0, False, False, False).shape == [0, 3]
    assert C.logcumsumexp(t(np.zeros((0, 3)), "float32"), 0, True, False, False).shape == [0]
    base = sample((4, 6), D.FLOAT64, seed=4)
    strided = phi.to_tensor(base)[:, ::2]
    np.testing.assert_allclose(
        C.logcumsumexp(strided, 0, False, False, False).numpy(),
        logcumsumexp_reference(base[:, ::2], 0),
        rtol=1e-12,
    )
    with pytest.raises(InvalidArgumentError, match=r"logcumsumexp.*argument 'axis'.*\[-2, 2\).*2"):
        C.logcumsumexp(t(np.zeros((2, 3))), 2, False, False, False)
    with pytest.raises(InvalidArgumentError, match="logcumsumexp.*argument 'axis'"):
        C.logcumsumexp(t(1.0), 1, False, False, False)


@op_test("logcumsumexp", kind="edge")
def test_logcumsumexp_gradient_with_every_flag() -> None:
    x_np = sample((3, 4), D.FLOAT64, seed=5)
    g_np = np.linspace(-1.0, 1.5, 12).reshape(3, 4)
    for exclusive in (False, True):
        for reverse in (False, True):
            x = t(x_np)
            x.stop_gradient = False
            out = C.logcumsumexp(x, 1, False, exclusive, reverse)
            (grad,) = phi.grad(out, [x], grad_outputs=t(g_np))
            # d out_j / d x_i = exp(x_i - out_j) for every i that out_j sums
            want = np.zeros_like(x_np)
            out_np = out.numpy()
            for j in range(4):
                for i in range(4):
                    enters = (i >= j if reverse else i <= j) and (not exclusive or i != j)
                    if enters:
                        want[:, i] += g_np[:, j] * np.exp(x_np[:, i] - out_np[:, j])
            np.testing.assert_allclose(grad.numpy(), want, rtol=1e-10, atol=1e-12)


# -- cummax / cummin ----------------------------------------------------------------------------


@op_test("cummax", "cummin", kind="dtypes")
@pytest.mark.parametrize("op", ["cummax", "cummin"])
@pytest.mark.parametrize("dtype", cpu_dtypes("cummax"), ids=lambda d: d.name.lower())
@pytest.mark.parametrize("index_dtype", [D.INT32, D.INT64], ids=["int32", "int64"])
def test_cum_extremes_match_numpy(op: str, dtype: DataType, index_dtype: DataType) -> None:
    assert cpu_dtypes("cummin") == cpu_dtypes("cummax")
    x = sample((4, 5), dtype, seed=6, low=-3, high=3)  # integers: many ties
    for axis in (0, 1, -1, -2):
        values, indices = getattr(C, op)(t(x), axis, index_dtype)
        assert values.dtype == dtype and indices.dtype == index_dtype
        want_values, want_indices = cum_extreme_reference(x, axis, op == "cummax")
        np.testing.assert_array_equal(values.numpy(), want_values)
        np.testing.assert_array_equal(indices.numpy(), want_indices)
        np.testing.assert_array_equal(
            values.numpy(), (np.maximum if op == "cummax" else np.minimum).accumulate(x, axis=axis)
        )


@op_test("cummax", "cummin", kind="edge")
def test_cum_extremes_edges() -> None:
    nan = np.nan
    # PaddlePaddle 3.3.1: ties take the later index; a NaN is the extreme from where it is
    x = t([1.0, 3.0, 3.0, nan, 2.0, nan, 5.0], "float32")
    values, indices = C.cummax(x, 0, D.INT64)
    np.testing.assert_array_equal(values.numpy(), [1, 3, 3, nan, nan, nan, nan])
    np.testing.assert_array_equal(indices.numpy(), [0, 1, 2, 3, 3, 5, 5])
    values, indices = C.cummin(x, 0, D.INT64)
    np.testing.assert_array_equal(values.numpy(), [1, 1, 1, nan, nan, nan, nan])
    np.testing.assert_array_equal(indices.numpy(), [0, 0, 0, 3, 3, 5, 5])
    values, indices = C.cummin(t([2, 1, 1, 3, 3], "int32"), -1, D.INT64)
    np.testing.assert_array_equal(values.numpy(), [2, 1, 1, 1, 1])
    np.testing.assert_array_equal(indices.numpy(), [0, 1, 2, 2, 2])
    # 0-D (axis 0 and -1), empty, non-contiguous
    for axis in (0, -1):
        values, indices = C.cummax(t(3.0, "float64"), axis, D.INT32)
        assert values.shape == indices.shape == [] and indices.dtype == D.INT32
        assert values.item() == 3.0 and indices.item() == 0
    values, indices = C.cummin(t(np.zeros((0, 3)), "float32"), 1, D.INT64)
    assert values.shape == indices.shape == [0, 3]
    base = sample((5, 6), D.INT64, seed=7)
    strided = phi.to_tensor(base)[::2, 1::2]
    want_values, want_indices = cum_extreme_reference(base[::2, 1::2], 0, True)
    values, indices = C.cummax(strided, 0, D.INT64)
    np.testing.assert_array_equal(values.numpy(), want_values)
    np.testing.assert_array_equal(indices.numpy(), want_indices)
    with pytest.raises(InvalidArgumentError, match=r"cummax.*argument 'axis'.*\[-1, 1\).*1"):
        C.cummax(t([3.0]), 1, D.INT32)
    with pytest.raises(InvalidArgumentError, match="cummin.*argument 'dtype'.*INT32 or INT64"):
        C.cummin(t([3.0]), 0, D.FLOAT32)


@op_test("cummax", "cummin", kind="edge")
def test_cum_extremes_gradient_goes_to_the_index() -> None:
    x = t([[1.0, 3.0, 3.0, 2.0], [4.0, 1.0, 0.5, 6.0]], "float64")
    x.stop_gradient = False
    g = t(np.arange(1.0, 9.0).reshape(2, 4))
    values, _ = C.cummax(x, 1, D.INT64)
    (grad,) = phi.grad(values, [x], grad_outputs=g)
    np.testing.assert_array_equal(grad.numpy(), [[1, 2, 7, 0], [5 + 6 + 7, 0, 0, 8]])
    values, _ = C.cummin(x, 0, D.INT32)
    (grad,) = phi.grad(values, [x], grad_outputs=g)
    np.testing.assert_array_equal(grad.numpy(), [[1 + 5, 2, 3, 4 + 8], [0, 6, 7, 0]])
    # 0-D: the gradient is out_grad (PaddlePaddle 3.3.1's scatter refuses a 0-D x)
    scalar = t(2.0, "float64")
    scalar.stop_gradient = False
    values, _ = C.cummin(scalar, 0, D.INT64)
    (grad,) = phi.grad(values, [scalar], grad_outputs=t(1.5, "float64"))
    assert grad.shape == [] and grad.item() == 1.5


# -- paddle.* functions and Tensor methods ------------------------------------------------------


def test_paddle_functions_have_paddles_signatures() -> None:
    assert str(inspect.signature(phiops.logcumsumexp)) == (
        "(x: 'Tensor', axis: 'int | None' = None, dtype: 'Any' = None, name: 'str | None' = None) -> 'Tensor'"
    )
    for fn in (phiops.cummax, phiops.cummin):
        assert list(inspect.signature(fn).parameters) == ["x", "axis", "dtype", "name"]
        assert inspect.signature(fn).parameters["dtype"].default == "int64"


def test_paddle_functions_and_methods() -> None:
    x_np = sample((2, 3), D.FLOAT32, seed=8)
    x = t(x_np)
    flat = phiops.logcumsumexp(x)
    assert flat.shape == [6]
    np.testing.assert_allclose(
        flat.numpy(), logcumsumexp_reference(x_np.reshape(-1), 0), **tolerance(D.FLOAT32)
    )
    widened = x.logcumsumexp(axis=0, dtype="float64")
    assert widened.dtype == D.FLOAT64
    np.testing.assert_allclose(widened.numpy(), logcumsumexp_reference(x_np, 0), rtol=1e-6)
    values, indices = phiops.cummax(x)
    assert values.shape == [6] and indices.dtype == D.INT64
    want_values, want_indices = cum_extreme_reference(x_np.reshape(-1), 0, True)
    np.testing.assert_array_equal(values.numpy(), want_values)
    np.testing.assert_array_equal(indices.numpy(), want_indices)
    values, indices = x.cummin(axis=1, dtype="int32")
    assert indices.dtype == D.INT32
    want_values, want_indices = cum_extreme_reference(x_np, 1, False)
    np.testing.assert_array_equal(values.numpy(), want_values)
    np.testing.assert_array_equal(indices.numpy(), want_indices)
    assert phiops.cummax(t(2.0, "float32"))[0].shape == [1]  # flattened 0-D


@op_test("logcumsumexp", "cummax", "cummin", kind="edge")
@pytest.mark.parametrize("name", ["maximum", "minimum", "logaddexp"])
@pytest.mark.parametrize("extent", [0, 1, 2, 5, 8, 13])
def test_the_doubling_scan_of_other_backends_is_numpys_accumulate(name: str, extent: int) -> None:
    # backends without ufunc.accumulate (CuPy) take the Hillis-Steele scan: run it on numpy
    # arrays through a module that is not numpy
    from types import SimpleNamespace

    from phiops.runtime.kernels.impl.losscum_scan_kernel import running

    other = SimpleNamespace(moveaxis=np.moveaxis, **{name: getattr(np, name)})
    x = sample((3, extent, 2), D.FLOAT64, seed=extent)
    for axis in (0, 1, 2):
        np.testing.assert_allclose(
            running(other, name, x, axis), getattr(np, name).accumulate(x, axis=axis), rtol=1e-14
        )
