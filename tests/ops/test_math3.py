"""The math3 binary ops (atan2, copysign, nextafter, heaviside, lerp): every registered dtype
against numpy, the registrations against PaddlePaddle 3.3.1's, 0-D, empty, broadcast and
non-contiguous inputs, IEEE edges and bad input. The edge values written here are PaddlePaddle
3.3.1's (tests/ops/test_math3_paddle.py compares many more)."""

from __future__ import annotations

import warnings

import ml_dtypes
import numpy as np
import pytest

import phiops
import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.coverage import paddle_data
from tests.ops.op_testing import cpu_dtypes, op_test, sample, tolerance

D = DataType
NAN, INF = np.nan, np.inf

KERNEL_DTYPES = paddle_data()["kernels"]


def wide(x: np.ndarray) -> np.ndarray:
    if x.dtype == ml_dtypes.bfloat16:
        return x.astype(np.float64)
    return x.astype(np.float64) if x.dtype.kind in "fiub" else x


def heaviside_reference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.where(x == 0, y, (x > 0).astype(np.float64))


def copysign_reference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.copysign(np.abs(x), y)


# op -> (numpy reference in float64, sample range of x, of y)
BINARY = {
    "atan2": (np.arctan2, (-3, 3), (-3, 3)),
    "copysign": (copysign_reference, (-5, 5), (-5, 5)),
    "nextafter": (np.nextafter, (-3, 3), (-3, 3)),
    "heaviside": (heaviside_reference, (-2, 2), (-3, 3)),
}


def t(values, dtype=None) -> phiops.Tensor:
    return phi.to_tensor(np.asarray(values, dtype))


# -- forward, every registered dtype ----------------------------------------------------------


@op_test(*BINARY, kind="dtypes")
@pytest.mark.parametrize(
    "op, dtype", [(op, dtype) for op in BINARY for dtype in cpu_dtypes(op)], ids=str
)
def test_binary_op_matches_numpy_for_each_dtype(op: str, dtype: DataType) -> None:
    reference, x_range, y_range = BINARY[op]
    low = 0 if dtype in (D.UINT8, D.BOOL) else x_range[0]
    x = sample((3, 4), dtype, seed=11, low=low, high=x_range[1])
    y = sample(
        (3, 4), dtype, seed=12, low=0 if dtype in (D.UINT8, D.BOOL) else y_range[0], high=y_range[1]
    )
    if op == "heaviside":
        x[0, :2] = 0  # where y shows through
    out = getattr(phi, op)(phi.to_tensor(x), phi.to_tensor(y))
    if op == "nextafter":
        np.testing.assert_array_equal(out.numpy(), np.nextafter(x, y))
        return
    if op == "atan2" and dtype.is_integer:
        assert out.dtype == D.FLOAT64
        # PaddlePaddle's float32 atan2f, correctly rounded: float64 atan2 of the float32
        # inputs rounded to float32 (numpy's float32 loop is machine-dependent)
        pair = (x.astype(np.float32).astype(np.float64), y.astype(np.float32).astype(np.float64))
        expected = np.arctan2(*pair).astype(np.float32).astype(np.float64)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-15)
        return
    assert out.dtype == dtype and out.shape == [3, 4]
    expected = reference(wide(x), wide(y))
    if dtype is D.BOOL or dtype.is_integer:
        np.testing.assert_array_equal(out.numpy(), expected.astype(dtype.numpy_dtype))
    else:
        np.testing.assert_allclose(wide(out.numpy()), expected, **tolerance(dtype))


@op_test("lerp", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("lerp"), ids=lambda d: d.name.lower())
def test_lerp_matches_numpy_for_each_dtype(dtype: DataType) -> None:
    x, y, w = (sample((3, 4), dtype, seed=s) for s in (13, 14, 15))
    out = phi.lerp(phi.to_tensor(x), phi.to_tensor(y), phi.to_tensor(w))
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), x + w * (y - x), **tolerance(dtype))


@pytest.mark.parametrize("op", [*BINARY, "lerp"])
def test_registered_dtypes_are_paddles(op: str) -> None:
    for name in (op, f"{op}_grad"):
        if name in KERNEL_DTYPES:
            assert {d.name.lower() for d in cpu_dtypes(name)} == set(KERNEL_DTYPES[name]), name
    assert "nextafter_grad" not in KERNEL_DTYPES


# -- shapes: 0-D, empty, broadcast, non-contiguous --------------------------------------------


