"""Grad kernels of the binary arithmetic ops (add, subtract, multiply, divide, maximum, minimum,
fmax, fmin, elementwise_pow) and multiply_double_grad, called directly and checked against
analytic numpy formulas and against central finite differences of the forward op (or, for a
double grad, of the grad kernel). Also holds the finite-difference helpers the other grad test
files import."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels import KERNEL_FACTORY, KernelContext, KernelKey
from phiops.runtime.kernels.impl.elementwise_grad_kernel import reduce_to_shape
from tests.ops.op_testing import non_floating_dtypes_beyond_paddles, sample, tolerance

D = DataType
CPU = KernelContext(np, CPUPlace())

# -- helpers shared with test_activation_grad.py and test_matmul_where_grad.py --------------------


def grad_kernel(name: str, dtype: DataType) -> Callable[..., Any]:
    """The CPU kernel function ``name`` registered for ``dtype``, ready to call with arrays."""
    kernel = KERNEL_FACTORY.select(name, KernelKey(Backend.CPU, DataLayout.ALL_LAYOUT, dtype))
    return lambda *args: kernel.fn(CPU, *args)


def forward(op: str, **attributes: Any) -> Callable[..., np.ndarray]:
    """The generated forward op as a function of numpy arrays."""
    api = getattr(phi, op)
    return lambda *arrays: api(*(phi.to_tensor(a) for a in arrays), **attributes).numpy()


def _as_tuple(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def numeric_grad(
    fn: Callable[..., Any],
    inputs: Sequence[np.ndarray],
    index: int,
    weights: np.ndarray | Sequence[np.ndarray],
    eps: float = 1e-6,
) -> np.ndarray:
    """Central differences of L = sum_k Re(sum(conj(weights[k]) * fn(*inputs)[k])) with respect
    to ``inputs[index]``. For a complex input the real and imaginary parts are perturbed
    separately, giving dL/dRe + i dL/dIm: the conjugate gradient PHI's complex grads compute.
    ``fn`` may return one array or a tuple (with ``weights`` a matching tuple)."""
    weights = _as_tuple(weights)

    def loss(arrays: list[np.ndarray]) -> float:
        outputs = _as_tuple(fn(*arrays))
        return sum(
            float(np.real(np.sum(np.conj(w) * np.asarray(o, dtype=w.dtype))))
            for w, o in zip(weights, outputs)
        )

    arrays = [np.array(a, copy=True) for a in inputs]
    target = arrays[index]
    directions = (1, 1j) if target.dtype.kind == "c" else (1,)
    grad = np.zeros(target.shape, dtype=np.complex128 if target.dtype.kind == "c" else np.float64)
    for position in np.ndindex(target.shape):
        original = target[position]
        for direction in directions:
            target[position] = original + eps * direction
            plus = loss(arrays)
            target[position] = original - eps * direction
            minus = loss(arrays)
            target[position] = original
            grad[position] += (plus - minus) / (2 * eps) * direction
    return grad


def assert_grad_close(
    actual: Any, expected: np.ndarray, dtype: DataType, shape: tuple[int, ...]
) -> None:
    """``actual`` has ``dtype`` and ``shape`` and matches ``expected`` within the dtype's tolerance."""
    actual = np.asarray(actual)
    assert actual.dtype == dtype.numpy_dtype
    assert actual.shape == shape
    np.testing.assert_allclose(actual, expected, **tolerance(dtype))


FD_TOLERANCE = {"rtol": 1e-6, "atol": 1e-7}


def backward_api(name: str) -> Callable[..., Any]:
    """``phiops.generated.backward.<name>``; the test skips while the backward API lacks it (it is
    generated from ops/backward.yaml, which is being written)."""
    from phiops.generated import backward

    function = getattr(backward, name, None)
    if function is None:
        pytest.skip(f"generated/backward.py has no {name} yet")
    return function


# -- reduce_to_shape -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "grad_shape, shape, axes",
    [
        ((3, 4), (3, 1), (1,)),
        ((3, 4), (1, 4), (0,)),
        ((2, 3, 4), (4,), (0, 1)),
        ((2, 3), (), (0, 1)),
        ((0, 3), (1, 3), (0,)),
    ],
)
def test_reduce_to_shape_sums_over_the_broadcast_axes(grad_shape, shape, axes):
    grad = sample(grad_shape, D.FLOAT64, seed=1)
    reduced = reduce_to_shape(np, grad, shape)
    assert reduced.shape == shape
    np.testing.assert_allclose(reduced, grad.sum(axis=axes).reshape(shape))


def test_reduce_to_shape_rejects_a_shape_that_does_not_broadcast():
    with pytest.raises(
        InvalidArgumentError, match=r"dims \[3, 4\] cannot be reduced to dims \[2, 4\]"
    ):
        reduce_to_shape(np, np.zeros((3, 4)), (2, 4))


