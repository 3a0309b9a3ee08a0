"""Bad arguments, sizes, places, NaN and error text .

Expected NaN results were read from PaddlePaddle 3.3.1 (CPU) by hand; they are not produced by
the code under test."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.device import gpu_count
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, ResourceExhaustedError
from phiops.runtime.flags import flags_guard

NAN = float("nan")
INF = float("inf")


def x32() -> phi.Tensor:
    return phi.to_tensor(np.ones((2, 3), "float32"))


# -- item 9: attributes checked when normalised --------------------------------------------------
@pytest.mark.parametrize(
    "call, op, arg",
    [
        (lambda: phi.scale(x32(), 10**400), "scale", "scale"),
        (lambda: phi.scale(x32(), 1.0, -(10**400)), "scale", "bias"),
        (lambda: phi.pow(x32(), 10**400), "pow", "y"),
        (lambda: phi.clip(x32(), 10**400, 10**401), "clip", "min"),
        (lambda: phi.full([2], 10**400), "full", "value"),
        (lambda: phi.full([2], 2**70, "int64"), "full", "value"),
        (lambda: phi.leaky_relu(x32(), 10**400), "leaky_relu", "negative_slope"),
        (lambda: phi.full([2**70], 1.0), "full", r"shape\[0\]"),
        (
            lambda: phi.cross_entropy_with_softmax(
                phi.ones([2, 3]), phi.zeros([2, 1], "int64"), ignore_index=2**70
            ),
            "cross_entropy_with_softmax",
            "ignore_index",
        ),
        (
            lambda: phi.cross_entropy_with_softmax(
                phi.ones([2, 3]), phi.zeros([2, 1], "int64"), ignore_index=2**31
            ),
            "cross_entropy_with_softmax",
            "ignore_index",
        ),
    ],
)
def test_out_of_range_attributes_are_named_errors(call: object, op: str, arg: str) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"^{op}\(\): argument '{arg}'"):
        call()  # type: ignore[operator]


def test_an_int_attribute_at_the_int32_bounds_is_accepted() -> None:
    logits, label = phi.ones([2, 3]), phi.zeros([2, 1], "int64")
    phi.cross_entropy_with_softmax(logits, label, ignore_index=2**31 - 1)
    phi.cross_entropy_with_softmax(logits, label, ignore_index=-(2**31))


@pytest.mark.parametrize(
    "value, dtype", [(NAN, "int32"), (INF, "int64"), (300, "int8"), (-1, "uint8")]
)
def test_full_rejects_a_value_an_integer_dtype_cannot_hold(value: float, dtype: str) -> None:
    with pytest.raises(InvalidArgumentError, match=r"^full\(\): argument 'value'"):
        phi.full([2], value, dtype)


def test_full_truncates_a_fraction_toward_zero_as_a_cpp_cast() -> None:
    assert phi.full([2], -2.7, "int32").numpy().tolist() == [-2, -2]


def test_adam_rejects_complex_betas() -> None:
    p = phi.to_tensor(np.ones(2, "float32"))
    z = phi.zeros([2])
    with pytest.raises(
        InvalidArgumentError, match=r"^adam_\(\): argument 'beta1' is the complex number 1j"
    ):
        phi.adam_(
            p, p, phi.to_tensor(0.1), z, z, None, phi.ones([1]), phi.ones([1]), None, None, 1j
        )


FLT_MAX = float(np.finfo(np.float32).max)


@pytest.mark.parametrize(
    "call, op, arg",
    [
        (lambda v: phi.leaky_relu(x32(), v), "leaky_relu", "negative_slope"),
        (lambda v: phi.elu(x32(), v), "elu", "alpha"),
        (lambda v: phi.hardtanh(x32(), -1.0, v), "hardtanh", "t_max"),
        (lambda v: phi.clip(x32(), v, INF), "clip", "min"),
        (
            lambda v: phi.bilinear_interp(
                phi.ones([1, 1, 2, 2]), None, [], None, "NCHW", 0, 0, 0, [2.0, v]
            ),
            "bilinear_interp",
            r"scale\[1\]",
        ),
    ],
)
@pytest.mark.parametrize("value", [1e39, -1e39, 10**39, 3.4028235677973366e38])
def test_a_float_attribute_beyond_float32_is_a_named_error(
    call: object, op: str, arg: str, value: float
) -> None:
    """PHI stores a ``float`` attribute (and a ``Scalar(float)``) as float32; PaddlePaddle 3.3.1
    silently makes 1e39 inf
    (``leaky_relu(x, 1e39)`` gives -inf for -2), phiops says so instead."""
    with pytest.raises(
        InvalidArgumentError, match=rf"^{op}\(\): argument '{arg}' is .*out of range for float32"
    ):
        call(value)  # type: ignore[operator]


@pytest.mark.parametrize(
    "slope, expected",
    [
        (FLT_MAX, [1.0, -INF]),
        (3.4028235e38, [1.0, -INF]),  # above FLT_MAX as a double, FLT_MAX as a float32
        (-FLT_MAX, [1.0, INF]),
        (1e38, [1.0, -2e38]),
        (INF, [1.0, -INF]),
    ],
)
def test_a_float_attribute_float32_holds_is_accepted(slope: float, expected: list) -> None:
    x = phi.to_tensor(np.array([1.0, -2.0], "float32"))
    with np.errstate(over="ignore"):
        assert phi.leaky_relu(x, slope).numpy().tolist() == pytest.approx(expected)


@pytest.mark.parametrize("value", [1e39, 10**39])
def test_a_double_attribute_is_not_limited_to_float32_or_int64(value: float) -> None:
    assert phi.full([1], value, "float64").numpy().tolist() == [1e39]


@pytest.mark.parametrize(
    "call, op, arg",
    [
        (lambda: phi.scale(x32(), 1 + 2j), "scale", "scale"),
        (lambda: phi.scale(x32(), 1.0, 1 + 2j), "scale", "bias"),
        (lambda: phi.pow(x32(), 1 + 1j), "pow", "y"),
        (lambda: phi.pad(x32(), [1, 1, 1, 1], 1j), "pad", "pad_value"),
        (lambda: phi.concat([x32(), x32()], 1j), "concat", "axis"),
        (lambda: phi.gather(x32(), phi.zeros([1], "int64"), 1j), "gather", "axis"),
        (lambda: phi.uniform([2], "float32", 1j, 2.0, 0), "uniform", "min"),
        (lambda: phi.eye(1j, 2), "eye", "num_rows"),
        (lambda: phi.arange(0, 1j, 1, "float32"), "arange", "end"),
        (lambda: phi.full_like(x32(), 1 + 1j), "full_like", "value"),
        (lambda: phi.scale(phi.to_tensor(np.ones(2, "int64")), 1j), "scale", "scale"),
        (
            lambda: phi.set_value(x32(), [0], [1], [1], [0], [], [], [1], [1j]),
            "set_value",
            r"values\[0\]",
        ),
    ],
)
def test_a_complex_scalar_for_a_real_computation_is_a_named_error(
    call: object, op: str, arg: str
) -> None:
    """PaddlePaddle 3.3.1 rejects these in its Python API (``paddle.pow(x, 1+1j)``,
    ``paddle.scale(x, bias=1+2j)``, ``paddle.uniform(min=1j)``: TypeError) or silently drops the
    imaginary part (``paddle._C_ops.scale(x, 1+2j, ...)`` is ``x``); phiops never drops it."""
    with pytest.raises(
        InvalidArgumentError, match=rf"^{op}\(\): argument '{arg}' is the complex number"
    ):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    "call, op, arg, expected",
    [
        (lambda: phi.clip(x32(), 1j, 2.0), "clip", "min", "a real Scalar"),
        (lambda: phi.full([2], 1 + 1j), "full", "value", "a real Scalar"),
        (lambda: phi.leaky_relu(x32(), 1j), "leaky_relu", "negative_slope", "a float"),
    ],
)
def test_a_complex_value_for_a_real_typed_attribute_is_a_named_error(
    call: object, op: str, arg: str, expected: str
) -> None:
    """``Scalar(float)``, ``Scalar(double)`` and ``float`` never hold a complex number."""
    with pytest.raises(
        InvalidArgumentError, match=rf"^{op}\(\): argument '{arg}' expects {expected}"
    ):
        call()  # type: ignore[operator]


def test_a_complex_scalar_for_a_complex_computation_is_used() -> None:
    """Values as PaddlePaddle 3.3.1 gives them (``_C_ops.scale``, ``pad``, ``full_like``)."""
    xc = phi.to_tensor(np.array([1 + 1j], "complex64"))
    assert phi.scale(xc, 1 + 2j).numpy().tolist() == [-1 + 3j]
    assert phi.pad(xc, [1, 1], 1j).numpy().tolist() == [1j, 1 + 1j, 1j]
    assert phi.full_like(x32(), 1 + 1j, "complex64").numpy().tolist() == [[1 + 1j] * 3] * 2


def test_sgd_with_master_param_but_without_multi_precision_updates_param() -> None:
    p = phi.to_tensor(np.ones(2, "float32"))
    master = phi.to_tensor(np.ones(2, "float32"))
    out, master_out = phi.sgd_(p, phi.to_tensor(np.float32(0.5)), p, master)
    assert out is p and master_out is None
    assert p.numpy().tolist() == [0.5, 0.5] and master.numpy().tolist() == [1.0, 1.0]


def _adam_step(master: phi.Tensor | None, multi_precision: bool) -> tuple[list, object]:
    param = phi.to_tensor(np.array([1.0, 2.0], "float32"))
    grad = phi.to_tensor(np.array([0.5, -0.5], "float32"))
    moment = phi.zeros([2])
    outs = phi.adam_(
        param, grad, phi.to_tensor(np.array([0.1], "float32")), moment, phi.zeros([2]), None,
        phi.to_tensor(np.array([0.9], "float32")), phi.to_tensor(np.array([0.999], "float32")),
        master, None, multi_precision=multi_precision,
    )  # fmt: skip
    return param.numpy().tolist(), outs[-1]


@pytest.mark.parametrize("multi_precision", [False, True])
def test_adam_with_master_param_updates_param_as_without_it(multi_precision: bool) -> None:
    """Item 9: ``adam_`` with ``master_param`` raised AttributeError; each step moves each
    element by the learning rate (the first Adam step is lr * sign(grad))."""
    expected, _ = _adam_step(None, False)
    assert expected == pytest.approx([0.9, 2.1])
    master = phi.to_tensor(np.array([1.0, 2.0], "float32"))
    updated, master_out = _adam_step(master, multi_precision)
    assert updated == pytest.approx(expected)
    if multi_precision:
        assert master_out.numpy().tolist() == pytest.approx(expected)
    else:
        assert master_out is None and master.numpy().tolist() == [1.0, 2.0]


# -- item 10: sizes -------------------------------------------------------------------------------
def test_more_dims_than_numpy_holds_is_an_error_naming_the_called_op() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^zeros\(\): output 'out' would have 1000 dim"):
        phi.zeros([1] * 1000)


def test_a_shape_no_array_can_index_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^full\(\): output 'out' of shape"):
        phi.full([2**40, 2**40], 1.0)


def test_max_alloc_bytes_rejects_a_large_output_before_allocating_it() -> None:
    with flags_guard({"max_alloc_bytes": 1000}):
        with pytest.raises(
            ResourceExhaustedError,
            match=r"^zeros\(\): .*\[50000, 50000\].*"
            r"10000000000 bytes.*FLAGS_max_alloc_bytes=1000",
        ):
            phi.zeros([50000, 50000])
        with pytest.raises(ResourceExhaustedError, match=r"^expand\(\)"):
            phi.expand(x32(), [10**6, 2, 3])
        assert phi.zeros([10, 10]).shape == [10, 10]
    assert phi.zeros([1000]).shape == [1000]  # the limit is gone with the guard


def test_an_allocation_numpy_cannot_make_is_a_resource_exhausted_error() -> None:
    with pytest.raises(ResourceExhaustedError, match=r"^full\(\)"):
        phi.full([10**12], 1.0)
    with pytest.raises(MemoryError):  # still a MemoryError for callers that catch that
        phi.expand(x32(), [10**12, 2, 3])


# -- item 11: places ------------------------------------------------------------------------------
@pytest.mark.skipif(gpu_count() > 99, reason="this machine has a gpu:99")
def test_a_gpu_place_the_machine_lacks_is_an_error_naming_it() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"^full\(\): place gpu:99 is not available.*cpu"
    ):
        phi.full([2], 1.0, place="gpu:99")
    with pytest.raises(InvalidArgumentError, match=r"^ones\(\): place gpu:99"):
        phi.ones([2], place="gpu:99")


# -- item 13: NaN as PaddlePaddle 3.3.1 -------------------------------------------------------------
@pytest.mark.parametrize(
    "values, argmax, argmin",
    [
        ([1.0, NAN, 3.0], 2, 0),
        ([NAN, NAN], 0, 0),
        ([3.0, NAN, 1.0], 0, 2),
        ([-INF, NAN], 0, 0),
        ([NAN, -INF], 0, 1),
        ([NAN, 5.0, NAN, 5.0], 1, 1),
        ([NAN, INF], 1, 0),
    ],
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_argmax_argmin_with_nan_as_paddle(
    values: list, argmax: int, argmin: int, dtype: str
) -> None:
    t = phi.to_tensor(np.array(values, dtype))
    assert int(phi.argmax(t, 0)) == argmax
    assert int(phi.argmin(t, 0)) == argmin


def test_argmax_with_nan_along_an_axis_as_paddle() -> None:
    t = phi.to_tensor([[NAN, 1.0], [2.0, NAN]])
    assert phi.argmax(t, 0, keepdims=True).numpy().tolist() == [[1, 0]]


@pytest.mark.parametrize(
    "slope, expected",
    [
        (NAN, [-INF, INF, -1.0, NAN, 0.0, 2.0]),
        (0.0, [-INF, INF, -0.0, NAN, 0.0, 2.0]),
        (INF, [-INF, INF, -INF, NAN, 0.0, 2.0]),
        (2.0, [-INF, INF, -2.0, NAN, 0.0, 2.0]),
    ],
)
def test_leaky_relu_with_nan_and_inf_as_paddle(slope: float, expected: list) -> None:
    x = phi.to_tensor([-INF, INF, -1.0, NAN, 0.0, 2.0])
    np.testing.assert_array_equal(phi.leaky_relu(x, slope).numpy(), expected)


# -- item 14: error text ----------------------------------------------------------------------------
def test_errors_of_an_invoked_op_name_the_op_the_user_called() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^ones\(\): argument 'shape'"):
        phi.ones("abc")
    with pytest.raises(InvalidArgumentError, match=r"^zeros\(\): argument 'shape' must hold sizes"):
        phi.zeros([-2])


def test_a_missing_kernel_names_the_op_first() -> None:
    x = phi.ones([2], "int32")
    with pytest.raises(NotFoundError, match=r"^sgd_\(\): kernel 'sgd' has no registration"):
        phi.sgd_(x, phi.ones([1]), x)


def test_user_facing_errors_carry_no_chained_context() -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        phi.sum(phi.ones([2]), axis=5)
    assert caught.value.__suppress_context__ or caught.value.__context__ is None
    with pytest.raises(InvalidArgumentError) as caught:
        phi.ones("abc")
    assert caught.value.__suppress_context__ or caught.value.__context__ is None


@pytest.mark.parametrize("axis", [0, -1, [0], []])
def test_sum_of_a_0d_tensor_over_axis_0_as_paddle(axis: object) -> None:
    t = phi.to_tensor(3.0)
    out = phi.sum(t, axis)
    assert out.shape == [] and float(out) == 3.0


def test_a_kernel_error_on_the_cached_path_names_the_op() -> None:
    """The second call with the same metas runs the kernel directly (no dispatcher): its error
    still names the op."""
    x = x32()
    for _ in range(2):
        with pytest.raises(InvalidArgumentError, match=r"^clip\(\): max should be greater"):
            phi.clip(x, 2.0, 1.0)


@pytest.mark.parametrize("start, end, step, arg", [(NAN, 1, 1, "start"), (0, INF, 1, "end"),
                                                   (0, 1, NAN, "step")])  # fmt: skip
def test_arange_bounds_must_be_finite_as_paddle(start, end, step, arg: str) -> None:
    """PaddlePaddle 3.3.1: ``paddle.arange(nan, 1, 1)``: "The value of start must be finite"."""
    with pytest.raises(
        InvalidArgumentError, match=rf"^arange\(\): argument '{arg}' must be a finite real number"
    ):
        phi.arange(start, end, step, "float32")


@pytest.mark.parametrize("starts, ends, steps", [([0], [-5], [1]), ([0], [1], [-5])])
def test_set_value_on_an_empty_slice_changes_nothing_as_paddle(starts, ends, steps) -> None:
    """PaddlePaddle 3.3.1: ``_C_ops.set_value(ones([2, 3]), [0], [-5], [1], [0], ...)`` is a
    no-op (it was numpy's reshape ValueError)."""
    out = phi.set_value(x32(), starts, ends, steps, [0], [], [], [1], [5.0])
    assert out.numpy().tolist() == [[1.0] * 3] * 2


def test_a_negative_seed_is_accepted_as_paddle() -> None:
    """PaddlePaddle 3.3.1 draws with ``_C_ops.uniform(..., seed=-5)``; it was numpy's ValueError.
    The same seed gives the same numbers."""
    first = phi.uniform([3], "float32", 0.0, 1.0, -5).numpy().tolist()
    assert first == phi.uniform([3], "float32", 0.0, 1.0, -5).numpy().tolist()
    assert phi.gaussian([3], 0.0, 1.0, -5, "float32").shape == [3]


def test_put_along_axis_with_an_axis_out_of_range_is_a_named_error() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"^put_along_axis\(\): argument 'axis' must be in \[-2, 2\)"
    ):
        phi.put_along_axis(x32(), phi.zeros([2, 3], "int64"), phi.ones([1]), -5)


def test_sum_of_a_0d_tensor_over_axis_1_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^sum\(\): argument 'axis'"):
        phi.sum(phi.to_tensor(3.0), 1)


@pytest.mark.parametrize("module", ["phiops.runtime.kernels", "phiops.runtime.flags"])
def test_cli_output_into_a_closed_pipe_ends_without_a_traceback(module: str) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", module], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.close()  # type: ignore[union-attr]
    stderr = process.stderr.read().decode()  # type: ignore[union-attr]
    process.wait()
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert process.returncode == 141