@op_test(*BINARY, "lerp", kind="edge")
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_op_of_0d_tensors_is_0d(op: str) -> None:
    out = getattr(phi, op)(t(0.75), t(-1.25))
    assert out.shape == [] and out.dtype == D.FLOAT64
    np.testing.assert_allclose(out.numpy(), BINARY[op][0](np.float64(0.75), np.float64(-1.25)))


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_op_of_empty_tensors_is_empty(op: str) -> None:
    out = getattr(phi, op)(t(np.zeros((2, 0, 3)), "float32"), t(np.zeros((2, 0, 3)), "float32"))
    assert out.shape == [2, 0, 3] and out.dtype == D.FLOAT32


@pytest.mark.parametrize("op", ["copysign", "nextafter", "heaviside"])
def test_binary_op_broadcasts(op: str) -> None:
    x = sample((2, 1, 3), D.FLOAT64, seed=3)
    y = sample((4, 1), D.FLOAT64, seed=4)
    x[0, 0, 0] = 0.0
    out = getattr(phi, op)(phi.to_tensor(x), phi.to_tensor(y))
    assert out.shape == [2, 4, 3]
    np.testing.assert_allclose(out.numpy(), BINARY[op][0](x, y), rtol=1e-15)


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_op_of_non_contiguous_inputs(op: str) -> None:
    x = sample((4, 6), D.FLOAT64, seed=5)
    y = sample((6, 4), D.FLOAT64, seed=6)
    out = getattr(phi, op)(phi.to_tensor(x)[:, ::2], phi.to_tensor(y).transpose([1, 0])[:, ::2])
    np.testing.assert_allclose(out.numpy(), BINARY[op][0](x[:, ::2], y.T[:, ::2]), rtol=1e-15)


def test_lerp_broadcasts_x_y_and_weight() -> None:
    x, y, w = np.array([1.0, -2.0, 0.5]), np.array([[3.0], [2.0]]), np.full((3, 1, 1), 0.25)
    out = phi.lerp(t(x), t(y), t(w))
    assert out.shape == [3, 2, 3]
    np.testing.assert_allclose(out.numpy(), x + w * (y - x), rtol=1e-15)


def test_lerp_of_0d_and_empty_tensors() -> None:
    assert phi.lerp(t(1.0), t(3.0), t(0.25)).numpy() == 1.5
    assert phi.lerp(t(np.zeros((0, 2))), t(np.zeros((0, 2))), t(0.5)).shape == [0, 2]


# -- IEEE edges (PaddlePaddle 3.3.1's values), without warnings ------------------------------


def quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args)


def test_atan2_quadrants_zeros_and_infinities_are_paddles() -> None:
    x = t([0.0, -0.0, 0.0, 1.0, -1.0, INF, -INF, NAN])
    y = t([0.0, 0.0, -0.0, 0.0, -INF, INF, -INF, 1.0])
    expected = [0.0, -0.0, np.pi, np.pi / 2, -np.pi, np.pi / 4, -3 * np.pi / 4, NAN]
    out = quiet(phi.atan2, x, y).numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-15)
    assert list(np.signbit(out[:2])) == [False, True]


def test_atan2_of_integers_is_float64_computed_in_float32_as_paddle() -> None:
    out = phi.atan2(t([1, -2, 0], "int64"), t([2, 3, 0], "int64"))
    assert out.dtype == D.FLOAT64
    np.testing.assert_array_equal(out.numpy(), [0.46364760398864746, -0.588002622127533, 0.0])


def test_copysign_takes_the_sign_bit_of_zeros_and_nans() -> None:
    out = quiet(phi.copysign, t([1.0, 2.0, NAN, INF]), t([-0.0, 0.0, -1.0, -NAN]))
    assert list(np.signbit(out.numpy())) == [True, False, True, True]
    np.testing.assert_array_equal(np.abs(out.numpy()), [1.0, 2.0, NAN, INF])


def test_copysign_of_integers_and_bools() -> None:
    out = phi.copysign(t([1, 2, -3, 0], "int32"), t([-1, 0, 2, -5], "int32"))
    np.testing.assert_array_equal(out.numpy(), np.array([-1, 2, 3, 0], np.int32))
    assert out.dtype == D.INT32
    both = phi.copysign(t([True, False]), t([True, False]))
    np.testing.assert_array_equal(both.numpy(), [True, False])