# -- binary grads: analytic formulas -------------------------------------------------------------

# (kernel, forward op, takes out, analytic (x, y, out, dout) -> (dx, dy) before reduction)
BINARY_GRADS = {
    "add_grad": ("add", lambda x, y, out, g: (g, g)),
    "subtract_grad": ("subtract", lambda x, y, out, g: (g, -g)),
    "multiply_grad": ("multiply", lambda x, y, out, g: (g * np.conj(y), g * np.conj(x))),
    "divide_grad": ("divide", lambda x, y, out, g: (g / np.conj(y), -g * np.conj(x / y**2))),
    "maximum_grad": (
        "maximum",
        lambda x, y, out, g: (g * ((x > y) + 0.5 * (x == y)), g * ((x < y) + 0.5 * (x == y))),
    ),
    "minimum_grad": (
        "minimum",
        lambda x, y, out, g: (g * ((x < y) + 0.5 * (x == y)), g * ((x > y) + 0.5 * (x == y))),
    ),
    "fmax_grad": ("fmax", lambda x, y, out, g: (g * (x >= y), g * (x < y))),
    "fmin_grad": ("fmin", lambda x, y, out, g: (g * (x <= y), g * (x > y))),
    "elementwise_pow_grad": (
        "elementwise_pow",
        lambda x, y, out, g: (g * np.conj(y * x ** (y - 1)), g * np.conj(np.log(x) * x**y)),
    ),
}
SHAPES = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((), (2, 3)), ((2, 3), ()), ((4,), (2, 3, 4))]


def binary_inputs(name: str, x_shape, y_shape, dtype: DataType):
    """x, y (positive for pow, nonzero y for divide, no ties for max/min), and out_grad."""
    low = 0.5 if name == "elementwise_pow_grad" else -2
    x = sample(x_shape, dtype, seed=1, low=low, high=2, nonzero=True)
    y = sample(y_shape, dtype, seed=2, low=low, high=2, nonzero=True)
    out_shape = np.broadcast_shapes(x_shape, y_shape)
    return x, y, sample(out_shape, dtype, seed=3)


def call_binary_grad(name: str, dtype: DataType, x, y, out_grad):
    kernel = grad_kernel(name, dtype)
    if name == "divide_grad":
        return kernel(x, y, x / y, out_grad, -1)
    if name in ("add_grad", "subtract_grad", "multiply_grad"):
        return kernel(x, y, out_grad, -1)
    return kernel(x, y, out_grad)


@pytest.mark.parametrize("x_shape, y_shape", SHAPES)
@pytest.mark.parametrize("name", sorted(BINARY_GRADS))
@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64])
def test_binary_grad_matches_its_formula_reduced_to_each_input(name, dtype, x_shape, y_shape):
    x, y, out_grad = binary_inputs(name, x_shape, y_shape, dtype)
    x_grad, y_grad = call_binary_grad(name, dtype, x, y, out_grad)
    wx, wy, wg = (a.astype(np.float64) for a in (x, y, out_grad))
    full_x, full_y = BINARY_GRADS[name][1](wx, wy, wx / wy, wg)
    out_shape = wg.shape
    expected_x = reduce_to_shape(np, np.broadcast_to(full_x, out_shape), x_shape)
    expected_y = reduce_to_shape(np, np.broadcast_to(full_y, out_shape), y_shape)
    assert_grad_close(x_grad, expected_x, dtype, x_shape)
    assert_grad_close(y_grad, expected_y, dtype, y_shape)


@pytest.mark.parametrize(
    "name", ["add_grad", "subtract_grad", "multiply_grad", "divide_grad", "elementwise_pow_grad"]
)
def test_binary_grad_conjugates_for_complex(name):
    x, y, out_grad = binary_inputs(name, (3, 1), (1, 4), D.COMPLEX128)
    if name == "elementwise_pow_grad":
        x = x + 3  # keep away from the branch cut of log
    x_grad, y_grad = call_binary_grad(name, D.COMPLEX128, x, y, out_grad)
    fn = forward(BINARY_GRADS[name][0])
    np.testing.assert_allclose(x_grad, numeric_grad(fn, [x, y], 0, out_grad), **FD_TOLERANCE)
    np.testing.assert_allclose(y_grad, numeric_grad(fn, [x, y], 1, out_grad), **FD_TOLERANCE)


# -- binary grads: finite differences of the forward op ------------------------------------------