def test_nextafter_steps_one_ulp_and_stops_at_y() -> None:
    out = quiet(
        phi.nextafter,
        t([1.0, 2.0, 0.0, 3.0, NAN], "float32"),
        t([2.0, 1.0, -1.0, 3.0, 0.0], "float32"),
    )
    expected = np.array([1.00000012, 1.99999988, -1.4e-45, 3.0, NAN], np.float32)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_heaviside_of_nan_is_zero_as_paddle() -> None:
    out = quiet(phi.heaviside, t([NAN, -0.0, 0.0, 2.0, -INF]), t([7.0, 7.0, 8.0, 7.0, 7.0]))
    np.testing.assert_array_equal(out.numpy(), [0.0, 7.0, 8.0, 1.0, 0.0])


def test_heaviside_of_integers() -> None:
    out = phi.heaviside(t([1, 0, -2], "int64"), t([5, 6, 7], "int64"))
    np.testing.assert_array_equal(out.numpy(), [1, 6, 0])
    assert out.dtype == D.INT64


def test_lerp_of_infinities_is_nan_where_paddles_is() -> None:
    out = quiet(phi.lerp, t([INF, 1.0]), t([1.0, INF]), t([0.5, 0.5]))
    np.testing.assert_array_equal(out.numpy(), [NAN, INF])


# -- the paddle.* functions --------------------------------------------------------------------


def test_paddle_atan2_broadcasts_before_the_op() -> None:
    out = phiops.atan2(t([[1.0], [-1.0]]), t([1.0, -1.0, 0.0]))
    assert out.shape == [2, 3]
    np.testing.assert_allclose(out.numpy(), np.arctan2([[1.0], [-1.0]], [1.0, -1.0, 0.0]))


def test_paddle_copysign_takes_a_number() -> None:
    x = t([1.0, -2.0], "float32")
    np.testing.assert_array_equal(phiops.copysign(x, -3).numpy(), [-1.0, -2.0])
    np.testing.assert_array_equal(x.copysign(0.0).numpy(), [1.0, 2.0])


def test_paddle_copysign_warns_when_y_widens_x() -> None:
    with pytest.warns(UserWarning, match="different from the input tensor x"):
        phiops.copysign(t([1.0, 2.0]), t([[1.0], [-1.0]]))


def test_paddle_lerp_takes_a_float_weight_in_xs_dtype() -> None:
    out = phiops.lerp(t([1.0, 2.0], "float32"), t([3.0, 6.0], "float32"), 0.25)
    assert out.dtype == D.FLOAT32
    np.testing.assert_array_equal(out.numpy(), [1.5, 3.0])


# -- bad input ---------------------------------------------------------------------------------


def test_atan2_op_refuses_different_shapes() -> None:
    with pytest.raises(InvalidArgumentError, match="atan2.*'y' must have the rank of argument 'x'"):
        phi.atan2(t([[1.0, 2.0]]), t([1.0, 2.0]))
    with pytest.raises(InvalidArgumentError, match="'y' must have the dims of argument 'x'"):
        phi.atan2(t([[1.0, 2.0]]), t([[1.0], [2.0]]))


@pytest.mark.parametrize("op", ["copysign", "nextafter", "heaviside"])
def test_binary_op_refuses_shapes_that_do_not_broadcast(op: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f"{op}.*cannot be broadcast"):
        getattr(phi, op)(t([1.0, 2.0, 3.0]), t([1.0, 2.0]))


def test_paddle_atan2_refuses_shapes_that_do_not_broadcast() -> None:
    with pytest.raises(InvalidArgumentError, match="atan2.*cannot be broadcast"):
        phiops.atan2(t([1.0, 2.0, 3.0]), t([1.0, 2.0]))


def test_lerp_refuses_a_weight_that_does_not_broadcast() -> None:
    with pytest.raises(InvalidArgumentError, match="lerp.*'weight'.*cannot be broadcast"):
        phi.lerp(t([1.0, 2.0]), t([1.0, 2.0]), t([0.5, 0.5, 0.5]))


def test_lerp_refuses_a_string_weight() -> None:
    with pytest.raises(InvalidArgumentError, match="lerp.*'weight' must be a float or a Tensor"):
        phiops.lerp(t([1.0]), t([2.0]), "half")


def test_mixed_integer_and_float_inputs_are_refused_as_in_paddle() -> None:
    with pytest.raises(InvalidArgumentError, match="atan2.*int64.*float32"):
        phi.atan2(t([1, 2], "int64"), t([1.0, 2.0], "float32"))


def test_heaviside_refuses_mixed_dtypes() -> None:
    with pytest.raises(InvalidArgumentError, match="heaviside.*float32.*int64"):
        phi.heaviside(t([1.0], "float32"), t([1], "int64"))


@pytest.mark.parametrize("op", ["nextafter", "lerp"])
def test_float_only_ops_refuse_integers(op: str) -> None:
    args = [t([1, 2], "int32")] * (3 if op == "lerp" else 2)
    with pytest.raises(NotFoundError, match=f"{op}.*INT32.*registered: .*FLOAT32"):
        getattr(phi, op)(*args)


# -- gradients at the edges (PaddlePaddle 3.3.1's values) -------------------------------------


def test_copysign_gradient_keeps_x_at_zero_and_is_nan_at_infinity() -> None:
    x = phi.to_tensor(np.array([1.0, -2.0, -0.0, INF]), stop_gradient=False)
    y = phi.to_tensor(np.array([-1.0, 3.0, 1.0, -1.0]), stop_gradient=False)
    x_grad, y_grad = phi.grad(phi.copysign(x, y), [x, y], grad_outputs=phi.ones([4], "float64"))
    np.testing.assert_array_equal(x_grad.numpy(), [-1.0, -1.0, -0.0, NAN])
    assert np.signbit(x_grad.numpy()[2])
    np.testing.assert_array_equal(y_grad.numpy(), [0.0, 0.0, 0.0, 0.0])


def test_atan2_gradient_at_the_origin_is_nan() -> None:
    x = phi.to_tensor(np.array([0.0, 1.0]), stop_gradient=False)
    y = phi.to_tensor(np.array([0.0, 2.0]), stop_gradient=False)
    x_grad, y_grad = phi.grad(phi.atan2(x, y), [x, y], grad_outputs=phi.ones([2], "float64"))
    np.testing.assert_allclose(x_grad.numpy(), [NAN, 0.4])
    np.testing.assert_allclose(y_grad.numpy(), [NAN, -0.2])


def test_lerp_gives_weight_no_gradient_as_paddle() -> None:
    x, y, w = (phi.to_tensor(np.array([1.0, 2.0]), stop_gradient=False) for _ in range(3))
    grads = phi.grad(
        phi.lerp(x, y, w), [x, y, w], grad_outputs=phi.ones([2], "float64"), allow_unused=True
    )
    assert grads[2] is None


# == the complex-number ops: angle, real, imag, conj, complex, as_complex, as_real ==============

UNARY_COMPLEX = {
    "angle": lambda x: np.angle(x) if np.iscomplexobj(x) else np.where(x < 0, np.pi, 0.0),
    "real": np.real,
    "imag": np.imag,
    "conj": np.conj,
    "as_real": lambda x: np.stack([x.real, x.imag], axis=-1),
}
REAL_OF = {D.COMPLEX64: D.FLOAT32, D.COMPLEX128: D.FLOAT64}


@op_test(*UNARY_COMPLEX, kind="dtypes")
@pytest.mark.parametrize(
    "op, dtype", [(op, dtype) for op in UNARY_COMPLEX for dtype in cpu_dtypes(op)], ids=str
)
def test_complex_unary_op_matches_numpy_for_each_dtype(op: str, dtype: DataType) -> None:
    x = sample((3, 4), dtype, seed=21)
    out = getattr(phi, op)(phi.to_tensor(x))
    expected = UNARY_COMPLEX[op](x.astype(np.complex128) if dtype.is_complex else wide(x))
    if op == "conj" or not dtype.is_complex:
        assert out.dtype == dtype
    else:
        assert out.dtype == REAL_OF[dtype]
    if dtype.is_integer:
        np.testing.assert_array_equal(out.numpy(), expected)
    else:
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@op_test("complex", "as_complex", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("complex"), ids=lambda d: d.name.lower())
def test_complex_and_as_complex_match_numpy_for_each_dtype(dtype: DataType) -> None:
    parts = sample((3, 4, 2), dtype, seed=22)
    expected = parts[..., 0] + 1j * parts[..., 1].astype(np.complex128)
    built = phi.complex(phi.to_tensor(parts[..., 0]), phi.to_tensor(parts[..., 1]))
    read = phi.as_complex(phi.to_tensor(parts))
    for out in (built, read):
        assert out.dtype == {D.FLOAT32: D.COMPLEX64, D.FLOAT64: D.COMPLEX128}[dtype]
        assert out.shape == [3, 4]
        np.testing.assert_allclose(out.numpy(), expected, **tolerance(dtype))