@pytest.mark.parametrize("x_shape, y_shape", SHAPES)
@pytest.mark.parametrize("name", sorted(BINARY_GRADS))
def test_binary_grad_matches_finite_differences_of_the_forward_op(name, x_shape, y_shape):
    x, y, out_grad = binary_inputs(name, x_shape, y_shape, D.FLOAT64)
    x_grad, y_grad = call_binary_grad(name, D.FLOAT64, x, y, out_grad)
    fn = forward(BINARY_GRADS[name][0])
    np.testing.assert_allclose(x_grad, numeric_grad(fn, [x, y], 0, out_grad), **FD_TOLERANCE)
    np.testing.assert_allclose(y_grad, numeric_grad(fn, [x, y], 1, out_grad), **FD_TOLERANCE)


@pytest.mark.parametrize("name", sorted(BINARY_GRADS))
def test_binary_grad_of_empty_tensors_is_empty_or_zero(name):
    x, y, out_grad = binary_inputs(name, (0, 3), (1, 3), D.FLOAT64)
    x_grad, y_grad = call_binary_grad(name, D.FLOAT64, x, y, out_grad)
    assert x_grad.shape == (0, 3) and x_grad.dtype == np.float64
    assert_grad_close(y_grad, np.zeros((1, 3)), D.FLOAT64, (1, 3))


def test_add_grad_reads_only_the_shapes_of_x_and_y():
    x = np.broadcast_to(np.float64(np.nan), (3, 1))
    y = np.broadcast_to(np.float64(np.nan), (1, 4))
    out_grad = sample((3, 4), D.FLOAT64, seed=3)
    x_grad, y_grad = call_binary_grad("add_grad", D.FLOAT64, x, y, out_grad)
    np.testing.assert_array_equal(x_grad, out_grad.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(y_grad, out_grad.sum(axis=0, keepdims=True))


def test_add_grad_outputs_do_not_alias_out_grad():
    out_grad = sample((2, 3), D.FLOAT64, seed=3)
    x_grad, y_grad = call_binary_grad("add_grad", D.FLOAT64, out_grad, out_grad, out_grad)
    assert not np.shares_memory(x_grad, out_grad)
    assert not np.shares_memory(y_grad, out_grad)
    assert not np.shares_memory(x_grad, y_grad)


@pytest.mark.parametrize(
    "name, dtype, x_grad, y_grad",
    [
        # PaddlePaddle 3.3.1's CPU kernels (recorded by hand from _C_ops.maximum_grad and
        # minimum_grad with x [1, 2, 3, -3], y [1, 1, 4, -3], out_grad [3, 3, 3, -3]): a tie
        # gives each input half, integers halved toward zero
        ("maximum_grad", D.FLOAT64, [1.5, 3, 0, -1.5], [1.5, 0, 3, -1.5]),
        ("minimum_grad", D.FLOAT64, [1.5, 0, 3, -1.5], [1.5, 3, 0, -1.5]),
        ("maximum_grad", D.INT32, [1, 3, 0, -1], [1, 0, 3, -1]),
        ("minimum_grad", D.INT64, [1, 0, 3, -1], [1, 3, 0, -1]),
    ],
)
def test_maximum_minimum_grad_split_ties_in_halves(name, dtype, x_grad, y_grad):
    x, y = np.array([1, 2, 3, -3], dtype.numpy_dtype), np.array([1, 1, 4, -3], dtype.numpy_dtype)
    out_grad = np.array([3, 3, 3, -3], dtype.numpy_dtype)
    got_x, got_y = call_binary_grad(name, dtype, x, y, out_grad)
    np.testing.assert_array_equal(got_x, x_grad)
    np.testing.assert_array_equal(got_y, y_grad)


def test_maximum_grad_gives_nothing_where_an_input_is_nan():
    x_grad, y_grad = call_binary_grad(
        "maximum_grad", D.FLOAT64, np.array([np.nan, 1.0]), np.array([1.0, np.nan]), np.ones(2)
    )
    np.testing.assert_array_equal(x_grad, [0.0, 0.0])
    np.testing.assert_array_equal(y_grad, [0.0, 0.0])


@pytest.mark.parametrize(
    "name, x_grad_mask",
    [("fmax_grad", [0, 1, 1, 1, 0, 1]), ("fmin_grad", [1, 1, 0, 1, 0, 1])],
)
@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT64])
def test_fmax_fmin_grad_give_ties_to_x_and_nans_to_the_number(name, x_grad_mask, dtype):
    """Where y is nan fmax/fmin took x, so x gets the gradient; where x is nan they took y."""
    x = np.array([1.0, 2.0, 3.0, 5.0, np.nan, np.nan], dtype.numpy_dtype)
    y = np.array([2.0, 2.0, 2.0, np.nan, 1.0, np.nan], dtype.numpy_dtype)
    out_grad = np.array([10.0, 20.0, 30.0, 40.0, 50.0, 60.0], dtype.numpy_dtype)
    x_grad, y_grad = call_binary_grad(name, dtype, x, y, out_grad)
    mask = np.array(x_grad_mask, dtype.numpy_dtype)
    np.testing.assert_array_equal(x_grad, out_grad * mask)
    np.testing.assert_array_equal(y_grad, out_grad * (1 - mask))
    assert x_grad.dtype == y_grad.dtype == dtype.numpy_dtype