@pytest.mark.parametrize("op", [*UNARY_COMPLEX, "complex", "as_complex"])
def test_complex_registered_dtypes_are_paddles(op: str) -> None:
    for name in (op, f"{op}_grad"):
        if name in KERNEL_DTYPES and cpu_dtypes(name):
            assert {d.name.lower() for d in cpu_dtypes(name)} == set(KERNEL_DTYPES[name]), name
    assert {d.name.lower() for d in cpu_dtypes(op)} == set(KERNEL_DTYPES[op])


@op_test(*UNARY_COMPLEX, "complex", "as_complex", kind="edge")
@pytest.mark.parametrize("op", sorted(UNARY_COMPLEX))
def test_complex_unary_op_of_0d_and_empty_tensors(op: str) -> None:
    zero_d = getattr(phi, op)(t(np.complex128(1 - 2j)))
    assert zero_d.shape == ([2] if op == "as_real" else [])
    np.testing.assert_allclose(zero_d.numpy(), UNARY_COMPLEX[op](np.complex128(1 - 2j)))
    empty = getattr(phi, op)(t(np.zeros((2, 0), np.complex64)))
    assert empty.shape == ([2, 0, 2] if op == "as_real" else [2, 0])


@pytest.mark.parametrize("op", sorted(UNARY_COMPLEX))
def test_complex_unary_op_of_a_non_contiguous_input(op: str) -> None:
    x = sample((4, 6), D.COMPLEX128, seed=23)
    out = getattr(phi, op)(phi.to_tensor(x).transpose([1, 0])[::2])
    np.testing.assert_allclose(out.numpy(), UNARY_COMPLEX[op](x.T[::2]), rtol=1e-15)


def test_angle_of_real_numbers_is_paddles() -> None:
    out = quiet(phi.angle, t([1.0, -2.0, 0.0, -0.0, NAN, INF, -INF], "float32"))
    np.testing.assert_array_equal(out.numpy(), np.float32([0, np.pi, 0, 0, NAN, 0, np.pi]))


def test_angle_of_complex_zeros_follows_atan2() -> None:
    out = phi.angle(t(np.array([0j, complex(-0.0, -1.0), complex(-3.0, -0.0)])))
    np.testing.assert_allclose(out.numpy(), [0.0, -np.pi / 2, -np.pi], rtol=1e-15)


def test_conj_of_integers_is_a_copy() -> None:
    x = t([1, -2, 7], "int32")
    out = phi.conj(x)
    assert out.dtype == D.INT32
    np.testing.assert_array_equal(out.numpy(), [1, -2, 7])


def test_complex_broadcasts_its_parts() -> None:
    out = phi.complex(t([[1.0], [2.0]]), t([3.0, 4.0, 5.0]))
    assert out.shape == [2, 3] and out.dtype == D.COMPLEX128
    np.testing.assert_array_equal(
        out.numpy(), np.array([[1.0], [2.0]]) + 1j * np.array([3.0, 4.0, 5.0])
    )


def test_complex_keeps_nan_and_inf_parts_apart() -> None:
    out = phi.complex(t([NAN, 1.0]), t([1.0, INF])).numpy()
    np.testing.assert_array_equal(out.real, [NAN, 1.0])
    np.testing.assert_array_equal(out.imag, [1.0, INF])


def test_as_complex_of_a_pair_is_0d_and_as_real_inverts_it() -> None:
    pair = phi.as_complex(t([1.5, -2.0]))
    assert pair.shape == [] and pair.numpy() == 1.5 - 2j
    x = sample((2, 3), D.COMPLEX64, seed=24)
    np.testing.assert_array_equal(phi.as_complex(phi.as_real(t(x))).numpy(), x)


def test_paddle_complex_writes_out() -> None:
    out = phiops.zeros([2], "complex64")
    result = phiops.complex(t([1.0, 2.0], "float32"), t([3.0, 4.0], "float32"), out=out)
    assert result is out
    np.testing.assert_array_equal(out.numpy(), [1 + 3j, 2 + 4j])


def test_tensor_methods_of_the_complex_ops() -> None:
    x = t(np.array([1 + 2j, -3 - 1j]))
    np.testing.assert_array_equal(x.real().numpy(), [1.0, -3.0])
    np.testing.assert_array_equal(x.imag().numpy(), [2.0, -1.0])
    np.testing.assert_array_equal(x.conj().numpy(), [1 - 2j, -3 + 1j])
    np.testing.assert_allclose(x.angle().numpy(), np.angle([1 + 2j, -3 - 1j]))
    assert x.as_real().shape == [2, 2]


def test_real_and_imag_refuse_real_tensors_as_paddle() -> None:
    with pytest.raises(NotFoundError, match="real.*FLOAT32.*registered: .*COMPLEX"):
        phi.real(t([1.0, 2.0], "float32"))


def test_as_complex_refuses_a_last_axis_other_than_2() -> None:
    with pytest.raises(
        InvalidArgumentError, match="as_complex.*last dimension of size 2.*\\[2, 3\\]"
    ):
        phi.as_complex(t(np.zeros((2, 3))))
    with pytest.raises(InvalidArgumentError, match="as_complex.*0-D"):
        phi.as_complex(t(1.0))


def test_as_real_refuses_real_tensors() -> None:
    with pytest.raises(NotFoundError, match="as_real.*FLOAT32.*registered: .*COMPLEX"):
        phi.as_real(t([1.0], "float32"))


def test_complex_refuses_mixed_and_integer_parts() -> None:
    with pytest.raises(InvalidArgumentError, match="complex.*float32.*float64"):
        phi.complex(t([1.0], "float32"), t([1.0], "float64"))
    with pytest.raises(NotFoundError, match="complex.*INT32.*registered: .*FLOAT32"):
        phi.complex(t([1], "int32"), t([1], "int32"))
    with pytest.raises(InvalidArgumentError, match="complex.*cannot be broadcast"):
        phi.complex(t([1.0, 2.0]), t([1.0, 2.0, 3.0]))


# -- gradients (PaddlePaddle 3.3.1's values) ---------------------------------------------------


def test_angle_gradient_is_zero_at_the_origin_and_for_real_inputs() -> None:
    x = phi.to_tensor(np.array([1 + 2j, 0j, -3 + 1j]), stop_gradient=False)
    (grad,) = phi.grad(phi.angle(x), [x], grad_outputs=t([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(grad.numpy(), [-0.4 + 0.2j, 0j, -0.3 - 0.9j], rtol=1e-15)
    r = phi.to_tensor(np.array([1.0, -2.0, 0.0]), stop_gradient=False)
    (real_grad,) = phi.grad(phi.angle(r), [r], grad_outputs=t([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(real_grad.numpy(), [0.0, 0.0, 0.0])


def test_real_imag_and_complex_gradients_move_parts_between_dtypes() -> None:
    x = phi.to_tensor(np.array([1 + 2j, -3j]), stop_gradient=False)
    (real_grad,) = phi.grad(phi.real(x), [x], grad_outputs=t([1.0, 2.0]))
    (imag_grad,) = phi.grad(phi.imag(x), [x], grad_outputs=t([1.0, 2.0]))
    assert real_grad.dtype == imag_grad.dtype == D.COMPLEX128
    np.testing.assert_array_equal(real_grad.numpy(), [1 + 0j, 2 + 0j])
    np.testing.assert_array_equal(imag_grad.numpy(), [1j, 2j])
    re = phi.to_tensor(np.array([[1.0], [2.0]]), stop_gradient=False)
    im = phi.to_tensor(np.array([3.0, 4.0, 5.0]), stop_gradient=False)
    out_grad = t(np.arange(6).reshape(2, 3) * (1 + 2j))
    re_grad, im_grad = phi.grad(phi.complex(re, im), [re, im], grad_outputs=out_grad)
    np.testing.assert_array_equal(re_grad.numpy(), [[3.0], [12.0]])
    np.testing.assert_array_equal(im_grad.numpy(), [6.0, 10.0, 14.0])


def test_conj_as_complex_and_as_real_gradients_invoke_the_forward_ops() -> None:
    x = phi.to_tensor(np.array([1 + 2j, -3j]), stop_gradient=False)
    (conj_grad,) = phi.grad(phi.conj(x), [x], grad_outputs=t(np.array([1 + 1j, 2 + 0j])))
    np.testing.assert_array_equal(conj_grad.numpy(), [1 - 1j, 2 - 0j])
    (real_grad,) = phi.grad(phi.as_real(x), [x], grad_outputs=t(np.array([[1.0, 2.0], [3.0, 4.0]])))
    np.testing.assert_array_equal(real_grad.numpy(), [1 + 2j, 3 + 4j])
    pairs = phi.to_tensor(np.ones((2, 2)), stop_gradient=False)
    (pair_grad,) = phi.grad(phi.as_complex(pairs), [pairs], grad_outputs=t(np.array([1 + 5j, 2j])))
    np.testing.assert_array_equal(pair_grad.numpy(), [[1.0, 5.0], [0.0, 2.0]])