@pytest.mark.parametrize("name", ["fmax_grad", "fmin_grad"])
def test_fmax_fmin_grad_run_on_integers_as_paddle_registers_them(name):
    x = np.array([[1, 5], [7, -2]], np.int64)
    y = np.array([3, 5], np.int64)
    out_grad = np.array([[1, 2], [3, 4]], np.int64)
    x_grad, y_grad = call_binary_grad(name, D.INT64, x, y, out_grad)
    to_x = (x >= y) if name == "fmax_grad" else (x <= y)
    np.testing.assert_array_equal(x_grad, np.where(to_x, out_grad, 0))
    np.testing.assert_array_equal(y_grad, np.where(to_x, 0, out_grad).sum(axis=0))


# -- multiply_double_grad ------------------------------------------------------------------------


def multiply_grad_fn(dtype: DataType):
    kernel = grad_kernel("multiply_grad", dtype)
    return lambda x, y, grad_out: kernel(x, y, grad_out, -1)


@pytest.mark.parametrize("dtype", [D.FLOAT64, D.COMPLEX128])
@pytest.mark.parametrize("x_shape, y_shape", [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((), (2, 3))])
def test_multiply_double_grad_matches_finite_differences_of_multiply_grad(dtype, x_shape, y_shape):
    x, y, grad_out = binary_inputs("multiply_grad", x_shape, y_shape, dtype)
    grad_x_grad = sample(x_shape, dtype, seed=4)
    grad_y_grad = sample(y_shape, dtype, seed=5)
    outputs = grad_kernel("multiply_double_grad", dtype)(
        x, y, grad_out, grad_x_grad, grad_y_grad, -1
    )
    inputs, weights = [x, y, grad_out], (grad_x_grad, grad_y_grad)
    for index, actual in enumerate(outputs):
        expected = numeric_grad(multiply_grad_fn(dtype), inputs, index, weights)
        assert np.asarray(actual).shape == inputs[index].shape
        np.testing.assert_allclose(actual, expected, **FD_TOLERANCE)


def test_multiply_double_grad_treats_missing_grads_as_zeros():
    x, y, grad_out = binary_inputs("multiply_grad", (3, 1), (1, 4), D.FLOAT64)
    grad_x_grad = sample((3, 1), D.FLOAT64, seed=4)
    kernel = grad_kernel("multiply_double_grad", D.FLOAT64)
    x_grad, y_grad, grad_out_grad = kernel(x, y, grad_out, grad_x_grad, None, -1)
    assert_grad_close(x_grad, np.zeros((3, 1)), D.FLOAT64, (3, 1))
    assert_grad_close(
        y_grad, (grad_out * grad_x_grad).sum(axis=0, keepdims=True), D.FLOAT64, (1, 4)
    )
    assert_grad_close(grad_out_grad, grad_x_grad * y, D.FLOAT64, (3, 4))
    x_grad, y_grad, grad_out_grad = kernel(x, y, grad_out, None, None, -1)
    assert not (x_grad.any() or y_grad.any() or grad_out_grad.any())
    assert grad_out_grad.shape == (3, 4)


# -- through the generated backward API ---------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BINARY_GRADS))
def test_binary_grad_through_the_backward_api_matches_the_kernel(name):
    x, y, out_grad = binary_inputs(name, (3, 1), (1, 4), D.FLOAT32)
    api = backward_api(name)
    tensors = [phi.to_tensor(a) for a in (x, y, out_grad)]
    if name == "divide_grad":
        tensors.insert(2, phi.to_tensor(x / y))
    x_grad, y_grad = api(*tensors)
    expected_x, expected_y = call_binary_grad(name, D.FLOAT32, x, y, out_grad)
    assert x_grad.dtype == D.FLOAT32 and x_grad.shape == [3, 1] and y_grad.shape == [1, 4]
    np.testing.assert_array_equal(x_grad.numpy(), expected_x)
    np.testing.assert_array_equal(y_grad.numpy(), expected_y)


# -- registrations ---------------------------------------------------------------------------------


# PaddlePaddle registers fmax_grad and fmin_grad for int32 and int64 too
# (tests/ops/test_paddle_dtypes.py checks they match).
@pytest.mark.parametrize(
    "name",
    sorted(set(BINARY_GRADS) - {"fmax_grad", "fmin_grad"}) + ["multiply_double_grad"],
)
def test_binary_grads_have_integer_kernels_only_where_paddle_does(name):
    dtypes = {key.dtype for key in KERNEL_FACTORY.kernels_of(name) if key.backend is Backend.CPU}
    assert dtypes and not non_floating_dtypes_beyond_paddles(name)
